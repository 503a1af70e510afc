// LapsePs (dynamic parameter allocation) over a fake transport that delivers every message
// 100 us after it is posted: message counts and times derived by hand, then a randomized
// run with concurrent relocations checked against a sequential reference.
#include "fixed-latency-transport.h"

#include "ns3/lapse-mf-workload.h"
#include "ns3/lapse-ps.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace ns3;

namespace
{

class LapsePsTest : public ::testing::Test
{
  protected:
    void
    Make(LapseConfig c)
    {
        ps = std::make_unique<LapsePs>(c);
        transport = std::make_unique<FixedLatencyTransport>(ps.get());
        ps->SetTransport(transport.get());
    }
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
    std::unique_ptr<LapsePs> ps;
    std::unique_ptr<FixedLatencyTransport> transport;
};

LapseConfig
Config(uint32_t nodes, uint64_t keys, bool caches = false)
{
    LapseConfig c;
    c.nodes = nodes;
    c.keys = keys;
    c.valueBytes = 100;
    c.headerBytes = 64;
    c.locationCaches = caches;
    return c;
}

} // namespace

TEST_F(LapsePsTest, LocalAccessIsFreeAndARemotePushIsARoundTrip)
{
    // 2 nodes, 4 keys: keys 0,1 live at node 0, keys 2,3 at node 1 (k * N / K).
    Make(Config(2, 4));
    EXPECT_EQ(ps->Home(1), 0u);
    EXPECT_EQ(ps->Home(2), 1u);
    double read = -1;
    ps->Pull(0, 0, [&](double v) { read = v; });
    EXPECT_EQ(read, 0); // served on the spot: no message
    EXPECT_EQ(ps->Messages(), 0u);
    Time pushed = Seconds(-1);
    ps->Push(0, 2, 5.0, [&]() { pushed = Simulator::Now(); });
    Simulator::Run();
    // Request with the delta (64 + 100 B) to the owner, its ack back (64 B): 200 us.
    EXPECT_EQ(pushed, MicroSeconds(200));
    EXPECT_EQ(ps->Messages(), 2u);
    EXPECT_EQ(ps->Bytes(), 228u);
    EXPECT_EQ(ps->LocalAccesses(), 1u);
    EXPECT_EQ(ps->RemoteAccesses(), 1u);
    EXPECT_EQ(ps->Value(2), 5.0);
}

TEST_F(LapsePsTest, RelocationIsThreeMessagesAndThenAccessIsLocal)
{
    // 3 nodes, 3 keys: key 1's home is node 1. Node 2 localizes it (home = old owner:
    // LOCALIZE 2->1, the handover is local to node 1, TRANSFER 1->2: 2 messages, 200 us).
    // Then node 0 localizes it: LOCALIZE 0->1 (home), HANDOVER 1->2 (old owner), TRANSFER
    // 2->0: the three messages of a relocation, 300 us. Node 0 then reads locally.
    Make(Config(3, 3));
    Time first = Seconds(-1);
    ps->Localize(2, 1, [&]() { first = Simulator::Now(); });
    Simulator::Run();
    EXPECT_EQ(first, MicroSeconds(200));
    EXPECT_EQ(ps->Owner(1), 2u);
    EXPECT_EQ(ps->Messages(), 2u);
    Time second = Seconds(-1);
    Simulator::Schedule(MicroSeconds(1),
                        [&]() { ps->Localize(0, 1, [&]() { second = Simulator::Now(); }); });
    Simulator::Run();
    EXPECT_EQ(second, MicroSeconds(200 + 1 + 300));
    EXPECT_EQ(ps->Messages(), 5u);
    EXPECT_EQ(ps->Owner(1), 0u);
    const uint64_t before = ps->Messages();
    double read = -1;
    ps->Push(0, 1, 2.5, nullptr);
    ps->Pull(0, 1, [&](double v) { read = v; });
    EXPECT_EQ(read, 2.5);
    EXPECT_EQ(ps->Messages(), before); // both local
}

