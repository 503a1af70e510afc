// LapseKgeWorkload (knowledge-graph embeddings on a Lapse PS), the Zipf entity draw, one-node
// runs of both workloads against their closed forms, and the lapse spec's workload, nodes and
// batch options. Transport: every message arrives 100 us after it is posted.
#include "fixed-latency-transport.h"

#include "ns3/lapse-kge-workload.h"
#include "ns3/lapse-mf-workload.h"
#include "ns3/lapse-ps.h"
#include "ns3/lapse-spec.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(LapseZipfSampler, DrawsRanksWithZipfFrequencies)
{
    // n = 10, s = 1: P(r) = 1 / ((r + 1) H_10), H_10 = 7381 / 2520 = 2.928968: P(0) = 0.341417,
    // P(1) = 0.170709, P(9) = 0.034142. 200,000 draws: the standard error of P(0) is
    // sqrt(0.34 x 0.66 / 2e5) = 0.0011, so 0.005 is over 4 standard errors. s = 0 is uniform.
    std::mt19937_64 rng(7);
    LapseZipfSampler zipf(10, 1.0);
    LapseZipfSampler uniform(10, 0.0);
    std::vector<double> z(10, 0);
    std::vector<double> u(10, 0);
    const int draws = 200000;
    for (int i = 0; i < draws; ++i)
    {
        z[zipf.Draw(rng)] += 1.0 / draws;
        u[uniform.Draw(rng)] += 1.0 / draws;
    }
    EXPECT_NEAR(z[0], 0.341417, 0.005);
    EXPECT_NEAR(z[1], 0.170709, 0.005);
    EXPECT_NEAR(z[9], 0.034142, 0.005);
    for (double f : u)
    {
        EXPECT_NEAR(f, 0.1, 0.005);
    }
    EXPECT_THROW(LapseZipfSampler(0, 1.0), std::invalid_argument);
    EXPECT_THROW(LapseZipfSampler(10, -1.0), std::invalid_argument);
}

namespace
{

struct Outcome
{
    Time epoch;
    uint64_t local;
    uint64_t remote;
    uint64_t messages;
    uint64_t localizes;
    bool relationsAtHome;
    bool relationsAtTheirNode;        //!< relation r owned by node r mod N
    bool someRelationAwayFromItsNode; //!< the placement put a relation's home elsewhere
};

Outcome
RunKge(uint32_t nodes,
       uint32_t workersPerNode,
       bool dynamic,
       Time local,
       bool batch = false,
       bool cluster = false)
{
    LapseConfig pc;
    pc.nodes = nodes;
    pc.keys = 50 + 3; // 50 entities, 3 relations
    pc.localAccessTime = local;
    LapsePs ps(pc);
    FixedLatencyTransport transport(&ps);
    ps.SetTransport(&transport);
    LapseKgeConfig c;
    c.workersPerNode = workersPerNode;
    c.entities = 50;
    c.relations = 3;
    c.triplesPerEpoch = 20;
    c.window = 4;
    c.stepTime = MicroSeconds(1);
    c.dynamic = dynamic;
    c.batchLocalize = batch;
    c.clusterRelations = cluster;
    LapseKgeWorkload kge(ps, nodes, pc.keys, c);
    kge.Start(Seconds(0));
    Simulator::Run();
    EXPECT_TRUE(kge.Finished());
    EXPECT_EQ(ps.Outstanding(), 0u);
    bool atHome = true;
    bool atNode = true;
    bool away = false;
    for (uint64_t r = 0; r < 3; ++r)
    {
        atHome = atHome && ps.Owner(kge.RelationKey(r)) == ps.Home(kge.RelationKey(r));
        atNode = atNode && ps.Owner(kge.RelationKey(r)) == r % nodes;
        away = away || ps.Home(kge.RelationKey(r)) != r % nodes;
    }
    Outcome o{kge.EpochEnds().at(0),
              ps.LocalAccesses(),
              ps.RemoteAccesses(),
              ps.Messages(),
              ps.Localizes(),
              atHome,
              atNode,
              away};
    Simulator::Destroy();
    return o;
}

} // namespace

TEST(LapseKgeWorkload, OneNodeIsComputePlusLocalAccesses)
{
    // One node, one worker, 20 triples of 1 us compute: every key is local. Fast local
    // access: the pulls and pushes cost nothing, epoch = 20 x 1 = 20 us. Through the server
    // process at 5 us per access: the three pulls (distinct keys: head != tail, relations
    // apart) run together, 5 us, then 1 us, then the three pushes, 5 us: 20 x 11 = 220 us.
    // 6 accesses per triple, 120 local; no message; dynamic allocation has nothing to move.
    for (bool dynamic : {false, true})
    {
        Outcome fast = RunKge(1, 1, dynamic, Seconds(0));
        EXPECT_EQ(fast.epoch, MicroSeconds(20)) << dynamic;
        EXPECT_EQ(fast.local, 120u);
        EXPECT_EQ(fast.remote, 0u);
        EXPECT_EQ(fast.messages, 0u);
        EXPECT_EQ(fast.localizes, 0u);
        Outcome ipc = RunKge(1, 1, dynamic, MicroSeconds(5));
        EXPECT_EQ(ipc.epoch, MicroSeconds(220)) << dynamic;
    }
}

