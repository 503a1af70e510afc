// Fuzz target: topology specs ("bcube:n=3,k=1", ...) through MakeTopology, the path every
// --topology takes. A bad spec must throw std::invalid_argument, nothing else; a good one
// must build its graph (sizes bounded below).
#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
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
    // Bounded sizes: the families accept up to 2^24 servers (bcube:n=6,k=8 is 10 M), which
    // take gigabytes and seconds to build, so legal input would look like an out-of-memory
    // bug. A family-aware estimate of the node count skips the big ones; an unknown family
    // or a malformed number still reaches the parser.
    std::map<std::string, double> v;
    const std::string family = spec.substr(0, spec.find(':'));
    for (size_t i = spec.find(':'); i != std::string::npos && i < spec.size();)
    {
        const size_t eq = spec.find('=', i + 1);
        if (eq == std::string::npos)
        {
            break;
        }
        const std::string key = spec.substr(i + 1, eq - i - 1);
        double value = 1;
        for (size_t j = eq + 1; j < spec.size() && spec[j] != ','; ++j)
        {
            if (spec[j] >= '0' && spec[j] <= '9' && value < 1e12)
            {
                value = value * 10 + (spec[j] - '0'); // an over-estimate is fine here
            }
            else if (spec[j] == 'x')
            {
                value = std::max(value, 1.0) * 1e3; // torus dims AxBxC: each factor counts
            }
        }
        v[key] = value;
        i = spec.find(',', eq);
    }
    auto at = [&](const char* key, double def) { return v.count(key) ? v[key] : def; };
    double nodes = 0;
    // find, not ==: the parser trims the name, so " bcube" or "\tbcube" are bcube too.
    if (family.find("bcube") != std::string::npos)
    {
        nodes = std::pow(at("n", 1e9), at("k", 1e9) + 1);
    }
    else if (family.find("fattree") != std::string::npos)
    {
        nodes = std::pow(at("k", 1e9), 3) * at("oversub", 1);
    }
    else
    {
        for (const auto& [key, value] : v)
        {
            nodes = std::max(nodes, 1.0) * value;
        }
    }
    if (nodes > 1e5)
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
