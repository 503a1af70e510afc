#include "lapse-spec.h"

#include "ns3/spec-string.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

LapseSpec
LapseSpec::Parse(const std::string& spec, uint32_t hosts)
{
    SpecString s(spec, "--algorithm");
    if (!IsLapseName(s.Name()))
    {
        throw std::invalid_argument(s.Where() + "not the Lapse system; allowed: lapse");
    }
    LapseSpec r;
    const std::string mode = s.GetChoice("mode", "dynamic", {"dynamic", "classic"});
    r.mf.dynamic = mode == "dynamic";
    r.mf.workersPerNode = static_cast<uint32_t>(s.GetUint("workers", 4, 1, 1024));
    const uint64_t workers = static_cast<uint64_t>(hosts) * r.mf.workersPerNode;
    r.ps.nodes = hosts;
    r.ps.keys = s.GetUint("keys", 100000, 1, 100000000);
    if (r.ps.keys < workers)
    {
        throw std::invalid_argument(
            s.Where() + "keys=" + std::to_string(r.ps.keys) + " cannot give each of the " +
            std::to_string(workers) +
            " workers a column block; allowed: keys >= " + std::to_string(workers));
    }
    r.ps.valueBytes = static_cast<uint32_t>(s.GetUint("value", 100, 1, 1u << 24));
    r.mf.stepsPerBlock = static_cast<uint32_t>(s.GetUint("steps", 1000, 1, 100000000));
    const double step = s.GetTime("step", 1e-6);
    r.mf.stepTime = Seconds(step);
    r.ps.locationCaches = s.GetBool("caches", false);
    const double overhead = s.GetTime("overhead", 0);
    r.ps.hostOverhead = Seconds(overhead);
    const double local = s.GetTime("local", 0);
    r.ps.localAccessTime = Seconds(local);
    r.mf.seed = static_cast<uint32_t>(s.GetUint("seed", 1, 1, 1u << 31));
    s.Finish();
    std::ostringstream c;
    c << "lapse:mode=" << mode << ",workers=" << r.mf.workersPerNode << ",keys=" << r.ps.keys
      << ",value=" << r.ps.valueBytes << ",steps=" << r.mf.stepsPerBlock << ",step=" << step
      << "s,caches=" << (r.ps.locationCaches ? 1 : 0) << ",overhead=" << overhead
      << "s,local=" << local << "s,seed=" << r.mf.seed;
    r.canonical = c.str();
    return r;
}

} // namespace ns3
