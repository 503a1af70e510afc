#include "hand-plan.h"

#include "ns3/fluid-estimator.h"
#include "ns3/fluid-heaps.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <chrono>
#include <gtest/gtest.h>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using paramsync_test::Hand;
using paramsync_test::HandPlan;

namespace
{

constexpr double kB = 40e9; // bit/s, every link unless a test changes it

/// The link from host `rank` to its first neighbour.
LinkIndex
HostLink(const Topology& topo, HostRank rank)
{
    return topo.Graph().Ports(topo.Graph().HostNode(rank))[0].link;
}

/// Directed index of the link behind port `port` of node `node`, leaving the
/// node.
uint32_t
Out(const Topology& topo, NodeIndex node, uint32_t port)
{
    return FluidResult::DirectedIndex(topo.Graph(), topo.Graph().Ports(node)[port].link, node);
}

std::string
ThrownMessage(const Topology& topo, const SyncPlan& plan)
{
    try
    {
        FluidEstimator().Estimate(topo, plan);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(FluidEstimator, SingleTransferTakesBytesOverRate)
{
    // Host 0 -> switch -> host 1, both links at B: the bottleneck is B.
    // 1,000,000 B * 8 / 40 Gb/s = 200 us.
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(*topo, HandPlan({0, 1}, {{0, 1, 1000000, {}}}));
    EXPECT_DOUBLE_EQ(r.gstS, 200e-6);
    EXPECT_DOUBLE_EQ(r.startS[0], 0.0);
    EXPECT_DOUBLE_EQ(r.endS[0], 200e-6);
    // Host 0's uplink carried all bytes during the whole GST: utilization 1; the
    // reverse direction carried nothing.
    const uint32_t up = FluidResult::DirectedIndex(
        topo->Graph(), HostLink(*topo, 0), topo->Graph().HostNode(0));
    EXPECT_DOUBLE_EQ(r.links[up].bytes, 1e6);
    EXPECT_DOUBLE_EQ(r.links[up].utilization, 1.0);
    EXPECT_DOUBLE_EQ(r.links[up ^ 1].bytes, 0.0);
    EXPECT_EQ(r.links[up].maxFlows, 1u);
}

TEST(FluidEstimator, TwoFlowsShareALinkEqually)
{
    // 0 -> 2 and 1 -> 2 share switch -> host 2: B/2 each, so each of 1 MB takes
    // 2 * 200 us = 400 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo, HandPlan({0, 1, 2}, {{0, 2, 1000000, {}}, {1, 2, 1000000, {}}}));
    EXPECT_DOUBLE_EQ(r.endS[0], 400e-6);
    EXPECT_DOUBLE_EQ(r.endS[1], 400e-6);
    EXPECT_EQ(r.maxConcurrentFlows, 2u);
}

TEST(FluidEstimator, RatesRiseWhenASharerFinishes)
{
    // 0 -> 2 (0.5 MB) and 1 -> 2 (1 MB) share switch -> host 2 at B/2 each: the small one
    // ends at 0.5 MB / (B/2) = 200 us; the big one has 0.5 MB left, now at B: 100 us more,
    // 300 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo, HandPlan({0, 1, 2}, {{0, 2, 500000, {}}, {1, 2, 1000000, {}}}));
    EXPECT_DOUBLE_EQ(r.endS[0], 200e-6);
    EXPECT_DOUBLE_EQ(r.endS[1], 300e-6);
}

TEST(FluidEstimator, OneQueuePairServesItsMessagesInOrder)
{
    // Both transfers between the same two hosts: one queue pair, a FIFO. The first
    // (0.5 MB) has the link alone, B: 100 us; then the second (1 MB) at B: 200 us more,
    // 300 us (sharing would have ended the first at 200 us).
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo, HandPlan({0, 1}, {{0, 1, 500000, {}}, {0, 1, 1000000, {}}}));
    EXPECT_DOUBLE_EQ(r.endS[0], 100e-6);
    EXPECT_DOUBLE_EQ(r.endS[1], 300e-6);
    EXPECT_EQ(r.maxConcurrentFlows, 1u); // one busy queue pair on each link
    // A third transfer (0.25 MB) posted when the first ends (100 us) queues behind the
    // second: it starts at 300 us and takes 50 us, ending at 350 us.
    r = FluidEstimator().Estimate(
        *topo, HandPlan({0, 1}, {{0, 1, 500000, {}}, {0, 1, 1000000, {}}, {0, 1, 250000, {0}}}));
    EXPECT_DOUBLE_EQ(r.startS[2], 100e-6);
    EXPECT_NEAR(r.endS[1], 300e-6, 1e-15);
    EXPECT_NEAR(r.endS[2], 350e-6, 1e-15);
}

TEST(FluidEstimator, TwelveTransfersOnOnePairFinishOneAfterAnother)
{
    // 12 transfers of 1 MB posted at once from host 0 to host 1: the queue pair sends them
    // in posting order at B, 200 us each, so transfer i ends at (i + 1) * 200 us, i.e. at
    // (i + 1)/12 of the 2.4 ms total; equal sharing would end all twelve at 2.4 ms.
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    std::vector<Hand> hands(12, Hand{0, 1, 1000000, {}});
    FluidResult r = FluidEstimator().Estimate(*topo, HandPlan({0, 1}, hands));
    for (TransferId i = 0; i < 12; ++i)
    {
        EXPECT_NEAR(r.endS[i], (i + 1) * 200e-6, 1e-12) << i;
    }
    EXPECT_NEAR(r.gstS, 2.4e-3, 1e-12);
    // Two host pairs share a link (0 -> 2 and 1 -> 2, 6 transfers of 1 MB each): each
    // queue pair gets B/2, so a message takes 400 us and pair 0's i-th ends at
    // (i + 1) * 400 us, finishing both pairs' sixth at 2.4 ms.
    auto star = MakeTopology("star:n=3", kB, 1e-6);
    std::vector<Hand> two;
    for (int i = 0; i < 6; ++i)
    {
        two.push_back({0, 2, 1000000, {}});
        two.push_back({1, 2, 1000000, {}});
    }
    r = FluidEstimator().Estimate(*star, HandPlan({0, 1, 2}, two));
    for (TransferId i = 0; i < 12; ++i)
    {
        EXPECT_NEAR(r.endS[i], (i / 2 + 1) * 400e-6, 1e-12) << i;
    }
}

TEST(FluidEstimator, NearSimultaneousCompletionsMerge)
{
    // Independent 0 -> 1 (1,000,000 B, 200 us) and 2 -> 3 (1,000,001 B, 200.0002 us): the
    // default 1 ns window makes them one event (start + 1 completion batch = 2 events),
    // the second credited 0.2 ns early; a zero window keeps them apart (3 events, exact).
    auto topo = MakeTopology("star:n=4", kB, 1e-6);
    SyncPlan plan = HandPlan({0, 1, 2, 3}, {{0, 1, 1000000, {}}, {2, 3, 1000001, {}}});
    FluidResult merged = FluidEstimator().Estimate(*topo, plan);
    EXPECT_EQ(merged.events, 2u);
    EXPECT_DOUBLE_EQ(merged.endS[1], 200e-6);
    FluidResult exact = FluidEstimator(0).Estimate(*topo, plan);
    EXPECT_EQ(exact.events, 3u);
    EXPECT_DOUBLE_EQ(exact.endS[1], 1000001 * 8 / kB);
}

TEST(FluidEstimator, MaxMinDiffersFromEqualSharing)
{
    // 0 -> 3, 1 -> 3, 2 -> 3 share switch -> host 3 (rate B), but host 0's own
    // link runs at B/4. Max-min: flow 0 gets B/4 (bottlenecked at home), flows 1
    // and 2 split the rest, (B - B/4) / 2 = 3B/8 each (more than the equal share
    // B/3). With W = 1 MB and T0 = W * 8 / B = 200 us: flows 1, 2 end at W /
    // (3B/8) = 8/3 T0 = 533.33 us (equal sharing would give 3 T0 = 600 us); flow
    // 0 keeps B/4 (its own link) and ends at 4 T0 = 800 us.
    auto topo = MakeTopology("star:n=4", kB, 1e-6);
    topo->MutableGraph().MutableLink(HostLink(*topo, 0)).rateBps = kB / 4;
    FluidResult r = FluidEstimator().Estimate(
        *topo,
        HandPlan({0, 1, 2, 3}, {{0, 3, 1000000, {}}, {1, 3, 1000000, {}}, {2, 3, 1000000, {}}}));
    EXPECT_NEAR(r.endS[1], 200e-6 * 8 / 3, 1e-12);
    EXPECT_NEAR(r.endS[2], 200e-6 * 8 / 3, 1e-12);
    EXPECT_NEAR(r.endS[0], 800e-6, 1e-12);
    EXPECT_NEAR(r.gstS, 800e-6, 1e-12);
}

TEST(FluidEstimator, RingOnStarMatchesClosedForm)
{
    // Each ring step every host sends one chunk up its own link and receives one
    // down its own link: every flow gets B. 2(N-1) steps of W/N: GST = 2(N-1)W/(N
    // B). W = 1,000,003 (prime: chunks differ by a byte, hence 1%).
    for (uint32_t n : {2u, 5u, 8u})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(n), kB, 1e-6);
        SyncPlan plan = MakeSyncAlgorithm("ring")->Compile(
            *topo, ModelProfile::Load("bytes:1000003", "."));
        const double expected = 2.0 * (n - 1) * 1000003 * 8 / (n * kB);
        FluidResult r = FluidEstimator().Estimate(*topo, plan);
        EXPECT_NEAR(r.gstS, expected, 0.01 * expected) << "n=" << n;
    }
}

