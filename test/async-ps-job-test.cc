// AsyncPsJob (ASP / SSP against a versioned parameter server) over a fake transport that
// delivers every message 100 us after it is posted (no bandwidth, no contention), so that
// every time, version and delay can be derived by hand. Compute is 1 ms per iteration.
#include "async-ps-two-workers.h"
#include "fixed-latency-transport.h"

#include "ns3/async-ps-job.h"
#include "ns3/async-ps-spec.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <tuple>

using namespace ns3;
using paramsync_test::TwoWorkers;

namespace
{

struct JobOutcome
{
    std::vector<AppliedUpdate> updates;
    std::vector<std::vector<Time>> ends;
    std::vector<uint64_t> versions;
    uint64_t serverBytes;
    std::vector<Time> blocked;
    bool finished;
    uint64_t dropped{0};
    std::vector<std::vector<PushSlot>> slots;
    uint64_t gatherBytes{0};
    uint64_t controlBytes{0};
    uint64_t aggregated{0};
    uint64_t combined{0};
    uint64_t forwards{0};
    uint64_t replicaSyncBytes{0};
    uint64_t maxDivergence{0};
};

JobOutcome
RunJob(AsyncPsConfig c)
{
    AsyncPsJob job(c);
    FixedLatencyTransport transport(&job);
    job.SetTransport(&transport);
    job.Start(Seconds(0));
    Simulator::Run();
    JobOutcome r;
    r.updates = job.Updates();
    r.ends = job.IterationEnds();
    r.versions = job.ShardVersions();
    r.serverBytes = job.ServerBytes();
    r.finished = job.Finished();
    for (uint32_t w = 0; w < c.workers; ++w)
    {
        r.blocked.push_back(job.BlockedTime(w));
    }
    r.dropped = job.Dropped();
    r.slots = job.Slots();
    r.gatherBytes = job.GatherBytes();
    r.controlBytes = job.ControlBytes();
    r.aggregated = job.Aggregated();
    r.combined = job.CombinedPushes();
    r.forwards = job.ReplicaForwards();
    r.replicaSyncBytes = job.ReplicaSyncBytes();
    r.maxDivergence = job.MaxDivergence();
    Simulator::Destroy();
    return r;
}

std::vector<uint64_t>
DelaysOf(const JobOutcome& r, uint32_t worker)
{
    std::vector<uint64_t> d;
    for (const auto& u : r.updates)
    {
        if (u.worker == worker)
        {
            d.push_back(u.delay);
        }
    }
    return d;
}

} // namespace

TEST(AsyncPsJob, AspWithEqualWorkersHasDelayNMinus1AfterTheFirstUpdate)
{
    // Both push at 1.0 ms; the server applies w0 (computed on v0, server at v0: delay 0)
    // then w1 (on v0, server at v1: delay 1); replies carry v1 and v2 back at 1.2 ms. From
    // then on each worker computed on the version its reply carried and the other worker's
    // update got in between: delay 1 = N - 1. Iterations end at 1.2, 2.4, 3.6 ms.
    JobOutcome r = RunJob(TwoWorkers());
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 1, 1}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1, 1, 1}));
    // Every update applied exactly once: N x iterations = 6 versions.
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{6}));
    // Each update is pushed (1000 B) and answered with the model (1000 B): 6 x 2000 B.
    EXPECT_EQ(r.serverBytes, 12000u);
    for (uint32_t w = 0; w < 2; ++w)
    {
        ASSERT_EQ(r.ends[w].size(), 3u);
        for (int k = 0; k < 3; ++k)
        {
            EXPECT_EQ(r.ends[w][k], MicroSeconds(1200 * (k + 1))) << w << " " << k;
        }
    }
}

TEST(AsyncPsJob, AspLetsAStragglerFallBehindAndItsUpdatesGoStale)
{
    // w1 computes 3 ms. w0 pushes at 1.0, 2.2, 3.4 ms (applied 1.1, 2.3, 3.5) and is done at
    // 3.6 ms. w1's first update (computed on v0) lands at 3.1 ms after two of w0's: delay
    // 2; w0's third (computed on v2, from its 2.4 ms reply) lands after w1's: delay 1; w1's
    // second (on v3) at 6.3 ms after w0's third: delay 1; its last (on v5) at 9.5: delay 0.
    AsyncPsConfig c = TwoWorkers();
    c.straggler = 1;
    c.stragglerFactor = 3;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 0, 1}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{2, 1, 0}));
    EXPECT_EQ(r.ends[0].back(), MicroSeconds(3600));
    EXPECT_EQ(r.ends[1].back(), MicroSeconds(9600));
    EXPECT_EQ(r.blocked[0], Seconds(0)); // ASP never holds anyone
}

