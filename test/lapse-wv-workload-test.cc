// LapseWvWorkload (skip-gram with negative sampling on a Lapse PS): its access pattern
// against hand-counted pairs, per-key value sizes on the wire, and the lapse spec's wv
// workload and preset=paper. Transport: every message arrives 100 us after it is posted.
#include "fixed-latency-transport.h"

#include "ns3/lapse-ps.h"
#include "ns3/lapse-spec.h"
#include "ns3/lapse-wv-workload.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

/// 10 words per shard, context 2, 3 negatives, 1 us per pair, over 50 words.
LapseWvConfig
SmallWv(uint32_t workersPerNode, bool dynamic)
{
    LapseWvConfig c;
    c.workersPerNode = workersPerNode;
    c.vocab = 50;
    c.wordsPerEpoch = 10;
    c.context = 2;
    c.negatives = 3;
    c.window = 4;
    c.stepTime = MicroSeconds(1);
    c.dynamic = dynamic;
    return c;
}

uint64_t
Pushes(const LapsePs& ps, uint64_t key)
{
    uint64_t n = 0;
    for (const LapseApplied& a : ps.AppliedLog(key))
    {
        n += a.push ? 1 : 0;
    }
    return n;
}

} // namespace

TEST(LapseWvWorkload, OneNodeAccessesArePairsTimesTwoPlusNegatives)
{
    // A shard of n = 10 words with context c = 2: position i pairs with the positions within
    // 2 of it inside the shard: i = 0 and 9 have 2 contexts, 1 and 8 have 3, 2..7 have 4:
    // 2 x 2 + 2 x 3 + 6 x 4 = 34 pairs. Each reads and writes 2 + k = 5 keys: 34 x 5 x 2 =
    // 340 accesses, all local on one node (no message), and the epoch is 34 pairs x 1 us.
    for (bool dynamic : {false, true})
    {
        LapseConfig pc;
        pc.nodes = 1;
        pc.keys = 100; // 2 x 50 words
        LapsePs ps(pc);
        FixedLatencyTransport transport(&ps);
        ps.SetTransport(&transport);
        LapseWvWorkload wv(ps, 1, pc.keys, SmallWv(1, dynamic));
        EXPECT_EQ(wv.PairsPerEpoch(), 34u);
        wv.Start(Seconds(0));
        Simulator::Run();
        ASSERT_TRUE(wv.Finished());
        EXPECT_EQ(wv.EpochEnds().at(0), MicroSeconds(34));
        EXPECT_EQ(ps.LocalAccesses(), 340u);
        EXPECT_EQ(ps.RemoteAccesses(), 0u);
        EXPECT_EQ(ps.Messages(), 0u);
        // Which keys: word v's input vector is written once per pair in which v is the word,
        // i.e. (contexts of its position) times summed over its positions; the output vectors
        // take the other 34 x (1 + 3) = 136 writes (the context and 3 negatives per pair).
        const int contexts[10] = {2, 3, 4, 4, 4, 4, 4, 4, 3, 2};
        std::vector<uint64_t> expected(50, 0);
        for (int i = 0; i < 10; ++i)
        {
            expected[wv.Shard(0)[i]] += contexts[i];
        }
        uint64_t outputs = 0;
        for (uint64_t v = 0; v < 50; ++v)
        {
            EXPECT_EQ(Pushes(ps, wv.InputKey(v)), expected[v]) << v;
            outputs += Pushes(ps, wv.OutputKey(v));
            EXPECT_NE(wv.InputKey(v), wv.OutputKey(v));
        }
        EXPECT_EQ(outputs, 136u);
        Simulator::Destroy();
    }
}

TEST(LapseWvWorkload, TwoNodesDynamicMovesKeysToTheirUsers)
{
    // 2 nodes x 1 worker: 2 x 340 = 680 accesses either way. Classic: a key is local only at
    // its home, so about half the accesses are remote; dynamic localizes the keys of the
    // next 4 pairs ahead of use, so fewer accesses need the network (two workers contend
    // only for the keys they share).
    uint64_t remote[2] = {0, 0};
    for (bool dynamic : {false, true})
    {
        LapseConfig pc;
        pc.nodes = 2;
        pc.keys = 100;
        LapsePs ps(pc);
        FixedLatencyTransport transport(&ps);
        ps.SetTransport(&transport);
        LapseWvWorkload wv(ps, 2, pc.keys, SmallWv(1, dynamic));
        wv.Start(Seconds(0));
        Simulator::Run();
        ASSERT_TRUE(wv.Finished());
        EXPECT_EQ(ps.Outstanding(), 0u);
        EXPECT_EQ(ps.LocalAccesses() + ps.RemoteAccesses(), 680u);
        remote[dynamic ? 1 : 0] = ps.RemoteAccesses();
        EXPECT_EQ(ps.Localizes() > 0, dynamic);
        Simulator::Destroy();
    }
    EXPECT_GT(remote[0], 100u);
    EXPECT_LT(remote[1], remote[0]);
}

