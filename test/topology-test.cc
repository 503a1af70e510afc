/*
 * Tests of the topology families: counts, routing hop counts against closed forms
 * and a Boost.Graph BFS oracle, ECMP path counts, lanes, structure queries, spec errors.
 */
#include "ns3/bcube-topology.h"
#include "ns3/bigraph-topology.h"
#include "ns3/fat-tree-topology.h"
#include "ns3/ring-topology.h"
#include "ns3/spec-string.h"
#include "ns3/star-topology.h"
#include "ns3/topology.h"
#include "ns3/torus-topology.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Every ECMP path from one source to one destination, summarised.
struct PathSet
{
    uint32_t paths = 0;             //!< distinct routed paths
    std::set<uint32_t> links;       //!< path lengths in links
    std::set<uint32_t> switchHops;  //!< switches visited per path
    std::set<LinkIndex> firstLinks; //!< links leaving the source
    bool lanesOk = true;            //!< lanes never decrease and stay < LaneCount()
    bool loopFree = true;           //!< no node visited twice
    std::vector<std::vector<uint8_t>> laneSeqs;
};

/// Follows every NextHops choice depth-first (the topologies here are small).
void
Explore(const Topology& t,
        NodeIndex at,
        HostRank dst,
        uint8_t lane,
        std::vector<NodeIndex>& nodes,
        std::vector<uint8_t>& lanes,
        uint32_t switches,
        PathSet& set)
{
    const TopologyGraph& g = t.Graph();
    if (at == g.HostNode(dst))
    {
        ++set.paths;
        set.links.insert(static_cast<uint32_t>(nodes.size() - 1));
        set.switchHops.insert(switches);
        set.laneSeqs.push_back(lanes);
        return;
    }
    if (nodes.size() > g.NodeCount() || set.paths > 100000)
    {
        set.loopFree = false;
        return;
    }
    std::vector<RouteHop> hops;
    t.NextHops(at, dst, lane, hops);
    if (hops.empty())
    {
        set.loopFree = false; // a dead end counts as not reaching
        return;
    }
    for (const RouteHop& hop : hops)
    {
        if (hop.lane < lane || hop.lane >= t.LaneCount())
        {
            set.lanesOk = false;
        }
        NodeIndex next = g.Ports(at)[hop.port].peer;
        if (std::find(nodes.begin(), nodes.end(), next) != nodes.end())
        {
            set.loopFree = false;
            continue;
        }
        if (nodes.size() == 1)
        {
            set.firstLinks.insert(g.Ports(at)[hop.port].link);
        }
        nodes.push_back(next);
        lanes.push_back(hop.lane);
        Explore(
            t, next, dst, hop.lane, nodes, lanes, switches + (g.Node(next).isHost ? 0 : 1), set);
        nodes.pop_back();
        lanes.pop_back();
    }
}

PathSet
AllPaths(const Topology& t, HostRank src, HostRank dst)
{
    PathSet set;
    std::vector<NodeIndex> nodes{t.Graph().HostNode(src)};
    std::vector<uint8_t> lanes;
    Explore(t, nodes[0], dst, 0, nodes, lanes, 0, set);
    return set;
}

