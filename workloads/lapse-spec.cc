#include "lapse-spec.h"

#include "lapse-wv-workload.h"

#include "ns3/spec-string.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Bytes of a float, the element of every embedding (RESCAL, word vectors).
constexpr uint32_t FLOAT_BYTES = 4;

/// Defaults of the options a preset sets (explicit options override them).
struct LapseDefaults
{
    uint32_t workers{4};
    uint32_t dim{0}; //!< 0: values of `value` bytes
    double step{1e-6};
    bool clusterRelations{false};
    uint32_t context{2};
    uint32_t negatives{5};
};

/**
 * preset=paper: the settings of Lapse's evaluation (Renz-Wieland et al., VLDB 2020, section
 * 5): 4 worker threads per node, RESCAL with dimension 100 (entity vectors of 100 floats,
 * relation matrices of 100 x 100 floats), data clustered by relation (relations at their
 * node, entities prefetched); word vectors of 100 floats with word2vec's defaults (context
 * 5, 5 negatives: Mikolov et al., NIPS 2013). Compute per step measured with Eigen 3.4 on a
 * 2-core AMD EPYC, g++ -O3 -march=native, thread CPU time, fastest of 20 runs
 * (examples/experiments/lapse-step-cost.cc): RESCAL 4.25-4.33 us per triple, skip-gram
 * with 5 negatives 1.59-1.62 us per pair. The 10 GbE network is the driver's --rate=10Gbps
 * (a network option, not the system's).
 */
LapseDefaults
PresetDefaults(const std::string& preset, const std::string& workload)
{
    LapseDefaults d;
    if (preset != "paper")
    {
        return d;
    }
    d.dim = 100;
    d.clusterRelations = true;
    d.step = workload == "wv" ? 1.6e-6 : 4.3e-6;
    d.context = 5;
    d.negatives = 5;
    return d;
}

void
ParseMf(SpecString& s, LapseSpec& r, const LapseWorkerConfig& workers, std::ostringstream& c)
{
    static_cast<LapseWorkerConfig&>(r.mf) = workers;
    const uint64_t allWorkers = static_cast<uint64_t>(r.ps.nodes) * workers.workersPerNode;
    r.ps.keys = s.GetUint("keys", 100000, 1, 100000000);
    if (r.ps.keys < allWorkers)
    {
        throw std::invalid_argument(
            s.Where() + "keys=" + std::to_string(r.ps.keys) + " cannot give each of the " +
            std::to_string(allWorkers) +
            " workers a column block; allowed: keys >= " + std::to_string(allWorkers));
    }
    r.mf.stepsPerBlock = static_cast<uint32_t>(s.GetUint("steps", 1000, 1, 100000000));
    c << ",keys=" << r.ps.keys << ",steps=" << r.mf.stepsPerBlock;
}

void
ParseKge(SpecString& s,
         LapseSpec& r,
         const LapseDefaults& d,
         const LapseWorkerConfig& workers,
         std::ostringstream& c)
{
    static_cast<LapseWorkerConfig&>(r.kge) = workers;
    r.kge.entities = s.GetUint("entities", 100000, 2, 10000000);
    r.kge.relations = s.GetUint("relations", 100, 1, 1000000);
    r.kge.zipf = s.GetDouble("zipf", 1.0, 0, 10);
    r.kge.triplesPerEpoch = static_cast<uint32_t>(s.GetUint("triples", 1000, 1, 100000000));
    r.kge.window = static_cast<uint32_t>(s.GetUint("window", 8, 0, 100000));
    r.kge.clusterRelations = s.GetChoice("relations-at",
                                         d.clusterRelations ? "cluster" : "home",
                                         {"home", "cluster"}) == "cluster";
    if (r.kge.clusterRelations && r.kge.relations < r.ps.nodes)
    {
        throw std::invalid_argument(s.Where() +
                                    "relations-at=cluster trains relation r at "
                                    "node r mod nodes; allowed: relations >= nodes (" +
                                    std::to_string(r.ps.nodes) + ")");
    }
    r.ps.keys = r.kge.entities + r.kge.relations;
    c << ",entities=" << r.kge.entities << ",relations=" << r.kge.relations
      << ",zipf=" << r.kge.zipf << ",triples=" << r.kge.triplesPerEpoch
      << ",window=" << r.kge.window
      << ",relations-at=" << (r.kge.clusterRelations ? "cluster" : "home");
}

void
ParseWv(SpecString& s,
        LapseSpec& r,
        const LapseDefaults& d,
        const LapseWorkerConfig& workers,
        std::ostringstream& c)
{
    static_cast<LapseWorkerConfig&>(r.wv) = workers;
    r.wv.vocab = s.GetUint("vocab", 100000, 2, 10000000);
    r.wv.zipf = s.GetDouble("zipf", 1.0, 0, 10);
    r.wv.wordsPerEpoch = static_cast<uint32_t>(s.GetUint("words", 1000, 2, 100000000));
    r.wv.context = static_cast<uint32_t>(s.GetUint("context", d.context, 1, 100));
    r.wv.negatives = static_cast<uint32_t>(s.GetUint("negatives", d.negatives, 0, 100));
    r.wv.window = static_cast<uint32_t>(s.GetUint("window", 8, 0, 100000));
    r.ps.keys = 2 * r.wv.vocab;
    c << ",vocab=" << r.wv.vocab << ",zipf=" << r.wv.zipf << ",words=" << r.wv.wordsPerEpoch
      << ",context=" << r.wv.context << ",negatives=" << r.wv.negatives
      << ",window=" << r.wv.window;
}

} // namespace