TEST(LapseWvWorkload, RejectsShapesWithoutPairs)
{
    LapseConfig pc;
    pc.nodes = 1;
    pc.keys = 100;
    LapsePs ps(pc);
    LapseWvConfig one = SmallWv(1, true);
    one.wordsPerEpoch = 1; // no pair
    EXPECT_THROW(LapseWvWorkload(ps, 1, 100, one), std::invalid_argument);
    EXPECT_THROW(LapseWvWorkload(ps, 1, 99, SmallWv(1, true)), std::invalid_argument);
}

TEST(LapsePs, PerKeyValueBytesOnTheWire)
{
    // Node 1 pulls key 0 (home: node 0): REQUEST 64 B header, RESPONSE 64 + value. Key 0
    // set to 40,000 B (a 100 x 100 float matrix): 64 + 64 + 40,000 = 40,128 B; key 1 keeps
    // the 400 B default: 64 + 64 + 400 = 528 B. Then node 1 localizes key 0: LOCALIZE 64
    // to the home (node 0), HANDOVER home -> owner is node 0 -> node 0 (no network),
    // TRANSFER 64 + 40,000: 40,128 + 528 + 64 + 40,064 = 80,784 B.
    LapseConfig pc;
    pc.nodes = 2;
    pc.keys = 4; // keys 0, 1 at node 0
    pc.valueBytes = 400;
    LapsePs ps(pc);
    FixedLatencyTransport transport(&ps);
    ps.SetTransport(&transport);
    ps.SetValueBytes(0, 40000);
    EXPECT_EQ(ps.ValueBytes(0), 40000u);
    EXPECT_EQ(ps.ValueBytes(1), 400u);
    ps.Pull(1, 0, [&](double) {
        EXPECT_EQ(ps.Bytes(), 40128u);
        ps.Pull(1, 1, [&](double) {
            EXPECT_EQ(ps.Bytes(), 40128u + 528u);
            ps.Localize(1, 0, nullptr);
        });
    });
    Simulator::Run();
    EXPECT_EQ(ps.Owner(0), 1u);
    EXPECT_EQ(ps.Bytes(), 80784u);
    Simulator::Destroy();
}

TEST(LapseSpec, PaperPresetAndWordVectors)
{
    // preset=paper for kge: 4 workers per node, RESCAL d = 100: entities 100 x 4 = 400 B,
    // relations 100 x 100 x 4 = 40,000 B, relations clustered, the measured 4.3 us step.
    LapseSpec k = LapseSpec::Parse("lapse:workload=kge,preset=paper,nodes=2", 4);
    EXPECT_EQ(k.Workers(), 8u);
    EXPECT_EQ(k.ps.valueBytes, 400u);
    EXPECT_EQ(k.kge.relationBytes, 40000u);
    EXPECT_TRUE(k.kge.clusterRelations);
    EXPECT_EQ(k.kge.stepTime, NanoSeconds(4300));
    // An option given overrides the preset's.
    LapseSpec o = LapseSpec::Parse("lapse:workload=kge,preset=paper,workers=2,dim=10", 4);
    EXPECT_EQ(o.Workers(), 8u); // 4 hosts x 2
    EXPECT_EQ(o.ps.valueBytes, 40u);
    EXPECT_EQ(o.kge.relationBytes, 400u);
    // wv: 2 keys per word, word2vec's context 5 and 5 negatives, 1.6 us per pair.
    LapseSpec w = LapseSpec::Parse("lapse:workload=wv,preset=paper,vocab=1000,nodes=1", 4);
    EXPECT_EQ(w.workload, "wv");
    EXPECT_EQ(w.ps.keys, 2000u);
    EXPECT_EQ(w.ps.valueBytes, 400u);
    EXPECT_EQ(w.wv.context, 5u);
    EXPECT_EQ(w.wv.negatives, 5u);
    EXPECT_EQ(w.wv.stepTime, NanoSeconds(1600));
    // Without a preset, value= sizes every key as before.
    LapseSpec plain = LapseSpec::Parse("lapse:workload=wv,value=64", 4);
    EXPECT_EQ(plain.ps.valueBytes, 64u);
    EXPECT_EQ(plain.wv.context, 2u);
    for (auto [spec, key] : std::vector<std::pair<std::string, std::string>>{
             {"lapse:preset=paper", "preset"}, // mf has no paper preset here
             {"lapse:workload=kge,preset=fast", "preset"},
             {"lapse:workload=wv,vocab=1", "vocab"},
             {"lapse:workload=wv,entities=10", "entities"}}) // a kge option
    {
        try
        {
            LapseSpec::Parse(spec, 4);
            ADD_FAILURE() << spec << " parsed";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << spec << e.what();
        }
    }
}