TEST(FluidEstimator, MeshOnStarMatchesClosedForm)
{
    // Diffuse: each host sends W/N to each of the N-1 others at once, N-1 flows
    // on its uplink and N-1 on its downlink, B/(N-1) each: (N-1)W/(N B). Collect:
    // the same. Total 2(N-1)W/(N B). W = 8400 divides by 2, 3, 5, 8: exact up to
    // rounding.
    for (uint32_t n : {2u, 3u, 5u, 8u})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(n), kB, 1e-6);
        SyncPlan plan = MakeSyncAlgorithm("mesh")->Compile(*topo,
                                                           ModelProfile::Load("bytes:8400", "."));
        const double expected = 2.0 * (n - 1) * 8400 * 8 / (n * kB);
        FluidResult r = FluidEstimator().Estimate(*topo, plan);
        EXPECT_NEAR(r.gstS, expected, 1e-9 * expected) << "n=" << n;
        // Every uplink holds the N-1 flows of its host's diffuse phase at once.
        EXPECT_EQ(r.maxConcurrentFlows, n - 1) << "n=" << n;
    }
}

TEST(FluidEstimator, FatTreeEcmpSplitsOverAllCorePaths)
{
    // fattree:k=4, hosts 0,1 under edge (0,0), pod 2 = ranks 8..11, pod 3
    // = 12..15. Core links at B/4: one inter-pod flow split evenly over the
    // (k/2)^2 = 4 core paths puts B/4 on each core link, so it still runs at the
    // host rate B: 1 MB in 200 us. A single hashed path would be limited to B/4
    // (800 us).
    const double w = 1e6;
    {
        auto topo = MakeTopology("fattree:k=4,corerate=10Gbps", kB, 1e-6);
        FluidResult r = FluidEstimator().Estimate(*topo, HandPlan({0, 8}, {{0, 1, 1000000, {}}}));
        EXPECT_DOUBLE_EQ(r.gstS, w * 8 / kB);
    }
    // Four inter-pod flows from edge (0,0): 0 -> 8, 0 -> 12, 1 -> 9, 1 -> 13.
    // Each host link carries 2 flows: B/2 each, so all end at 2 W 8 / B = 400 us.
    // Every flow splits 1/2 on each of the 2 edge uplinks: each uplink carries 4
    // * W/2 = 2 W bytes, at 4 * (1/2) * (B/2) = B (saturated, utilization 1).
    // Each of the 2 aggregation switches splits its half again over its 2 core
    // links: each of the 4 core uplinks of pod 0 carries 4 * W/4 = W, utilization
    // 1/2.
    auto topo = MakeTopology("fattree:k=4", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo,
        HandPlan(
            {0, 1, 8, 9, 12, 13},
            {{0, 2, 1000000, {}}, {0, 4, 1000000, {}}, {1, 3, 1000000, {}}, {1, 5, 1000000, {}}}));
    EXPECT_DOUBLE_EQ(r.gstS, 2 * w * 8 / kB);
    const TopologyGraph& g = topo->Graph();
    const NodeIndex edge = g.Ports(g.HostNode(0))[0].peer;
    for (uint32_t up : {2u, 3u}) // edge port h + a -> aggregation a, h = 2
    {
        const uint32_t d = Out(*topo, edge, up);
        EXPECT_NEAR(r.links[d].bytes, 2 * w, 1e-6);
        EXPECT_NEAR(r.links[d].utilization, 1.0, 1e-12);
        EXPECT_EQ(r.links[d].maxFlows, 4u);
        const NodeIndex agg = g.Ports(edge)[up].peer;
        for (uint32_t core : {2u, 3u}) // aggregation port k/2 + j -> core
        {
            const uint32_t c = Out(*topo, agg, core);
            EXPECT_NEAR(r.links[c].bytes, w, 1e-6);
            EXPECT_NEAR(r.links[c].utilization, 0.5, 1e-12);
        }
    }
}

