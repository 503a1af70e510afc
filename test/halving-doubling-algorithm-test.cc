#include "topology-grid.h"

#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

SyncPlan
Compile(const std::string& topology, const std::string& model)
{
    auto topo = MakeTopology(topology, 40e9, 1e-6);
    return MakeSyncAlgorithm("hd")->Compile(*topo, ModelProfile::Load(model, kModels));
}
} // namespace

TEST(HalvingDoublingAlgorithm, PowerOfTwoMatchesClosedForm)
{
    for (uint32_t p : {2u, 4u, 8u, 16u})
    {
        // W = 8400 * 16 divisible by every P: each worker sends W/2 + W/4 + ... + W/P =
        // (P-1)W/P in each phase, 2(P-1)W/P in all, and receives as much.
        const uint64_t w = 8400 * 16;
        SyncPlan plan = Compile("star:n=" + std::to_string(p), "bytes:" + std::to_string(w));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << "P=" << p << "\n" << r.Summary();
        uint32_t steps = 0;
        for (uint32_t q = p; q > 1; q /= 2)
        {
            ++steps;
        }
        // log2 P steps per phase, every worker sends once per step.
        EXPECT_EQ(plan.transfers.size(), 2u * steps * p);
        for (uint32_t q = 0; q < p; ++q)
        {
            EXPECT_EQ(r.sentBytes[q], 2 * (p - 1) * w / p) << "P=" << p;
            EXPECT_EQ(r.receivedBytes[q], 2 * (p - 1) * w / p) << "P=" << p;
        }
    }
}

TEST(HalvingDoublingAlgorithm, FirstStepExchangesHalvesAtDistanceHalfP)
{
    // P = 8, W = 8000: step 1 pairs v with v ^ 4; worker 0 keeps [0,4000) and sends
    // [4000,8000) to worker 4 (Thakur et al. 2005, recursive halving).
    SyncPlan plan = Compile("star:n=8", "bytes:8000");
    const Transfer& t = plan.transfers[0];
    EXPECT_EQ(t.src, 0u);
    EXPECT_EQ(t.dst, 4u);
    EXPECT_EQ(t.offset, 4000u);
    EXPECT_EQ(t.bytes, 4000u);
    EXPECT_EQ(t.op, TransferOp::Reduce);
    // The last all-gather step (distance 4) of worker 0 sends its half [0,4000) to 4.
    const Transfer& last = plan.transfers[plan.transfers.size() - 8];
    EXPECT_EQ(last.src, 0u);
    EXPECT_EQ(last.dst, 4u);
    EXPECT_EQ(last.offset, 0u);
    EXPECT_EQ(last.bytes, 4000u);
    EXPECT_EQ(last.op, TransferOp::Copy);
}

TEST(HalvingDoublingAlgorithm, NonPowerOfTwoFoldsExtraWorkersIn)
{
    // P = 6: p' = 4, r = 2. Workers 0 and 2 fold into 1 and 3. W = 8000.
    // Extra (0, 2): send W, receive W. Partners (1, 3): 2(4-1)W/4 + W = 12,000 + 8000 =
    // 20,000 each way. Others (4, 5): 2(4-1)W/4 = 12,000.
    SyncPlan plan = Compile("star:n=6", "bytes:8000");
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    const std::vector<uint64_t> expected = {8000, 20000, 8000, 20000, 12000, 12000};
    EXPECT_EQ(r.sentBytes, expected);
    EXPECT_EQ(r.receivedBytes, expected);
    // 2 fold-in + 2 * 2 steps * 4 + 2 fold-out transfers.
    EXPECT_EQ(plan.transfers.size(), 2u + 16u + 2u);
    for (uint32_t p : {3u, 5u, 7u, 9u, 12u, 27u})
    {
        SyncPlan odd = Compile("star:n=" + std::to_string(p), "bytes:1000003");
        PlanCheckResult ro = PlanChecker().Check(odd);
        EXPECT_TRUE(ro.Ok()) << "P=" << p << "\n" << ro.Summary();
    }
}

