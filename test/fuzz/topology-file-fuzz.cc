// Fuzz target: topology files, native and HPCC format (FileTopology, the --topology=file:
// path). The input is written to a file and loaded with format auto, native and hpcc: a
// malformed file must throw std::invalid_argument with a message, never crash or hang.
#include "ns3/file-topology.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string path = "/tmp/paramsync-fuzz-topology-" + std::to_string(getpid());
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    for (const char* format : {"auto", "native", "hpcc"})
    {
        try
        {
            ns3::FileTopology topology(path, format);
            topology.Graph().HostCount();
        }
        catch (const std::invalid_argument& e)
        {
            if (std::string(e.what()).empty())
            {
                __builtin_trap(); // every refusal must say why
            }
        }
    }
    return 0;
}
