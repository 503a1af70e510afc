#include "mesh-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

namespace ns3
{

MeshAlgorithm::MeshAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    s.Finish();
}

std::string
MeshAlgorithm::Spec() const
{
    return "mesh";
}

bool
MeshAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Graph().HostCount() < 1)
    {
        why = "mesh needs at least one host";
        return false;
    }
    return true;
}

SyncPlan
MeshAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    const uint64_t w = model.TotalBytes();
    std::vector<uint64_t> offset(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        offset[i + 1] = offset[i] + w / n + (i < w % n ? 1 : 0);
    }
    // received[i]: reduce-scatter transfers into worker i (all of them gate its collect).
    std::vector<std::vector<TransferId>> received(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (i == j || offset[i + 1] == offset[i])
            {
                continue;
            }
            received[i].push_back(plan.Add({0,
                                            j,
                                            i,
                                            offset[i],
                                            offset[i + 1] - offset[i],
                                            TransferOp::Reduce,
                                            ContributorSet::Single(n, j),
                                            {},
                                            i,
                                            0}));
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i == j || offset[i + 1] == offset[i])
            {
                continue;
            }
            plan.Add({0,
                      i,
                      j,
                      offset[i],
                      offset[i + 1] - offset[i],
                      TransferOp::Copy,
                      ContributorSet::All(n),
                      received[i],
                      i,
                      1});
        }
    }
    return plan;
}

PlanSizeBound
MeshAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    // Reduce-scatter and all-gather between every ordered pair: 2 N (N - 1) transfers on
    // N (N - 1) queue pairs.
    // Each collect transfer waits on the N - 1 reduce transfers into its source: N (N - 1)^2
    // dependencies, the plan's largest part from a few hundred hosts on.
    const uint64_t pairs = SaturatingMul(n, n > 0 ? n - 1 : 0);
    return {SaturatingMul(2, pairs), pairs, SaturatingMul(pairs, n > 0 ? n - 1 : 0)};
}

} // namespace ns3