/// Shortest distances in links from a host to every node, by Boost.Graph BFS: the oracle
/// for "routing is minimal", independent of the families' closed forms.
std::vector<uint32_t>
BfsDistances(const TopologyGraph& g, HostRank src)
{
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Graph bg(g.NodeCount());
    for (LinkIndex l = 0; l < g.LinkCount(); ++l)
    {
        boost::add_edge(g.Link(l).a, g.Link(l).b, bg);
    }
    std::vector<uint32_t> dist(g.NodeCount(), UINT32_MAX);
    dist[g.HostNode(src)] = 0;
    boost::breadth_first_search(bg,
                                g.HostNode(src),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
    return dist;
}

/// All pairs: every ECMP path arrives, loop-free, minimal (BFS), with valid lanes.
void
CheckAllPairs(const Topology& t)
{
    const TopologyGraph& g = t.Graph();
    for (HostRank s = 0; s < g.HostCount(); ++s)
    {
        std::vector<uint32_t> bfs = BfsDistances(g, s);
        for (HostRank d = 0; d < g.HostCount(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            PathSet p = AllPaths(t, s, d);
            ASSERT_TRUE(p.loopFree) << t.Spec() << " " << s << "->" << d;
            ASSERT_TRUE(p.lanesOk) << t.Spec() << " " << s << "->" << d;
            ASSERT_GE(p.paths, 1u) << t.Spec() << " " << s << "->" << d;
            ASSERT_EQ(p.links, std::set<uint32_t>{bfs[g.HostNode(d)]})
                << t.Spec() << " " << s << "->" << d;
            ASSERT_EQ(t.Path(s, d, s * 131 + d).size(), bfs[g.HostNode(d)]);
        }
    }
}

std::unique_ptr<Topology>
Make(const std::string& spec)
{
    return MakeTopology(spec, 40e9, 1e-6);
}

template<typename T>
const T&
As(const std::unique_ptr<Topology>& t)
{
    const T* p = dynamic_cast<const T*>(t.get());
    EXPECT_NE(p, nullptr) << t->Spec();
    return *p;
}

/// Ports per node, as a multiset of degrees of hosts / switches.
std::set<size_t>
Degrees(const TopologyGraph& g, bool hosts)
{
    std::set<size_t> out;
    for (NodeIndex n = 0; n < g.NodeCount(); ++n)
    {
        if (g.Node(n).isHost == hosts)
        {
            out.insert(g.Ports(n).size());
        }
    }
    return out;
}

bool
Linked(const TopologyGraph& g, HostRank a, HostRank b)
{
    for (const PortPeer& p : g.Ports(g.HostNode(a)))
    {
        if (p.peer == g.HostNode(b))
        {
            return true;
        }
    }
    return false;
}

} // namespace

// ---------------------------------------------------------------- star

TEST(StarTopologyTest, CountsAndTrivialRoutes)
{
    auto t = Make("star:n=8");
    // n hosts, one switch, one link per host.
    EXPECT_EQ(t->Graph().HostCount(), 8u);
    EXPECT_EQ(t->Graph().SwitchCount(), 1u);
    EXPECT_EQ(t->Graph().LinkCount(), 8u);
    EXPECT_EQ(t->LaneCount(), 1);
    PathSet p = AllPaths(*t, 3, 6);
    EXPECT_EQ(p.paths, 1u);
    EXPECT_EQ(p.links, std::set<uint32_t>{2}); // host-switch-host
    ASSERT_EQ(t->Dimensions().size(), 1u);
    EXPECT_EQ(t->Dimensions()[0][0].members.size(), 8u);
    CheckAllPairs(*t);
}

// ---------------------------------------------------------------- BCube

TEST(BcubeTopologyTest, Counts)
{
    struct Case
    {
        uint32_t n, k, servers, switches;
    };
    // servers n^(k+1), switches (k+1) n^k, links (k+1) n^(k+1) (one per server port).
    for (Case c : {Case{3, 1, 9, 6}, Case{4, 2, 64, 48}, Case{2, 3, 16, 32}, Case{5, 0, 5, 1}})
    {
        auto t = Make("bcube:n=" + std::to_string(c.n) + ",k=" + std::to_string(c.k));
        const TopologyGraph& g = t->Graph();
        EXPECT_EQ(g.HostCount(), c.servers) << t->Spec();
        EXPECT_EQ(g.SwitchCount(), c.switches) << t->Spec();
        EXPECT_EQ(g.LinkCount(), (c.k + 1) * c.servers) << t->Spec();
        EXPECT_EQ(Degrees(g, true), std::set<size_t>{c.k + 1}) << t->Spec();
        EXPECT_EQ(Degrees(g, false), std::set<size_t>{c.n}) << t->Spec();
    }
}

TEST(BcubeTopologyTest, DigitCorrectionHopsPathsAndLanes)
{
    auto t = Make("bcube:n=3,k=2");
    const auto& b = As<BcubeTopology>(t);
    EXPECT_EQ(t->LaneCount(), 3); // k+1
    for (HostRank s = 0; s < 27; ++s)
    {
        for (HostRank d = 0; d < 27; ++d)
        {
            if (s == d)
            {
                continue;
            }
            std::vector<uint32_t> ds = b.Digits(s);
            std::vector<uint32_t> dd = b.Digits(d);
            uint32_t differ = 0;
            for (int l = 0; l < 3; ++l)
            {
                differ += ds[l] != dd[l];
            }
            PathSet p = AllPaths(*t, s, d);
            ASSERT_TRUE(p.loopFree && p.lanesOk);
            // One switch per corrected digit, 2 links per switch.
            EXPECT_EQ(p.switchHops, std::set<uint32_t>{differ});
            EXPECT_EQ(p.links, std::set<uint32_t>{2 * differ});
            // Every correction order is a path: differ! of them (1, 2, 6).
            EXPECT_EQ(p.paths, differ == 1 ? 1u : differ == 2 ? 2u : 6u);
            // Lanes: first link on lane (k+1) - differ, +1 at each relay, never more than k.
            for (const auto& seq : p.laneSeqs)
            {
                EXPECT_EQ(seq.front(), 3 - differ);
                EXPECT_EQ(seq.back(), 2);
            }
        }
    }
}

TEST(BcubeTopologyTest, DigitsDimensionsAndSwitches)
{
    auto t = Make("bcube:n=3,k=1");
    const auto& b = As<BcubeTopology>(t);
    // 5 = 1*3 + 2: a_1 = 1, a_0 = 2.
    EXPECT_EQ(b.Digits(5), (std::vector<uint32_t>{2, 1}));
    EXPECT_EQ(b.RankOf({2, 1}), 5u);
    EXPECT_THROW(b.RankOf({3, 0}), std::invalid_argument);
    auto dims = t->Dimensions();
    ASSERT_EQ(dims.size(), 2u);
    // Level 0 groups servers differing only in a_0: {0,1,2}, {3,4,5}, {6,7,8};
    // level 1 those differing only in a_1: {0,3,6}, {1,4,7}, {2,5,8}.
    EXPECT_EQ(dims[0][1].members, (std::vector<HostRank>{3, 4, 5}));
    EXPECT_EQ(dims[1][2].members, (std::vector<HostRank>{2, 5, 8}));
    EXPECT_EQ(b.LevelPeers(5, 1), (std::vector<HostRank>{2, 5, 8}));
    EXPECT_EQ(b.LevelPeers(5, 0), (std::vector<HostRank>{3, 4, 5}));
    for (uint32_t l = 0; l < 2; ++l)
    {
        ASSERT_EQ(dims[l].size(), 3u);
        for (const HostGroup& g : dims[l])
        {
            EXPECT_FALSE(g.ring);
            for (HostRank r : g.members)
            {
                EXPECT_EQ(b.SwitchOf(r, l), b.SwitchOf(g.members[0], l));
                // Server port l is the level-l link.
                EXPECT_EQ(t->Graph().Ports(r)[l].peer, b.SwitchOf(r, l));
            }
        }
    }
}

TEST(BcubeTopologyTest, GrayRingOrderNeighboursShareASwitch)
{
    for (std::string spec : {"bcube:n=3,k=1", "bcube:n=3,k=2", "bcube:n=4,k=2", "bcube:n=2,k=3"})
    {
        auto t = Make(spec);
        const auto& b = As<BcubeTopology>(t);
        std::vector<HostRank> order = t->RingOrder();
        std::vector<HostRank> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (HostRank r = 0; r < sorted.size(); ++r)
        {
            ASSERT_EQ(sorted[r], r) << spec << ": not a permutation";
        }
        EXPECT_EQ(order[0], 0u);
        for (size_t i = 0; i < order.size(); ++i)
        {
            // Consecutive (and last-first) differ in exactly one digit: one switch hop.
            HostRank a = order[i];
            HostRank c = order[(i + 1) % order.size()];
            std::vector<uint32_t> da = b.Digits(a);
            std::vector<uint32_t> dc = b.Digits(c);
            uint32_t differ = 0;
            for (size_t l = 0; l < da.size(); ++l)
            {
                differ += da[l] != dc[l];
            }
            EXPECT_EQ(differ, 1u) << spec << " at " << i;
            EXPECT_EQ(t->Path(a, c, 0).size(), 2u);
        }
    }
}

TEST(BcubeTopologyTest, DeadlockFreeOffUsesOneLane)
{
    auto t = Make("bcube:n=3,k=2,deadlockfree=0");
    EXPECT_EQ(t->LaneCount(), 1);
    PathSet p = AllPaths(*t, 0, 26); // 000 -> 222: 6 paths, all on lane 0
    EXPECT_EQ(p.paths, 6u);
    for (const auto& seq : p.laneSeqs)
    {
        EXPECT_EQ(*std::max_element(seq.begin(), seq.end()), 0);
    }
}

// ---------------------------------------------------------------- torus

TEST(TorusTopologyTest, Counts)
{
    struct Case
    {
        std::string dims;
        uint32_t servers, d;
    };
    // ab servers of degree 2d; each server adds its + link in every dimension: d * servers.
    for (Case c : {Case{"4x4", 16, 2},
                   Case{"4x4x4", 64, 3},
                   Case{"3x5", 15, 2},
                   Case{"2x4", 8, 2},
                   Case{"2x2x2", 8, 3},
                   Case{"6", 6, 1}})
    {
        auto t = Make("torus:dims=" + c.dims);
        const TopologyGraph& g = t->Graph();
        EXPECT_EQ(g.HostCount(), c.servers) << c.dims;
        EXPECT_EQ(g.SwitchCount(), 0u) << c.dims;
        EXPECT_EQ(g.LinkCount(), c.d * c.servers) << c.dims;
        EXPECT_EQ(Degrees(g, true), std::set<size_t>{2 * c.d}) << c.dims;
    }
}

TEST(TorusTopologyTest, SideOfTwoIsADoubleLinkUsedByBothDirections)
{
    auto t = Make("torus:dims=2x4");
    const auto& tor = As<TorusTopology>(t);
    // Rank 4 = (1, 0) is rank 0's only neighbour in dimension 0, over two cables.
    uint32_t cables = 0;
    for (const PortPeer& p : t->Graph().Ports(0))
    {
        cables += p.peer == 4 ? 1 : 0;
    }
    EXPECT_EQ(cables, 2u);
    EXPECT_NE(tor.NeighbourPort(0, 0, true), tor.NeighbourPort(0, 0, false));
    // Both directions tie at distance 1, so ECMP spreads over both cables.
    PathSet p = AllPaths(*t, 0, 4);
    EXPECT_EQ(p.paths, 2u);
    EXPECT_EQ(p.firstLinks.size(), 2u);
    EXPECT_EQ(p.links, std::set<uint32_t>{1});
    // Side 2 needs no dateline (one hop per dimension at most); side 4 does: 1 + 1 lanes.
    EXPECT_EQ(t->LaneCount(), 2);
}

TEST(TorusTopologyTest, MinimalDimensionOrderedHops)
{
    for (std::string dims : {"4x4", "3x5", "4x4x4", "5x3x2"})
    {
        auto t = Make("torus:dims=" + dims);
        const auto& tor = As<TorusTopology>(t);
        const std::vector<uint32_t>& sides = tor.Sides();
        const uint32_t n = t->Graph().HostCount();
        for (HostRank s = 0; s < n; ++s)
        {
            for (HostRank d = 0; d < n; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                std::vector<uint32_t> cs = tor.Coordinates(s);
                std::vector<uint32_t> cd = tor.Coordinates(d);
                uint32_t hops = 0;
                uint32_t ties = 0;
                for (size_t j = 0; j < sides.size(); ++j)
                {
                    uint32_t delta = (cd[j] + sides[j] - cs[j]) % sides[j];
                    hops += std::min(delta, sides[j] - delta);
                    ties += (delta != 0 && 2 * delta == sides[j]) ? 1 : 0;
                }
                PathSet p = AllPaths(*t, s, d);
                ASSERT_TRUE(p.loopFree && p.lanesOk) << dims;
                // Sum over dimensions of min(|d|, side-|d|) links.
                ASSERT_EQ(p.links, std::set<uint32_t>{hops}) << dims << " " << s << "->" << d;
                // Dimension order fixes the path except where both directions tie:
                // 2 choices per tied dimension.
                ASSERT_EQ(p.paths, 1u << ties) << dims << " " << s << "->" << d;
            }
        }
    }
}

TEST(TorusTopologyTest, DatelineLanes)
{
    auto t = Make("torus:dims=4x4");
    const auto& tor = As<TorusTopology>(t);
    EXPECT_EQ(t->LaneCount(), 3); // two dimensions of side >= 4
    std::vector<RouteHop> hops;
    // (0,3) -> (0,0): one hop over the dimension-1 wrap link, onto lane 1.
    t->NextHops(tor.RankOf({0, 3}), tor.RankOf({0, 0}), 0, hops);
    ASSERT_EQ(hops.size(), 1u);
    EXPECT_EQ(hops[0].port, tor.NeighbourPort(tor.RankOf({0, 3}), 1, true));
    EXPECT_EQ(hops[0].lane, 1);
    // (0,1) -> (0,2) does not cross: stays on the arrival lane.
    t->NextHops(tor.RankOf({0, 1}), tor.RankOf({0, 2}), 1, hops);
    ASSERT_EQ(hops.size(), 1u);
    EXPECT_EQ(hops[0].lane, 1);
    // (3,3) -> (0,0): crosses both datelines: lanes 1 then 2.
    PathSet p = AllPaths(*t, tor.RankOf({3, 3}), tor.RankOf({0, 0}));
    ASSERT_EQ(p.laneSeqs.size(), 1u);
    EXPECT_EQ(p.laneSeqs[0], (std::vector<uint8_t>{1, 2}));
    // Sides 2 and 3 need no dateline; deadlockfree=0 turns lanes off.
    EXPECT_EQ(Make("torus:dims=2x3")->LaneCount(), 1);
    EXPECT_EQ(Make("torus:dims=3x5")->LaneCount(), 2);
    EXPECT_EQ(Make("torus:dims=4x4x4,deadlockfree=0")->LaneCount(), 1);
}

TEST(TorusTopologyTest, CoordinatesDimensionsAndSnake)
{
    auto t = Make("torus:dims=4x4x4");
    const auto& tor = As<TorusTopology>(t);
    // Row-major: 27 = 1*16 + 2*4 + 3.
    EXPECT_EQ(tor.Coordinates(27), (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(tor.RankOf({1, 2, 3}), 27u);
    // Neighbours of (1,2,3): + in dimension 2 wraps to (1,2,0) = 24; - in dimension 0 is
    // (0,2,3) = 11.
    EXPECT_EQ(tor.Neighbour(27, 2, true), 24u);
    EXPECT_EQ(tor.Neighbour(27, 0, false), 11u);

    auto t35 = Make("torus:dims=3x5");
    auto dims = t35->Dimensions();
    ASSERT_EQ(dims.size(), 2u);
    // Dimension 0: 5 rings of 3 (columns), dimension 1: 3 rings of 5 (rows).
    ASSERT_EQ(dims[0].size(), 5u);
    ASSERT_EQ(dims[1].size(), 3u);
    EXPECT_EQ(dims[0][2].members, (std::vector<HostRank>{2, 7, 12}));
    EXPECT_EQ(dims[1][1].members, (std::vector<HostRank>{5, 6, 7, 8, 9}));
    for (const auto& dim : dims)
    {
        for (const HostGroup& g : dim)
        {
            EXPECT_TRUE(g.ring);
            for (size_t i = 0; i < g.members.size(); ++i)
            {
                EXPECT_TRUE(
                    Linked(t35->Graph(), g.members[i], g.members[(i + 1) % g.members.size()]));
            }
        }
    }

    for (std::string spec : {"torus:dims=4x4x4", "torus:dims=3x5", "torus:dims=4x3x2"})
    {
        auto s = Make(spec);
        std::vector<HostRank> order = s->RingOrder();
        std::set<HostRank> unique(order.begin(), order.end());
        EXPECT_EQ(unique.size(), s->Graph().HostCount()) << spec;
        for (size_t i = 0; i + 1 < order.size(); ++i)
        {
            EXPECT_TRUE(Linked(s->Graph(), order[i], order[i + 1])) << spec << " at " << i;
        }
        // The snake closes when the first side is even: it ends at (side0-1, 0, ...).
        bool closes = Linked(s->Graph(), order.back(), order.front());
        EXPECT_EQ(closes, spec != "torus:dims=3x5") << spec;
    }
}

// ---------------------------------------------------------------- ring

TEST(RingTopologyTest, ShortestDirectionAndLanes)
{
    auto t = Make("ring:n=9");
    EXPECT_EQ(t->Family(), "ring");
    EXPECT_EQ(t->Graph().LinkCount(), 9u);
    EXPECT_EQ(Degrees(t->Graph(), true), std::set<size_t>{2});
    EXPECT_EQ(t->LaneCount(), 2);
    for (HostRank d = 1; d < 9; ++d)
    {
        // min(d, 9-d) links; 9 is odd so directions never tie.
        PathSet p = AllPaths(*t, 0, d);
        EXPECT_EQ(p.links, std::set<uint32_t>{std::min(d, 9 - d)});
        EXPECT_EQ(p.paths, 1u);
        EXPECT_TRUE(p.lanesOk);
    }
    // 7 -> 1 goes 7, 8, 0, 1 and crosses the dateline 8-0 on its second link.
    PathSet p = AllPaths(*t, 7, 1);
    EXPECT_EQ(p.laneSeqs[0], (std::vector<uint8_t>{0, 1, 1}));
    auto two = Make("ring:n=2");
    EXPECT_EQ(two->Graph().LinkCount(), 2u); // double link, like a torus side of 2
    EXPECT_EQ(AllPaths(*two, 0, 1).paths, 2u);
    EXPECT_EQ(Make("ring:n=3")->LaneCount(), 1);
    ASSERT_EQ(t->Dimensions().size(), 1u);
    EXPECT_EQ(t->Dimensions()[0][0].members.size(), 9u);
}

// ---------------------------------------------------------------- fat-tree

TEST(FatTreeTopologyTest, Counts)
{
    for (uint32_t k : {2u, 4u, 8u})
    {
        auto t = Make("fattree:k=" + std::to_string(k));
        const TopologyGraph& g = t->Graph();
        // k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links (host, edge-agg and agg-core tiers
        // each carry k^3/4 links).
        EXPECT_EQ(g.HostCount(), k * k * k / 4);
        EXPECT_EQ(g.SwitchCount(), 5 * k * k / 4);
        EXPECT_EQ(g.LinkCount(), 3 * k * k * k / 4);
        EXPECT_EQ(Degrees(g, false), std::set<size_t>{k});
    }
    // oversub=2 doubles the hosts of an edge switch: 32 hosts, edge switches of 4 + 2 ports.
    auto o = Make("fattree:k=4,oversub=2");
    EXPECT_EQ(o->Graph().HostCount(), 32u);
    EXPECT_EQ(o->Graph().Ports(As<FatTreeTopology>(o).EdgeOf(0)).size(), 6u);
}

TEST(FatTreeTopologyTest, UpDownHopsAndEcmpPaths)
{
    auto t = Make("fattree:k=4");
    const auto& f = As<FatTreeTopology>(t);
    // Ranks: 2 hosts per edge, 4 per pod.
    EXPECT_EQ(f.PodOf(5), 1u);
    EXPECT_EQ(f.PodOf(15), 3u);
    EXPECT_EQ(f.EdgeOf(1), f.EdgeOf(0));
    PathSet sameEdge = AllPaths(*t, 0, 1);
    PathSet samePod = AllPaths(*t, 0, 2);
    PathSet otherPod = AllPaths(*t, 0, 15);
    // Links 2 / 4 / 6 (switches 1 / 3 / 5); paths 1 / k/2 = 2 / (k/2)^2 = 4.
    EXPECT_EQ(sameEdge.links, std::set<uint32_t>{2});
    EXPECT_EQ(samePod.links, std::set<uint32_t>{4});
    EXPECT_EQ(otherPod.links, std::set<uint32_t>{6});
    EXPECT_EQ(otherPod.switchHops, std::set<uint32_t>{5});
    EXPECT_EQ(sameEdge.paths, 1u);
    EXPECT_EQ(samePod.paths, 2u);
    EXPECT_EQ(otherPod.paths, 4u);
    // Path() hashes flows over all 4 cores.
    std::set<NodeIndex> cores;
    for (uint64_t h = 0; h < 64; ++h)
    {
        std::vector<LinkIndex> path = t->Path(0, 15, h);
        const TopologyLink& up = t->Graph().Link(path[2]); // agg -> core
        cores.insert(up.b);
    }
    EXPECT_EQ(cores.size(), 4u);
    CheckAllPairs(*t);
}

TEST(FatTreeTopologyTest, TierRates)
{
    auto t = MakeTopology("fattree:k=4,aggrate=100Gbps,corerate=200Gbps", 40e9, 1e-6);
    const TopologyGraph& g = t->Graph();
    // Links in build order: 16 host links, 16 edge-agg, 16 agg-core.
    EXPECT_DOUBLE_EQ(g.Link(0).rateBps, 40e9);
    EXPECT_DOUBLE_EQ(g.Link(16).rateBps, 100e9);
    EXPECT_DOUBLE_EQ(g.Link(47).rateBps, 200e9);
    EXPECT_FALSE(g.Node(g.Link(47).b).isHost);
    EXPECT_EQ(t->Spec(), "fattree:k=4,aggrate=100Gbps,corerate=200Gbps");
}

TEST(FatTreeTopologyTest, NextHopRunsAreItsNextHopsByRange)
{
    // The fat-tree gives its runs by structure; Topology's own NextHopRuns asks NextHops
    // destination by destination: both must hold the same hops for every destination.
    for (const std::string spec : {"fattree:k=4", "fattree:k=6", "fattree:k=4,oversub=2"})
    {
        auto t = Make(spec);
        std::vector<RouteRun> runs;
        std::vector<RouteRun> reference;
        for (NodeIndex v = 0; v < t->Graph().NodeCount(); ++v)
        {
            t->NextHopRuns(v, 0, runs);
            t->Topology::NextHopRuns(v, 0, reference);
            ASSERT_EQ(runs.size(), reference.size()) << spec << " node " << v;
            for (size_t i = 0; i < runs.size(); ++i)
            {
                EXPECT_EQ(runs[i].first, reference[i].first) << spec << " node " << v;
                EXPECT_EQ(runs[i].end, reference[i].end) << spec << " node " << v;
                EXPECT_TRUE(runs[i].hops == reference[i].hops) << spec << " node " << v;
            }
        }
    }
    // fattree:k=4 by hand: host 0 reaches hosts 1..15 by its uplink (one run); edge switch 0
    // (node 16) holds h0 and h1 on ports 0 and 1 and sends hosts 2..15 up ports 2-3: three
    // runs; a core (node 32) sends pod p's hosts [4p, 4p + 4) down port p: four runs.
    auto t = Make("fattree:k=4");
    std::vector<RouteRun> runs;
    t->NextHopRuns(0, 0, runs);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].first, 1u);
    EXPECT_EQ(runs[0].end, 16u);
    t->NextHopRuns(16, 0, runs);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[2].first, 2u);
    EXPECT_EQ(runs[2].hops.size(), 2u);
    t->NextHopRuns(32, 0, runs);
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[3].first, 12u);
    EXPECT_EQ(runs[3].hops[0].port, 3u);
}

