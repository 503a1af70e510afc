// ForwardingTable: ECMP by 5-tuple hash, lanes.
#include "ns3/forwarding-table.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>

namespace ns3
{
namespace
{

TEST(ForwardingTableTest, EcmpSpreadsFlowsAndKeepsEachFlowOnOnePath)
{
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    for (uint32_t port = 0; port < 4; ++port)
    {
        t->AddRoute(7, port, 0);
    }
    std::map<uint32_t, int> count;
    for (uint16_t sport = 0; sport < 4000; ++sport)
    {
        const ForwardingRoute* r = t->Lookup(7, 0, 3, sport);
        ASSERT_NE(r, nullptr);
        ++count[r->port];
        EXPECT_EQ(t->Lookup(7, 0, 3, sport), r); // same flow, same path
    }
    // 4000 flows over 4 paths: 1000 each, binomial sd sqrt(4000 x 1/4 x 3/4) = 27.4;
    // +-150 is 5.5 sd.
    ASSERT_EQ(count.size(), 4u);
    for (auto& [port, n] : count)
    {
        EXPECT_NEAR(n, 1000, 150) << "port " << port;
    }
    EXPECT_EQ(t->Lookup(8, 0, 3, 1), nullptr); // no route
    EXPECT_EQ(t->Lookup(7, 1, 3, 1), nullptr); // no route on lane 1
}

TEST(ForwardingTableTest, HashSeedChangesTheChoice)
{
    Ptr<ForwardingTable> a = CreateObject<ForwardingTable>();
    Ptr<ForwardingTable> b = CreateObject<ForwardingTable>();
    b->SetAttribute("HashSeed", UintegerValue(12345));
    int differ = 0;
    for (uint16_t sport = 0; sport < 1000; ++sport)
    {
        differ += (a->FlowHash(1, 2, sport) % 2) != (b->FlowHash(1, 2, sport) % 2);
    }
    // Independent salts: about half of 1000 flows pick the other of two paths (sd 15.8).
    EXPECT_NEAR(differ, 500, 100);
}

TEST(ForwardingTableTest, LanesArePerArrivalLane)
{
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(5, 0, 1, 0); // on lane 0: port 1, stay on lane 0
    t->AddRoute(5, 1, 2, 2); // arrived on lane 1: port 2, move to lane 2
    EXPECT_EQ(t->GetLaneCount(), 3);
    EXPECT_EQ(t->Lookup(5, 0, 0, 0)->port, 1u);
    EXPECT_EQ(t->Lookup(5, 1, 0, 0)->port, 2u);
    EXPECT_EQ(t->Lookup(5, 1, 0, 0)->lane, 2);
    // BasePriority 3 (default): lane 2 travels on priority 5.
    EXPECT_EQ(t->LanePriority(2), 5);
    EXPECT_EQ(t->Routes(5, 1).size(), 1u);
    EXPECT_TRUE(t->Routes(99, 0).empty());
}

TEST(ForwardingTableTest, EqualSetsAreKeptOnceAndNeighbouringDestinationsShareARun)
{
    // A fat-tree edge switch's shape: hosts 0..3 below it on ports 0..3, every other host
    // (4..99) over the uplinks 4..7, and host 200 alone on port 9.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    for (uint32_t dst = 0; dst < 100; ++dst)
    {
        for (uint32_t up = 4; up < 8; ++up)
        {
            if (dst < 4)
            {
                t->AddRoute(dst, dst, 0);
                break;
            }
            t->AddRoute(dst, up, 0);
        }
    }
    t->AddRoute(200, 9, 0);
    // Sets: the empty one, the four single ports, the uplinks, port 9 = 7.
    EXPECT_EQ(t->GetSetCount(), 7u);
    // Runs: 0, 1, 2, 3, 4..99, 100..199 (none), 200, 201.. (none) = 8.
    EXPECT_EQ(t->GetRunCount(), 8u);
    EXPECT_EQ(t->Lookup(2, 0, 0, 0)->port, 2u);
    const std::vector<ForwardingRoute>& up = t->Routes(57, 0);
    ASSERT_EQ(up.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(up[i].port, 4 + i); // the order added: ECMP picks by hash % size from it
    }
    EXPECT_EQ(t->Lookup(150, 0, 0, 0), nullptr);
    EXPECT_EQ(t->Lookup(200, 0, 0, 0)->port, 9u);
    EXPECT_EQ(t->Lookup(201, 0, 0, 0), nullptr);

    // A route added after a read: host 50 gets a fifth uplink, its neighbours keep four.
    t->AddRoute(50, 8, 0);
    EXPECT_EQ(t->Routes(49, 0).size(), 4u);
    EXPECT_EQ(t->Routes(50, 0).size(), 5u);
    EXPECT_EQ(t->Routes(51, 0).size(), 4u);
    // 4..99 split into 4..49, 50, 51..99: two runs more (10), one set more (8).
    EXPECT_EQ(t->GetRunCount(), 10u);
    EXPECT_EQ(t->GetSetCount(), 8u);
    t->Clear();
    EXPECT_EQ(t->Lookup(2, 0, 0, 0), nullptr);
}

TEST(ForwardingTableTest, AppendingInDestinationOrderMakesTheSameRunsAsAddingOneByOne)
{
    // The edge-switch shape of the test above, filled as NetworkBuilder fills a table: one
    // call per destination, destinations ascending.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    const std::vector<ForwardingRoute> up{{4, 0}, {5, 0}, {6, 0}, {7, 0}};
    for (uint32_t dst = 0; dst < 100; ++dst)
    {
        t->AppendRoutes(dst, 0, dst < 4 ? std::vector<ForwardingRoute>{{dst, 0}} : up);
    }
    t->AppendRoutes(200, 0, {{9, 0}});
    // As above: 7 sets (empty, 4 single ports, uplinks, port 9), 8 runs.
    EXPECT_EQ(t->GetSetCount(), 7u);
    EXPECT_EQ(t->GetRunCount(), 8u);
    EXPECT_EQ(t->Lookup(3, 0, 0, 0)->port, 3u);
    EXPECT_EQ(t->Routes(99, 0).size(), 4u);
    EXPECT_EQ(t->Routes(99, 0)[3].port, 7u);
    EXPECT_EQ(t->Lookup(100, 0, 0, 0), nullptr);
    EXPECT_EQ(t->Lookup(200, 0, 0, 0)->port, 9u);
    // Out of order (50 < 201): added one by one, to what 50 had: 4 uplinks + port 8 = 5.
    t->AppendRoutes(50, 0, {{8, 0}});
    EXPECT_EQ(t->Routes(50, 0).size(), 5u);
    EXPECT_EQ(t->Routes(51, 0).size(), 4u);
    // A lane-1 route on a new lane: lanes used 1 + 2 = 3.
    t->AppendRoutes(7, 1, {{2, 2}});
    EXPECT_EQ(t->GetLaneCount(), 3);
    EXPECT_EQ(t->Lookup(7, 1, 0, 0)->port, 2u);
    EXPECT_EQ(t->Lookup(6, 1, 0, 0), nullptr);
}

} // namespace
} // namespace ns3
