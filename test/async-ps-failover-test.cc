// AsyncPsJob's failover (shard 0's server dies, its replica takes over) over the fake
// transport of test/fixed-latency-transport.h: every message arrives 100 us after it is
// posted, so that every time, version and loss can be derived by hand. Compute is 1 ms.
#include "async-ps-two-workers.h"
#include "fixed-latency-transport.h"

#include "ns3/async-ps-job.h"
#include "ns3/async-ps-spec.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;
using paramsync_test::TwoWorkers;

namespace
{

struct FailoverOutcome
{
    bool finished;
    uint64_t lost;
    uint64_t lostAcknowledged;
    std::vector<AppliedUpdate> updates;
    std::vector<uint64_t> versions;
    uint64_t maxReplicaLag;
};

// Two workers, one server (host 2), its replica (host 3); 100 us a message, 1 ms compute,
// 4 iterations, the server dies at 2.55 ms.
FailoverOutcome
RunFailover(bool ackFromReplica)
{
    AsyncPsConfig c = TwoWorkers();
    c.iterations = 4;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.replicaDivergence = 2;
    c.ackFromReplica = ackFromReplica;
    c.failAt = MicroSeconds(2550);
    AsyncPsJob job(c);
    FixedLatencyTransport transport(&job);
    job.SetTransport(&transport);
    job.Start(Seconds(0));
    Simulator::Run();
    FailoverOutcome r{job.Finished(),
                      job.Lost(),
                      job.LostAcknowledged(),
                      job.Updates(),
                      job.ShardVersions(),
                      job.MaxReplicaLag()};
    Simulator::Destroy();
    return r;
}

const AppliedUpdate*
FindUpdate(const std::vector<AppliedUpdate>& updates, uint32_t worker, uint32_t iteration)
{
    for (const AppliedUpdate& u : updates)
    {
        if (u.worker == worker && u.iteration == iteration)
        {
            return &u;
        }
    }
    return nullptr;
}

} // namespace

TEST(AsyncPsJob, FailoverWithAsynchronousReplicationLosesAnAcknowledgedUpdate)
{
    // The replica gets a delta every D = 2 versions and serves the model as it has it; a
    // worker's update counts as acknowledged when that model goes out. Timeline (ms):
    //  1.0 w0 granted, w1 waits;  1.1 w0 applied (v 0 -> 1, no forward), order to serve w0,
    //  w1 granted;  1.2 the replica answers w0 with v0; w1 applied (v 1 -> 2, replica at 0:
    //  lag 2): forward v2, order to serve w1;  1.3 w0 has v0; the replica holds v2 and
    //  answers w1 with v2;  1.4 w1 has v2;  2.3 w0 granted;  2.4 w1 requests (its compute
    //  ended first), w0 applied (v 2 -> 3, divergence 1, no forward), order to serve w0,
    //  w1 granted;  2.5 the replica answers w0 with v2 (arrives 2.6): w0's iteration-1
    //  update is acknowledged though the replica never got it; w1 applied (v 3 -> 4, lag
    //  2): forward v4 and the order to serve w1 leave the server.
    // 2.55 the server dies with both in flight: the replica holds v2, so versions 3 and 4
    // are lost (2): w0's is acknowledged (its model is on its way from the replica), lost
    // for good (1); w1 never had its model back, so it pushes its update again (granted at
    // 2.55, applied at 2.65 on v2, delay 0). 8 updates - 1 = 7 applied, the promoted
    // server at version 2 + 5 = 7.
    const FailoverOutcome r = RunFailover(false);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.lost, 2u);
    EXPECT_EQ(r.lostAcknowledged, 1u);
    EXPECT_EQ(r.updates.size(), 7u);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{7}));
    EXPECT_EQ(FindUpdate(r.updates, 0, 1), nullptr);
    const AppliedUpdate* again = FindUpdate(r.updates, 1, 1);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->applied, MicroSeconds(2650));
    EXPECT_EQ(again->delay, 0u);
    // Bounded divergence, measured: the server was at most D = 2 versions ahead of what
    // the replica had received (at 1.2 and 2.5 ms).
    EXPECT_EQ(r.maxReplicaLag, 2u);
}