TEST(FluidEstimator, QueuePairsOfOneTrunkFreezeAtTheirOwnLevels)
{
    // fattree:k=4 with core links at B/4. Host pairs 0 -> 8 (q1) and 1 -> 9 (q2) run between
    // the same two edge switches, (0,0) and (2,0): the same uses beyond their host links,
    // one trunk (workloads/fluid-estimator.h). Each splits 1/4 on each of its 4 core paths,
    // so a core link of the pair takes (r1 + r2) / 4 <= B / 4: r1 + r2 <= B. Host 0 also
    // sends to 1 (q3, same edge) and to 2 (q4, edge (0,1)): its uplink carries q1, q3, q4.
    // Progressive filling: at B/3 host 0's uplink saturates and freezes q1, q3, q4; q2 rises
    // alone until the core links are full, at B - B/3 = 2B/3 (its host links and the edge
    // uplinks, (B/3 + 2B/3 + B/3) / 2 = 2B/3 < B, stay below capacity). So q2 ends at
    // W / (2B/3) = 1.5 W/B = 300 us, while q1, q3 and q4 keep B/3 (host 0's uplink still
    // binds) and end at 3 W/B = 600 us. A trunk that froze its QPs together would give q2
    // B/3 (600 us); one that lost q1's share would let q2 run at B (200 us).
    const double w = 1e6;
    auto topo = MakeTopology("fattree:k=4,corerate=10Gbps", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo,
        HandPlan(
            {0, 1, 2, 8, 9},
            {{0, 3, 1000000, {}}, {1, 4, 1000000, {}}, {0, 1, 1000000, {}}, {0, 2, 1000000, {}}}));
    EXPECT_NEAR(r.endS[1], 1.5 * w * 8 / kB, 1e-12);
    for (TransferId t : {0u, 2u, 3u})
    {
        EXPECT_NEAR(r.endS[t], 3 * w * 8 / kB, 1e-12) << t;
    }
    // Every core uplink of the aggregation switches of pod 0 carries a quarter of q1 and of
    // q2, W / 2 bytes, with both busy at once.
    const TopologyGraph& g = topo->Graph();
    const NodeIndex edge = g.Ports(g.HostNode(0))[0].peer;
    for (uint32_t up : {2u, 3u}) // edge port h + a -> aggregation a, h = 2
    {
        const NodeIndex agg = g.Ports(edge)[up].peer;
        for (uint32_t core : {2u, 3u}) // aggregation port k/2 + j -> core
        {
            const uint32_t c = Out(*topo, agg, core);
            EXPECT_NEAR(r.links[c].bytes, w / 2, 1e-6);
            EXPECT_EQ(r.links[c].maxFlows, 2u);
        }
    }
}

