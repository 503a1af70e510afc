// Source-routed parallel paths (topologies/parallel-paths.h): BCube source routing's k+1
// paths (Guo et al., SIGCOMM'09, section 4, BuildPathSet) and the torus's rotated dimension
// orders, hand-derived on small instances, and the properties the paper proves checked over
// every pair.
#include "ns3/bcube-topology.h"
#include "ns3/directed-cycle.h"
#include "ns3/parallel-paths.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <set>

namespace ns3
{
namespace
{

/// The parallel paths of a spec's topology (which `topology` keeps alive).
std::unique_ptr<ParallelPaths>
PathsOf(const std::string& spec, std::unique_ptr<Topology>& topology)
{
    topology = MakeTopology(spec, 40e9, 1e-6);
    return topology->SourceRoutes();
}

/// The hosts of a path's node list (BCube and torus hosts are nodes 0..hosts-1).
std::vector<NodeIndex>
Servers(const std::vector<NodeIndex>& nodes, uint32_t hosts)
{
    std::vector<NodeIndex> servers;
    for (NodeIndex v : nodes)
    {
        if (v < hosts)
        {
            servers.push_back(v);
        }
    }
    return servers;
}

TEST(BcubeParallelPaths, Bcube31PathsByHand)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf("bcube:n=3,k=1", t);
    ASSERT_TRUE(paths);
    EXPECT_EQ(paths->PathCount(), 2u);  // k+1
    EXPECT_EQ(paths->RouteCount(), 4u); // k+1 orders, k+1 detours
    EXPECT_EQ(paths->LaneCount(), 3u);  // k+2
    const TopologyGraph& g = t->Graph();
    // Ranks a1 a0 in base 3; the level-l switch of index s (the address without digit l) is
    // node 9 + 3 l + s. A = 00 (0) to B = 11 (4): both digits differ, h = 2.
    // Path 0 corrects digit 0 then 1: 00 -sw0.0-> 01 (1) -sw1.1-> 11: nodes 0, 9, 1, 13, 4.
    EXPECT_EQ(paths->Nodes(g, 0, 4, 0), (std::vector<NodeIndex>{0, 9, 1, 13, 4}));
    // Path 1 corrects digit 1 then 0: 00 -sw1.0-> 10 (3) -sw0.1-> 11: nodes 0, 12, 3, 10, 4.
    EXPECT_EQ(paths->Nodes(g, 0, 4, 1), (std::vector<NodeIndex>{0, 12, 3, 10, 4}));
    // A = 00 to B = 01 (1): a_1 == b_1, so path 1 is the detour (AltDCRouting): to C = 10
    // (3, c_1 = a_1 + 1) by sw1.0, then digits 0 and 1 in the order 0, 1: 10 -sw0.1-> 11 (4)
    // -sw1.1-> 01: h + 2 = 3 server hops. Path 0 is the direct hop by sw0.0.
    EXPECT_EQ(paths->Route(0, 1, 0), 0u);
    EXPECT_EQ(paths->Route(0, 1, 1), 3u); // detour at level 1: k+1+1
    EXPECT_EQ(paths->Nodes(g, 0, 1, 0), (std::vector<NodeIndex>{0, 9, 1}));
    EXPECT_EQ(paths->Nodes(g, 0, 1, 1), (std::vector<NodeIndex>{0, 12, 3, 10, 4, 13, 1}));
    // Lanes: (k+2) - server hops left. On the detour: 3 left at A (lane 0), kept by sw1.0;
    // 2 left at 10 (lane 1); 1 left at 11 (lane 2). The direct path: 1 left (lane 2).
    EXPECT_EQ(paths->Hop(0, 1, 3).lane, 0u);
    EXPECT_EQ(paths->Hop(12, 1, 3).lane, 0u);
    EXPECT_EQ(paths->Hop(3, 1, 3).lane, 1u);
    EXPECT_EQ(paths->Hop(4, 1, 3).lane, 2u);
    EXPECT_EQ(paths->Hop(13, 1, 3).lane, 2u);
    EXPECT_EQ(paths->Hop(0, 1, 0).lane, 2u);
    // sw1.0 sends the detour to C (its port c_1 = 1), but a correction of digit 1 towards
    // B = 01 to its port b_1 = 0.
    EXPECT_EQ(paths->Hop(12, 1, 3).port, 1u);
    EXPECT_EQ(paths->Hop(12, 1, 1).port, 0u);
}

TEST(BcubeParallelPaths, Bcube42PathsByHand)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf("bcube:n=4,k=2", t);
    ASSERT_TRUE(paths);
    const uint32_t hosts = t->Graph().HostCount();
    ASSERT_EQ(hosts, 64u);
    // Ranks a2 a1 a0 in base 4. A = 000 (0) to B = 102 (1 x 16 + 2 = 18): h = 2.
    // Path 0 (a_0 != b_0): order 0, 2, 1: 000 -> 002 (2) -> 102 (18).
    EXPECT_EQ(Servers(paths->Nodes(t->Graph(), 0, 18, 0), hosts),
              (std::vector<NodeIndex>{0, 2, 18}));
    // Path 1 (a_1 == b_1 = 0): detour to 010 (4), then order 0, 2, 1: 012 (6), 112 (22),
    // 102 (18): h + 2 = 4 server hops.
    EXPECT_EQ(Servers(paths->Nodes(t->Graph(), 0, 18, 1), hosts),
              (std::vector<NodeIndex>{0, 4, 6, 22, 18}));
    // Path 2 (a_2 != b_2): order 2, 1, 0: 100 (16), 102.
    EXPECT_EQ(Servers(paths->Nodes(t->Graph(), 0, 18, 2), hosts),
              (std::vector<NodeIndex>{0, 16, 18}));
}

