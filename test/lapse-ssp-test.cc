// LapsePs's bounded-staleness mode (Petuum's SSP): the read that waits at its home for the
// slowest node, cache hits within the bound, server-side against client-side sync, and a
// knowledge-graph run in which no read is staler than the bound. Transport: every message
// arrives 100 us after it is posted; a node's messages to itself are handled at once.
#include "fixed-latency-transport.h"

#include "ns3/lapse-kge-workload.h"
#include "ns3/lapse-ps.h"
#include "ns3/lapse-spec.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// 2 nodes, 2 keys (key 0 at node 0, key 1 at node 1), one worker per node.
LapseConfig
TwoNodeSsp(uint32_t staleness, bool serverPush)
{
    LapseConfig c;
    c.nodes = 2;
    c.keys = 2;
    c.ssp = true;
    c.staleness = staleness;
    c.serverPush = serverPush;
    c.workersPerNode = 1;
    return c;
}

} // namespace

TEST(LapseSsp, ReadWaitsAtItsHomeForTheSlowestNode)
{
    // s = 1. t = 0: node 0 pushes +1 to key 0 and ends clock 0: its flush goes to itself
    // (key 0's home), node 0's clock is 1 at once. Node 1 pushes +10 and ends clocks 0, 1
    // and 2: the flush of +10 reaches node 0 at 100 us and is acknowledged at 200 us, then
    // the two empty clocks: node 1's clock is 3 at 200 us. Node 1 reads key 0 at clock 3:
    // no cached row, the read needs every update of clocks < 3 - 1 = 2, the minimum clock
    // is min(1, 3) = 1: it waits at node 0. At 1 ms node 0 pushes +100 and ends clock 1:
    // minimum 2, the read is answered with 1 + 10 + 100 = 111, row clock 2, at node 1 at
    // 1 ms + 100 us.
    LapsePs ps(TwoNodeSsp(1, false));
    FixedLatencyTransport transport(&ps);
    ps.SetTransport(&transport);
    Time answered = Seconds(-1);
    double read = -1;
    ps.Push(0, 0, 1.0, nullptr);
    ps.EndClock(0, nullptr);
    ps.Push(1, 0, 10.0, nullptr);
    for (int c = 0; c < 3; ++c)
    {
        ps.EndClock(1, nullptr);
    }
    ps.Pull(
        1,
        0,
        [&](double v) {
            answered = Simulator::Now();
            read = v;
        },
        3);
    Simulator::Schedule(MilliSeconds(1), [&]() {
        ps.Push(0, 0, 100.0, nullptr);
        ps.EndClock(0, nullptr);
    });
    // At 1.2 ms: clock 3 reads the cached row of clock 2 (2 + 1 >= 3: a hit, no message);
    // clock 4 needs clocks < 3, the minimum stays 2: that read waits for good.
    double hit = -1;
    Simulator::Schedule(MicroSeconds(1200), [&]() {
        ps.Pull(
            1, 0, [&](double v) { hit = v; }, 3);
        ps.Pull(1, 0, nullptr, 4);
    });
    Simulator::Run();
    EXPECT_EQ(answered, MicroSeconds(1100));
    EXPECT_EQ(read, 111.0);
    EXPECT_EQ(hit, 111.0);
    EXPECT_EQ(ps.MinClock(), 2u);
    EXPECT_EQ(ps.Outstanding(), 1u);     // the clock-4 read
    EXPECT_EQ(ps.LocalAccesses(), 4u);   // 3 pushes and the hit
    EXPECT_EQ(ps.RemoteAccesses(), 2u);  // the clock-3 and clock-4 reads
    ASSERT_EQ(ps.SspReads().size(), 2u); // the waiting one has not completed
    EXPECT_EQ(ps.SspReads()[0].clock, 3u);
    EXPECT_EQ(ps.SspReads()[0].rowClock, 2u);
    EXPECT_EQ(ps.SspReads()[1].rowClock, 2u);
    Simulator::Destroy();
}