TEST(FluidEstimator, DependencyChainAddsTimes)
{
    // 0 -> 1 (1 MB, 200 us) then 1 -> 2 (0.5 MB, 100 us): B starts at 200 us,
    // ends at 300 us.
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo, HandPlan({0, 1, 2}, {{0, 1, 1000000, {}}, {1, 2, 500000, {0}}}));
    EXPECT_DOUBLE_EQ(r.startS[1], 200e-6);
    EXPECT_DOUBLE_EQ(r.endS[1], 300e-6);
    EXPECT_DOUBLE_EQ(r.gstS, 300e-6);
}

TEST(FluidEstimator, CoLocatedTransferTakesNoTime)
{
    // Participants 1 and 2 both on host 1: 0 -> 1 (200 us), 1 -> 2 (local, 0 s),
    // then 2 -> 0 (1 MB, 200 us): GST 400 us.
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    FluidResult r = FluidEstimator().Estimate(
        *topo,
        HandPlan({0, 1, 1}, {{0, 1, 1000000, {}}, {1, 2, 1000000, {0}}, {2, 0, 1000000, {1}}}));
    EXPECT_DOUBLE_EQ(r.startS[1], 200e-6);
    EXPECT_DOUBLE_EQ(r.endS[1], 200e-6);
    EXPECT_DOUBLE_EQ(r.gstS, 400e-6);
}

