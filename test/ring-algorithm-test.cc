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

// The checker accepts ring and mesh on every topology family, with W = 1,000,003 (prime,
// so chunks are unequal) and the MNIST MLP profile.
TEST(RingAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    const std::string models = PARAMSYNC_SOURCE_DIR "/workloads/models";
    for (std::string t : {"bcube:n=2,k=1", "bcube:n=3,k=1", "bcube:n=4,k=1", "bcube:n=2,k=2",
                          "bcube:n=3,k=2", "torus:dims=2x2", "torus:dims=3x5",
                          "torus:dims=5x5", "torus:dims=3x3x3", "fattree:k=4", "fattree:k=6",
                          "bigraph:s=4,m=4", "ring:n=9", "star:n=8"})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string a : {"mesh", "ring", "ring:order=topo"})
        {
            for (std::string m : {"bytes:1000003", "mnist-mlp"})
            {
                SyncPlan plan =
                    MakeSyncAlgorithm(a)->Compile(*topo, ModelProfile::Load(m, models));
                PlanCheckResult r = PlanChecker().Check(plan);
                EXPECT_TRUE(r.Ok()) << t << " " << a << " " << m << "\n" << r.Summary();
            }
        }
    }
    // VGG-19 on BCube(4,1), 16 workers: 2 * 15 * 574,668,960 / 16 = 1,077,504,300 B sent.
    auto bcube = MakeTopology("bcube:n=4,k=1", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("ring")->Compile(*bcube, ModelProfile::Load("vgg19", models));
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    EXPECT_EQ(r.sentBytes[0], 1077504300u);
}