TEST_F(LapsePsTest, RequestsAreForwardedToTheOwnerAndCachesSkipTheHome)
{
    // Key 1 (home node 1) moved to node 2. Node 0's pull goes to the home, is forwarded to
    // node 2, answered to node 0: 3 messages, 300 us. With location caches node 0 learns
    // the owner from the answer and its second pull goes straight there: 2 messages.
    for (bool caches : {false, true})
    {
        Make(Config(3, 3, caches));
        ps->Localize(2, 1, nullptr);
        Simulator::Run();
        ps->Push(2, 1, 7.0, nullptr); // local at the new owner
        const uint64_t m0 = ps->Messages();
        Time t0 = Simulator::Now();
        Time answered = Seconds(-1);
        double read = -1;
        ps->Pull(0, 1, [&](double v) {
            read = v;
            answered = Simulator::Now();
        });
        Simulator::Run();
        EXPECT_EQ(read, 7.0);
        EXPECT_EQ(answered - t0, MicroSeconds(300)) << caches;
        EXPECT_EQ(ps->Messages() - m0, 3u) << caches;
        const uint64_t m1 = ps->Messages();
        ps->Pull(0, 1, nullptr);
        Simulator::Run();
        EXPECT_EQ(ps->Messages() - m1, caches ? 2u : 3u) << caches;
        Simulator::Destroy();
    }
}

namespace
{

void
RandomizedConsistency(bool batch)
{
    // 4 nodes, 6 keys, 3000 random operations (40 % push of a random delta, 40 % pull,
    // 20 % localize) at random times within 20 ms — about 30 in flight at once, so requests
    // race with relocations all the time. Sequential reference: in each key's apply order
    // (the owners' log) every pull must read the sum of the pushes before it, every node's
    // operations must appear in the order it issued them, the final value must be the sum
    // of all pushes, and every operation must complete (none lost in a relocation). With
    // batching, a localize takes a random run of 1-3 keys in one batch.
    LapsePs lapse(Config(4, 6, true));
    FixedLatencyTransport fixed(&lapse);
    lapse.SetTransport(&fixed);
    LapsePs* ps = &lapse;
    std::mt19937 rng(12345);
    std::uniform_int_distribution<uint32_t> node(0, 3);
    std::uniform_int_distribution<uint64_t> key(0, 5);
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_int_distribution<int> delta(1, 9);
    std::uniform_int_distribution<int> at(0, 20000);
    std::uniform_int_distribution<uint64_t> run(1, 3);
    std::map<uint64_t, double> pushedSum;
    std::map<std::pair<uint32_t, uint64_t>, double> readBySeq; // (node, seq) -> value read
    std::map<uint32_t, uint64_t> issued;                       // node -> ops issued (seq)
    uint64_t localizes = 0;
    for (int i = 0; i < 3000; ++i)
    {
        const uint32_t n = node(rng);
        const uint64_t k = key(rng);
        const int what = kind(rng);
        const double d = delta(rng);
        const uint64_t len = batch ? run(rng) : 1;
        Simulator::Schedule(MicroSeconds(at(rng)), [&, n, k, what, d, len]() {
            if (what < 4)
            {
                pushedSum[k] += d;
                ++issued[n];
                ps->Push(n, k, d, nullptr);
            }
            else if (what < 8)
            {
                const uint64_t seq = issued[n]++;
                ps->Pull(n, k, [&, n, seq](double v) { readBySeq[{n, seq}] = v; });
            }
            else
            {
                ++localizes;
                if (!batch)
                {
                    ps->Localize(n, k, nullptr);
                    return;
                }
                std::vector<uint64_t> keys;
                for (uint64_t j = k; j < std::min<uint64_t>(k + len, 6); ++j)
                {
                    keys.push_back(j);
                }
                ps->Localize(n, keys, nullptr);
            }
        });
    }
    Simulator::Run();
    EXPECT_EQ(ps->Outstanding(), 0u);
    EXPECT_GT(localizes, 500u);
    for (uint64_t k = 0; k < 6; ++k)
    {
        ASSERT_TRUE(ps->Value(k).has_value()) << k;
        EXPECT_DOUBLE_EQ(*ps->Value(k), pushedSum[k]) << k;
        double sum = 0;
        std::map<uint32_t, uint64_t> lastSeq;
        for (const LapseApplied& a : ps->AppliedLog(k))
        {
            auto last = lastSeq.find(a.node);
            if (last != lastSeq.end())
            {
                EXPECT_GT(a.seq, last->second) << "key " << k << " node " << a.node;
            }
            lastSeq[a.node] = a.seq;
            if (a.push)
            {
                sum += a.value;
            }
            else
            {
                EXPECT_DOUBLE_EQ(a.value, sum) << "key " << k;
                EXPECT_DOUBLE_EQ(readBySeq.at({a.node, a.seq}), sum) << "key " << k;
            }
        }
    }
    Simulator::Destroy();
}

} // namespace