TEST(FluidEstimator, BadInputThrowsNamingIt)
{
    auto topo = MakeTopology("star:n=3", kB, 1e-6);
    // Participant 1 on host 7 of a 3-host star.
    std::string m = ThrownMessage(*topo, HandPlan({0, 7}, {{0, 1, 1000, {}}}));
    EXPECT_NE(m.find("participant 1 on host 7"), std::string::npos) << m;
    // Host 2's link at rate 0, on the path of 0 -> 2 (but not of 0 -> 1, which is
    // fine).
    topo->MutableGraph().MutableLink(HostLink(*topo, 2)).rateBps = 0;
    EXPECT_NO_THROW(FluidEstimator().Estimate(*topo, HandPlan({0, 1}, {{0, 1, 1000, {}}})));
    m = ThrownMessage(*topo, HandPlan({0, 2}, {{0, 1, 1000, {}}}));
    EXPECT_NE(m.find("rate 0 bit/s"), std::string::npos) << m;
    // A dependency cycle: neither transfer can start.
    auto ok = MakeTopology("star:n=2", kB, 1e-6);
    m = ThrownMessage(*ok, HandPlan({0, 1}, {{0, 1, 1000, {1}}, {1, 0, 1000, {0}}}));
    EXPECT_NE(m.find("cycle"), std::string::npos) << m;
    // A transfer from participant 5 of a 2-participant plan.
    m = ThrownMessage(*ok, HandPlan({0, 1}, {{5, 1, 1000, {}}}));
    EXPECT_NE(m.find("names participant 5; the plan has 2 participants"), std::string::npos) << m;
    // An unknown dependency.
    m = ThrownMessage(*ok, HandPlan({0, 1}, {{0, 1, 1000, {5}}}));
    EXPECT_NE(m.find("depends on transfer 5"), std::string::npos) << m;
    EXPECT_THROW(FluidEstimator(-1e-9), std::invalid_argument);
}

