// GstLowerBound (workloads/gst-lower-bound.h) on hand-built plans whose bound is derived by
// hand, and RoutedBound::SoloTime (helper/routed-bound.h), the path latency the bound adds.
#include "hand-plan.h"

#include "ns3/fluid-estimator.h"
#include "ns3/gst-lower-bound.h"
#include "ns3/routed-bound.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;
using paramsync_test::Hand;
using paramsync_test::HandPlan;

namespace
{

constexpr double kB = 40e9;    // bit/s, every link
constexpr double kRate = 5e9;  // the same in bytes/s
constexpr double kMB = 1e6;    // bytes
constexpr double kTol = 1e-15; // seconds: a few ulps of the sums below

/// Directed index of the link from host `rank` up to its switch (star: one port).
uint32_t
Up(const Topology& topo, HostRank rank)
{
    const TopologyGraph& g = topo.Graph();
    const NodeIndex h = g.HostNode(rank);
    return FluidResult::DirectedIndex(g, g.Ports(h)[0].link, h);
}

/// One QP per pair on fixed uses, payload at line rate (a hand-made split).
class FixedPaths : public FluidPaths
{
  public:
    std::map<std::pair<HostRank, HostRank>, std::vector<FluidLinkUse>> uses;

    uint32_t
    QueuePairs(HostRank, HostRank) const override
    {
        return 1;
    }

    std::vector<FluidLinkUse>
    Uses(HostRank src, HostRank dst, uint32_t) const override
    {
        return uses.at({src, dst});
    }

    double
    WireBytes(uint64_t payload) const override
    {
        return static_cast<double>(payload);
    }
};

GstBound
OnEcmp(const Topology& topo, const SyncPlan& plan)
{
    return GstLowerBound().Compute(topo, plan, EcmpSplitPaths(topo));
}

} // namespace

TEST(GstLowerBound, ChainOfDependentTransfersSumsTheirSoloTimes)
{
    // star:n=3, h0 -> h1 -> h2 -> h0, 1 MB each, each waiting for the previous: a solo time
    // is 1e6 / 5e9 = 200 us (two links, both at B), the chain 3 x 200 = 600 us. Every link
    // carries one transfer, whose head + load + tail is the same 600 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    const GstBound b = OnEcmp(
        *topo,
        HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}, {1, 2, 1000000, {0}}, {2, 0, 1000000, {1}}}));
    EXPECT_NEAR(b.chainS, 600e-6, kTol);
    EXPECT_NEAR(b.linkS, 600e-6, kTol);
    EXPECT_NEAR(b.gstS, 600e-6, kTol);
}

TEST(GstLowerBound, TransfersPostedTogetherOnOnePairAreBoundByTheLinkLoad)
{
    // Twelve 1 MB transfers h0 -> h1 at once: h0's uplink carries 12 MB at 5e9 B/s, 2.4 ms,
    // while each alone takes 200 us (the chain).
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    std::vector<Hand> twelve(12, Hand{0, 1, 1000000, {}});
    const GstBound b = OnEcmp(*topo, HandPlan({0, 1}, twelve));
    EXPECT_NEAR(b.chainS, 200e-6, kTol);
    EXPECT_NEAR(b.gstS, 12 * kMB / kRate, kTol);
    EXPECT_NE(b.link, GstBound::kNoLink);
}