TEST(LapsePsRandomized, ConcurrentRelocationsKeepPerKeySequentialConsistency)
{
    RandomizedConsistency(false);
}

TEST(LapsePsRandomized, BatchedRelocationsKeepPerKeySequentialConsistency)
{
    RandomizedConsistency(true);
}

TEST_F(LapsePsTest, BatchedLocalizeOfABlockIsThreeMessagesInsteadOfThreePerKey)
{
    // 3 nodes, 30 keys: the block of keys 10..19 has home node 1 (k * 3 / 30 = 1). Node 2
    // takes the block (the home is the owner: LOCALIZE 2->1, local handover, TRANSFER 1->2),
    // then node 0 takes it from node 2: LOCALIZE 0->1, HANDOVER 1->2, TRANSFER 2->0. Batched,
    // each step is 2 resp. 3 messages for the whole block; key by key 2 resp. 3 per key
    // (20 and 30 for 10 keys). Both take the same time: 200 us, then 300 us (the key-by-key
    // messages run in parallel on the fixed-latency transport). Bytes of the second step:
    // batched LOCALIZE and HANDOVER 64 + 9 x 8 = 136 B each, TRANSFER 64 + 10 x 100 = 1064 B,
    // 1336 B; key by key 10 x (64 + 64 + 164) = 2920 B.
    std::vector<uint64_t> block;
    for (uint64_t k = 10; k < 20; ++k)
    {
        block.push_back(k);
    }
    for (bool batch : {true, false})
    {
        Make(Config(3, 30));
        auto take = [&](uint32_t node, Time* done) {
            if (batch)
            {
                ps->Localize(node, block, [done]() { *done = Simulator::Now(); });
                return;
            }
            for (uint64_t k : block)
            {
                ps->Localize(node, k, [done]() { *done = Simulator::Now(); });
            }
        };
        Time first = Seconds(-1);
        take(2, &first);
        Simulator::Run();
        EXPECT_EQ(first, MicroSeconds(200)) << batch;
        EXPECT_EQ(ps->Messages(), batch ? 2u : 20u) << batch;
        const uint64_t m0 = ps->Messages();
        const uint64_t b0 = ps->Bytes();
        Time second = Seconds(-1);
        take(0, &second);
        Simulator::Run();
        EXPECT_EQ(second - first, MicroSeconds(300)) << batch;
        EXPECT_EQ(ps->Messages() - m0, batch ? 3u : 30u) << batch;
        EXPECT_EQ(ps->Bytes() - b0, batch ? 1336u : 2920u) << batch;
        EXPECT_EQ(ps->Localizes(), 20u) << batch;
        for (uint64_t k : block)
        {
            EXPECT_EQ(ps->Owner(k), 0u) << k;
        }
        Simulator::Destroy();
    }
}