namespace
{

/// Wall seconds since t0 (printed for the report; never asserted).
double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST(FluidEstimator, Vgg19RingAndMeshOnBcubeAndFatTree)
{
    const std::string models = PARAMSYNC_SOURCE_DIR "/workloads/models";
    ModelProfile vgg = ModelProfile::Load("vgg19", models);
    const double w = static_cast<double>(vgg.TotalBytes());
    for (std::string t : {"bcube:n=3,k=1", "fattree:k=4"})
    {
        auto topo = MakeTopology(t, kB, 1e-6);
        const uint32_t n = topo->Graph().HostCount();
        // Every worker sends and receives 2(N-1)W/N over its NICs; with one NIC at B that
        // takes 2(N-1)W/(N B), a lower bound for every host, and the GST on the fat-tree,
        // which fluid ECMP makes non-blocking: each ring or mesh flow is limited only by
        // its hosts' links (mesh: N-1 flows share each host link, B/(N-1) each).
        // BCube servers have k+1 = 2 NICs: half that bound is the floor there.
        const double oneNic = 2.0 * (n - 1) * w * 8 / (n * kB);
        for (std::string a : {"ring", "mesh"})
        {
            SyncPlan plan = MakeSyncAlgorithm(a)->Compile(*topo, vgg);
            auto t0 = std::chrono::steady_clock::now();
            FluidResult r = FluidEstimator().Estimate(*topo, plan);
            std::cout << t << " " << a << " VGG-19: " << plan.transfers.size() << " transfers, gst "
                      << r.gstS << " s, " << r.events << " events, " << Since(t0) << " s wall\n";
            if (t == "fattree:k=4")
            {
                EXPECT_NEAR(r.gstS, oneNic, 0.01 * oneNic) << a;
            }
            else
            {
                EXPECT_GE(r.gstS, oneNic / 2 * (1 - 1e-9)) << a;
            }
        }
    }
}

TEST(FluidEstimator, RingOn1024HostFatTree)
{
    // fattree:k=16: 1024 hosts; natural ring order leaves each edge switch once, so every
    // flow runs at B: GST = 2(N-1)W/(N B) within 1% (W = 100 MB, not divisible by 1024).
    // The plan is the ring's shape (position i sends to i+1 once it has sent its previous
    // chunk and received the one it forwards), built here without the contributor sets
    // that RingAlgorithm computes (N^3/2 bit operations, seconds at this size) and the
    // estimator never reads.
    auto topo = MakeTopology("fattree:k=16", kB, 1e-6);
    const uint32_t n = topo->Graph().HostCount();
    const uint64_t w = 100000000;
    SyncPlan plan;
    plan.algorithm = "ring (test shape)";
    plan.gradientBytes = w;
    plan.workers = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        plan.hostOf.push_back(i);
    }
    const ContributorSet any = ContributorSet::Single(n, 0);
    std::vector<TransferId> lastSend(n, kNoIndex);
    std::vector<TransferId> lastRecv(n, kNoIndex);
    for (uint32_t step = 0; step < 2 * (n - 1); ++step)
    {
        std::vector<TransferId> received = lastRecv;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t chunk = (i + 2 * n - step) % n;
            const uint64_t bytes = w / n + (chunk < w % n ? 1 : 0);
            std::vector<TransferId> deps;
            for (TransferId d : {lastSend[i], lastRecv[i]})
            {
                if (d != kNoIndex)
                {
                    deps.push_back(d);
                }
            }
            lastSend[i] = plan.Add(
                {0, i, (i + 1) % n, 0, bytes, TransferOp::Copy, any, deps, chunk, step});
            received[(i + 1) % n] = lastSend[i];
        }
        lastRecv = received;
    }
    auto t0 = std::chrono::steady_clock::now();
    FluidResult r = FluidEstimator().Estimate(*topo, plan);
    const double expected = 2.0 * (n - 1) * w * 8 / (n * kB);
    std::cout << "fattree:k=16 ring 100 MB: " << plan.transfers.size() << " transfers, estimate "
              << Since(t0) << " s wall, gst " << r.gstS << " s, " << r.events << " events\n";
    EXPECT_NEAR(r.gstS, expected, 0.01 * expected);
    EXPECT_EQ(r.maxConcurrentFlows, 1u); // one flow per link direction at any time
}