TEST(AsyncPsJob, SspWithBoundZeroHoldsTheFastWorkerForTheStraggler)
{
    // Bound 0 is bulk-synchronous: w0 finishes iteration 0 at 1.2 ms and waits for w1,
    // which finishes at 3.2 ms (3 ms compute + 2 x 100 us); likewise iteration 1 (w0 done
    // at 4.4, w1 at 6.4). So w0 is held 2.0 + 2.0 = 4.0 ms and ends at 7.6 ms, w1 at 9.6.
    // Staleness never exceeds N - 1 = 1.
    AsyncPsConfig c = TwoWorkers();
    c.straggler = 1;
    c.stragglerFactor = 3;
    c.stalenessBound = 0;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.ends[0],
              (std::vector<Time>{MicroSeconds(1200), MicroSeconds(4400), MicroSeconds(7600)}));
    EXPECT_EQ(r.ends[1],
              (std::vector<Time>{MicroSeconds(3200), MicroSeconds(6400), MicroSeconds(9600)}));
    EXPECT_EQ(r.blocked[0], MilliSeconds(4));
    EXPECT_EQ(r.blocked[1], Seconds(0));
    for (const auto& u : r.updates)
    {
        EXPECT_LE(u.delay, 1u);
    }
}

TEST(AsyncPsJob, ShardsSplitTheModelAndEachTakesEveryUpdate)
{
    // 1001 bytes over 2 shards: 501 + 500. 3 workers x 2 iterations = 6 updates per shard,
    // each pushed and answered: (501 + 500) x 2 x 6 = 12012 server bytes.
    AsyncPsConfig c;
    c.workers = 3;
    c.servers = 2;
    c.modelBytes = 1001;
    c.iterations = 2;
    c.compute = MilliSeconds(1);
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{6, 6}));
    EXPECT_EQ(r.serverBytes, 12012u);
    EXPECT_THROW(AsyncPsJob(AsyncPsConfig{}), std::invalid_argument); // 0 model bytes
}

TEST(AsyncPsJob, MlfabricGivesEachPushItsOwnSlotOnTheServerLink)
{
    // Both workers push at 1.0 ms; the scheduler grants w0 (first request) and holds w1
    // until w0's push arrived (1.1 ms), so w1's arrives at 1.2 ms (ASP: both at 1.1). The
    // reserved slots [grant, arrival] never overlap. Replies: w0 1.2 ms, w1 1.3 ms; later
    // w1's request always finds w0's slot taken and waits for its arrival: iterations end
    // w0 at 1.2, 2.4, 3.6 ms and w1 at 1.3, 2.5, 3.7 ms; delays w0 0,1,1 and w1 1,1,1.
    AsyncPsConfig c = TwoWorkers();
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.ends[0],
              (std::vector<Time>{MicroSeconds(1200), MicroSeconds(2400), MicroSeconds(3600)}));
    EXPECT_EQ(r.ends[1],
              (std::vector<Time>{MicroSeconds(1300), MicroSeconds(2500), MicroSeconds(3700)}));
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 1, 1}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1, 1, 1}));
    ASSERT_EQ(r.slots[0].size(), 6u);
    for (size_t i = 1; i < r.slots[0].size(); ++i)
    {
        EXPECT_GE(r.slots[0][i].grant, r.slots[0][i - 1].arrival) << i; // no overlap
    }
}

TEST(AsyncPsJob, MlfabricGrantsTheShortestJobFirstWithinABatch)
{
    // Three workers push at 1.0 ms; w0's request finds the link free and is granted at
    // once; w1 (20 Gb/s) and w2 (40 Gb/s) wait in the batch. At 1.1 ms the scheduler picks
    // the shorter transfer, w2's (half the time of w1's for the same bytes), then w1 at
    // 1.2 ms: applied in the order w0, w2, w1 (FIFO would be w0, w1, w2).
    AsyncPsConfig c = TwoWorkers();
    c.workers = 3;
    c.iterations = 1;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.workerRateBps = {10e9, 20e9, 40e9};
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    ASSERT_EQ(r.updates.size(), 3u);
    EXPECT_EQ(r.updates[0].worker, 0u);
    EXPECT_EQ(r.updates[1].worker, 2u);
    EXPECT_EQ(r.updates[2].worker, 1u);
    EXPECT_EQ(r.updates[1].applied, MicroSeconds(1200));
}