TEST(FatTreeTopologyTest, LargeFatTreeBuildsAndRoutes)
{
    auto t = Make("fattree:k=36");
    // 36^3/4 = 11664 hosts, 5*36^2/4 = 1620 switches.
    EXPECT_EQ(t->Graph().HostCount(), 11664u);
    EXPECT_EQ(t->Graph().SwitchCount(), 1620u);
    uint64_t links = 0;
    for (uint32_t i = 0; i < 20000; ++i)
    {
        links += t->Path((i * 7919) % 11664, (i * 104729 + 1) % 11664, i).size();
    }
    // Every pair is distinct hosts: at least host-edge-host, 2 links.
    EXPECT_GT(links, 20000u * 2);
}

// ---------------------------------------------------------------- BiGraph

TEST(BigraphTopologyTest, CountsHopsAndLanes)
{
    auto t = Make("bigraph:s=4,m=4");
    const auto& b = As<BigraphTopology>(t);
    const TopologyGraph& g = t->Graph();
    // 2sm = 32 hosts, 2s = 8 switches, s^2 + 2sm = 16 + 32 = 48 links, m + s = 8 ports.
    EXPECT_EQ(g.HostCount(), 32u);
    EXPECT_EQ(g.SwitchCount(), 8u);
    EXPECT_EQ(g.LinkCount(), 48u);
    EXPECT_EQ(Degrees(g, false), std::set<size_t>{8});
    EXPECT_EQ(b.Part(15), 0u);
    EXPECT_EQ(b.Part(16), 1u);
    EXPECT_EQ(b.SwitchOf(5), b.SwitchOf(7));
    EXPECT_EQ(t->LaneCount(), 2);
    PathSet sameSwitch = AllPaths(*t, 0, 3);
    PathSet otherPart = AllPaths(*t, 0, 20);
    PathSet samePart = AllPaths(*t, 0, 9);
    // 2 links; one inter-part hop = 3 links; same part = 4 links over any of s = 4 switches.
    EXPECT_EQ(sameSwitch.links, std::set<uint32_t>{2});
    EXPECT_EQ(otherPart.links, std::set<uint32_t>{3});
    EXPECT_EQ(otherPart.paths, 1u);
    EXPECT_EQ(samePart.links, std::set<uint32_t>{4});
    EXPECT_EQ(samePart.paths, 4u);
    // Lane = part of the destination, on every link.
    EXPECT_EQ(samePart.laneSeqs[0], (std::vector<uint8_t>{0, 0, 0, 0}));
    EXPECT_EQ(AllPaths(*t, 20, 25).laneSeqs[0], (std::vector<uint8_t>{1, 1, 1, 1}));
    CheckAllPairs(*t);
}

