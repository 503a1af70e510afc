// BandwidthAwareMeshAlgorithm ("bwmesh"): shares by water-filling over the hosts' link
// rates, a plan the checker accepts, and on a star with one half-rate host the completion
// time of the flow-level estimator against a closed form, below what any ring or an
// equal-share mesh can reach there.
#include "ns3/bandwidth-aware-mesh-algorithm.h"
#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double kRate = 40e9; // bit/s

/// star:n=4 at kRate with host 1's link at half rate (as --slow-hosts=1 does).
std::unique_ptr<Topology>
SlowStar()
{
    auto topo = MakeTopology("star:n=4", kRate, 1e-6);
    TopologyGraph& g = topo->MutableGraph();
    const NodeIndex v = g.HostNode(1);
    g.MutableLink(g.LinkAt(v, 0)).rateBps *= 0.5;
    return topo;
}

} // namespace

TEST(BandwidthAwareMesh, SharesWaterFillOverTheLinkRates)
{
    // Equal rates: T r = (2N - 2) / N, s = (T r - 1) / (N - 2) = 1 / N for every host.
    for (double s : BandwidthAwareMeshAlgorithm::Shares({1, 1, 1, 1, 1}))
    {
        EXPECT_NEAR(s, 0.2, 1e-12);
    }
    // Rates 1, 1/2, 1, 1: with all four owning T = (2 + 4) / 3.5 = 1.714 and the slow
    // host's T r = 0.857 < 1, so it owns nothing; the three fast ones: T = (2 + 3) / 3 =
    // 5/3, s = (5/3 - 1) / 2 = 1/3 each. Host time (1 + 2 s) / r: fast 5/3, slow 2 (the
    // least it can have: its gradient up and the sum down, once each).
    const std::vector<double> s = BandwidthAwareMeshAlgorithm::Shares({1, 0.5, 1, 1});
    EXPECT_NEAR(s[0], 1.0 / 3, 1e-12);
    EXPECT_EQ(s[1], 0.0);
    EXPECT_NEAR(s[2], 1.0 / 3, 1e-12);
    EXPECT_NEAR(s[3], 1.0 / 3, 1e-12);
    // A moderately slow host keeps a smaller share: rates 1, 0.9, 1, 1: all four own, T =
    // 6 / 3.9, s_slow = (6 x 0.9 / 3.9 - 1) / 2 = 0.1923, the fast (6 / 3.9 - 1) / 2 = 0.2692.
    const std::vector<double> m = BandwidthAwareMeshAlgorithm::Shares({1, 0.9, 1, 1});
    EXPECT_NEAR(m[1], (6 * 0.9 / 3.9 - 1) / 2, 1e-12);
    EXPECT_NEAR(m[0], (6 / 3.9 - 1) / 2, 1e-12);
    // The host rates come from the topology's paths (the MLFabric scheduler's view).
    const std::vector<double> r = BandwidthAwareMeshAlgorithm::HostRates(*SlowStar());
    EXPECT_EQ(r, (std::vector<double>{kRate, kRate / 2, kRate, kRate}));
}

TEST(BandwidthAwareMesh, CheckerAcceptsThePlan)
{
    ModelProfile model = ModelProfile::Load("bytes:7200000", ".");
    const auto plain = MakeTopology("star:n=5", kRate, 1e-6);
    const auto slow = SlowStar();
    for (const std::string spec : {"bwmesh", "bwmesh:rounds=1", "bwmesh:rounds=3"})
    {
        for (const Topology* topo : {plain.get(), slow.get()})
        {
            const SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(*topo, model);
            const PlanCheckResult r = PlanChecker().Check(plan);
            EXPECT_TRUE(r.Ok()) << spec << "\n" << r.Summary();
        }
        // The slow host owns nothing: it sends its gradient once and receives the sum
        // once, W bytes each way.
        const PlanCheckResult r = PlanChecker().Check(
            MakeSyncAlgorithm(spec)->Compile(*slow, model));
        EXPECT_EQ(r.sentBytes[1], 7200000u) << spec;
        EXPECT_EQ(r.receivedBytes[1], 7200000u) << spec;
    }
    EXPECT_EQ(MakeSyncAlgorithm("bwmesh")->Spec(), "bwmesh:rounds=8");
    EXPECT_THROW(MakeSyncAlgorithm("bwmesh:rounds=0"), std::invalid_argument);
}

TEST(BandwidthAwareMesh, RoutesAroundAHalfRateHostOnAStar)
{
    // star:n=4, every link r = 40 Gb/s except host 1's at r/2; W = 7.2 MB, K = 8 rounds of
    // 900 kB; hosts 0, 2, 3 own 300 kB of each round, host 1 nothing (shares above).
    // Host 1 sends its three parts of a round at once over r/2: r/6 each (each also
    // crosses an owner's downlink, which carries at most 5 flows: 3 reduce-scatter queue
    // pairs, 2 all-gather ones, so >= r/5 there), so round k's parts from host 1 arrive at
    // t_k = k x (W/K) x 8 / (r/2) = k x 360 us; the fast hosts' parts (<= 5 flows on any
    // link they cross, >= r/5: 300 kB in <= 300 us a round) are there before. Round k's
    // all-gather into host 1 then takes 3 x 300 kB at r/2, 360 us, ending when round
    // k + 1's begins; into the fast hosts it ends sooner. The last ends at
    // (K + 1) x 360 us = 3.24 ms.
    auto topo = SlowStar();
    ModelProfile model = ModelProfile::Load("bytes:7200000", ".");
    const double bw =
        FluidEstimator().Estimate(*topo, MakeSyncAlgorithm("bwmesh")->Compile(*topo, model)).gstS;
    EXPECT_NEAR(bw, 9 * 7.2e6 * 8 / 8 / (kRate / 2), 1e-9);
    // Any ring, and the mesh with equal chunks, send 2 (N - 1) / N x W = 10.8 MB from
    // every host, host 1 included, over its r/2: at least 4.32 ms.
    const double bound = 2.0 * 3 / 4 * 7.2e6 * 8 / (kRate / 2);
    for (const std::string plain : {"ring", "mesh"})
    {
        const double t =
            FluidEstimator().Estimate(*topo, MakeSyncAlgorithm(plain)->Compile(*topo, model)).gstS;
        EXPECT_GE(t, bound - 1e-12) << plain;
        EXPECT_LT(bw, t) << plain;
    }
    // And no allreduce can beat host 1 receiving the whole sum at r/2: 2.88 ms, which
    // bwmesh misses by one round (1/K).
    EXPECT_GT(bw, 7.2e6 * 8 / (kRate / 2));
}
