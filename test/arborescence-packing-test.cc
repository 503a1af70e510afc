// PackingLp (workloads/packing-lp.h) on LPs solved by hand, and ArborescencePacking
// (workloads/arborescence-packing.h) against upper bounds computed here independently of
// it: the hosts' port capacity over 2(N-1), and the smallest cut between hosts, by
// Boost.Graph's max-flow.
#include "ns3/arborescence-packing.h"
#include "ns3/packing-lp.h"
#include "ns3/topology.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace ns3
{
namespace
{

TEST(PackingLp, SolvesASmallLpAndItsDualsByHand)
{
    // max x1 + x2 s.t. x1 <= 4, x1 + 2 x2 <= 6: x1 = 4, x2 = 1, value 5. Duals: both
    // constraints bind, y0 + y1 = 1 (x1's column) and 2 y1 = 1 (x2's): y = (1/2, 1/2), and
    // b^T y = 2 + 3 = 5 = the value (strong duality).
    PackingLp lp({4, 6});
    lp.AddColumn({{0, 1}, {1, 1}});
    lp.AddColumn({{1, 2}});
    EXPECT_NEAR(lp.Solve(), 5, 1e-5);
    EXPECT_NEAR(lp.Value(0), 4, 1e-5);
    EXPECT_NEAR(lp.Value(1), 1, 1e-5);
    const std::vector<double> y = lp.Duals();
    EXPECT_NEAR(y[0], 0.5, 1e-9);
    EXPECT_NEAR(y[1], 0.5, 1e-9);
}

TEST(PackingLp, AColumnAddedAfterASolveIsPricedAndEntered)
{
    // Adding x3 with column (1, 0): max x1 + x2 + x3 s.t. x1 + x3 <= 4, x1 + 2 x2 <= 6.
    // x2 = (6 - x1) / 2 gives 3 + x1 / 2 + x3 with x1 + x3 <= 4: x3 = 4, x1 = 0, x2 = 3,
    // value 7. Its reduced cost under the old duals was 1 - 1/2 > 0, so it enters.
    PackingLp lp({4, 6});
    lp.AddColumn({{0, 1}, {1, 1}});
    lp.AddColumn({{1, 2}});
    lp.Solve();
    lp.AddColumn({{0, 1}});
    EXPECT_NEAR(lp.Solve(), 7, 1e-5);
    EXPECT_NEAR(lp.Value(0), 0, 1e-5);
    EXPECT_NEAR(lp.Value(1), 3, 1e-5);
    EXPECT_NEAR(lp.Value(2), 4, 1e-5);
}

TEST(PackingLp, RefusesBadInput)
{
    EXPECT_THROW(PackingLp({1, 0}), std::invalid_argument);
    PackingLp lp({1});
    EXPECT_THROW(lp.AddColumn({{1, 1}}), std::invalid_argument);
    EXPECT_THROW(lp.AddColumn({{0, 0}}), std::invalid_argument);
}

/// Smallest capacity (bit/s) of a cut separating two hosts: every spanning tree over the
/// hosts has an edge across it, whose routes cross it once each way, so no packing exceeds
/// it. Max-flow from host 0 to every other host and back (one side of the smallest cut
/// holds host 0).
double
MinHostCut(const Topology& topology)
{
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using Graph = boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<
            boost::edge_capacity_t,
            double,
            boost::property<boost::edge_residual_capacity_t,
                            double,
                            boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
    const TopologyGraph& g = topology.Graph();
    Graph flow(g.NodeCount());
    auto capacity = boost::get(boost::edge_capacity, flow);
    auto reverse = boost::get(boost::edge_reverse, flow);
    auto addArc = [&](uint32_t a, uint32_t b, double c) {
        auto e = boost::add_edge(a, b, flow).first;
        auto r = boost::add_edge(b, a, flow).first;
        capacity[e] = c;
        capacity[r] = 0;
        reverse[e] = r;
        reverse[r] = e;
    };
    for (LinkIndex l = 0; l < g.LinkCount(); ++l)
    {
        addArc(g.Link(l).a, g.Link(l).b, g.Link(l).rateBps);
        addArc(g.Link(l).b, g.Link(l).a, g.Link(l).rateBps);
    }
    double cut = std::numeric_limits<double>::infinity();
    for (HostRank t = 1; t < g.HostCount(); ++t)
    {
        for (auto [s, d] :
             {std::pair{g.HostNode(0), g.HostNode(t)}, std::pair{g.HostNode(t), g.HostNode(0)}})
        {
            cut = std::min(cut, double(boost::push_relabel_max_flow(flow, s, d)));
        }
    }
    return cut;
}

/// The hosts' outgoing port capacity over 2(N-1): a tree edge {u, v} leaves u once and v
/// once, so a tree of rate x uses sum_h deg(h) x = 2(N-1) x of the hosts' ports.
double
HostPortBound(const Topology& topology)
{
    const TopologyGraph& g = topology.Graph();
    double out = 0;
    for (HostRank h = 0; h < g.HostCount(); ++h)
    {
        for (const PortPeer& port : g.Ports(g.HostNode(h)))
        {
            out += g.Link(port.link).rateBps;
        }
    }
    return out / (2.0 * (g.HostCount() - 1));
}

/// Packs `spec` at 40 Gb/s with the `trees` defaults (256 iterations, epsilon 0.1, at most
/// 128 trees, gap 0.025) and checks it against the independent bound.
void
ExpectWithinThreePercent(const std::string& spec)
{
    auto topology = MakeTopology(spec, 40e9, 1e-6);
    const double bound = std::min(HostPortBound(*topology), MinHostCut(*topology));
    const TreePackingResult r = ArborescencePacking(256, 0.1, 128, 0.025).Pack(*topology);
    EXPECT_LE(r.aggregateBps, bound * (1 + 1e-6)) << spec;
    EXPECT_GE(r.aggregateBps, bound * 0.97) << spec;
    // The packer's own proven bound lies between what it packed and the true bounds.
    EXPECT_GE(r.upperBoundBps, r.aggregateBps * (1 - 1e-6)) << spec;
    EXPECT_LE(r.upperBoundBps, HostPortBound(*topology) * (1 + 1e-9)) << spec;
    EXPECT_LE(r.trees.size(), 128u) << spec;
}

TEST(ArborescencePacking, WithinThreePercentOfTheIndependentBoundOnUniformNetworks)
{
    // Uniform BCube, torus, fat-tree and BiGraph at 40 Gb/s. E.g. BCube(4,1): 16 hosts x 2
    // ports x 40 / 30 = 42.67 Gb/s (a host's own cut is 80); fat-tree k=4: 16 x 40 / 30 =
    // 21.33; fat-tree k=8: 128 x 40 / 254 = 20.16.
    for (const char* spec : {"bcube:n=3,k=1",
                             "bcube:n=4,k=1",
                             "bcube:n=3,k=2",
                             "bcube:n=4,k=2",
                             "torus:dims=4x4",
                             "torus:dims=5x5",
                             "torus:dims=3x3x3",
                             "torus:dims=8x8",
                             "fattree:k=4",
                             "fattree:k=6",
                             "fattree:k=8",
                             "bigraph:s=4,m=4"})
    {
        ExpectWithinThreePercent(spec);
    }
}

TEST(ArborescencePacking, WithinThreePercentAtTwoHundredHosts)
{
    // The largest that fit the test budget (a few seconds each): 216, 216 and 250 hosts,
    // where 32 trees are not enough and the tree budget grows. Host port bounds: torus
    // 6x6x6: 216 x 6 x 40 / 430 = 120.56 Gb/s; BCube(6,2): 216 x 3 x 40 / 430 = 60.28;
    // fat-tree k=10: 250 x 40 / 498 = 20.08. The 432-512-host shapes (BCube(8,2), torus
    // 8x8x8, fat-tree k=12) take 8-13 s of CPU each: DISABLED_WithinThreePercentAt512Hosts.
    for (const char* spec : {"torus:dims=6x6x6", "bcube:n=6,k=2", "fattree:k=10"})
    {
        ExpectWithinThreePercent(spec);
    }
}

TEST(ArborescencePacking, DISABLED_WithinThreePercentAt512Hosts)
{
    // Run with --gtest_also_run_disabled_tests. Host port bounds: BCube(8,2) 512 x 3 x 40 /
    // 1022 = 60.12 Gb/s; torus 8x8x8 512 x 6 x 40 / 1022 = 120.23; fat-tree k=12 432 x 40 /
    // 862 = 20.05.
    for (const char* spec : {"bcube:n=8,k=2", "torus:dims=8x8x8", "fattree:k=12"})
    {
        ExpectWithinThreePercent(spec);
    }
}

TEST(ArborescencePacking, TreeBudgetGrowsUntilProvenWithinTheGap)
{
    // BCube(4,2), 64 hosts: its host port bound 64 x 3 x 40 / 126 = 60.95 Gb/s is the
    // optimum (every cut between hosts is larger). The packer stops growing its tree budget
    // only when proven within the gap or at maxTrees: with gap 0.01 and 128 trees allowed,
    // if it stopped below 128 trees, aggregate >= 0.99 x its upper bound >= 0.99 x 60.95.
    // 32 trees alone are not enough for that (their LP is 97.7 % of it, measured), so the
    // budget must have grown past the first 32.
    auto topology = MakeTopology("bcube:n=4,k=2", 40e9, 1e-6);
    const double bound = std::min(HostPortBound(*topology), MinHostCut(*topology));
    const TreePackingResult r = ArborescencePacking(256, 0.1, 128, 0.01).Pack(*topology);
    ASSERT_LT(r.trees.size(), 128u);
    EXPECT_GT(r.trees.size(), 32u);
    EXPECT_GE(r.aggregateBps, 0.99 * r.upperBoundBps * (1 - 1e-9));
    EXPECT_GE(r.aggregateBps, 0.99 * bound * (1 - 1e-9));
    EXPECT_LE(r.aggregateBps, bound * (1 + 1e-6));
    // maxTrees caps the growth: with 32 the budget never grows.
    EXPECT_LE(ArborescencePacking(256, 0.1, 32, 0.01).Pack(*topology).trees.size(), 32u);
}

TEST(ArborescencePacking, RefusesBadGap)
{
    EXPECT_THROW(ArborescencePacking(256, 0.1, 32, -0.1), std::invalid_argument);
    EXPECT_THROW(ArborescencePacking(256, 0.1, 32, 1.0), std::invalid_argument);
}

} // namespace
} // namespace ns3
