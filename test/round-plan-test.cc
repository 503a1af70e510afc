// RoundPlan (the compact form of step-synchronous plans), its fluid estimator, and the round
// generators of ring and hips, proven against the explicit plans: the same transfers, the
// same bytes per worker and per directed link, the same fluid GST.
#include "ns3/fluid-estimator.h"
#include "ns3/hips-algorithm.h"
#include "ns3/model-profile.h"
#include "ns3/round-fluid-estimator.h"
#include "ns3/round-plan.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kB = 40e9; // bit/s, every link

/// W = 2^12 3^4 5 7 = 11,612,160 B: every split below is exact (ring: R N K divides it for
/// up to 4 rings of 128 workers in 4 segments; hips: parts x group sizes, e.g. 4 x 6 x 6,
/// 3 x 3 x 3 x 3, 2 x 4 x 4), so the explicit plan's transfers of one step are all equal.
const std::string kExact = "bytes:11612160";

ModelProfile
Model(const std::string& spec)
{
    return ModelProfile::Load(spec, PARAMSYNC_SOURCE_DIR "/workloads/models");
}

/// Bytes each participant sends in an explicit plan.
std::vector<uint64_t>
SentBytes(const SyncPlan& plan)
{
    std::vector<uint64_t> sent(plan.ParticipantCount(), 0);
    for (const Transfer& t : plan.transfers)
    {
        sent[t.src] += t.bytes;
    }
    return sent;
}

/// Compares the round form of `algorithm` on `topology` with its explicit plan: transfers,
/// bytes sent per worker, bytes per directed link, fluid GST. Both estimates are of one
/// model (max-min, fractional ECMP); when every flow of a step carries equal bytes and
/// finishes together, the barrier between rounds waits for nothing, so they agree to
/// rounding (1e-9 relative).
void
ExpectRoundFormMatches(const std::string& topology,
                       const std::string& algorithm,
                       const std::string& model)
{
    SCOPED_TRACE(topology + " " + algorithm + " " + model);
    auto topo = MakeTopology(topology, kB, 1e-6);
    auto algo = MakeSyncAlgorithm(algorithm);
    const ModelProfile m = Model(model);
    const SyncPlan plan = algo->Compile(*topo, m);
    const std::optional<RoundPlan> rounds = algo->CompileRounds(*topo, m);
    ASSERT_TRUE(rounds.has_value());
    EXPECT_EQ(rounds->algorithm, plan.algorithm);
    EXPECT_EQ(rounds->workers, plan.workers);
    EXPECT_EQ(rounds->hostOf, plan.hostOf);
    EXPECT_EQ(rounds->TransferCount(), plan.transfers.size());
    EXPECT_EQ(rounds->SentBytes(), SentBytes(plan));

    const FluidResult explicitRun = FluidEstimator().Estimate(*topo, plan);
    const RoundFluidResult roundRun = RoundFluidEstimator().Estimate(*topo, *rounds);
    EXPECT_NEAR(roundRun.gstS, explicitRun.gstS, 1e-9 * explicitRun.gstS);
    ASSERT_EQ(roundRun.linkBytes.size(), explicitRun.links.size());
    for (size_t l = 0; l < explicitRun.links.size(); ++l)
    {
        EXPECT_NEAR(roundRun.linkBytes[l],
                    explicitRun.links[l].bytes,
                    1e-9 * static_cast<double>(m.TotalBytes()))
            << "directed link " << l;
    }
}

} // namespace

TEST(RoundPlan, AppendMergesEqualConsecutiveRoundsOnly)
{
    RoundPlan plan;
    plan.workers = 3;
    plan.hostOf = {0, 1, 2};
    plan.Append({{{0, 1}, {1, 2}}, 100, 2, 0});
    plan.Append({{{0, 1}, {1, 2}}, 100, 3, 0}); // same: 5 repeats
    plan.Append({{{0, 1}, {1, 2}}, 50, 1, 0});  // other bytes
    plan.Append({{{0, 1}, {1, 2}}, 50, 1, 1});  // other phase
    plan.Append({{}, 50, 1, 1});                // no flows: dropped
    ASSERT_EQ(plan.rounds.size(), 3u);
    EXPECT_EQ(plan.rounds[0].repeat, 5u);
    // Transfers: 2 flows x (5 + 1 + 1) = 14. Worker 0 sends 5 x 100 + 50 + 50 = 600 B, worker
    // 1 the same, worker 2 nothing.
    EXPECT_EQ(plan.TransferCount(), 14u);
    EXPECT_EQ(plan.SentBytes(), (std::vector<uint64_t>{600, 600, 0}));
}

