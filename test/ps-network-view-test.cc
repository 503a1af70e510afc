// PsNetworkView: paths along a topology's routing and completion times over the live
// backlog, on star:n=3 (hosts h0, h1, h2 on one switch; 40 Gb/s, 1 us links), every
// expected time worked out by hand.
#include "ns3/ps-network-view.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double kRate = 40e9;
constexpr double kDelay = 1e-6;

} // namespace

TEST(PsNetworkView, StarPathsAreUpToTheSwitchAndDownToTheHost)
{
    auto star = MakeTopology("star:n=3", kRate, kDelay);
    const PsPaths p = PsPaths::FromTopology(*star);
    ASSERT_EQ(p.hosts, 3u);
    // Two directed channels per link, 3 links.
    EXPECT_EQ(p.channelRateBps.size(), 6u);
    // h0 -> h1: h0's uplink, then the switch's port to h1; h1 -> h0 uses the other
    // direction of both links, so no channel in common.
    ASSERT_EQ(p.Path(0, 1).size(), 2u);
    ASSERT_EQ(p.Path(1, 0).size(), 2u);
    EXPECT_NE(p.Path(0, 1)[0], p.Path(1, 0)[1]);
    EXPECT_EQ(p.Path(0, 1)[0] / 2, p.Path(1, 0)[1] / 2); // the same cable, other direction
    // h0 -> h1 and h2 -> h1 share the switch's port to h1.
    EXPECT_EQ(p.Path(0, 1)[1], p.Path(2, 1)[1]);
}

TEST(PsNetworkView, CompletionIsBacklogDrainPlusTransferPlusPropagation)
{
    auto star = MakeTopology("star:n=3", kRate, kDelay);
    PsNetworkView view(PsPaths::FromTopology(*star));
    // Idle: 1000 B at 40 Gb/s = 200 ns, plus 2 hops of 1 us = 2.2 us.
    EXPECT_NEAR(view.CompletionS(0, 1, 1000), 2.2e-6, 1e-12);
    // 5000 B in flight h0 -> h1 (both channels): drain 5000 x 8 / 40e9 = 1 us first.
    view.Posted(0, 1, 5000);
    EXPECT_NEAR(view.CompletionS(0, 1, 1000), 3.2e-6, 1e-12);
    // 5000 B more h2 -> h1 share only the switch's port to h1: 10000 B there, 2 us.
    view.Posted(2, 1, 5000);
    EXPECT_NEAR(view.CompletionS(0, 1, 1000), 4.2e-6, 1e-12);
    // h0 -> h2 crosses h0's uplink (5000 B: 1 us) but not the port to h1.
    EXPECT_NEAR(view.CompletionS(0, 2, 1000), 3.2e-6, 1e-12);
    // The reverse direction carries nothing.
    EXPECT_NEAR(view.CompletionS(1, 0, 1000), 2.2e-6, 1e-12);
    // Deliveries take the backlog back off: idle again.
    view.Delivered(0, 1, 5000);
    view.Delivered(2, 1, 5000);
    EXPECT_NEAR(view.CompletionS(0, 1, 1000), 2.2e-6, 1e-12);
}

TEST(PsNetworkView, TheSlowestLinkOfThePathSetsTheTransferTime)
{
    auto star = MakeTopology("star:n=3", kRate, kDelay);
    TopologyGraph& g = star->MutableGraph();
    const NodeIndex h1 = g.HostNode(1);
    g.MutableLink(g.LinkAt(h1, 0)).rateBps = kRate / 2;
    PsNetworkView view(PsPaths::FromTopology(*star));
    // h1 -> h0 leaves over h1's 20 Gb/s cable: 1000 B take 400 ns, plus 2 us.
    EXPECT_NEAR(view.CompletionS(1, 0, 1000), 2.4e-6, 1e-12);
    // 5000 B queued on h1's uplink drain at 20 Gb/s: 2 us more.
    view.Posted(1, 2, 5000);
    EXPECT_NEAR(view.CompletionS(1, 0, 1000), 4.4e-6, 1e-12);
    // h0 -> h2 shares the switch's 40 Gb/s port to h2 with those 5000 B: 1 us, then
    // 200 ns at 40 Gb/s and 2 us.
    EXPECT_NEAR(view.CompletionS(0, 2, 1000), 3.2e-6, 1e-12);
    // h0 -> h1 is idle but ends on h1's 20 Gb/s cable: 400 ns + 2 us.
    EXPECT_NEAR(view.CompletionS(0, 1, 1000), 2.4e-6, 1e-12);
}

TEST(PsNetworkView, WithoutPathsNothingIsKnown)
{
    PsNetworkView view(PsPaths{});
    EXPECT_FALSE(view.Known());
    view.Posted(0, 1, 1000); // ignored, no abort
    EXPECT_EQ(view.CompletionS(0, 1, 1000), 0.0);
}