/// Over every pair: the k+1 paths share no node but their ends, and path i has h(A,B) server
/// hops when a_i != b_i, else h(A,B) + 2 (Guo et al., section 4, Theorem 3).
void
CheckDisjointAndLengths(const std::string& spec)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf(spec, t);
    auto& bcube = dynamic_cast<BcubeTopology&>(*t);
    const uint32_t hosts = t->Graph().HostCount();
    for (HostRank a = 0; a < hosts; ++a)
    {
        for (HostRank b = 0; b < hosts; ++b)
        {
            if (a == b)
            {
                continue;
            }
            const std::vector<uint32_t> da = bcube.Digits(a);
            const std::vector<uint32_t> db = bcube.Digits(b);
            uint32_t h = 0;
            for (size_t l = 0; l < da.size(); ++l)
            {
                h += da[l] != db[l] ? 1 : 0;
            }
            std::set<NodeIndex> seen;
            for (uint32_t i = 0; i < paths->PathCount(); ++i)
            {
                const std::vector<NodeIndex> nodes = paths->Nodes(t->Graph(), a, b, i);
                const uint32_t serverHops = static_cast<uint32_t>(Servers(nodes, hosts).size()) - 1;
                EXPECT_EQ(serverHops, da[i] != db[i] ? h : h + 2) << spec << " " << a << "->" << b;
                for (size_t q = 1; q + 1 < nodes.size(); ++q)
                {
                    EXPECT_TRUE(seen.insert(nodes[q]).second)
                        << spec << " " << a << "->" << b << " path " << i << " meets another";
                }
            }
        }
    }
}

TEST(BcubeParallelPaths, NodeDisjointOverEveryPair)
{
    CheckDisjointAndLengths("bcube:n=3,k=1");
    CheckDisjointAndLengths("bcube:n=4,k=2");
    CheckDisjointAndLengths("bcube:n=2,k=3");
}

TEST(BcubeParallelPaths, LanesRiseByOnePerRelay)
{
    // Deadlock freedom (topologies/parallel-paths.h): on every path the lane out of each
    // server is one above the lane into it, and a switch keeps the lane it got.
    std::unique_ptr<Topology> t;
    auto paths = PathsOf("bcube:n=3,k=2", t);
    const TopologyGraph& g = t->Graph();
    for (HostRank a = 0; a < g.HostCount(); ++a)
    {
        for (HostRank b = 0; b < g.HostCount(); ++b)
        {
            for (uint32_t r = 0; a != b && r < paths->RouteCount(); ++r)
            {
                NodeIndex v = a;
                int previous = -1;
                for (uint32_t steps = 0; v != b && steps < 20; ++steps)
                {
                    const RouteHop hop = paths->Hop(v, b, r);
                    const bool server = v < g.HostCount();
                    if (previous >= 0)
                    {
                        EXPECT_EQ(int(hop.lane), server ? previous + 1 : previous);
                    }
                    EXPECT_LT(hop.lane, paths->LaneCount());
                    previous = hop.lane;
                    v = g.Ports(v)[hop.port].peer;
                }
                EXPECT_EQ(v, b) << a << "->" << b << " route " << r;
            }
        }
    }
}