TEST(GstLowerBound, HeadsAndTailsRaiseTheLinkBoundAboveChainAndLoad)
{
    // star:n=4. A: h2 -> h0 (1 MB); B and C: h0 -> h1 (1 MB each), both after A; D: h1 -> h3
    // after B, E: h1 -> h3 after C. Solo times 200 us each. Heads: r_B = r_C = 200,
    // r_D = r_E = 400 us; tails: q_B = q_C = 200, q_A = 400 us. Chain: A, B, D = 600 us.
    // h0's uplink carries only B and C: load 400 us alone, but with min r = 200 before and
    // min q = 200 after, 200 + 400 + 200 = 800 us, which beats both (h1's uplink gives the
    // same: D and E, 400 + 400 + 0).
    auto topo = MakeTopology("star:n=4", kB, 1e-6);
    const GstBound b = OnEcmp(*topo,
                              HandPlan({0, 1, 2, 3},
                                       {{2, 0, 1000000, {}},
                                        {0, 1, 1000000, {0}},
                                        {0, 1, 1000000, {0}},
                                        {1, 3, 1000000, {1}},
                                        {1, 3, 1000000, {2}}}));
    EXPECT_NEAR(b.chainS, 600e-6, kTol);
    EXPECT_NEAR(b.gstS, 800e-6, kTol);
    EXPECT_NEAR(b.linkLoadS, 400e-6, kTol);
    EXPECT_NEAR(b.linkHeadS + b.linkLoadS + b.linkTailS, 800e-6, kTol);
    EXPECT_NE(b.Describe(*topo).find("link "), std::string::npos) << b.Describe(*topo);
}

TEST(GstLowerBound, DependenciesIntoOneHostRaiseTheHeadByTheirPortLoad)
{
    // A parameter server on h3 (star:n=4): h0, h1, h2 push 1 MB each, then h3 sends 1 MB back
    // to each once all pushes are in. The pushes share h3's downlink: the last arrives no
    // earlier than 3 x 200 = 600 us, so every pull's head is 600 us (not the 200 us of one
    // push alone), and the pulls share h3's uplink: 600 + 3 x 200 = 1,200 us, the exact
    // time (without the port heads: 0 + 600 + 200 = 800 us on the downlink).
    auto topo = MakeTopology("star:n=4", kB, 1e-6);
    const GstBound b = OnEcmp(*topo,
                              HandPlan({0, 1, 2, 3},
                                       {{0, 3, 1000000, {}},
                                        {1, 3, 1000000, {}},
                                        {2, 3, 1000000, {}},
                                        {3, 0, 1000000, {0, 1, 2}},
                                        {3, 1, 1000000, {0, 1, 2}},
                                        {3, 2, 1000000, {0, 1, 2}}}));
    EXPECT_NEAR(b.chainS, 800e-6, kTol);
    EXPECT_NEAR(b.gstS, 1200e-6, kTol);
}

TEST(GstLowerBound, ASendersOwnDependencyWaitsForItsAcknowledgement)
{
    // h0 sends 1 MB to h1, then (after it, as seen by h0: its acknowledgement, 3 us later
    // in this test) 1 MB to h2: 200 + 3 + 200 = 403 us. A dependency received by the next
    // sender (h1 -> h2 after h0 -> h1) needs no acknowledgement: 400 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    const auto ack = [](HostRank, HostRank) { return 3e-6; };
    const EcmpSplitPaths paths(*topo);
    EXPECT_NEAR(GstLowerBound()
                    .Compute(*topo,
                             HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}, {0, 2, 1000000, {0}}}),
                             paths,
                             nullptr,
                             ack)
                    .gstS,
                403e-6,
                kTol);
    EXPECT_NEAR(GstLowerBound()
                    .Compute(*topo,
                             HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}, {1, 2, 1000000, {0}}}),
                             paths,
                             nullptr,
                             ack)
                    .gstS,
                400e-6,
                kTol);
}

TEST(GstLowerBound, FramingCountsTheWireBytes)
{
    // A 2,500 B message at MTU 1,000 with a VLAN tag is 2,758 wire bytes
    // (RoutedBound::WireBytes, test/fluid-ideal-grid-test.cc): 2758 / 5e9 s on its path.
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    const TopologyGraph& g = topo->Graph();
    const uint32_t down = FluidResult::DirectedIndex(
        g, g.Ports(g.HostNode(1))[0].link, g.Ports(g.HostNode(0))[0].peer);
    PinnedPaths paths([](HostRank, HostRank) { return 1u; },
                      [](uint64_t p) { return RoutedBound::WireBytes(p, 1000, true); });
    paths.Pin({0, 1, 0}, {Up(*topo, 0), down});
    const GstBound b = GstLowerBound().Compute(*topo, HandPlan({0, 1}, {{0, 1, 2500, {}}}), paths);
    EXPECT_NEAR(b.gstS, 2758.0 / kRate, kTol);
}