namespace
{

struct MfOutcome
{
    std::vector<Time> epochEnds;
    uint64_t local;
    uint64_t remote;
    uint64_t messages;
};

MfOutcome
RunMf(bool dynamic)
{
    // 2 nodes x 1 worker, 4 keys in 2 column blocks: block 0 = keys 0,1 (home node 0),
    // block 1 = keys 2,3 (home node 1); 10 SGD steps per block of 1 us compute each.
    LapsePs ps(Config(2, 4));
    FixedLatencyTransport transport(&ps);
    ps.SetTransport(&transport);
    LapseMfConfig c;
    c.stepsPerBlock = 10;
    c.stepTime = MicroSeconds(1);
    c.dynamic = dynamic;
    LapseMfWorkload mf(ps, 2, 4, c);
    mf.Start(Seconds(0));
    Simulator::Run();
    EXPECT_TRUE(mf.Finished());
    EXPECT_EQ(ps.Outstanding(), 0u);
    MfOutcome o{mf.EpochEnds(), ps.LocalAccesses(), ps.RemoteAccesses(), ps.Messages()};
    Simulator::Destroy();
    return o;
}

} // namespace

TEST(LapseMfWorkload, ClassicAllocationGoesRemoteForEveryOtherBlock)
{
    // Sub-epoch 0: each worker's block lives on its own node: 10 steps x (local pull, 1 us,
    // local push) = 10 us. Sub-epoch 1: the blocks swap, every pull and push is a 200 us
    // round trip: 10 x (200 + 1 + 200) = 4010 us. Epoch: 4020 us; 40 local, 40 remote.
    MfOutcome o = RunMf(false);
    ASSERT_EQ(o.epochEnds.size(), 1u);
    EXPECT_EQ(o.epochEnds[0], MicroSeconds(4020));
    EXPECT_EQ(o.local, 40u);
    EXPECT_EQ(o.remote, 40u);
    EXPECT_EQ(o.messages, 80u);
}

TEST(LapseMfWorkload, DynamicAllocationRelocatesTheNextBlockAndStaysLocal)
{
    // Sub-epoch 0 as above (10 us). Each worker then localizes its next block's 2 keys:
    // LOCALIZE to the home (which owns them: the handover is local) and TRANSFER back,
    // arriving at 10 + 200 = 210 us; its steps wait for them, then run locally: 210 + 10 =
    // 220 us. All 80 accesses local; 2 workers x 2 keys x 2 messages = 8 messages.
    MfOutcome o = RunMf(true);
    ASSERT_EQ(o.epochEnds.size(), 1u);
    EXPECT_EQ(o.epochEnds[0], MicroSeconds(220));
    EXPECT_EQ(o.local, 80u);
    EXPECT_EQ(o.remote, 0u);
    EXPECT_EQ(o.messages, 8u);
}

TEST_F(LapsePsTest, WithoutFastLocalAccessALocalKeyCostsTheLocalAccessTime)
{
    // Classic PSs without fast local access serve even a local key through the server
    // process: with 10 us per local access, a pull then a push of node 0's own key 0 end at
    // 10 us and 20 us (the push waits behind the pull: program order); no message is sent.
    LapseConfig c = Config(2, 4);
    c.localAccessTime = MicroSeconds(10);
    Make(c);
    Time pulled = Seconds(-1);
    Time pushed = Seconds(-1);
    ps->Pull(0, 0, [&](double) { pulled = Simulator::Now(); });
    ps->Push(0, 0, 1.0, [&]() { pushed = Simulator::Now(); });
    Simulator::Run();
    EXPECT_EQ(pulled, MicroSeconds(10));
    EXPECT_EQ(pushed, MicroSeconds(20));
    EXPECT_EQ(ps->Messages(), 0u);
    EXPECT_EQ(ps->LocalAccesses(), 2u);
}
