/*
 * ShortestPathRouting and DegradedTopology: distances and equal-cost next hops around failed
 * links, and partitions (hosts that failures cut off) refused or left without a route.
 */
#include "ns3/shortest-path-routing.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

NodeIndex
Named(const TopologyGraph& g, const std::string& name)
{
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        if (g.Node(v).name == name)
        {
            return v;
        }
    }
    ADD_FAILURE() << "no node " << name;
    return 0;
}

/// The failed-link mask with the cables between the named pairs down.
std::vector<bool>
Down(const TopologyGraph& g, const std::vector<std::pair<std::string, std::string>>& cables)
{
    std::vector<bool> down(g.LinkCount(), false);
    for (const auto& [a, b] : cables)
    {
        const NodeIndex va = Named(g, a);
        const NodeIndex vb = Named(g, b);
        for (uint32_t p = 0; p < g.Ports(va).size(); ++p)
        {
            if (g.Ports(va)[p].peer == vb)
            {
                down[g.LinkAt(va, p)] = true;
            }
        }
    }
    return down;
}

} // namespace

TEST(ShortestPathRouting, RoutesAroundAFailedCableByTheNextShortestPaths)
{
    // BCube(3,1): sw0.x joins hosts 3x..3x+2, sw1.y joins hosts y, y+3, y+6. With h0-sw0.0
    // down, sw0.0 reaches h0 only through h1 or h2: sw0.0 -> h1 -> sw1.1 -> h4 -> sw0.1 ->
    // h3 -> sw1.0 -> h0 (7 hops; through h2 and sw1.2 likewise), so both of its other host
    // ports are equal-cost next hops; h0 is still connected (one group of 9).
    auto t = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    const TopologyGraph& g = t->Graph();
    const auto down = Down(g, {{"h0", "sw0.0"}});
    ShortestPathRouting routing(g, down, "test");
    EXPECT_EQ(routing.Distance(Named(g, "sw0.0"), 0), 7u);
    // h1 -> sw1.1 -> h4 -> sw0.1 -> h3 -> sw1.0 -> h0
    EXPECT_EQ(routing.Distance(Named(g, "h1"), 0), 6u);
    std::vector<RouteHop> hops;
    routing.NextHops(Named(g, "sw0.0"), 0, hops);
    ASSERT_EQ(hops.size(), 2u);
    for (const RouteHop& hop : hops)
    {
        const std::string peer = g.Node(g.Ports(Named(g, "sw0.0"))[hop.port].peer).name;
        EXPECT_TRUE(peer == "h1" || peer == "h2") << peer;
    }
    EXPECT_EQ(ShortestPathRouting::HostGroups(g, down).size(), 1u);
}

TEST(ShortestPathRouting, APartitionIsRefusedOrLeftWithoutARoute)
{
    // Both of h0's cables down cut it off: groups {h0} and {h1..h8}, host 0's group first.
    auto t = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    const TopologyGraph& g = t->Graph();
    const auto down = Down(g, {{"h0", "sw0.0"}, {"h0", "sw1.0"}});
    const auto groups = ShortestPathRouting::HostGroups(g, down);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0], std::vector<HostRank>{0});
    EXPECT_EQ(groups[1], (std::vector<HostRank>{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_THROW(ShortestPathRouting(g, down, "test"), std::invalid_argument);
    EXPECT_THROW(DegradedTopology(*t, down), std::invalid_argument);

    // Left without a route: no next hop towards h0 anywhere, the rest still routed (h1 to h2
    // through sw0.0, 2 hops).
    DegradedTopology degraded(*t, down, ShortestPathRouting::Unreachable::NO_ROUTE);
    std::vector<RouteHop> hops;
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        degraded.NextHops(v, 0, 0, hops);
        EXPECT_TRUE(hops.empty()) << g.Node(v).name;
    }
    degraded.NextHops(Named(g, "h1"), 2, 0, hops);
    ASSERT_EQ(hops.size(), 1u);
    EXPECT_EQ(g.Node(g.Ports(Named(g, "h1"))[hops[0].port].peer).name, "sw0.0");
}

TEST(ShortestPathRouting, AHopCountTableLargerThanTheMachineIsRefusedBeforeItIsMade)
{
    // 1,000,000 hosts, two of them linked: with partitions allowed (NO_ROUTE) nothing refuses
    // the graph before the table of hop counts, nodes x hosts x 2 B = 10^6 x 10^6 x 2 B
    // = 2,000 GB, more than any machine this runs on: a clear error naming the sizes, not an
    // allocation that aborts (or throws std::bad_alloc).
    TopologyGraph g;
    for (int h = 0; h < 1000000; ++h)
    {
        g.AddHost("h" + std::to_string(h));
    }
    g.AddLink(0, 1, 1e9, 1e-6);
    try
    {
        ShortestPathRouting r(g, {}, "g", ShortestPathRouting::Unreachable::NO_ROUTE);
        ADD_FAILURE() << "a 2 TB table was made";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("1000000 nodes x 1000000 hosts x 2 B = 2000"), std::string::npos)
            << what;
        EXPECT_NE(what.find("exceed this machine's memory"), std::string::npos) << what;
    }
}
