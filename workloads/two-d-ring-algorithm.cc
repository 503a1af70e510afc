#include "two-d-ring-algorithm.h"

#include "hips-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology.h"

#include <stdexcept>

namespace ns3
{

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
    std::vector<HostDimension> levels = topology.SwitchLevels();
    if (!levels.empty())
    {
        return levels;
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
