// RankPartition (helper/rank-partition.h): pods, BCube groups and star halves on ranks, and
// the links the placement cuts, counted by hand for each family.
#include "ns3/paramsync-helper.h"
#include "ns3/rank-partition.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{
std::unique_ptr<Topology>
Make(const std::string& spec)
{
    return MakeTopology(spec, 40e9, 1e-6);
}
} // namespace

TEST(RankPartitionTest, FatTreePodsOnTwoRanksCutOnlyCoreLinks)
{
    for (uint32_t k : {4u, 8u})
    {
        auto t = Make("fattree:k=" + std::to_string(k));
        const RankPartition p(t->Graph(), 2);
        // Pods 0..k/2-1 on rank 0, the rest on rank 1 (hosts k^2/4 per pod, numbered pod by
        // pod). Each of the (k/2)^2 core switches has one link per pod, k/2 of them into the
        // other rank's pods: (k/2)^2 * k/2 = k^3/8 cut links (8 at k=4, 64 at k=8) of the
        // 3 k^3/4 links (host, edge-aggregation, aggregation-core: k^3/4 each).
        EXPECT_EQ(p.CutLinks(), k * k * k / 8) << "k=" << k;
        EXPECT_EQ(t->Graph().LinkCount(), 3 * k * k * k / 4);
        // 5k^2/4 nodes (k^3/4 hosts at k=4 is 16, k^2 pod switches, k^2/4 cores): the pods
        // split evenly and the tied core switches alternate, so each rank holds half.
        const uint32_t nodes = k * k * k / 4 + k * k + k * k / 4;
        EXPECT_EQ(p.NodesOn(0), nodes / 2);
        EXPECT_EQ(p.NodesOn(1), nodes / 2);
        // The first host's edge switch is in its pod's rank.
        const NodeIndex h0 = t->Graph().HostNode(0);
        EXPECT_EQ(p.RankOf(t->Graph().Ports(h0).front().peer), 0u);
        EXPECT_EQ(p.RankOf(t->Graph().HostNode(k * k * k / 4 - 1)), 1u);
    }
}

TEST(RankPartitionTest, StarHalvesCutOneHalfOfTheHostLinks)
{
    auto t = Make("star:n=8");
    const RankPartition p(t->Graph(), 2);
    // Hosts 0-3 on rank 0, 4-7 on rank 1; the switch ties 4-4 and both ranks hold 4 nodes,
    // so it goes to rank 0: the 4 links of hosts 4-7 are cut.
    EXPECT_EQ(p.CutLinks(), 4u);
    EXPECT_EQ(p.NodesOn(0), 5u);
    EXPECT_EQ(p.NodesOn(1), 4u);
}

TEST(RankPartitionTest, BcubeGroupsOfOneTopDigitCutOnlyTopLevelLinks)
{
    auto t = Make("bcube:n=4,k=1");
    const RankPartition p(t->Graph(), 2);
    // 16 servers: top digit 0,1 on rank 0 and 2,3 on rank 1, with their level-0 switches.
    // Each of the 4 level-1 switches links one server of every group: 2 of its 4 links
    // lead to the other rank, 4 * 2 = 8 cut.
    EXPECT_EQ(p.CutLinks(), 8u);
}

TEST(RankPartitionTest, TorusSlabsCutTwoBoundaries)
{
    auto t = Make("torus:dims=4x4");
    const RankPartition p(t->Graph(), 2);
    // 16 servers in a wrap-around 4x4 grid, two slabs of two rows (or columns) each: the
    // slabs meet at two boundaries (between rows 1 and 2, and 3 and 0 by the wrap), each
    // crossed by 4 links: 8 of the 32 links (2 per server).
    EXPECT_EQ(t->Graph().LinkCount(), 32u);
    EXPECT_EQ(p.CutLinks(), 8u);
    EXPECT_EQ(p.NodesOn(0), 8u);
}

TEST(RankPartitionTest, OneRankCutsNothingAndBadCountsThrow)
{
    auto t = Make("fattree:k=4");
    EXPECT_EQ(RankPartition(t->Graph(), 1).CutLinks(), 0u);
    EXPECT_THROW(RankPartition(t->Graph(), 0), std::invalid_argument);
    // 16 hosts: at most 16 ranks.
    EXPECT_NO_THROW(RankPartition(t->Graph(), 16));
    EXPECT_THROW(RankPartition(t->Graph(), 17), std::invalid_argument);
}

#ifndef NS3_MPI
TEST(RankPartitionTest, HelperRefusesRanksWithoutMpi)
{
    // Debian's ns-3 (this build) has no mpi module: one rank is all there is.
    ParamsyncHelper helper;
    EXPECT_NO_THROW(helper.SetRanks(1, 0));
    try
    {
        helper.SetRanks(2, 0);
        FAIL() << "SetRanks(2) without MPI";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("needs ns-3 built with MPI"), std::string::npos);
    }
    helper.SetTopology("star:n=4", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    EXPECT_TRUE(helper.IsLocalHost(3)); // one rank: every host local
    Simulator::Destroy();
}
#endif