TEST(LapseKgeWorkload, ClassicAllocationAnswersEveryRemoteAccessWithARoundTrip)
{
    // 2 nodes x 2 workers x 20 triples x 6 accesses = 480 accesses. Classic: every key stays
    // at its home, so a remote access is a request to the home and its answer (2 messages,
    // no forwarding) and nothing is localized.
    Outcome o = RunKge(2, 2, false, Seconds(0));
    EXPECT_EQ(o.local + o.remote, 480u);
    EXPECT_GT(o.remote, 0u);
    EXPECT_EQ(o.messages, 2 * o.remote);
    EXPECT_EQ(o.localizes, 0u);
    EXPECT_TRUE(o.relationsAtHome);
}

TEST(LapseKgeWorkload, DynamicAllocationMovesEntitiesOnly)
{
    // Dynamic: each triple that enters a worker's window has its 2 entities localized (key
    // by key or as one batch); the relations never move (they stay at their home). Still
    // 480 accesses, all completed.
    for (bool batch : {false, true})
    {
        Outcome o = RunKge(2, 2, true, Seconds(0), batch);
        EXPECT_EQ(o.local + o.remote, 480u) << batch;
        EXPECT_GT(o.localizes, 0u) << batch;
        // At most 2 entities per triple drawn: 4 workers x 20 triples x 2.
        EXPECT_LE(o.localizes, 160u) << batch;
        EXPECT_TRUE(o.relationsAtHome) << batch;
    }
}

TEST(LapseKgeWorkload, ClusteredRelationsLiveAtTheNodeThatTrainsThem)
{
    // relations-at=cluster on 2 nodes: relations 0 and 2 are trained at node 0, relation 1
    // at node 1. Dynamic allocation localizes them there at the start and never moves them
    // again (no worker of another node uses them); classic allocation leaves them at home.
    // Still 480 accesses either way.
    Outcome dynamic = RunKge(2, 2, true, Seconds(0), true, true);
    ASSERT_TRUE(dynamic.someRelationAwayFromItsNode); // else nothing had to move
    EXPECT_TRUE(dynamic.relationsAtTheirNode);
    EXPECT_EQ(dynamic.local + dynamic.remote, 480u);
    Outcome classic = RunKge(2, 2, false, Seconds(0), false, true);
    EXPECT_TRUE(classic.relationsAtHome);
    EXPECT_EQ(classic.local + classic.remote, 480u);
}

TEST(LapseMfWorkload, OneNodeIsComputePlusLocalAccesses)
{
    // One node x 4 workers, 8 keys (4 column blocks of 2), 10 steps per block of 1 us, local
    // access 5 us: the 4 workers' blocks are disjoint in every sub-epoch, so they never
    // wait for one another; a step is pull 5 + compute 1 + push 5 = 11 us, a block 110 us,
    // an epoch of p = 4 sub-epochs 440 us; with fast local access 4 x 10 x 1 = 40 us.
    for (bool dynamic : {false, true})
    {
        for (int local : {0, 5})
        {
            LapseConfig pc;
            pc.nodes = 1;
            pc.keys = 8;
            pc.localAccessTime = MicroSeconds(local);
            LapsePs ps(pc);
            FixedLatencyTransport transport(&ps);
            ps.SetTransport(&transport);
            LapseMfConfig c;
            c.workersPerNode = 4;
            c.stepsPerBlock = 10;
            c.stepTime = MicroSeconds(1);
            c.dynamic = dynamic;
            LapseMfWorkload mf(ps, 1, 8, c);
            mf.Start(Seconds(0));
            Simulator::Run();
            ASSERT_TRUE(mf.Finished());
            EXPECT_EQ(mf.EpochEnds().at(0), MicroSeconds(local ? 440 : 40)) << dynamic;
            EXPECT_EQ(ps.Messages(), 0u);
            EXPECT_EQ(ps.RemoteAccesses(), 0u);
            Simulator::Destroy();
        }
    }
}

TEST(LapseSpec, WorkloadNodesAndBatchOptions)
{
    // kge on 4 hosts with nodes=1: one PS node (host 0), E + R keys.
    LapseSpec k = LapseSpec::Parse("lapse:workload=kge,nodes=1,entities=1000,relations=10", 4);
    EXPECT_EQ(k.workload, "kge");
    EXPECT_EQ(k.ps.nodes, 1u);
    EXPECT_EQ(k.ps.keys, 1010u);
    EXPECT_EQ(k.Workers(), 4u); // 1 node x 4 workers (default)
    LapseSpec m = LapseSpec::Parse("lapse:batch=1,keys=64", 4);
    EXPECT_EQ(m.workload, "mf");
    EXPECT_EQ(m.ps.nodes, 4u); // every host by default
    EXPECT_TRUE(m.mf.batchLocalize);
    m.SetEpochs(3);
    EXPECT_EQ(m.mf.epochs, 3u);
    // Bad values name --algorithm and the key.
    auto message = [](const std::string& spec) {
        try
        {
            LapseSpec::Parse(spec, 4);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    for (auto [spec, key] : std::vector<std::pair<std::string, std::string>>{
             {"lapse:nodes=5", "nodes"},               // more nodes than hosts
             {"lapse:nodes=0", "nodes"},               // at least one
             {"lapse:workload=svm", "workload"},       // mf | kge
             {"lapse:workload=kge,steps=10", "steps"}, // an mf option
             {"lapse:workload=kge,entities=1", "entities"},
             {"lapse:workload=kge,zipf=-1", "zipf"},
             {"lapse:workload=kge,relations=3,relations-at=cluster", "relations"}})
    {
        const std::string e = message(spec);
        EXPECT_NE(e.find("--algorithm"), std::string::npos) << spec << ": " << e;
        EXPECT_NE(e.find(key), std::string::npos) << spec << ": " << e;
    }
}
