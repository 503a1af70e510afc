// ForwardingTable: ECMP by 5-tuple hash, lanes.
#include "ns3/boolean.h"
#include "ns3/forwarding-table.h"
#include "ns3/pfc-net-device.h"
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

/// The member the staged form gives a flow: Lookup's rule applied to Routes() (nullptr when
/// the set is empty; a source-routed table reads lane 0 and picks by the UDP source port).
const ForwardingRoute*
StagedLookup(const ForwardingTable& t, uint32_t dst, uint8_t inLane, uint32_t src, uint16_t sport)
{
    const std::vector<ForwardingRoute>& set = t.Routes(dst, t.IsSourceRouted() ? 0 : inLane);
    if (set.empty())
    {
        return nullptr;
    }
    const uint32_t member = t.IsSourceRouted() ? sport : t.FlowHash(src, dst, sport);
    return &set[member % set.size()];
}

TEST(ForwardingTableTest, CompiledLookupsMatchTheStagedSets)
{
    // Lane 0: destinations 10..69 in pairs sharing a set of 1 to 3 routes, every fifth pair
    // without one: 30 pairs, each its own run (neighbouring pairs differ), more than the
    // 16 runs Lookup scans forward, so it searches them by halves. Lane 1: two runs, scanned.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    for (uint32_t dst = 10; dst < 70; ++dst)
    {
        const uint32_t pair = (dst - 10) / 2;
        if (pair % 5 == 4)
        {
            continue;
        }
        for (uint32_t m = 0; m <= pair % 3; ++m)
        {
            t->AddRoute(dst, 0, pair % 4 + 10 * m, static_cast<uint8_t>(m));
        }
    }
    t->AddRoute(20, 1, 7, 2);
    t->AddRoute(21, 1, 7, 2);
    t->Compact();
    EXPECT_EQ(t->GetLaneCount(), 3); // lanes 0..2 used
    for (uint32_t dst = 0; dst < 80; ++dst)
    {
        for (uint8_t lane = 0; lane < 3; ++lane)
        {
            for (uint16_t sport = 0; sport < 20; ++sport)
            {
                const ForwardingRoute* got = t->Lookup(dst, lane, 5, sport);
                const ForwardingRoute* want = StagedLookup(*t, dst, lane, 5, sport);
                ASSERT_EQ(got == nullptr, want == nullptr) << dst << " lane " << int(lane);
                if (want)
                {
                    EXPECT_EQ(*got, *want) << dst << " lane " << int(lane) << " sport " << sport;
                }
            }
        }
    }
    // By hand: 10 is pair 0 (port 0, one route); 15 is pair 2, three routes (2, 12, 22 on
    // lanes 0, 1, 2); 18 is pair 4, none; 63 is pair 26 (ports 26 % 4 = 2 + 10 m, 26 % 3 + 1 = 3
    // routes); 9 is below every run, 70 above; lane 1 routes 20 and 21 only; lane 8 is no lane.
    EXPECT_EQ(t->Lookup(10, 0, 5, 3)->port, 0u);
    const uint32_t member = t->FlowHash(5, 15, 3) % 3;
    EXPECT_EQ(t->Lookup(15, 0, 5, 3)->port, 2 + 10 * member);
    EXPECT_EQ(t->Lookup(15, 0, 5, 3)->lane, member);
    EXPECT_EQ(t->Lookup(18, 0, 5, 3), nullptr);
    EXPECT_EQ(t->Lookup(63, 0, 5, 3)->port % 10, 2u);
    EXPECT_EQ(t->Lookup(9, 0, 5, 3), nullptr);
    EXPECT_EQ(t->Lookup(70, 0, 5, 3), nullptr);
    EXPECT_EQ(t->Lookup(21, 1, 5, 3)->port, 7u);
    EXPECT_EQ(t->Lookup(21, 1, 5, 3)->lane, 2);
    EXPECT_EQ(t->Lookup(22, 1, 5, 3), nullptr);
    EXPECT_EQ(t->Lookup(20, 8, 5, 3), nullptr);
}

