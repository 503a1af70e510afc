#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(RingAlgorithm, CheckerAcceptsAndVolumesMatchClosedForm)
{
    for (uint32_t n : {2u, 3u, 5u, 8u})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(n), 40e9, 1e-6);
        // W = 8400 divisible by n: each worker sends n-1 chunks per phase, 2(N-1)W/N.
        ModelProfile model = ModelProfile::Load("bytes:8400", ".");
        for (std::string spec : {"ring", "ring:order=topo"})
        {
            SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(*topo, model);
            PlanCheckResult r = PlanChecker().Check(plan);
            ASSERT_TRUE(r.Ok()) << spec << " n=" << n << "\n" << r.Summary();
            EXPECT_EQ(plan.transfers.size(), 2u * n * (n - 1));
            for (uint32_t p = 0; p < n; ++p)
            {
                EXPECT_EQ(r.sentBytes[p], 2u * (n - 1) * 8400u / n);
                EXPECT_EQ(r.receivedBytes[p], 2u * (n - 1) * 8400u / n);
            }
        }
    }
}

TEST(RingAlgorithm, CheckerRejectsRemovedDependency)
{
    auto topo = MakeTopology("star:n=4", 40e9, 1e-6);
    SyncPlan plan =
        MakeSyncAlgorithm("ring")->Compile(*topo, ModelProfile::Load("bytes:4000", "."));
    plan.transfers[5].deps.clear(); // a step-1 send no longer waits for its step-0 receive
    EXPECT_FALSE(PlanChecker().Check(plan).Ok());
}
