/*
 * Tests of TopologyGraph: port numbering, counts and rejected links.
 */
#include "ns3/topology-graph.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(TopologyGraphTest, PortsFollowLinkOrderAndRanksFollowHostOrder)
{
    TopologyGraph g;
    NodeIndex h0 = g.AddHost("h0");
    NodeIndex sw = g.AddSwitch("sw");
    NodeIndex h1 = g.AddHost("h1");
    LinkIndex l0 = g.AddLink(h0, sw, 40e9, 1e-6);
    LinkIndex l1 = g.AddLink(sw, h1, 10e9, 2e-6);
    EXPECT_EQ(g.NodeCount(), 3u);
    EXPECT_EQ(g.HostCount(), 2u);
    EXPECT_EQ(g.SwitchCount(), 1u);
    EXPECT_EQ(g.LinkCount(), 2u);
    // h1 was the second host added: rank 1, node 2; the switch has no rank.
    EXPECT_EQ(g.HostNode(1), h1);
    EXPECT_EQ(g.Node(h1).rank, 1u);
    EXPECT_EQ(g.Node(sw).rank, kNoIndex);
    EXPECT_FALSE(g.Node(sw).isHost);
    // The switch's ports: 0 from the first link (to h0), 1 from the second (to h1).
    ASSERT_EQ(g.Ports(sw).size(), 2u);
    EXPECT_EQ(g.Ports(sw)[1].peer, h1);
    EXPECT_EQ(g.Ports(sw)[1].peerPort, 0u);
    EXPECT_EQ(g.Link(l1).portA, 1u);
    EXPECT_EQ(g.Link(l1).portB, 0u);
    EXPECT_EQ(g.LinkAt(h0, 0), l0);
    EXPECT_DOUBLE_EQ(g.Link(l1).rateBps, 10e9);
    g.MutableLink(l1).rateBps = 1e9;
    EXPECT_DOUBLE_EQ(g.Link(l1).rateBps, 1e9);
}

TEST(TopologyGraphTest, RejectsBadLinksAndIndices)
{
    TopologyGraph g;
    NodeIndex a = g.AddHost("a");
    NodeIndex b = g.AddHost("b");
    EXPECT_THROW(g.AddLink(a, a, 1e9, 0), std::invalid_argument);
    EXPECT_THROW(g.AddLink(a, b, 0, 0), std::invalid_argument);
    EXPECT_THROW(g.AddLink(a, b, 1e9, -1e-6), std::invalid_argument);
    EXPECT_THROW(g.AddLink(a, 7, 1e9, 0), std::out_of_range);
    EXPECT_THROW(g.HostNode(2), std::out_of_range);
    EXPECT_THROW(g.LinkAt(a, 0), std::out_of_range);
    EXPECT_EQ(g.LinkCount(), 0u); // nothing half-added
}