TEST(AsyncPsJob, FailoverWithAcknowledgmentFromTheReplicaLosesNone)
{
    // The same run, but a worker's update counts as acknowledged only once the replica
    // holds it: the server forwards every update, then orders the replica to serve (same
    // queue pair: the model served includes the update). Timeline (ms):
    //  1.1 w0 applied (v 0 -> 1), forward v1 + order, w1 granted;  1.2 the replica has v1,
    //  answers w0 with v1; w1 applied on v0 (v 1 -> 2, delay 1, replica at 1: lag 1),
    //  forward v2 + order;  1.3 w0 has v1, the replica has v2 and answers w1;  1.4 w1 has
    //  v2;  2.3 w0 granted (computed on v1);  2.4 w1 requests, w0 applied (v 2 -> 3, delay
    //  1), forward v3 + order, w1 granted (computed on v2);  2.5 the replica has v3 and
    //  answers w0 with v3; w1 applied (v 3 -> 4, delay 1), forward v4 + order leave.
    // 2.55 the server dies: the replica holds v3, so version 4 (w1's) is lost (1), but it
    // was never acknowledged (0 lost for good): w1 pushes it again, granted at 2.55,
    // applied at 2.65 on v2 at version 3 (delay 1). Every one of the 8 updates is applied,
    // the promoted server at version 8. The replica never lags more than the one forward
    // in flight.
    const FailoverOutcome r = RunFailover(true);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.lost, 1u);
    EXPECT_EQ(r.lostAcknowledged, 0u);
    EXPECT_EQ(r.updates.size(), 8u);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{8}));
    ASSERT_NE(FindUpdate(r.updates, 0, 1), nullptr);
    const AppliedUpdate* again = FindUpdate(r.updates, 1, 1);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->applied, MicroSeconds(2650));
    EXPECT_EQ(again->delay, 1u);
    EXPECT_EQ(r.maxReplicaLag, 1u);
}

TEST(AsyncPsJob, FailoverLosesUnacknowledgedUpdatesOfEitherModeOnlyForAMoment)
{
    // Whatever the failure time, with acknowledgment from the replica every update of the
    // 2 x 4 is applied in the end and none acknowledged is lost; with asynchronous
    // replication what is lost for good is exactly what was lost and acknowledged.
    for (int64_t us = 1050; us < 5000; us += 100)
    {
        AsyncPsConfig c = TwoWorkers();
        c.iterations = 4;
        c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
        c.replicaDivergence = 2;
        for (bool ack : {false, true})
        {
            c.ackFromReplica = ack;
            c.failAt = MicroSeconds(us);
            AsyncPsJob job(c);
            FixedLatencyTransport transport(&job);
            job.SetTransport(&transport);
            job.Start(Seconds(0));
            Simulator::Run();
            EXPECT_TRUE(job.Finished()) << us;
            EXPECT_EQ(job.Updates().size(), 8u - job.LostAcknowledged()) << us << " " << ack;
            if (ack)
            {
                EXPECT_EQ(job.LostAcknowledged(), 0u) << us;
            }
            Simulator::Destroy();
        }
    }
}

TEST(AsyncPsJob, FailIsAnMlfabricOptionThatNeedsAReplica)
{
    const AsyncPsSpec s = AsyncPsSpec::Parse("mlfabric:replica=4,fail=100ms", 12);
    EXPECT_EQ(s.canonical, "mlfabric:servers=1,replica=4,fail=100ms");
    AsyncPsConfig c;
    s.ApplyTo(c, 12);
    EXPECT_EQ(c.failAt, MilliSeconds(100));
    EXPECT_EQ(c.workers, 10u); // 12 hosts - server - replica
    // No replica to take over, or a mode the failover does not model: refused.
    EXPECT_THROW(AsyncPsSpec::Parse("mlfabric:fail=100ms", 12), std::invalid_argument);
    EXPECT_THROW(AsyncPsSpec::Parse("mlfabric:replica=4,aggregate=1,fail=1ms", 12),
                 std::invalid_argument);
    EXPECT_THROW(AsyncPsSpec::Parse("asp:fail=1ms", 12), std::invalid_argument);
    // ack=replica needs a replica; it is named in the canonical spec.
    const AsyncPsSpec a = AsyncPsSpec::Parse("mlfabric:replica=2,ack=replica,fail=1ms", 12);
    EXPECT_EQ(a.canonical, "mlfabric:servers=1,replica=2,ack=replica,fail=1ms");
    EXPECT_THROW(AsyncPsSpec::Parse("mlfabric:ack=replica", 12), std::invalid_argument);
    // Without a failure time the job needs nothing more.
    AsyncPsConfig d = TwoWorkers();
    d.failAt = MilliSeconds(1);
    EXPECT_THROW(AsyncPsJob{d}, std::invalid_argument); // FAIR, no replica
}