TEST(AsyncPsJob, MlfabricEstimatesCompletionFromTheLiveBacklogOnThePath)
{
    // Hosts w0, w1, w2 and the server (host 3); every channel 40 Gb/s, no propagation.
    // Channel 5 is on both w1's path to the server and the server's path to w0 (as on a
    // ring where both go the same way round). All three push at 1.0 ms: w0 is granted at
    // once, w1 and w2 wait with equal rates. At 1.1 ms w0's push is applied and the model
    // goes back to w0 (1000 B on channel 5) before the scheduler picks: w1's estimate is
    // 1000 x 8 / 40e9 = 200 ns to drain channel 5 + 200 ns for its push = 400 ns, w2's
    // 200 ns, so w2 goes first although w1 asked first: applied w0, w2, w1 at 1.1, 1.2,
    // 1.3 ms. Without paths the tie goes to the earlier request: w0, w1, w2.
    AsyncPsConfig c = TwoWorkers();
    c.workers = 3;
    c.iterations = 1;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    JobOutcome fifo = RunJob(c);
    ASSERT_EQ(fifo.updates.size(), 3u);
    EXPECT_EQ(fifo.updates[1].worker, 1u);
    EXPECT_EQ(fifo.updates[2].worker, 2u);
    PsPaths& p = c.paths;
    p.hosts = 4;
    p.channelRateBps.assign(7, 40e9);
    p.channelDelayS.assign(7, 0.0);
    p.route.assign(16, {});
    p.route[0 * 4 + 3] = {0};    // w0 -> server
    p.route[1 * 4 + 3] = {1, 5}; // w1 -> server, over channel 5
    p.route[2 * 4 + 3] = {2};    // w2 -> server
    p.route[3 * 4 + 0] = {3, 5}; // server -> w0, over channel 5
    p.route[3 * 4 + 1] = {4};
    p.route[3 * 4 + 2] = {6};
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    ASSERT_EQ(r.updates.size(), 3u);
    EXPECT_EQ(r.updates[0].worker, 0u);
    EXPECT_EQ(r.updates[1].worker, 2u);
    EXPECT_EQ(r.updates[2].worker, 1u);
    EXPECT_EQ(r.updates[0].applied, MicroSeconds(1100));
    EXPECT_EQ(r.updates[1].applied, MicroSeconds(1200));
    EXPECT_EQ(r.updates[2].applied, MicroSeconds(1300));
}

TEST(AsyncPsJob, MlfabricDropsAnUpdateBeyondTheDelayBound)
{
    // The straggler (3 ms compute) with delay bound 1. w0's updates land at 1.1, 2.3 and
    // 3.5 ms, each on the version its last reply carried: delay 0 each time. w1's first
    // request (3.0 ms) was computed on v0 while the shard is at v2: delay 2 > 1, dropped;
    // w1 sends a 64 B pull request and gets v2 back at 3.2 ms. Its next update (6.2 ms, on
    // v2, shard at v3) has delay 1 and is applied; the last (9.4 ms, on v4, shard v4) 0.
    // ASP on the same setup gave w1 a delay of 2. Server bytes: 5 applied updates x
    // (1000 + 1000) + the pull request and its reply (64 + 1000) = 11064.
    AsyncPsConfig c = TwoWorkers();
    c.straggler = 1;
    c.stragglerFactor = 3;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.delayBound = 1;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 0, 0}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1, 0}));
    EXPECT_EQ(r.dropped, 1u);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{5}));
    EXPECT_EQ(r.serverBytes, 11064u);
    EXPECT_EQ(r.ends[1],
              (std::vector<Time>{MicroSeconds(3200), MicroSeconds(6400), MicroSeconds(9600)}));
}