// ---------------------------------------------------------------- all families

TEST(TopologyRoutingPropertyTest, RandomSizesRouteMinimallyWithoutLoops)
{
    std::mt19937 rng(12345);
    auto pick = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    std::vector<std::string> specs;
    for (int i = 0; i < 3; ++i)
    {
        uint32_t n = pick(2, 4);
        specs.push_back("bcube:n=" + std::to_string(n) +
                        ",k=" + std::to_string(pick(0, n == 2 ? 3 : 2)));
        specs.push_back("torus:dims=" + std::to_string(pick(2, 6)) + "x" +
                        std::to_string(pick(2, 6)));
        specs.push_back("torus:dims=" + std::to_string(pick(2, 4)) + "x" +
                        std::to_string(pick(2, 4)) + "x" + std::to_string(pick(2, 3)));
        specs.push_back("fattree:k=" + std::to_string(2 * pick(1, 3)) +
                        ",oversub=" + std::to_string(pick(1, 2)));
        specs.push_back("bigraph:s=" + std::to_string(pick(1, 4)) +
                        ",m=" + std::to_string(pick(1, 3)));
        specs.push_back("ring:n=" + std::to_string(pick(2, 12)));
        specs.push_back("star:n=" + std::to_string(pick(2, 10)));
    }
    for (const std::string& spec : specs)
    {
        SCOPED_TRACE(spec);
        auto t = Make(spec);
        CheckAllPairs(*t);
        if (HasFatalFailure())
        {
            return;
        }
    }
}

