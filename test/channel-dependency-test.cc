/*
 * Tests of FindDependencyCycle, and through it of every family's lane scheme: with lanes the
 * channel dependency graph is acyclic (no PFC deadlock possible), with deadlockfree=0 the
 * cycles the lanes exist to break are there.
 */
#include "ns3/channel-dependency.h"
#include "ns3/file-topology.h"
#include "ns3/topology.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;

namespace
{

std::vector<Channel>
Cycle(const std::string& spec)
{
    return FindDependencyCycle(*MakeTopology(spec, 40e9, 1e-6));
}

} // namespace

TEST(ChannelDependencyTest, LanesBreakEveryCycle)
{
    for (std::string spec : {"torus:dims=4x4",
                             "torus:dims=5x4x2",
                             "torus:dims=6",
                             "ring:n=9",
                             "ring:n=4",
                             "bcube:n=3,k=1",
                             "bcube:n=2,k=3",
                             "bcube:n=4,k=2",
                             "bigraph:s=2,m=1",
                             "bigraph:s=3,m=2",
                             "fattree:k=4",
                             "fattree:k=6,oversub=2",
                             "star:n=5"})
    {
        EXPECT_TRUE(Cycle(spec).empty()) << spec;
    }
}

TEST(ChannelDependencyTest, WithoutLanesRingsRelaysAndBigraphsCycle)
{
    for (std::string spec : {"torus:dims=4x4,deadlockfree=0",
                             "ring:n=9,deadlockfree=0",
                             "ring:n=4,deadlockfree=0",
                             "bcube:n=3,k=1,deadlockfree=0",
                             "bigraph:s=2,m=1,deadlockfree=0"})
    {
        std::vector<Channel> cycle = Cycle(spec);
        ASSERT_FALSE(cycle.empty()) << spec;
        // Consecutive channels chain: each starts where the previous one ends.
        auto topo = MakeTopology(spec, 40e9, 1e-6);
        const TopologyGraph& g = topo->Graph();
        for (size_t i = 0; i < cycle.size(); ++i)
        {
            const TopologyLink& l = g.Link(cycle[i].link);
            NodeIndex end = cycle[i].from == l.a ? l.b : l.a;
            EXPECT_EQ(end, cycle[(i + 1) % cycle.size()].from) << spec;
        }
    }
    // A ring of 4 without lanes: the cycle is the 4 channels of one direction round it.
    EXPECT_EQ(Cycle("ring:n=4,deadlockfree=0").size(), 4u);
}

TEST(ChannelDependencyTest, SidesTwoAndThreeNeedNoDateline)
{
    // A minimal path makes at most one hop in a dimension of side 2 or 3: no dependency
    // inside the ring, hence one lane suffices.
    EXPECT_EQ(MakeTopology("torus:dims=3x3x2", 1e9, 0)->LaneCount(), 1);
    EXPECT_TRUE(Cycle("torus:dims=3x3x2").empty());
    EXPECT_TRUE(Cycle("ring:n=3").empty());
}

TEST(ChannelDependencyTest, HpccFatTreeFileIsSafeAServerCentricFileIsNot)
{
    // fat.txt routes shortest paths, which on a fat-tree are up-down: no cycle.
    FileTopology fat(std::string(PARAMSYNC_SOURCE_DIR) + "/topologies/hpcc/fat.txt");
    EXPECT_TRUE(FindDependencyCycle(fat).empty());
    // The same 4x4 torus written to a file loses its lanes: files use one lane.
    auto torus = MakeTopology("torus:dims=4x4", 40e9, 1e-6);
    std::string path = ::testing::TempDir() + "paramsync-cdg-" + std::to_string(::getpid());
    FileTopology::WriteNativeFile(torus->Graph(), path);
    FileTopology file(path);
    std::remove(path.c_str());
    EXPECT_FALSE(FindDependencyCycle(file).empty());
}