TEST(AsyncPsJob, MlfabricNeverHasAWorkerPushToTwoShardsAtOnce)
{
    // 2 workers, 2 shards, both push to both at 1.0 ms. Shard 0 grants w0; shard 1 would
    // take w0 too (the earlier request) but w0's link is reserved, so it grants w1. At
    // 1.1 ms both arrive and the pairs swap: every push gets both links to itself. Check:
    // per worker, its slots over all shards never overlap; every shard takes every update.
    AsyncPsConfig c = TwoWorkers();
    c.servers = 2;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{6, 6}));
    for (uint32_t w = 0; w < 2; ++w)
    {
        std::vector<PushSlot> mine;
        for (const auto& shard : r.slots)
        {
            for (const auto& slot : shard)
            {
                if (slot.worker == w)
                {
                    mine.push_back(slot);
                }
            }
        }
        std::sort(mine.begin(), mine.end(), [](const PushSlot& a, const PushSlot& b) {
            return a.grant < b.grant;
        });
        ASSERT_EQ(mine.size(), 6u);
        for (size_t i = 1; i < mine.size(); ++i)
        {
            EXPECT_GE(mine[i].grant, mine[i - 1].arrival) << "worker " << w << " slot " << i;
        }
    }
    // The first round: w0 -> shard 0 and w1 -> shard 1 granted at 1.0 ms, both at once.
    EXPECT_EQ(r.slots[0][0].worker, 0u);
    EXPECT_EQ(r.slots[1][0].worker, 1u);
    EXPECT_EQ(r.slots[1][0].grant, MicroSeconds(1000));
}

namespace
{

/// Five workers, one push each at 1.0 ms, MLFabric scheduling.
AsyncPsConfig
FiveWorkersOnePush(bool aggregate)
{
    AsyncPsConfig c = TwoWorkers();
    c.workers = 5;
    c.iterations = 1;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.aggregate = aggregate;
    return c;
}

} // namespace

TEST(AsyncPsJob, MlfabricWithoutAggregationSerialisesFivePushes)
{
    // The reference for the next test: five pushes at 1.0 ms take the server's link one
    // after another, applied at 1.1, 1.2, 1.3, 1.4, 1.5 ms with delays 0..4; the link
    // carries 5 pushes + 5 replies of 1000 B = 10000 B.
    JobOutcome r = RunJob(FiveWorkersOnePush(false));
    ASSERT_TRUE(r.finished);
    ASSERT_EQ(r.updates.size(), 5u);
    for (uint32_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(r.updates[i].delay, i);
        EXPECT_EQ(r.updates[i].applied, MicroSeconds(1100 + 100 * i));
    }
    EXPECT_EQ(r.serverBytes, 10000u);
    EXPECT_EQ(r.aggregated, 0u);
    EXPECT_EQ(r.gatherBytes, 0u);
}

TEST(AsyncPsJob, MlfabricAggregatesTheDeferredUpdatesAtAnIdleWorker)
{
    // At 1.0 ms w0's request finds the link free (granted); w1..w4 wait. At 1.1 ms w0's push
    // is applied (delay 0) and the batch {w1..w4} is scheduled: w1 is granted (equal rates,
    // earliest request) and the k = 3 deferred updates of w2, w3, w4 are summed at w2 (the
    // earliest of them): w3 and w4 send it 1000 B each, arriving 1.2 ms. At 1.2 ms w1's
    // push (posted first) is applied (delay 1), then the gathers complete and w2 is granted
    // one slot for the combined update, applied at 1.3 ms on version 2: each constituent
    // computed on v0 has delay 2 and the version jumps 2 -> 5. Every update is applied once.
    // Server link: 3 pushes + 5 replies = 8000 B, (k - 1) x W/S = 2000 B fewer than the
    // 10000 B without aggregation; the 2000 B of gathers go worker to worker.
    JobOutcome r = RunJob(FiveWorkersOnePush(true));
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{5}));
    ASSERT_EQ(r.updates.size(), 5u);
    std::vector<uint32_t> applied(5, 0);
    for (const auto& u : r.updates)
    {
        ++applied[u.worker];
    }
    EXPECT_EQ(applied, (std::vector<uint32_t>{1, 1, 1, 1, 1}));
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1}));
    for (uint32_t w = 2; w < 5; ++w)
    {
        EXPECT_EQ(DelaysOf(r, w), (std::vector<uint64_t>{2})) << w;
    }
    EXPECT_EQ(r.updates.back().applied, MicroSeconds(1300));
    EXPECT_EQ(r.serverBytes, 10000u - 2 * 1000u);
    EXPECT_EQ(r.gatherBytes, 2000u);
    EXPECT_EQ(r.aggregated, 3u);
    EXPECT_EQ(r.combined, 1u);
    // Three slots (w0, w1, the aggregator w2), still never overlapping.
    ASSERT_EQ(r.slots[0].size(), 3u);
    EXPECT_EQ(r.slots[0][2].worker, 2u);
    for (size_t i = 1; i < r.slots[0].size(); ++i)
    {
        EXPECT_GE(r.slots[0][i].grant, r.slots[0][i - 1].arrival) << i;
    }
}