TEST(FluidEstimator, PinnedPathsStripeOverQueuePairsAndFrame)
{
    // Host 0 -> host 1 on star:n=2 over 2 QPs both pinned on the one path (up, then down),
    // with a test framing of 2 wire bytes per payload byte. 1,000,001 B stripe into 500,001
    // + 500,000 B (the first part one byte longer, as SyncJob::Post), i.e. 1,000,002 and
    // 1,000,000 wire bytes. The two QPs share both links: B/2 = 2.5e9 B/s each, so QP 1 ends
    // at 1e6 / 2.5e9 = 400 us; QP 0 then has 2 B left at B = 5e9 B/s: 0.4 ns more. Without
    // the merge window the transfer ends at 400.0004 us.
    auto topo = MakeTopology("star:n=2", kB, 1e-6);
    const TopologyGraph& g = topo->Graph();
    const NodeIndex h0 = g.HostNode(0);
    const NodeIndex sw = g.Ports(h0)[0].peer;
    const uint32_t up = FluidResult::DirectedIndex(g, HostLink(*topo, 0), h0);
    const uint32_t down = FluidResult::DirectedIndex(g, HostLink(*topo, 1), sw);
    PinnedPaths paths([](HostRank, HostRank) { return 2u; },
                      [](uint64_t payload) { return 2.0 * static_cast<double>(payload); });
    paths.Pin({0, 1, 0}, {up, down});
    paths.Pin({0, 1, 1}, {up, down});
    FluidResult r = FluidEstimator(0).Estimate(
        *topo, HandPlan({0, 1}, {{0, 1, 1000001, {}}}), paths);
    EXPECT_NEAR(r.endS[0], 400e-6 + 0.4e-9, 1e-15);
    EXPECT_EQ(r.queuePairs, 2u);
    EXPECT_EQ(r.links[up].maxFlows, 2u);
    EXPECT_DOUBLE_EQ(r.links[down].bytes, 2000002.0);
    // A QP that was never pinned is an error naming it.
    PinnedPaths none([](HostRank, HostRank) { return 1u; },
                     [](uint64_t payload) { return static_cast<double>(payload); });
    EXPECT_THROW(FluidEstimator().Estimate(*topo, HandPlan({0, 1}, {{0, 1, 1000, {}}}), none),
                 std::runtime_error);
}

TEST(FluidEstimator, ADepartureCanLowerAnotherRateAndKeptRatesStay)
{
    // star:n=6, every host link B = 40 Gb/s = 5e9 B/s. A: h0 -> h1, B: h0 -> h2,
    // C: h3 -> h2, E: h4 -> h2. h2's downlink holds B, C, E: B/3 = 5/3e9 B/s each; A takes
    // the rest of h0's uplink, 2B/3 = 10/3e9 B/s.
    auto topo = MakeTopology("star:n=6", kB, 1e-6);
    const std::vector<uint32_t> hosts{0, 1, 2, 3, 4, 5};
    {
        // E (1 MB) ends first, at 1e6 / (5/3e9) = 600 us, when A has sent 2 MB and B and C
        // 1 MB each. h2's downlink then holds B and C at B/2, so A drops to B/2 = 2.5e9 on
        // h0's uplink (a departure lowers another rate): A's last 1 MB and C's last 1 MB take
        // 400 us (both end at 1,000 us); B's last 0.5 MB goes alone at B: 100 us more.
        FluidResult r = FluidEstimator(0).Estimate(*topo,
                                                   HandPlan(hosts,
                                                            {{0, 1, 3000000, {}},
                                                             {0, 2, 2500000, {}},
                                                             {3, 2, 2000000, {}},
                                                             {4, 2, 1000000, {}}}));
        EXPECT_NEAR(r.endS[3], 600e-6, 1e-12);
        EXPECT_NEAR(r.endS[0], 1000e-6, 1e-12);
        EXPECT_NEAR(r.endS[2], 1000e-6, 1e-12);
        EXPECT_NEAR(r.endS[1], 1100e-6, 1e-12);
    }
    {
        // A (1 MB) ends first, at 1e6 / (10/3e9) = 300 us. B, C and E stay bound by h2's
        // downlink at B/3 (their rates are below A's and are kept): 3 MB each end at
        // 3e6 / (5/3e9) = 1,800 us.
        FluidResult r = FluidEstimator(0).Estimate(*topo,
                                                   HandPlan(hosts,
                                                            {{0, 1, 1000000, {}},
                                                             {0, 2, 3000000, {}},
                                                             {3, 2, 3000000, {}},
                                                             {4, 2, 3000000, {}}}));
        EXPECT_NEAR(r.endS[0], 300e-6, 1e-12);
        for (TransferId t : {1u, 2u, 3u})
        {
            EXPECT_NEAR(r.endS[t], 1800e-6, 1e-12) << t;
        }
    }
}