TEST(GstLowerBound, ASplitPathCarriesItsFractionOnEachLink)
{
    // star:n=3. Pair (0, 1) sends half its traffic over h0's uplink and half over h2's (an
    // abstract split): r = min(5e9 / 0.5, 5e9 / 0.5) = 1e10 B/s, so 1 MB alone takes
    // 100 us, and puts 100 us of load on each link. A second 1 MB transfer h0 -> h2 uses
    // h0's uplink whole (200 us): that link carries 100 + 200 = 300 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    FixedPaths paths;
    paths.uses[{0, 1}] = {{Up(*topo, 0), 0.5}, {Up(*topo, 2), 0.5}};
    paths.uses[{0, 2}] = {{Up(*topo, 0), 1.0}};
    const GstBound alone = GstLowerBound().Compute(
        *topo, HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}}), paths);
    EXPECT_NEAR(alone.gstS, 100e-6, kTol);
    const GstBound both = GstLowerBound().Compute(
        *topo, HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}, {0, 2, 1000000, {}}}), paths);
    EXPECT_NEAR(both.chainS, 200e-6, kTol);
    EXPECT_NEAR(both.gstS, 300e-6, kTol);
    EXPECT_EQ(both.link, Up(*topo, 0));
}

TEST(GstLowerBound, ACoLocatedTransferTakesNoTime)
{
    // Participants 0 and 1 on host 0: a memory copy, 0 s; then 1 MB h0 -> h1 (200 us).
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    EXPECT_EQ(OnEcmp(*topo, HandPlan({0, 0}, {{0, 1, 1000000, {}}})).gstS, 0.0);
    const GstBound b = OnEcmp(*topo,
                              HandPlan({0, 0, 1}, {{0, 1, 1000000, {}}, {1, 2, 1000000, {0}}}));
    EXPECT_NEAR(b.gstS, 200e-6, kTol);
}

TEST(GstLowerBound, RoundsSumTheirBoundTimesTheirRepeats)
{
    // star:n=3, a ring round h0 -> h1, h1 -> h2, h2 -> h0 of 1 MB repeated 4 times, then a
    // round of two 1 MB flows into h0 once: 4 x 200 us + 2 MB on h0's downlink (400 us).
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    RoundPlan plan;
    plan.workers = 3;
    plan.hostOf = {0, 1, 2};
    plan.Append({{{0, 1}, {1, 2}, {2, 0}}, 1000000, 4, 0});
    plan.Append({{{1, 0}, {2, 0}}, 1000000, 1, 1});
    EXPECT_NEAR(GstLowerBound().ComputeRounds(*topo, plan), 1200e-6, kTol);
}

TEST(RoutedBound, SoloTimeIsSerializationPlusOneSmallestPacketAndDelaysPerHop)
{
    // 10 MB (10,000,000 B) over star:n=2 at MTU 4096 with VLAN: 2,441 full packets of 4,182 B
    // and one of 1,664 + 86 = 1,750 B, 10,210,012 wire bytes (model/README-fabric.md). Two
    // hops of 1 us: 2 us + 10,210,012 / 5e9 + one 1,750 B packet's serialization at the other
    // hop (1750 / 5e9 = 0.35 us) = 2044.3524 us, below the packet model's measured
    // 2044.839 us (its store-and-forward is a full 4,182 B packet, not the last one).
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    const TopologyGraph& g = topo->Graph();
    const uint32_t down = FluidResult::DirectedIndex(
        g, g.Ports(g.HostNode(1))[0].link, g.Ports(g.HostNode(0))[0].peer);
    const double t = RoutedBound::SoloTime(g, {Up(*topo, 0), down}, 10000000, 4096, true);
    EXPECT_NEAR(t, 2044.3524e-6, 1e-12);
    EXPECT_LE(t, 2044.839e-6);
}