TEST(AsyncPsJob, MlfabricCanDrawTheAggregatorAtRandomAsThePaperDoes)
{
    // The five-worker aggregation above, with the aggregator drawn: the deferred parts are
    // w2, w3, w4 in request order, and the documented rule takes part (first draw of
    // mt19937_64(seed)) mod 3. Computed here with the generator itself, for three seeds;
    // whoever is drawn pushes the one combined update in the third slot, every update is
    // still applied once (version 5).
    for (uint64_t seed : {1u, 2u, 3u})
    {
        AsyncPsConfig c = FiveWorkersOnePush(true);
        c.randomAggregator = true;
        c.aggregatorSeed = seed;
        std::mt19937_64 rng(seed);
        const uint32_t expected = 2 + static_cast<uint32_t>(rng() % 3);
        JobOutcome r = RunJob(c);
        ASSERT_TRUE(r.finished);
        EXPECT_EQ(r.versions, (std::vector<uint64_t>{5}));
        EXPECT_EQ(r.combined, 1u);
        ASSERT_EQ(r.slots[0].size(), 3u);
        EXPECT_EQ(r.slots[0][2].worker, expected) << "seed " << seed;
    }
    // With the fastest-link rule and equal rates it is the earliest request, w2, whatever
    // the seed.
    AsyncPsConfig c = FiveWorkersOnePush(true);
    c.aggregatorSeed = 3;
    EXPECT_EQ(RunJob(c).slots[0][2].worker, 2u);
}

TEST(AsyncPsJob, MlfabricGathersUpABinomialTreeNotAnIncast)
{
    // Six workers: as above w0 is applied at 1.1 ms, w1 granted then, and k = 4 deferred
    // updates (w2..w5) are summed at w2 (part 0; w3, w4, w5 are parts 1, 2, 3). Binomial
    // tree, part i -> i with its lowest bit cleared: 1 -> 0, 3 -> 2 in the first round
    // (1.1 -> 1.2 ms), then 2 -> 0 (1.2 -> 1.3 ms): ceil(log2 4) = 2 rounds, and w2 never
    // receives two gathers at once. Granted at 1.3 ms, the combined update is applied at
    // 1.4 ms on version 2: delay 2 for each of w2..w5, version 2 -> 6. Server link: 3
    // pushes + 6 replies = 9000 B, (k - 1) x 1000 = 3000 B fewer than 6 single pushes; the
    // 3 gathers (3000 B) cross the workers' links.
    AsyncPsConfig c = FiveWorkersOnePush(true);
    c.workers = 6;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{6}));
    ASSERT_EQ(r.updates.size(), 6u);
    for (uint32_t w = 2; w < 6; ++w)
    {
        EXPECT_EQ(DelaysOf(r, w), (std::vector<uint64_t>{2})) << w;
    }
    EXPECT_EQ(r.updates.back().applied, MicroSeconds(1400));
    ASSERT_EQ(r.slots[0].size(), 3u);
    EXPECT_EQ(r.slots[0][2].grant, MicroSeconds(1300));
    EXPECT_EQ(r.serverBytes, 9000u);
    EXPECT_EQ(r.gatherBytes, 3000u);
    EXPECT_EQ(r.aggregated, 4u);
}