TEST(RoundFluidEstimator, RoundsAddUpAndRepeatsSolveOnce)
{
    auto topo = MakeTopology("star:n=4", kB, 1e-6);
    RoundPlan plan;
    plan.workers = 4;
    plan.hostOf = {0, 1, 2, 3};
    // Round 0: 0 -> 1 alone, 1e6 B at 40 Gb/s = 200 us, three times: 600 us.
    // Round 1: 0 -> 2 and 1 -> 2 share host 2's downlink: 20 Gb/s each, 1e6 B in 400 us.
    // Round 2: round 0 again, once more (not merged: it does not follow round 0): 200 us,
    // from the cache.
    plan.Append({{{0, 1}}, 1000000, 3, 0});
    plan.Append({{{0, 2}, {1, 2}}, 1000000, 1, 1});
    plan.Append({{{0, 1}}, 1000000, 1, 2});
    const RoundFluidResult r = RoundFluidEstimator().Estimate(*topo, plan);
    EXPECT_NEAR(r.gstS, 600e-6 + 400e-6 + 200e-6, 1e-15);
    ASSERT_EQ(r.roundS.size(), 3u);
    EXPECT_NEAR(r.roundS[1], 400e-6, 1e-15);
    EXPECT_EQ(r.solves, 2u);
    // Host 0's uplink carries 4 x 1e6 (round 0 and 2) + 1e6 (round 1) = 5e6 B; host 2's
    // downlink 2e6 B.
    const TopologyGraph& g = topo->Graph();
    auto up = [&](HostRank h) {
        const NodeIndex node = g.HostNode(h);
        return FluidResult::DirectedIndex(g, g.Ports(node)[0].link, node);
    };
    auto down = [&](HostRank h) {
        const NodeIndex node = g.HostNode(h);
        return FluidResult::DirectedIndex(g, g.Ports(node)[0].link, g.Ports(node)[0].peer);
    };
    EXPECT_DOUBLE_EQ(r.linkBytes[up(0)], 5e6);
    EXPECT_DOUBLE_EQ(r.linkBytes[down(2)], 2e6);
    EXPECT_DOUBLE_EQ(r.linkBytes[down(3)], 0);
}

TEST(RoundForm, RingMatchesExplicitPlan)
{
    for (const char* topology :
         {"fattree:k=4", "fattree:k=8", "torus:dims=4x4", "torus:dims=6x6", "bcube:n=3,k=1"})
    {
        for (const char* algorithm :
             {"ring", "ring:bidir=1", "ring:segments=4", "ring:order=topo,nics=all"})
        {
            ExpectRoundFormMatches(topology, algorithm, kExact);
        }
    }
    ExpectRoundFormMatches("torus:dims=6x6", "ring:order=snake,nics=all,bidir=1", kExact);
    ExpectRoundFormMatches("bcube:n=3,k=1", "ring:order=gray,nics=all", kExact);
    // Rings that share a host port at some hops (BCube(4,2): the Gray code's carries; a
    // non-square torus: snake row ends) still agree: every step loads the ports alike.
    ExpectRoundFormMatches("bcube:n=4,k=2", "ring:order=gray,nics=all", kExact);
    ExpectRoundFormMatches("torus:dims=4x6", "ring:order=snake,nics=all", kExact);
}

TEST(RoundForm, HipsMatchesExplicitPlan)
{
    for (const char* topology : {"torus:dims=4x4",
                                 "torus:dims=6x6",
                                 "torus:dims=3x3x3",
                                 "bcube:n=3,k=1",
                                 "bcube:n=4,k=1",
                                 "bcube:n=3,k=2",
                                 "star:n=6"})
    {
        for (const char* algorithm :
             {"hips", "hips:bidir=0", "hips:rotate=0", "hips:stage=mesh", "hips:stage=ring"})
        {
            ExpectRoundFormMatches(topology, algorithm, kExact);
        }
    }
    // Unequal sides: without rotation the two parts (directions) stay in lockstep.
    ExpectRoundFormMatches("torus:dims=4x6", "hips:rotate=0", kExact);
}

TEST(RoundForm, TwoDRingMatchesExplicitPlan)
{
    // Level sizes: fat-tree k=4 2 x 8, k=8 4 x 32, BCube(3,1) 3 x 3, tori 4 x 4 and 4 x 6,
    // bigraph s=4,m=4 4 x 8: W is divisible by each product.
    for (const char* topology : {"fattree:k=4",
                                 "fattree:k=8",
                                 "bcube:n=3,k=1",
                                 "torus:dims=4x4",
                                 "torus:dims=4x6",
                                 "bigraph:s=4,m=4"})
    {
        ExpectRoundFormMatches(topology, "2d-ring", kExact);
    }
}

TEST(RoundForm, NoRoundFormWhereItWouldDiffer)
{
    // On a 4x6 torus with rotated dimensions, part 0 spends 3 ring steps in its first stage
    // and part 2 spends 5: the parts are not in lockstep, so no round form (the explicit
    // plan stands).
    auto topo = MakeTopology("torus:dims=4x6", kB, 1e-6);
    EXPECT_FALSE(MakeSyncAlgorithm("hips")->CompileRounds(*topo, Model(kExact)).has_value());
    // A gradient smaller than parts x groups leaves empty sub-chunks, which the explicit
    // plan skips: 4 parts of a 4x4 torus need 4 x 4 x 4 = 64 B at least.
    auto square = MakeTopology("torus:dims=4x4", kB, 1e-6);
    EXPECT_FALSE(MakeSyncAlgorithm("hips")->CompileRounds(*square, Model("bytes:63")).has_value());
    EXPECT_TRUE(MakeSyncAlgorithm("hips")->CompileRounds(*square, Model("bytes:64")).has_value());
    // Ring: R N K = 1 x 16 x 4 = 64 B at least on fattree:k=4 with 4 segments.
    auto fat = MakeTopology("fattree:k=4", kB, 1e-6);
    EXPECT_FALSE(
        MakeSyncAlgorithm("ring:segments=4")->CompileRounds(*fat, Model("bytes:63")).has_value());
    EXPECT_TRUE(
        MakeSyncAlgorithm("ring:segments=4")->CompileRounds(*fat, Model("bytes:64")).has_value());
    // Algorithms without a round form say so.
    EXPECT_FALSE(MakeSyncAlgorithm("ps")->CompileRounds(*fat, Model(kExact)).has_value());
}