LapseSpec
LapseSpec::Parse(const std::string& spec, uint32_t hosts)
{
    SpecString s(spec, "--algorithm");
    if (!IsLapseName(s.Name()))
    {
        throw std::invalid_argument(s.Where() + "not the Lapse system; allowed: lapse");
    }
    LapseSpec r;
    r.workload = s.GetChoice("workload", "mf", {"mf", "kge", "wv"});
    const std::string preset = s.GetChoice("preset", "none", {"none", "paper"});
    if (preset == "paper" && r.workload == "mf")
    {
        throw std::invalid_argument(s.Where() +
                                    "preset=paper sets RESCAL's and word vectors' settings; "
                                    "allowed with workload=kge or workload=wv");
    }
    const LapseDefaults d = PresetDefaults(preset, r.workload);
    const std::string mode = s.GetChoice("mode", "dynamic", {"dynamic", "classic", "ssp"});
    if (mode == "ssp" && r.workload == "mf")
    {
        throw std::invalid_argument(s.Where() +
                                    "mode=ssp (bounded staleness) runs the sampled workloads; "
                                    "allowed with workload=kge or workload=wv");
    }
    r.ps.nodes = static_cast<uint32_t>(s.GetUint("nodes", hosts, 1, hosts));
    const uint32_t workersPerNode = static_cast<uint32_t>(s.GetUint("workers", d.workers, 1, 1024));
    const uint32_t dim = static_cast<uint32_t>(s.GetUint("dim", d.dim, 0, 100000));
    r.ps.valueBytes = static_cast<uint32_t>(s.GetUint("value", 100, 1, 1u << 24));
    if (dim > 0)
    {
        // Embeddings of `dim` floats (kge: RESCAL's relations are dim x dim matrices).
        r.ps.valueBytes = dim * FLOAT_BYTES;
        r.kge.relationBytes = dim * dim * FLOAT_BYTES;
    }
    const double step = s.GetTime("step", d.step);
    r.ps.locationCaches = s.GetBool("caches", false);
    const double overhead = s.GetTime("overhead", 0);
    r.ps.hostOverhead = Seconds(overhead);
    const double local = s.GetTime("local", 0);
    r.ps.localAccessTime = Seconds(local);
    const bool batch = s.GetBool("batch", false);
    const uint32_t seed = static_cast<uint32_t>(s.GetUint("seed", 1, 1, 1u << 31));
    uint32_t clockSteps = 0;
    std::ostringstream ssp;
    if (mode == "ssp")
    {
        r.ps.ssp = true;
        r.ps.workersPerNode = workersPerNode;
        r.ps.staleness = static_cast<uint32_t>(s.GetUint("staleness", 1, 0, 1000000));
        r.ps.serverPush = s.GetChoice("sync", "client", {"client", "server"}) == "server";
        clockSteps = static_cast<uint32_t>(s.GetUint("clock", 10, 1, 100000000));
        ssp << ",staleness=" << r.ps.staleness
            << ",sync=" << (r.ps.serverPush ? "server" : "client") << ",clock=" << clockSteps;
    }
    r.kge.clockSteps = clockSteps;
    r.wv.clockSteps = clockSteps;
    std::ostringstream c;
    c << "lapse:workload=" << r.workload << ",preset=" << preset << ",mode=" << mode
      << ",nodes=" << r.ps.nodes << ",workers=" << workersPerNode << ",dim=" << dim
      << ",value=" << r.ps.valueBytes << ",step=" << step
      << "s,caches=" << (r.ps.locationCaches ? 1 : 0) << ",overhead=" << overhead
      << "s,local=" << local << "s,batch=" << (batch ? 1 : 0) << ",seed=" << seed << ssp.str();
    LapseWorkerConfig workers;
    workers.workersPerNode = workersPerNode;
    workers.stepTime = Seconds(step);
    workers.dynamic = mode == "dynamic";
    workers.batchLocalize = batch;
    workers.seed = seed;
    if (r.workload == "mf")
    {
        ParseMf(s, r, workers, c);
    }
    else if (r.workload == "kge")
    {
        ParseKge(s, r, d, workers, c);
    }
    else
    {
        ParseWv(s, r, d, workers, c);
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
    wv.epochs = epochs;
}

uint32_t
LapseSpec::Workers() const
{
    if (workload == "mf")
    {
        return ps.nodes * mf.workersPerNode;
    }
    return ps.nodes * (workload == "kge" ? kge.workersPerNode : wv.workersPerNode);
}

std::unique_ptr<LapseWorkload>
LapseSpec::MakeWorkload(LapsePs& lapsePs) const
{
    if (workload == "mf")
    {
        return std::make_unique<LapseMfWorkload>(lapsePs, ps.nodes, ps.keys, mf);
    }
    if (workload == "kge")
    {
        return std::make_unique<LapseKgeWorkload>(lapsePs, ps.nodes, ps.keys, kge);
    }
    return std::make_unique<LapseWvWorkload>(lapsePs, ps.nodes, ps.keys, wv);
}

} // namespace ns3