TEST(AsyncPsJob, MlfabricAggregatesWithTheSchedulerOverTheNetwork)
{
    // The five-worker aggregation with every decision a 64 B message (100 us each way):
    // requests reach the server at 1.1 ms and w0 is granted (grant 1.2, push applied 1.3).
    // At 1.3 ms w1 is granted (grant 1.4, push applied 1.5) and w3, w4 are ordered to
    // send to w2 (orders 1.4, gathers 1.5 ms). At 1.5 ms w1's push lands first (its grant
    // was posted before the orders), then the gathers: w2 reports ready (1.6 ms), is
    // granted (1.7 ms) and its combined update is applied at 1.8 ms on version 2 (delay 2
    // each, version -> 5). Control: 5 requests + 3 grants + 2 orders + 1 ready = 11 x 64 B
    // = 704 B, all on the server's link: 3000 B pushes + 5000 B replies + 704 B = 8704 B.
    AsyncPsConfig c = FiveWorkersOnePush(true);
    c.networkScheduler = true;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{5}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1}));
    EXPECT_EQ(r.updates[1].applied, MicroSeconds(1500));
    for (uint32_t w = 2; w < 5; ++w)
    {
        EXPECT_EQ(DelaysOf(r, w), (std::vector<uint64_t>{2})) << w;
    }
    EXPECT_EQ(r.updates.back().applied, MicroSeconds(1800));
    EXPECT_EQ(r.controlBytes, 704u);
    EXPECT_EQ(r.serverBytes, 8704u);
    EXPECT_EQ(r.gatherBytes, 2000u);
}

TEST(AsyncPsJob, MlfabricAggregationAppliesOrDropsEveryUpdateExactlyOnce)
{
    // A longer run that mixes combined updates, a compute straggler and drops (delay
    // bound 3) over two shards, 8 workers x 6 iterations: per shard, each (worker,
    // iteration) is either applied once or dropped once, so applied + dropped = 8 x 6 x 2
    // = 96, no update is applied twice, none beyond the bound, and each shard's version
    // equals the updates applied to it.
    AsyncPsConfig c = FiveWorkersOnePush(true);
    c.workers = 8;
    c.iterations = 6;
    c.servers = 2;
    c.straggler = 4;
    c.stragglerFactor = 3;
    c.delayBound = 3;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_GT(r.aggregated, 0u); // the scenario does exercise aggregation...
    EXPECT_GT(r.dropped, 0u);    // ...and drops
    EXPECT_EQ(r.updates.size() + r.dropped, 96u);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
    std::vector<uint64_t> perShard(2, 0);
    for (const auto& u : r.updates)
    {
        EXPECT_TRUE(seen.insert({u.worker, u.iteration, u.shard}).second)
            << "worker " << u.worker << " iteration " << u.iteration << " applied twice";
        EXPECT_LE(u.delay, 3u);
        ++perShard[u.shard];
    }
    EXPECT_EQ(r.versions, perShard);
}

TEST(AsyncPsJob, MlfabricSchedulerOverTheNetworkGrantsTwoLatenciesLater)
{
    // One worker, one push at 1.0 ms. Oracle: the push leaves at once, applied 1.1 ms.
    // Over the network: request 1.0 -> 1.1 ms at the server's host, grant 1.1 -> 1.2 ms back,
    // then the push 1.2 -> 1.3 ms: it starts 2 x 100 us later (the fixed-latency transport
    // has no serialization, so the 64 B messages add nothing else) and the iteration ends at
    // 1.4 instead of 1.2 ms. The slot is reserved from the scheduler's decision (1.1 ms).
    // Server link: 1000 B push + 1000 B reply + 2 x 64 B of control = 2128 B.
    AsyncPsConfig c = TwoWorkers();
    c.workers = 1;
    c.iterations = 1;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    JobOutcome oracle = RunJob(c);
    c.networkScheduler = true;
    JobOutcome net = RunJob(c);
    ASSERT_TRUE(oracle.finished && net.finished);
    ASSERT_EQ(net.updates.size(), 1u);
    EXPECT_EQ(oracle.updates[0].applied, MicroSeconds(1100));
    EXPECT_EQ(net.updates[0].applied - oracle.updates[0].applied, MicroSeconds(200));
    EXPECT_EQ(net.ends[0].back(), MicroSeconds(1400));
    EXPECT_EQ(net.slots[0][0].grant, MicroSeconds(1100));
    EXPECT_EQ(net.controlBytes, 128u);
    EXPECT_EQ(net.serverBytes, 2128u);
    EXPECT_EQ(oracle.serverBytes, 2000u);
}

