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
    r.workload = s.GetChoice("workload", "mf", {"mf", "kge"});
    const std::string mode = s.GetChoice("mode", "dynamic", {"dynamic", "classic"});
    const bool dynamic = mode == "dynamic";
    r.ps.nodes = static_cast<uint32_t>(s.GetUint("nodes", hosts, 1, hosts));
    const uint32_t workersPerNode = static_cast<uint32_t>(s.GetUint("workers", 4, 1, 1024));
    const uint64_t workers = static_cast<uint64_t>(r.ps.nodes) * workersPerNode;
    r.ps.valueBytes = static_cast<uint32_t>(s.GetUint("value", 100, 1, 1u << 24));
    const double step = s.GetTime("step", 1e-6);
    r.ps.locationCaches = s.GetBool("caches", false);
    const double overhead = s.GetTime("overhead", 0);
    r.ps.hostOverhead = Seconds(overhead);
    const double local = s.GetTime("local", 0);
    r.ps.localAccessTime = Seconds(local);
    const bool batch = s.GetBool("batch", false);
    const uint32_t seed = static_cast<uint32_t>(s.GetUint("seed", 1, 1, 1u << 31));
    std::ostringstream c;
    c << "lapse:workload=" << r.workload << ",mode=" << mode << ",nodes=" << r.ps.nodes
      << ",workers=" << workersPerNode << ",value=" << r.ps.valueBytes << ",step=" << step
      << "s,caches=" << (r.ps.locationCaches ? 1 : 0) << ",overhead=" << overhead
      << "s,local=" << local << "s,batch=" << (batch ? 1 : 0) << ",seed=" << seed;
    if (r.workload == "mf")
    {
        r.ps.keys = s.GetUint("keys", 100000, 1, 100000000);
        if (r.ps.keys < workers)
        {
            throw std::invalid_argument(
                s.Where() + "keys=" + std::to_string(r.ps.keys) + " cannot give each of the " +
                std::to_string(workers) +
                " workers a column block; allowed: keys >= " + std::to_string(workers));
        }
        r.mf.workersPerNode = workersPerNode;
        r.mf.dynamic = dynamic;
        r.mf.batchLocalize = batch;
        r.mf.stepsPerBlock = static_cast<uint32_t>(s.GetUint("steps", 1000, 1, 100000000));
        r.mf.stepTime = Seconds(step);
        r.mf.seed = seed;
        c << ",keys=" << r.ps.keys << ",steps=" << r.mf.stepsPerBlock;
    }
    else
    {
        r.kge.workersPerNode = workersPerNode;
        r.kge.dynamic = dynamic;
        r.kge.batchLocalize = batch;
        r.kge.entities = s.GetUint("entities", 100000, 2, 10000000);
        r.kge.relations = s.GetUint("relations", 100, 1, 1000000);
        r.kge.zipf = s.GetDouble("zipf", 1.0, 0, 10);
        r.kge.triplesPerEpoch = static_cast<uint32_t>(s.GetUint("triples", 1000, 1, 100000000));
        r.kge.window = static_cast<uint32_t>(s.GetUint("window", 8, 0, 100000));
        r.kge.clusterRelations = s.GetChoice("relations-at", "home", {"home", "cluster"}) ==
                                 "cluster";
        if (r.kge.clusterRelations && r.kge.relations < r.ps.nodes)
        {
            throw std::invalid_argument(s.Where() +
                                        "relations-at=cluster trains relation r at "
                                        "node r mod nodes; allowed: relations >= nodes (" +
                                        std::to_string(r.ps.nodes) + ")");
        }
        r.kge.stepTime = Seconds(step);
        r.kge.seed = seed;
        r.ps.keys = r.kge.entities + r.kge.relations;
        c << ",entities=" << r.kge.entities << ",relations=" << r.kge.relations
          << ",zipf=" << r.kge.zipf << ",triples=" << r.kge.triplesPerEpoch
          << ",window=" << r.kge.window
          << ",relations-at=" << (r.kge.clusterRelations ? "cluster" : "home");
    }
    s.Finish();
    r.canonical = c.str();
    return r;
}

void
LapseSpec::SetEpochs(uint32_t epochs)
{
    mf.epochs = epochs;
    kge.epochs = epochs;
}

uint32_t
LapseSpec::Workers() const
{
    return ps.nodes * (workload == "mf" ? mf.workersPerNode : kge.workersPerNode);
}

std::unique_ptr<LapseWorkload>
LapseSpec::MakeWorkload(LapsePs& lapsePs) const
{
    if (workload == "mf")
    {
        return std::make_unique<LapseMfWorkload>(lapsePs, ps.nodes, ps.keys, mf);
    }
    return std::make_unique<LapseKgeWorkload>(lapsePs, ps.nodes, ps.keys, kge);
}

} // namespace ns3