TEST(FluidLevelHeap, RaisedTopSinksAndTiesGoByLink)
{
    FluidLevelHeap heap;
    heap.Add(3.0, 7);
    heap.Add(1.0, 4);
    heap.Add(2.0, 9);
    heap.Add(2.0, 5);
    heap.Build();
    EXPECT_EQ(heap.Top().link, 4u); // least level
    heap.RaiseTop(2.5);             // link 4 now sits between the 2.0s and 3.0
    EXPECT_EQ(heap.Top().link, 5u); // of the two at 2.0, the lower link first
    heap.Pop();
    EXPECT_EQ(heap.Top().link, 9u);
    heap.Pop();
    EXPECT_EQ(heap.Top().link, 4u);
    EXPECT_DOUBLE_EQ(heap.Top().level, 2.5);
    heap.Pop();
    EXPECT_EQ(heap.Top().link, 7u);
    heap.Pop();
    EXPECT_TRUE(heap.Empty());
}

TEST(FluidLevelHeap, PopsInLevelThenLinkOrderAcrossSignsAndMagnitudes)
{
    // The heap orders levels by their bits (reordered to sort like the doubles): negative
    // levels (a residual rounded a hair below zero), -0 against +0 (equal, so the lower link
    // first), subnormal-small and huge levels; eleven entries make a 4-ary heap three deep.
    const std::vector<std::pair<double, uint32_t>> in = {{-1.5, 3},
                                                         {0.0, 8},
                                                         {-0.0, 2},
                                                         {1e-310, 1},
                                                         {2.0, 6},
                                                         {-1e300, 9},
                                                         {2.0, 0},
                                                         {0.5, 4},
                                                         {3.0, 5},
                                                         {-0.25, 7},
                                                         {1e300, 10}};
    FluidLevelHeap heap;
    for (const auto& [level, link] : in)
    {
        heap.Add(level, link);
    }
    heap.Build();
    // Sorted by hand: level first, then link.
    const std::vector<std::pair<double, uint32_t>> out = {{-1e300, 9},
                                                          {-1.5, 3},
                                                          {-0.25, 7},
                                                          {0.0, 2},
                                                          {0.0, 8},
                                                          {1e-310, 1},
                                                          {0.5, 4},
                                                          {2.0, 0},
                                                          {2.0, 6},
                                                          {3.0, 5},
                                                          {1e300, 10}};
    for (const auto& [level, link] : out)
    {
        ASSERT_FALSE(heap.Empty());
        EXPECT_EQ(heap.Top().link, link);
        EXPECT_EQ(heap.Top().level, level) << link; // levels come back exactly
        heap.Pop();
    }
    EXPECT_TRUE(heap.Empty());
}