TEST(LapseSsp, ServerSideSyncRefreshesCachedRows)
{
    // s = 0. Node 1 reads key 0 at clock 0 (needs nothing): answered at 200 us with 0, row
    // clock 0, and node 1 now caches key 0. At 300 us node 0 pushes +5 and both nodes end
    // clock 0 (node 1 has nothing to flush): the minimum clock is 1. At 500 us node 1
    // reads key 0 at clock 1, which needs row clock >= 1.
    //  - server-side sync: at 300 us node 0 sent node 1 its updated row (5, clock 1),
    //    there at 400 us: the read is a hit, 5 at 500 us, one remote access in all;
    //  - client-side sync: the cached row has clock 0: asked again, answered at 700 us
    //    with 5: two remote accesses.
    for (bool serverPush : {true, false})
    {
        LapsePs ps(TwoNodeSsp(0, serverPush));
        FixedLatencyTransport transport(&ps);
        ps.SetTransport(&transport);
        std::vector<std::pair<Time, double>> reads;
        auto record = [&](double v) { reads.emplace_back(Simulator::Now(), v); };
        ps.Pull(1, 0, record, 0);
        Simulator::Schedule(MicroSeconds(300), [&]() {
            ps.Push(0, 0, 5.0, nullptr);
            ps.EndClock(0, nullptr);
            ps.EndClock(1, nullptr);
        });
        Simulator::Schedule(MicroSeconds(500), [&]() { ps.Pull(1, 0, record, 1); });
        Simulator::Run();
        ASSERT_EQ(reads.size(), 2u);
        EXPECT_EQ(reads[0], std::make_pair(MicroSeconds(200), 0.0));
        EXPECT_EQ(reads[1].first, MicroSeconds(serverPush ? 500 : 700)) << serverPush;
        EXPECT_EQ(reads[1].second, 5.0);
        EXPECT_EQ(ps.RemoteAccesses(), serverPush ? 1u : 2u);
        EXPECT_EQ(ps.MinClock(), 1u);
        Simulator::Destroy();
    }
}

TEST(LapseSsp, KnowledgeGraphReadsStayWithinTheBound)
{
    // 2 nodes x 2 workers, 20 triples each, a clock every 5 triples: clocks end before
    // triples 6, 11 and 16 and at the epoch's end: 4 clocks, all flushed before the barrier,
    // so the minimum clock ends at 4. Every read (cached or answered) has row clock >= the
    // reader's clock - s; 20 x 4 workers x 6 = 480 accesses.
    for (uint32_t s : {0u, 2u})
    {
        LapseConfig pc = TwoNodeSsp(s, s == 2);
        pc.keys = 50 + 3;
        pc.workersPerNode = 2;
        LapsePs ps(pc);
        FixedLatencyTransport transport(&ps);
        ps.SetTransport(&transport);
        LapseKgeConfig c;
        c.workersPerNode = 2;
        c.entities = 50;
        c.relations = 3;
        c.triplesPerEpoch = 20;
        c.dynamic = false;
        c.clockSteps = 5;
        LapseKgeWorkload kge(ps, 2, pc.keys, c);
        kge.Start(Seconds(0));
        Simulator::Run();
        ASSERT_TRUE(kge.Finished());
        EXPECT_EQ(ps.Outstanding(), 0u);
        EXPECT_EQ(ps.MinClock(), 4u);
        EXPECT_EQ(ps.LocalAccesses() + ps.RemoteAccesses(), 480u);
        EXPECT_EQ(ps.SspReads().size(), 240u); // the 3 x 80 pulls
        for (const LapseSspRead& r : ps.SspReads())
        {
            EXPECT_GE(r.rowClock + s, r.clock) << "s " << s << " key " << r.key;
        }
        Simulator::Destroy();
    }
}

TEST(LapseSpec, SspModeOptions)
{
    LapseSpec k = LapseSpec::Parse("lapse:workload=kge,mode=ssp,staleness=3,sync=server,clock=7",
                                   4);
    EXPECT_TRUE(k.ps.ssp);
    EXPECT_EQ(k.ps.staleness, 3u);
    EXPECT_TRUE(k.ps.serverPush);
    EXPECT_EQ(k.ps.workersPerNode, 4u);
    EXPECT_EQ(k.kge.clockSteps, 7u);
    EXPECT_FALSE(k.kge.dynamic);
    LapseSpec w = LapseSpec::Parse("lapse:workload=wv,mode=ssp", 4);
    EXPECT_EQ(w.ps.staleness, 1u);   // default bound
    EXPECT_FALSE(w.ps.serverPush);   // client-side by default
    EXPECT_EQ(w.wv.clockSteps, 10u); // default clock
    LapseSpec d = LapseSpec::Parse("lapse:workload=kge", 4);
    EXPECT_FALSE(d.ps.ssp);
    EXPECT_EQ(d.kge.clockSteps, 0u);
    EXPECT_THROW(LapseSpec::Parse("lapse:workload=mf,mode=ssp", 4), std::invalid_argument);
    EXPECT_THROW(LapseSpec::Parse("lapse:workload=kge,mode=ssp,sync=both", 4),
                 std::invalid_argument);
    EXPECT_THROW(LapseSpec::Parse("lapse:workload=kge,staleness=2", 4), std::invalid_argument);
}