TEST(ForwardingTableTest, EveryRunIsFoundWhateverTheRunCount)
{
    // Lookup scans a lane of up to 16 runs forward and halves a longer one
    // (model/forwarding-table.cc, FindRoute): each count of runs from 2 to 41 is its own
    // case, across that switch and both parities of the halving. Destination d < n routes
    // to port d + 1 (neighbours differ, so each is a run of its own); with the open run from
    // n on (no route), n destinations make n + 1 runs. Every destination must find its port,
    // and the destinations past the last route none.
    for (uint32_t n = 1; n <= 40; ++n)
    {
        Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
        for (uint32_t d = 0; d < n; ++d)
        {
            t->AddRoute(d, 0, d + 1, 0);
        }
        t->Compact();
        for (uint32_t d = 0; d < n; ++d)
        {
            const ForwardingRoute* got = t->Lookup(d, 0, 0, 0);
            ASSERT_NE(got, nullptr) << n << " runs, destination " << d;
            EXPECT_EQ(got->port, d + 1) << n << " runs, destination " << d;
        }
        EXPECT_EQ(t->Lookup(n, 0, 0, 0), nullptr) << n;
        EXPECT_EQ(t->Lookup(n + 1000, 0, 0, 0), nullptr) << n;
    }
}

TEST(ForwardingTableTest, SourceRoutedLookupPicksTheRouteIndexOnLaneZero)
{
    // Destination 3 has routes 0, 1, 2 = (port 1, lane 0), (port 2, lane 1), (port 5, lane 0);
    // destination 2 has one; destination 4 none.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->SetAttribute("SourceRouted", BooleanValue(true));
    t->AddRoute(3, 1, 0);
    t->AddRoute(3, 2, 1);
    t->AddRoute(3, 5, 0);
    t->AddRoute(2, 6, 0);
    t->Compact();
    // UDP source port 7: 7 mod 3 = route 1, whatever the arrival lane; 9 mod 3 = route 0.
    for (uint8_t inLane = 0; inLane < 3; ++inLane)
    {
        EXPECT_EQ(*t->Lookup(3, inLane, 0, 7), (ForwardingRoute{2, 1}));
        EXPECT_EQ(*t->Lookup(3, inLane, 0, 9), (ForwardingRoute{1, 0}));
        EXPECT_EQ(t->Lookup(2, inLane, 0, 7)->port, 6u);
        EXPECT_EQ(t->Lookup(4, inLane, 0, 7), nullptr);
    }
}

TEST(ForwardingTableTest, PeekRouteIsLookupOnACompiledTableAndNothingBefore)
{
    // PeekRoute (what a switch arrival's warming reads the egress device from) gives the very
    // hop Lookup will (the same address), for single routes and ECMP sets alike, and never
    // compiles: on a table with routes added since, it gives nullptr until a Lookup or
    // Compact compiles it again.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(3, 1, 0);
    t->AddRoute(3, 2, 0);
    t->AddRoute(3, 5, 0);
    t->AddRoute(4, 6, 0);
    EXPECT_EQ(t->PeekRoute(3, 0, 0, 7), nullptr); // staged, not compiled
    t->Compact();
    for (uint16_t sport = 0; sport < 50; ++sport)
    {
        for (uint32_t dst = 2; dst <= 5; ++dst)
        {
            EXPECT_EQ(t->PeekRoute(dst, 0, 9, sport), t->Lookup(dst, 0, 9, sport))
                << dst << " sport " << sport;
        }
    }
    EXPECT_EQ(t->PeekRoute(4, 0, 9, 1)->port, 6u);
    EXPECT_EQ(t->PeekRoute(5, 0, 9, 1), nullptr); // no route
    t->AddRoute(5, 7, 0);
    EXPECT_EQ(t->PeekRoute(5, 0, 9, 1), nullptr); // added since: not compiled yet
    EXPECT_EQ(t->Lookup(5, 0, 9, 1)->port, 7u);   // compiles
    EXPECT_EQ(t->PeekRoute(5, 0, 9, 1), t->Lookup(5, 0, 9, 1));
}

