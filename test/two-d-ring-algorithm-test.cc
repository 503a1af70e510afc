#include "ns3/fat-tree-topology.h"
#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"
#include "ns3/two-d-ring-algorithm.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

} // namespace

TEST(TwoDRingAlgorithm, SpecAndApplicability)
{
    EXPECT_EQ(MakeSyncAlgorithm("2d-ring")->Spec(), "2d-ring");
    EXPECT_THROW(MakeSyncAlgorithm("2d-ring:bidir=1"), std::invalid_argument);
    auto alg = MakeSyncAlgorithm("2d-ring");
    std::string why;
    for (std::string t : {"bcube:n=3,k=1", "torus:dims=3x4", "fattree:k=4", "bigraph:s=2,m=3"})
    {
        EXPECT_TRUE(alg->AppliesTo(*MakeTopology(t, 40e9, 1e-6), why)) << t;
    }
    // Three levels (BCube k=2, 3-D torus) or one (ring, star): not a 2-level ring.
    for (auto [t, levels] :
         std::vector<std::pair<std::string, std::string>>{{"bcube:n=2,k=2", "has 3"},
                                                          {"torus:dims=3x3x3", "has 3"},
                                                          {"ring:n=9", "has 1"},
                                                          {"star:n=4", "has 1"}})
    {
        why.clear();
        auto topo = MakeTopology(t, 40e9, 1e-6);
        EXPECT_FALSE(alg->AppliesTo(*topo, why)) << t;
        EXPECT_NE(why.find(levels), std::string::npos) << why;
        EXPECT_THROW(alg->Compile(*topo, ModelProfile::Load("bytes:1000", ".")),
                     std::invalid_argument);
    }
}

// Per worker 2(N-1)W/N each way (W = 6N, divisible at both levels: level 0 splits W into
// g0 parts, level 1 splits W/g0 into g1 = N/g0). Transfer count: level-0 rings have g0-1
// steps, level-1 rings g1-1, each step one transfer per host, twice (reduce-scatter and
// all-gather): 2N(g0-1 + g1-1).
TEST(TwoDRingAlgorithm, VolumesAndTransferCounts)
{
    for (auto [t, g0] : std::vector<std::pair<std::string, uint64_t>>{{"bcube:n=3,k=1", 3},
                                                                      {"torus:dims=3x5", 5},
                                                                      {"fattree:k=4", 2},
                                                                      {"fattree:k=6", 3},
                                                                      {"bigraph:s=2,m=2", 2}})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const uint64_t n = topo->Graph().HostCount();
        const uint64_t g1 = n / g0;
        const uint64_t w = 6 * n;
        SyncPlan plan = MakeSyncAlgorithm("2d-ring")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << t << "\n" << r.Summary();
        EXPECT_EQ(plan.transfers.size(), 2 * n * (g0 - 1 + g1 - 1)) << t;
        for (uint32_t p = 0; p < n; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2 * (n - 1) * w / n) << t;
            EXPECT_EQ(r.receivedBytes[p], 2 * (n - 1) * w / n) << t;
        }
    }
}

// On a fat-tree the first level stays under one edge switch (phases 0 and 3) and the
// second joins the hosts of one slot under consecutive edge switches (phases 1 and 2).
TEST(TwoDRingAlgorithm, FatTreeLevelsAreEdgeSwitchesThenSlots)
{
    auto topo = MakeTopology("fattree:k=4", 40e9, 1e-6);
    const auto& fatTree = dynamic_cast<const FatTreeTopology&>(*topo);
    SyncPlan plan = MakeSyncAlgorithm("2d-ring")->Compile(*topo,
                                                          ModelProfile::Load("bytes:1600", "."));
    ASSERT_TRUE(PlanChecker().Check(plan).Ok());
    const uint32_t h = fatTree.HostsPerEdge(); // 2
    for (const Transfer& t : plan.transfers)
    {
        if (t.phase == 0 || t.phase == 3)
        {
            EXPECT_EQ(fatTree.EdgeOf(t.src), fatTree.EdgeOf(t.dst)) << t.id;
        }
        else
        {
            EXPECT_EQ(t.src % h, t.dst % h) << t.id;
            EXPECT_EQ((t.src / h + 1) % 8, t.dst / h) << t.id; // next edge switch, 8 in all
        }
    }
}

// The checker accepts 2d-ring wherever it applies on the grid, with uneven chunks
// (W prime), a real profile and W = 5 (mostly empty chunks).
TEST(TwoDRingAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    for (std::string t : {"bcube:n=2,k=1",
                          "bcube:n=3,k=1",
                          "bcube:n=4,k=1",
                          "torus:dims=2x2",
                          "torus:dims=3x3",
                          "torus:dims=4x4",
                          "torus:dims=5x5",
                          "torus:dims=3x5",
                          "torus:dims=2x4",
                          "fattree:k=4",
                          "fattree:k=6",
                          "fattree:k=4,oversub=2",
                          "bigraph:s=4,m=4",
                          "bigraph:s=3,m=2",
                          "bigraph:s=2,m=1",
                          "bigraph:s=2,m=3"})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string m : {"bytes:1000003", "mnist-mlp", "bytes:5"})
        {
            SyncPlan plan = MakeSyncAlgorithm("2d-ring")->Compile(*topo,
                                                                  ModelProfile::Load(m, kModels));
            PlanCheckResult r = PlanChecker().Check(plan);
            EXPECT_TRUE(r.Ok()) << t << " " << m << "\n" << r.Summary();
        }
    }
}

TEST(TwoDRingAlgorithm, CheckerRejectsMutatedPlans)
{
    auto topo = MakeTopology("torus:dims=3x3", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("2d-ring")->Compile(*topo,
                                                          ModelProfile::Load("bytes:900", "."));
    ASSERT_TRUE(PlanChecker().Check(plan).Ok());
    // A second-level send that no longer waits for the first level's reduce-scatter.
    SyncPlan noDep = plan;
    for (Transfer& t : noDep.transfers)
    {
        if (t.phase == 1)
        {
            t.deps.clear();
            break;
        }
    }
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());
    SyncPlan shortened = plan;
    shortened.transfers.back().bytes -= 1; // the last copy misses its last byte
    EXPECT_FALSE(PlanChecker().Check(shortened).Ok());
}

// Fluid GST with no shared link, B = 5e9 B/s: 2[(g0-1)/g0 + (g1-1)/(g0 g1)] W/B =
// 2(N-1)W/(NB). BCube(3,1) and the 4x4 torus: each ring hop is one link. fat-tree k=4:
// a level-1 ring hop leaves an edge switch with h = 2 flows over 2 uplinks, and fluid
// ECMP spreads them evenly over the aggregation and core links: no link above 1 flow.
// bigraph:s=4,m=4: level 0 rings through one switch; each level-1 hop is one inter-part
// link, and the 4 slot rings use distinct ones (see BigraphLevels).
TEST(TwoDRingAlgorithm, FluidGstIsTheRingTerm)
{
    const double b = 40e9 / 8;
    for (std::string t : {"bcube:n=3,k=1", "torus:dims=4x4", "fattree:k=4", "bigraph:s=4,m=4"})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const double n = topo->Graph().HostCount();
        const uint64_t w = 144 * 100000;
        SyncPlan plan = MakeSyncAlgorithm("2d-ring")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        const double ring = 2 * (n - 1) * w / (n * b);
        EXPECT_NEAR(FluidEstimator().Estimate(*topo, plan).gstS, ring, 0.01 * ring) << t;
    }
}