TEST(TorusParallelPaths, Torus4x4ByHand)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf("torus:dims=4x4", t);
    ASSERT_TRUE(paths);
    EXPECT_EQ(paths->PathCount(), 2u);
    EXPECT_EQ(paths->LaneCount(), 4u); // 2 rotations x 2 lanes (sides >= 4)
    const TopologyGraph& g = t->Graph();
    // Rank = 4 c0 + c1. (0,0) to (2,1) (rank 9): dimension 0 ties (2 either way).
    // Path 0: dimension 0 first, "+" on the tie: (1,0) 4, (2,0) 8, then (2,1) 9.
    EXPECT_EQ(paths->Nodes(g, 0, 9, 0), (std::vector<NodeIndex>{0, 4, 8, 9}));
    // Path 1: dimension 1 first: (0,1) 1, then "-" on the tie: (3,1) 13, (2,1) 9.
    EXPECT_EQ(paths->Nodes(g, 0, 9, 1), (std::vector<NodeIndex>{0, 1, 13, 9}));
    // (0,0) to (0,3) (rank 3): only dimension 1 differs, 1 hop "-": both paths the same.
    EXPECT_EQ(paths->Nodes(g, 0, 3, 0), (std::vector<NodeIndex>{0, 3}));
    EXPECT_EQ(paths->Nodes(g, 0, 3, 1), (std::vector<NodeIndex>{0, 3}));
    // Lanes, rotation p on lanes 2p and 2p+1. (2,0) to (0,0) on path 0 ties, goes "+": the
    // hop 2 -> 3 has the wrap link still ahead (lower lane 0), the hop 3 -> 0 crosses it
    // (upper lane 1).
    EXPECT_EQ(paths->Nodes(g, 8, 0, 0), (std::vector<NodeIndex>{8, 12, 0}));
    EXPECT_EQ(paths->Hop(8, 0, 0).lane, 0u);
    EXPECT_EQ(paths->Hop(12, 0, 0).lane, 1u);
    // Path 1 of (0,0) -> (2,1): (0,0) -> (0,1) never wraps (upper lane 3); (0,1) -> (3,1)
    // crosses the wrap link going "-" (lane 3); (3,1) -> (2,1) is past it (lane 3).
    EXPECT_EQ(paths->Hop(0, 9, 1).lane, 3u);
    EXPECT_EQ(paths->Hop(1, 9, 1).lane, 3u);
    EXPECT_EQ(paths->Hop(13, 9, 1).lane, 3u);
}

TEST(TorusParallelPaths, Torus333RotatesThreeOrders)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf("torus:dims=3x3x3", t);
    ASSERT_TRUE(paths);
    EXPECT_EQ(paths->PathCount(), 3u);
    EXPECT_EQ(paths->LaneCount(), 3u); // sides of 3 need no dateline: a lane per rotation
    // Rank = 9 c0 + 3 c1 + c2. (0,0,0) to (1,1,1) (13): rotation p starts at dimension p.
    const TopologyGraph& g = t->Graph();
    EXPECT_EQ(paths->Nodes(g, 0, 13, 0), (std::vector<NodeIndex>{0, 9, 12, 13}));
    EXPECT_EQ(paths->Nodes(g, 0, 13, 1), (std::vector<NodeIndex>{0, 3, 4, 13}));
    EXPECT_EQ(paths->Nodes(g, 0, 13, 2), (std::vector<NodeIndex>{0, 1, 10, 13}));
}

/// A cycle of the channel dependency graph of every route id from every host to every other
/// (channel = one direction of a link on one lane; an edge where a packet on one channel
/// leaves on the next, Dally and Seitz's condition): empty when PFC cannot deadlock.
std::vector<uint32_t>
SourceRoutedCycle(const std::string& spec)
{
    std::unique_ptr<Topology> t;
    auto paths = PathsOf(spec, t);
    const TopologyGraph& g = t->Graph();
    const uint32_t lanes = paths->LaneCount();
    std::vector<std::vector<uint32_t>> next(size_t{g.LinkCount()} * 2 * lanes);
    for (HostRank a = 0; a < g.HostCount(); ++a)
    {
        for (HostRank b = 0; b < g.HostCount(); ++b)
        {
            for (uint32_t r = 0; a != b && r < paths->RouteCount(); ++r)
            {
                int64_t previous = -1;
                for (NodeIndex v = a; v != b;)
                {
                    const RouteHop hop = paths->Hop(v, b, r);
                    const PortPeer& peer = g.Ports(v)[hop.port];
                    const uint32_t direction = g.Link(peer.link).a == v ? 0 : 1;
                    const uint32_t channel = (peer.link * 2 + direction) * lanes + hop.lane;
                    if (previous >= 0)
                    {
                        next[previous].push_back(channel);
                    }
                    previous = channel;
                    v = peer.peer;
                }
            }
        }
    }
    return FindDirectedCycle(next);
}

TEST(ParallelPaths, SourceRoutedLanesCloseNoDependencyCycle)
{
    for (const char* spec : {"bcube:n=3,k=1",
                             "bcube:n=3,k=2",
                             "bcube:n=4,k=1",
                             "torus:dims=4x4",
                             "torus:dims=3x3x3",
                             "torus:dims=5x4",
                             "torus:dims=2x4"})
    {
        EXPECT_TRUE(SourceRoutedCycle(spec).empty()) << spec;
    }
    // Without the lanes a ring of 4 closes: 2-hop paths "+" chain 0->1->2->3->0.
    EXPECT_FALSE(SourceRoutedCycle("torus:dims=4x4,deadlockfree=0").empty());
}

TEST(ParallelPaths, FamiliesWithoutThemHaveNone)
{
    for (const char* spec : {"fattree:k=4", "bigraph:s=4,m=4", "star:n=8", "ring:n=9"})
    {
        EXPECT_EQ(MakeTopology(spec, 40e9, 1e-6)->SourceRoutes(), nullptr) << spec;
    }
}

} // namespace
} // namespace ns3