namespace
{
/// \brief A compiled table whose destination 3 has the ECMP set {port 1, port 2}.
Ptr<ForwardingTable>
TwoWayTable()
{
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(3, 1, 0);
    t->AddRoute(3, 2, 0);
    t->Compact();
    return t;
}
} // namespace

TEST(ForwardingTableTest, LookupAfterPeekRouteAnswersForItsOwnFlowOnly)
{
    // Lookup returns the hop PeekRoute found last when it asks for the same flow (the
    // warming's search reused). A flow that differs from the peeked one in any of the four
    // fields it is keyed by must get its own route: each is compared with an identical table
    // that was never peeked, over 64 source ports, so that the two ECMP members both occur
    // (a key field left out of the comparison would hand some flows the other member).
    Ptr<ForwardingTable> t = TwoWayTable();
    Ptr<ForwardingTable> reference = TwoWayTable();
    t->AddRoute(3, 1, 5, 0); // lane 1: port 5 only
    reference->AddRoute(3, 1, 5, 0);
    t->Compact(); // PeekRoute reads compiled tables only
    int otherMember = 0;
    for (uint16_t sport = 0; sport < 64; ++sport)
    {
        const ForwardingHop* peeked = t->PeekRoute(3, 0, 9, sport);
        ASSERT_NE(peeked, nullptr);
        const uint32_t neighbour = t->Lookup(3, 0, 9, sport ^ 1)->port;
        EXPECT_EQ(neighbour, reference->Lookup(3, 0, 9, sport ^ 1)->port);
        otherMember += neighbour != peeked->port;
        t->PeekRoute(3, 0, 9, sport);
        EXPECT_EQ(t->Lookup(3, 0, 8, sport)->port, reference->Lookup(3, 0, 8, sport)->port);
        t->PeekRoute(3, 0, 9, sport);
        EXPECT_EQ(t->Lookup(3, 1, 9, sport)->port, 5u); // the other lane's route
        t->PeekRoute(3, 0, 9, sport);
        EXPECT_EQ(t->Lookup(2, 0, 9, sport), nullptr); // no route to 2
        t->PeekRoute(3, 0, 9, sport);
        EXPECT_EQ(t->Lookup(3, 0, 9, sport), peeked) << sport; // its own flow: the same hop
    }
    // Half of the neighbouring ports pick the other member (binomial(64, 1/2): 32, sd 4).
    EXPECT_GT(otherMember, 8);
}

TEST(ForwardingTableTest, PeekedRouteIsForgottenWhenTheRoutesOrTheHashChange)
{
    // New routes: after a Clear and refill, dst 3's single route is port 4, in the second
    // set of the new flat form (port 8's, for dst 2, is first), so a remembered hop from
    // before (the first route of the old form) would point at port 8's or a freed slot.
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(3, 1, 0);
    t->Compact();
    ASSERT_EQ(t->PeekRoute(3, 0, 9, 7)->port, 1u);
    t->Clear();
    t->AddRoute(2, 8, 0);
    t->AddRoute(3, 4, 0);
    EXPECT_EQ(t->Lookup(3, 0, 9, 7)->port, 4u);

    // A new salt: the member is the new hash's (compared with a table salted so from the
    // start); about half of 64 flows change member (binomial(64, 1/2)), so a stale answer
    // shows.
    Ptr<ForwardingTable> salted = TwoWayTable();
    salted->SetAttribute("HashSeed", UintegerValue(12345));
    int moved = 0;
    for (uint16_t sport = 0; sport < 64; ++sport)
    {
        Ptr<ForwardingTable> u = TwoWayTable();
        const uint32_t before = u->PeekRoute(3, 0, 9, sport)->port;
        u->SetAttribute("HashSeed", UintegerValue(12345));
        const uint32_t after = u->Lookup(3, 0, 9, sport)->port;
        EXPECT_EQ(after, salted->Lookup(3, 0, 9, sport)->port) << sport;
        moved += after != before;
    }
    EXPECT_GT(moved, 8);

    // Source routing turned on: the member is the route index, sport mod 2.
    for (uint16_t sport = 0; sport < 8; ++sport)
    {
        Ptr<ForwardingTable> u = TwoWayTable();
        u->PeekRoute(3, 0, 9, sport);
        u->SetAttribute("SourceRouted", BooleanValue(true));
        EXPECT_EQ(u->Lookup(3, 0, 9, sport)->port, sport % 2 == 0 ? 1u : 2u) << sport;
    }
}