TEST(AsyncPsJob, MlfabricSchedulerOverTheNetworkAnswersADroppedRequestWithTheModel)
{
    // The drop test above with the scheduler on the server's host. w0 (1 ms compute):
    // request 1.0 -> 1.1, grant -> 1.2, push -> 1.3 (applied, v1), reply -> 1.4 ms; so
    // iterations take 1.4 ms and its pushes are applied at 1.3, 2.7, 4.1 ms, each on the
    // version its last reply carried: delay 0. w1 (3 ms compute) requests at 3.0 -> 3.1 ms
    // with v0 while the shard is at v2: delay 2 > 1, dropped; the server answers with the
    // model at once (no pull request): w1 has v2 at 3.2 ms. Its next request (6.2 -> 6.3 ms,
    // on v2, shard at v3) is granted, delay 1; its last (9.5 ms compute ends, on v4) delay 0.
    AsyncPsConfig c = TwoWorkers();
    c.straggler = 1;
    c.stragglerFactor = 3;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.delayBound = 1;
    c.networkScheduler = true;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 0, 0}));
    EXPECT_EQ(DelaysOf(r, 1), (std::vector<uint64_t>{1, 0}));
    EXPECT_EQ(r.dropped, 1u);
    EXPECT_EQ(r.ends[1].front(), MicroSeconds(3200));
}

TEST(AsyncPsJob, ReplicaForwardsEveryDUpdatesAndServesThePulls)
{
    // One worker, one shard, replica within D = 2, 5 iterations of 1 ms. Each iteration:
    // push (100 us), the server applies it and orders the replica to serve (100 us), the
    // replica sends the model (100 us): iterations end at 1.3, 2.6, 3.9, 5.2, 6.5 ms.
    // Versions at apply 1..5; not yet forwarded after each: 1, 2 (forward v2), 1, 2
    // (forward v4), 1: floor(5 / 2) = 2 forwards, divergence never above 2. The forward
    // precedes the serve order on the server -> replica queue pair, so the worker computes
    // on 0, 0, 2, 2, 4 and its updates' delays are 0, 1, 0, 1, 0. Replica sync: 2 x 1000 B
    // instead of 5 x 1000 B forwarding every update. Server link: 5 pushes (5000 B), 5
    // serve orders (320 B) and 2 forwards (2000 B) = 7320 B, against 10000 B with the
    // server answering every push itself.
    AsyncPsConfig c = TwoWorkers();
    c.workers = 1;
    c.iterations = 5;
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.replicaDivergence = 2;
    JobOutcome r = RunJob(c);
    ASSERT_TRUE(r.finished);
    EXPECT_EQ(r.versions, (std::vector<uint64_t>{5}));
    EXPECT_EQ(r.forwards, 2u);
    EXPECT_EQ(r.replicaSyncBytes, 2000u);
    EXPECT_EQ(r.maxDivergence, 2u);
    EXPECT_EQ(DelaysOf(r, 0), (std::vector<uint64_t>{0, 1, 0, 1, 0}));
    EXPECT_EQ(r.ends[0],
              (std::vector<Time>{MicroSeconds(1300),
                                 MicroSeconds(2600),
                                 MicroSeconds(3900),
                                 MicroSeconds(5200),
                                 MicroSeconds(6500)}));
    EXPECT_EQ(r.serverBytes, 7320u);
}

TEST(AsyncPsJob, ReplicaForwardsFloorOfUOverDForAnyD)
{
    // 3 workers x 4 iterations = U = 12 single updates per shard, 2 shards: each shard
    // forwards floor(12 / D) times (its versions step by one) and never holds more than D
    // versions its replica lacks; every update is applied once.
    for (uint32_t d : {1u, 3u, 5u, 12u, 13u})
    {
        AsyncPsConfig c = TwoWorkers();
        c.workers = 3;
        c.servers = 2;
        c.iterations = 4;
        c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
        c.replicaDivergence = d;
        JobOutcome r = RunJob(c);
        ASSERT_TRUE(r.finished) << d;
        EXPECT_EQ(r.versions, (std::vector<uint64_t>{12, 12})) << d;
        EXPECT_EQ(r.forwards, 2u * (12 / d)) << d;
        EXPECT_LE(r.maxDivergence, d) << d;
        EXPECT_EQ(r.maxDivergence, std::min(d, 12u)) << d;
    }
}
