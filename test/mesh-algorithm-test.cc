#include "ns3/mesh-algorithm.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Test-only: n hosts and no links; mesh only reads the host count.
class HostsOnly : public Topology
{
  public:
    explicit HostsOnly(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            m_graph.AddHost("h" + std::to_string(i));
        }
    }
    std::string
    Spec() const override
    {
        return "hosts";
    }
    std::string
    Family() const override
    {
        return "hosts";
    }
    void
    NextHops(NodeIndex, HostRank, uint8_t, std::vector<RouteHop>& out) const override
    {
        out.clear();
    }
};
} // namespace

TEST(MeshAlgorithm, CheckerAcceptsAndVolumesMatchClosedForm)
{
    for (uint32_t n : {1u, 2u, 3u, 5u, 8u})
    {
        HostsOnly topo(n);
        // W = 8400 is divisible by 1,2,3,5,8: per worker sends (N-1) chunks in each phase,
        // 2(N-1)W/N bytes, and receives as much.
        ModelProfile model = ModelProfile::Load("bytes:8400", ".");
        SyncPlan plan = MakeSyncAlgorithm("mesh")->Compile(topo, model);
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << "n=" << n << "\n" << r.Summary();
        EXPECT_EQ(plan.transfers.size(), 2u * n * (n - 1));
        for (uint32_t p = 0; p < n; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2u * (n - 1) * 8400u / n);
            EXPECT_EQ(r.receivedBytes[p], 2u * (n - 1) * 8400u / n);
        }
    }
}

TEST(MeshAlgorithm, RegistryRejectsUnknownNamesAndOptions)
{
    EXPECT_THROW(MakeSyncAlgorithm("nosuch"), std::invalid_argument);
    EXPECT_THROW(MakeSyncAlgorithm("mesh:x=1"), std::invalid_argument);
    std::vector<std::string> names = SyncAlgorithmNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "mesh"), names.end());
}

TEST(MeshAlgorithm, CheckerNamesTheReduceAnAllGatherCopyDoesNotWaitFor)
{
    // n = 8: the all-gather copy from worker 0 to worker 1 lists the n - 1 = 7 reduces into
    // worker 0's chunk. Dropping the third of them from its deps leaves exactly that reduce
    // missing from its closure (nothing else leads to it: reduces have no deps).
    const uint32_t n = 8;
    HostsOnly topo(n);
    SyncPlan plan = MakeSyncAlgorithm("mesh")->Compile(topo, ModelProfile::Load("bytes:8400", "."));
    auto copy = std::find_if(plan.transfers.begin(), plan.transfers.end(), [](const Transfer& t) {
        return t.op == TransferOp::Copy && t.src == 0 && t.dst == 1;
    });
    ASSERT_NE(copy, plan.transfers.end());
    ASSERT_EQ(copy->deps.size(), n - 1);
    const TransferId dropped = copy->deps[2];
    copy->deps.erase(copy->deps.begin() + 2);
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_EQ(r.errorCount, 1u) << r.Summary();
    const std::string missing = "transfer #" + std::to_string(dropped) + " (p" +
                                std::to_string(plan.transfers[dropped].src) +
                                "->p0 [0,1050) phase 0 chunk 0)";
    EXPECT_NE(r.errors[0].find("missing dependency: it sends data written by " + missing),
              std::string::npos)
        << r.errors[0];
    EXPECT_EQ(r.errors[0].rfind("transfer #" + std::to_string(copy->id) + " (p0->p1 [0,1050)", 0),
              0u)
        << r.errors[0];
}