TEST(RoundForm, UnevenSplitsStayWithinOneBytePerStep)
{
    // W = 100,000,007 B splits unevenly everywhere. The round form carries the largest piece
    // of every step; the explicit plan's critical path does too on these uncontended steps
    // (a ring chunk travels the whole ring; the largest hips range is the one subdivided
    // next), but the explicit estimator merges completions closer than its 1 ns window, and
    // pieces one byte apart finish 8 / 40e9 = 0.2 ns apart. So per step the two differ by
    // less than 0.2 ns + 1 ns: steps x 1.2 ns in all.
    struct Case
    {
        const char* topology;
        const char* algorithm;
        double steps; // ring: 2 (N-1); hips on a k x k torus: 4 (k-1)
    };
    for (const Case& c : {Case{"fattree:k=4", "ring", 30},
                          Case{"torus:dims=4x4", "hips", 12},
                          Case{"torus:dims=6x6", "ring:bidir=1", 70}})
    {
        SCOPED_TRACE(std::string(c.topology) + " " + c.algorithm);
        auto topo = MakeTopology(c.topology, kB, 1e-6);
        auto algo = MakeSyncAlgorithm(c.algorithm);
        const ModelProfile m = Model("bytes:100000007");
        const FluidResult e = FluidEstimator().Estimate(*topo, algo->Compile(*topo, m));
        const RoundFluidResult r = RoundFluidEstimator().Estimate(*topo,
                                                                  *algo->CompileRounds(*topo, m));
        EXPECT_NEAR(r.gstS, e.gstS, c.steps * 1.2e-9);
    }
}

TEST(RoundForm, ElevenThousandServersMatchTheClosedForms)
{
    const ModelProfile m = Model("bytes:100MB");
    const double w = 1e8;
    {
        // Ring over N = 11,664 hosts of fattree:k=36. Natural order leaves each edge switch
        // once and fluid ECMP spreads it over the core, so every flow runs at B: 2 (N-1)
        // steps of the largest chunk ceil(W / N) = 8,574 B at 40 Gb/s (1.7148 us each).
        // Against the paper's 2 (N-1)/N W / B, the rounding costs 8,574 / 8,573.36 - 1
        // = 7.4e-5 relative.
        auto topo = MakeTopology("fattree:k=36", kB, 1e-6);
        const uint32_t n = topo->Graph().HostCount();
        ASSERT_EQ(n, 11664u);
        auto rounds = MakeSyncAlgorithm("ring")->CompileRounds(*topo, m);
        ASSERT_TRUE(rounds.has_value());
        EXPECT_EQ(rounds->TransferCount(), 2ull * (n - 1) * n);
        const RoundFluidResult r = RoundFluidEstimator().Estimate(*topo, *rounds);
        EXPECT_NEAR(r.gstS, 2.0 * (n - 1) * 8574 * 8 / kB, 1e-12);
        const double paper = 2.0 * (n - 1) / n * w * 8 / kB;
        EXPECT_NEAR(r.gstS, paper, 8e-5 * paper);
        EXPECT_EQ(r.solves, 1u); // reduce-scatter and all-gather rounds are the same flows
    }
    {
        // HiPS on the 108x108 torus: 4 parts (2 rotations x 2 directions) of 25e6 B, each
        // on its own directed cables at every stage, so every flow runs at B. Stage 1:
        // 107 ring steps of ceil(25e6 / 108) = 231,482 B; stage 2: 107 steps of
        // ceil(231,482 / 108) = 2,144 B; the all-gather repeats both. The closed form of
        // hips-algorithm.h, 1/4 of a one-direction single-NIC ring, is 2 (N-1)/N W / (4 B);
        // rounding costs under 1e-4 of it.
        auto topo = MakeTopology("torus:dims=108x108", kB, 1e-6);
        const uint32_t n = topo->Graph().HostCount();
        auto rounds = MakeSyncAlgorithm("hips")->CompileRounds(*topo, m);
        ASSERT_TRUE(rounds.has_value());
        const RoundFluidResult r = RoundFluidEstimator().Estimate(*topo, *rounds);
        EXPECT_NEAR(r.gstS, 2.0 * 107 * (231482 + 2144) * 8 / kB, 1e-12);
        const double paper = 2.0 * (n - 1) / n * w * 8 / (4 * kB);
        EXPECT_NEAR(r.gstS, paper, 1e-4 * paper);
    }
}