TEST(HalvingDoublingAlgorithm, TinyGradientsSkipEmptySteps)
{
    // W = 3 < p' = 8: blocks of 1,1,1,0,0,0,0,0 bytes; empty exchanges are left out and the
    // plan is still complete (a skipped send must not break its worker's dependency chain).
    SyncPlan plan = Compile("star:n=8", "bytes:3");
    PlanCheckResult r = PlanChecker().Check(plan);
    EXPECT_TRUE(r.Ok()) << r.Summary() << plan.Dump();
    for (const Transfer& t : plan.transfers)
    {
        EXPECT_GT(t.bytes, 0u);
    }
}

TEST(HalvingDoublingAlgorithm, CheckerRejectsMutations)
{
    auto plan = [] { return Compile("star:n=8", "bytes:8000"); };
    SyncPlan noDep = plan();
    noDep.transfers[8].deps.clear(); // step 2 of worker 0 no longer waits for step 1
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());

    SyncPlan wrongCarries = plan();
    wrongCarries.transfers[8].carries = ContributorSet::Single(8, 0); // claims to drop 4's part
    EXPECT_FALSE(PlanChecker().Check(wrongCarries).Ok());

    SyncPlan doubled = plan();
    Transfer again = doubled.transfers[0]; // worker 0's first halving send, reduced twice
    again.deps = {0};
    doubled.Add(again);
    EXPECT_FALSE(PlanChecker().Check(doubled).Ok());

    SyncPlan shortStep = plan();
    shortStep.transfers[0].bytes -= 1;
    EXPECT_FALSE(PlanChecker().Check(shortStep).Ok());

    SyncPlan noFoldOut = Compile("star:n=6", "bytes:8000");
    noFoldOut.transfers.pop_back(); // worker 2 never gets the result back
    EXPECT_FALSE(PlanChecker().Check(noFoldOut).Ok());

    EXPECT_EQ(MakeSyncAlgorithm("hd")->Spec(), "hd");
    EXPECT_THROW(MakeSyncAlgorithm("hd:blocks=2"), std::invalid_argument);
}

TEST(HalvingDoublingAlgorithm, FluidGstOnStar)
{
    // On a star every step's exchanges use distinct uplinks and downlinks, so step j takes
    // (W/2^j) 8/B. P = 8: 2 (7/8) W 8/B; W = 8 MB, B = 40 Gb/s, W 8/B = T = 1.6 ms: 2.8 ms
    // (the ring's figure).
    // P = 6 (workers 0, 2 fold into 1, 3; positions 0..3 = workers 1, 3, 4, 5): at t = 0 the
    // fold-in 0->1 (W) shares 1's downlink with 4's first halving send 4->1 (W/2, it waits
    // for nothing): both at B/2, 4->1 ends at T, the fold-in at 1.5 T. Then 1->4 (W/2) 0.5 T,
    // halving step 2 (W/4) 0.25 T, doubling 0.25 T + 0.5 T, fold-out T: 4 T = 6.4 ms.
    for (auto [p, expected] : {std::pair<uint32_t, double>{8, 2.8e-3}, {6, 6.4e-3}})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(p), 40e9, 1e-6);
        SyncPlan plan = MakeSyncAlgorithm("hd")->Compile(*topo,
                                                         ModelProfile::Load("bytes:8MB", kModels));
        EXPECT_NEAR(FluidEstimator().Estimate(*topo, plan).gstS, expected, 0.01 * expected)
            << "P=" << p;
    }
}

// The checker accepts hd on every topology family with W = 1,000,003 (prime: unequal
// blocks) and the MNIST MLP profile; VGG-19 on BCube(4,1) matches the closed form.
TEST(HalvingDoublingAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    for (std::string t : CheckerTopologyGrid())
    {
        for (std::string m : {"bytes:1000003", "mnist-mlp"})
        {
            PlanCheckResult r = PlanChecker().Check(Compile(t, m));
            EXPECT_TRUE(r.Ok()) << t << " " << m << "\n" << r.Summary();
        }
    }
    // 16 workers: 2 * 15 * 574,668,960 / 16 = 1,077,504,300 B each way.
    PlanCheckResult r = PlanChecker().Check(Compile("bcube:n=4,k=1", "vgg19"));
    ASSERT_TRUE(r.Ok()) << r.Summary();
    for (uint32_t p = 0; p < 16; ++p)
    {
        EXPECT_EQ(r.sentBytes[p], 1077504300u);
        EXPECT_EQ(r.receivedBytes[p], 1077504300u);
    }
}
