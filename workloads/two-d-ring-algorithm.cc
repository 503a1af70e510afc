#include "two-d-ring-algorithm.h"

#include "hips-algorithm.h"

#include "ns3/bigraph-topology.h"
#include "ns3/fat-tree-topology.h"
#include "ns3/spec-string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/// \brief Hosts ranked switch-major, `perSwitch` under each: level 0 = one switch's hosts,
/// level 1 = the hosts of one slot across all switches.
std::vector<HostDimension>
SwitchLevels(uint32_t hosts, uint32_t perSwitch)
{
    const uint32_t switches = hosts / perSwitch;
    std::vector<HostDimension> levels(2);
    for (uint32_t s = 0; s < switches; ++s)
    {
        HostGroup group{{}, true};
        for (uint32_t i = 0; i < perSwitch; ++i)
        {
            group.members.push_back(s * perSwitch + i);
        }
        levels[0].push_back(std::move(group));
    }
    for (uint32_t i = 0; i < perSwitch; ++i)
    {
        HostGroup group{{}, true};
        for (uint32_t s = 0; s < switches; ++s)
        {
            group.members.push_back(s * perSwitch + i);
        }
        levels[1].push_back(std::move(group));
    }
    return levels;
}

/// \brief SwitchLevels with the level-1 rings of a bigraph reordered so that every hop
/// crosses the parts: slot i visits upper switch w, then lower switch (w + i) mod S, then
/// upper w + 1, ... Hop up w -> low (w+i) names slot i by (w, w+i), hop low x -> up y by
/// (x, y) with i = x - y + 1: for M <= S no two slots share an inter-part link.
std::vector<HostDimension>
BigraphLevels(const BigraphTopology& bigraph)
{
    const uint32_t s = bigraph.S();
    const uint32_t m = bigraph.M();
    std::vector<HostDimension> levels = SwitchLevels(2 * s * m, m);
    for (uint32_t i = 0; i < m; ++i)
    {
        std::vector<HostRank>& ring = levels[1][i].members;
        ring.clear();
        for (uint32_t w = 0; w < s; ++w)
        {
            ring.push_back(w * m + i);                 // upper switch w
            ring.push_back((s + (w + i) % s) * m + i); // lower switch (w + i) mod s
        }
    }
    return levels;
}

} // namespace

TwoDRingAlgorithm::TwoDRingAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    s.Finish();
}

std::string
TwoDRingAlgorithm::Spec() const
{
    return "2d-ring";
}

std::vector<HostDimension>
TwoDRingAlgorithm::Levels(const Topology& topology, std::string& why)
{
    const uint32_t hosts = topology.Graph().HostCount();
    if (const auto* fatTree = dynamic_cast<const FatTreeTopology*>(&topology))
    {
        return SwitchLevels(hosts, fatTree->HostsPerEdge());
    }
    if (const auto* bigraph = dynamic_cast<const BigraphTopology*>(&topology))
    {
        return BigraphLevels(*bigraph);
    }
    std::vector<HostDimension> dims = topology.Dimensions();
    if (dims.size() != 2)
    {
        why = "2d-ring needs two levels of host groups (bcube k=1, 2-D torus, fattree, "
              "bigraph); " +
              topology.Spec() + " has " + std::to_string(dims.size());
        return {};
    }
    return dims;
}

bool
TwoDRingAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    return !Levels(topology, why).empty();
}

SyncPlan
TwoDRingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    std::vector<HostDimension> levels = CheckedLevels(topology);
    const uint32_t n = topology.Graph().HostCount();
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    AddHierarchicalAllreduce(plan,
                             levels,
                             {HierarchicalFlow{{0, 1}, false}},
                             GroupExchange::Ring,
                             "--algorithm '" + Spec() + "'");
    return plan;
}

std::optional<RoundPlan>
TwoDRingAlgorithm::CompileRounds(const Topology& topology, const ModelProfile& model) const
{
    std::vector<HostDimension> levels = CheckedLevels(topology);
    const uint32_t n = topology.Graph().HostCount();
    RoundPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    if (!AddHierarchicalRounds(plan,
                               levels,
                               {HierarchicalFlow{{0, 1}, false}},
                               GroupExchange::Ring,
                               "--algorithm '" + Spec() + "'"))
    {
        return std::nullopt;
    }
    return plan;
}

std::vector<HostDimension>
TwoDRingAlgorithm::CheckedLevels(const Topology& topology) const
{
    std::string why;
    std::vector<HostDimension> levels = Levels(topology, why);
    if (levels.empty())
    {
        throw std::invalid_argument("--algorithm '" + Spec() + "' on " + topology.Spec() + ": " +
                                    why);
    }
    return levels;
}

} // namespace ns3