TEST(MakeTopologyTest, BadSpecsNameTheSpecAndWhatIsAllowed)
{
    for (std::string spec : {"bcube:n=1,k=1",
                             "bcube:n=3",
                             "bcube:n=3,k=-1",
                             "fattree:k=5",
                             "fattree:k=4,typo=1",
                             "torus:dims=4x1",
                             "torus:dims=4xa",
                             "torus:n=4",
                             "mesh:n=3",
                             "ring:n=1",
                             "star:n=0",
                             "bigraph:s=0,m=2",
                             "bcube:n=16,k=7",
                             "file:",
                             "ring:n=9,deadlockfree=maybe"})
    {
        try
        {
            Make(spec);
            ADD_FAILURE() << spec << " accepted";
        }
        catch (const std::invalid_argument& e)
        {
            std::string what = e.what();
            EXPECT_NE(what.find("--topology"), std::string::npos) << what;
            // Names the spec (file: is rewritten to its long form path=).
            std::string name = spec.substr(0, spec.find(':'));
            EXPECT_NE(what.find(name), std::string::npos) << what;
        }
    }
    try
    {
        Make("mesh:n=3");
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("bcube:n=N,k=K"), std::string::npos) << e.what();
    }
    try
    {
        Make("fattree:k=5");
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("odd"), std::string::npos) << e.what();
    }
}

TEST(MakeTopologyTest, RateAndDelayDefaultsAndOverrides)
{
    auto d = MakeTopology("star:n=2", 25e9, 3e-6);
    EXPECT_DOUBLE_EQ(d->Graph().Link(0).rateBps, 25e9);
    EXPECT_DOUBLE_EQ(d->Graph().Link(0).delayS, 3e-6);
    auto o = MakeTopology("torus:dims=3x3,rate=10Gbps,delay=500ns", 25e9, 3e-6);
    for (LinkIndex l = 0; l < o->Graph().LinkCount(); ++l)
    {
        EXPECT_DOUBLE_EQ(o->Graph().Link(l).rateBps, 10e9);
        EXPECT_DOUBLE_EQ(o->Graph().Link(l).delayS, 500e-9);
    }
    EXPECT_EQ(o->Spec(), "torus:dims=3x3,rate=10Gbps,delay=500ns");
    EXPECT_EQ(Make("bcube:k=1,n=3")->Spec(), "bcube:n=3,k=1");
    EXPECT_EQ(TopologyFamilies().size(), 8u); // the seven families and the server wrapper
}