TEST(ForwardingTableTest, RoutesAddedAfterALookupAreSeenByTheNext)
{
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(10, 1, 0);
    EXPECT_EQ(t->Lookup(10, 0, 0, 0)->port, 1u);
    EXPECT_EQ(t->Lookup(11, 0, 0, 0), nullptr);
    // One by one (the compact runs are expanded back into staged routes).
    t->AddRoute(11, 2, 0);
    EXPECT_EQ(t->Lookup(11, 0, 0, 0)->port, 2u);
    t->AddRoute(10, 3, 0);
    // 10's set is now {1, 3}: 100 flows pick both members (all on one with probability
    // 2^-99 for a fair hash).
    std::map<uint32_t, int> ports;
    for (uint16_t sport = 0; sport < 100; ++sport)
    {
        ++ports[t->Lookup(10, 0, 0, sport)->port];
    }
    EXPECT_EQ(ports.size(), 2u);
    EXPECT_EQ(ports.count(3), 1u);
    // Appended above every destination (the runs are extended in place, nothing staged).
    EXPECT_EQ(t->Lookup(25, 0, 0, 0), nullptr);
    t->AppendRouteRange(20, 30, 0, {{4, 0}});
    EXPECT_EQ(t->Lookup(25, 0, 0, 0)->port, 4u);
    EXPECT_EQ(t->Lookup(30, 0, 0, 0), nullptr);
    t->Clear();
    EXPECT_EQ(t->Lookup(25, 0, 0, 0), nullptr);
}

TEST(ForwardingTableTest, HopsCarryTheDevicesOfTheirPortsAtTheSwitchTheTableServes)
{
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(10, 1, 0);
    t->AddRoute(11, 0, 0);
    EXPECT_EQ(t->Lookup(10, 0, 0, 0)->device, nullptr); // not told: no device
    std::vector<Ptr<PfcNetDevice>> ports{CreateObject<PfcNetDevice>(),
                                         CreateObject<PfcNetDevice>()};
    const std::vector<PfcNetDevice*> devices{PeekPointer(ports[0]), PeekPointer(ports[1])};
    t->SetPortDevices(devices);
    EXPECT_EQ(t->Lookup(10, 0, 0, 0)->device, devices[1]); // port 1's
    EXPECT_EQ(t->Lookup(11, 0, 0, 0)->device, devices[0]);
    // A route added later (its set compiled anew) carries its port's device too; one past the
    // ports told carries none.
    t->AddRoute(12, 1, 0);
    t->AddRoute(13, 5, 0);
    EXPECT_EQ(t->Lookup(12, 0, 0, 0)->device, devices[1]);
    EXPECT_EQ(t->Lookup(13, 0, 0, 0)->port, 5u);
    EXPECT_EQ(t->Lookup(13, 0, 0, 0)->device, nullptr);
    // The same devices again are no second switch; other ones are.
    t->SetPortDevices(devices);
    EXPECT_DEATH(t->SetPortDevices({devices[1], devices[0]}), "a table serves one switch");
    // Forgotten (the switch is disposed): no device.
    t->SetPortDevices({});
    EXPECT_EQ(t->Lookup(10, 0, 0, 0)->device, nullptr);
}

} // namespace
} // namespace ns3
