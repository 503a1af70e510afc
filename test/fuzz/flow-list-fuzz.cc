// Fuzz target: HPCC-format flow lists (the --flows path). A malformed list must throw
// std::invalid_argument; an accepted one must hold flows with bytes > 0, distinct ends and
// a start >= 0.
#include "ns3/flow-list.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        for (const auto& f : ns3::FlowList::Parse(text, "fuzz.txt"))
        {
            if (f.bytes == 0 || f.src == f.dst || !(f.startS >= 0))
            {
                __builtin_trap();
            }
        }
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
