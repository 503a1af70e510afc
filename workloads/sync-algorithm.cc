#include "sync-algorithm.h"

#include "bandwidth-aware-mesh-algorithm.h"
#include "double-binary-tree-algorithm.h"
#include "halving-doubling-algorithm.h"
#include "hdrm-algorithm.h"
#include "hips-algorithm.h"
#include "mesh-algorithm.h"
#include "ps-algorithm.h"
#include "ring-algorithm.h"
#include "tree-packing-algorithm.h"
#include "two-d-ring-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace ns3
{

void
SyncAlgorithm::RequireApplies(const Topology& topology) const
{
    std::string why;
    if (!AppliesTo(topology, why))
    {
        throw std::invalid_argument("--algorithm '" + Spec() + "' on " + topology.Spec() + ": " +
                                    why);
    }
}

namespace
{

using Factory = std::function<std::unique_ptr<SyncAlgorithm>(const std::string&)>;

/// \brief Every algorithm: {name, factory}, in the order `--algorithm=all` runs them.
/// Add one line per algorithm.
const std::vector<std::pair<std::string, Factory>>&
Registry()
{
    static const std::vector<std::pair<std::string, Factory>> table = {
        {"mesh", [](const std::string& s) { return std::make_unique<MeshAlgorithm>(s); }},
        {"ring", [](const std::string& s) { return std::make_unique<RingAlgorithm>(s); }},
        {"hips", [](const std::string& s) { return std::make_unique<HipsAlgorithm>(s); }},
        {"ps", [](const std::string& s) { return std::make_unique<PsAlgorithm>(s); }},
        {"hdrm", [](const std::string& s) { return std::make_unique<HdrmAlgorithm>(s); }},
        {"hd", [](const std::string& s) { return std::make_unique<HalvingDoublingAlgorithm>(s); }},
        {"2d-ring", [](const std::string& s) { return std::make_unique<TwoDRingAlgorithm>(s); }},
        {"dbtree",
         [](const std::string& s) { return std::make_unique<DoubleBinaryTreeAlgorithm>(s); }},
        {"trees", [](const std::string& s) { return std::make_unique<TreePackingAlgorithm>(s); }},
        {"bwmesh",
         [](const std::string& s) { return std::make_unique<BandwidthAwareMeshAlgorithm>(s); }},
    };
    return table;
}

} // namespace

std::optional<RoundPlan>
SyncAlgorithm::CompileRounds(const Topology& /* topology */, const ModelProfile& /* model */) const
{
    return std::nullopt;
}

PlanSizeBound
SyncAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    const uint64_t transfers = SaturatingMul(2 * n, n > 0 ? n - 1 : 0);
    return {transfers, PeersBound(n), SaturatingMul(2, transfers)};
}

uint64_t
SyncAlgorithm::PeersBound(uint64_t n)
{
    return SaturatingMul(2 * n,
                         static_cast<uint64_t>(std::ceil(std::log2(std::max<double>(n, 2)))));
}

std::unique_ptr<SyncAlgorithm>
MakeSyncAlgorithm(const std::string& spec)
{
    SpecString parsed(spec, "--algorithm");
    for (const auto& [name, factory] : Registry())
    {
        if (name == parsed.Name())
        {
            return factory(spec);
        }
    }
    std::string allowed;
    for (const auto& entry : Registry())
    {
        allowed += (allowed.empty() ? "" : ", ") + entry.first;
    }
    throw std::invalid_argument("--algorithm '" + spec +
                                "': unknown algorithm; allowed: " + allowed);
}

std::vector<std::string>
SyncAlgorithmNames()
{
    std::vector<std::string> names;
    for (const auto& entry : Registry())
    {
        names.push_back(entry.first);
    }
    return names;
}

} // namespace ns3
