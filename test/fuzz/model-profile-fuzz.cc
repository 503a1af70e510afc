// Fuzz target: model profiles (CSV tensor,params,bytes; the --model=PATH.csv path). A
// malformed profile must throw std::invalid_argument; an accepted one must have tensors
// whose bytes add up to its total.
#include "ns3/model-profile.h"

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
        const ns3::ModelProfile m = ns3::ModelProfile::Parse(text, "fuzz", "fuzz.csv");
        uint64_t sum = 0;
        for (const auto& t : m.Tensors())
        {
            sum += t.bytes;
        }
        if (sum != m.TotalBytes())
        {
            __builtin_trap();
        }
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
