#include "topology-grid.h"

#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/ps-algorithm.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{
const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

SyncPlan
Compile(const std::string& algorithm, const std::string& topology, const std::string& model)
{
    auto topo = MakeTopology(topology, 40e9, 1e-6);
    return MakeSyncAlgorithm(algorithm)->Compile(*topo, ModelProfile::Load(model, kModels));
}
} // namespace

TEST(PsAlgorithm, DedicatedServersMatchClosedForm)
{
    // W = 8400, N = 8 workers on hosts 0..7, S servers on the last S hosts. Each server
    // receives its shard W/S from each of the N workers and sends it back to each:
    // N*W/S = 8*8400/S; each worker sends W (its pushes) and receives W (its pulls).
    for (uint32_t s : {1u, 2u, 3u})
    {
        const std::string spec = "ps:servers=" + std::to_string(s);
        SyncPlan plan = Compile(spec, "star:n=" + std::to_string(8 + s), "bytes:8400");
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << spec << "\n" << r.Summary();
        ASSERT_EQ(plan.workers, 8u);
        ASSERT_EQ(plan.ParticipantCount(), 8u + s);
        // 2 N transfers (N pushes, N pulls) per server.
        EXPECT_EQ(plan.transfers.size(), 2u * 8u * s);
        for (uint32_t k = 0; k < s; ++k)
        {
            EXPECT_EQ(plan.hostOf[8 + k], 8 + k) << "dedicated servers are the last hosts";
            EXPECT_EQ(r.receivedBytes[8 + k], 8u * 8400u / s) << spec;
            EXPECT_EQ(r.sentBytes[8 + k], 8u * 8400u / s) << spec;
        }
        for (uint32_t w = 0; w < 8; ++w)
        {
            EXPECT_EQ(r.sentBytes[w], 8400u) << spec;
            EXPECT_EQ(r.receivedBytes[w], 8400u) << spec;
        }
    }
}

TEST(PsAlgorithm, ColocatedServerKeepsItsOwnShareLocal)
{
    // N = 8 workers, S = 2 co-located on workers 0 and 1, W = 8400, shard 4200 each.
    // Worker 0: as server receives 7 pushes of 4200 = 29,400 and sends 7 pulls = 29,400;
    // as worker it pushes shard 1 (4200) and pulls it (4200): 33,600 each way.
    // Worker 2..7: push both shards and pull both: W = 8400 each way.
    SyncPlan plan = Compile("ps:servers=2,placement=colocated", "star:n=8", "bytes:8400");
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    EXPECT_EQ(plan.ParticipantCount(), 8u) << "co-located servers add no participant";
    EXPECT_EQ(plan.transfers.size(), 2u * 2u * 7u); // per shard 7 pushes + 7 pulls
    for (uint32_t w : {0u, 1u})
    {
        EXPECT_EQ(r.sentBytes[w], 33600u);
        EXPECT_EQ(r.receivedBytes[w], 33600u);
    }
    for (uint32_t w = 2; w < 8; ++w)
    {
        EXPECT_EQ(r.sentBytes[w], 8400u);
        EXPECT_EQ(r.receivedBytes[w], 8400u);
    }
    for (const Transfer& t : plan.transfers)
    {
        EXPECT_NE(t.src, t.dst);
    }
}

TEST(PsAlgorithm, ShardPoliciesFollowTensorBoundaries)
{
    // MNIST MLP tensors in backprop order (bytes): 40, 8000, 800, 800000, 4000, 3136000.
    ModelProfile mlp = ModelProfile::Load("mnist-mlp", kModels);
    auto loads = [&](const std::string& spec, uint32_t servers) {
        std::vector<uint64_t> load(servers, 0);
        uint64_t next = 0;
        for (const auto& range : PsAlgorithm(spec).Shards(mlp))
        {
            EXPECT_EQ(range.offset, next) << spec << ": ranges must tile [0, W)";
            next = range.offset + range.bytes;
            load.at(range.server) += range.bytes;
        }
        EXPECT_EQ(next, 3948840u) << spec; // 987,210 params x 4 B
        return load;
    };
    // Round robin: server 0 gets 40 + 800 + 4000 = 4840, server 1 the rest 3,944,000.
    EXPECT_EQ(loads("ps:servers=2,shard=tensor", 2), (std::vector<uint64_t>{4840, 3944000}));
    // Largest first: 3,136,000 -> s0; 800,000 -> s1; then every smaller one to s1 (lighter):
    // s1 = 800,000 + 8000 + 4000 + 800 + 40 = 812,840.
    EXPECT_EQ(loads("ps:servers=2,shard=greedy", 2), (std::vector<uint64_t>{3136000, 812840}));
    // Three servers: 3,136,000 -> s0, 800,000 -> s1, 8000 + 4000 + 800 + 40 = 12,840 -> s2.
    EXPECT_EQ(loads("ps:servers=3,shard=greedy", 3),
              (std::vector<uint64_t>{3136000, 800000, 12840}));
    // Equal bytes: 3,948,840 / 3 = 1,316,280 each.
    EXPECT_EQ(loads("ps:servers=3", 3), (std::vector<uint64_t>{1316280, 1316280, 1316280}));
    // Greedy on 2 servers: the five small tensors are adjacent and on s1, so they merge
    // into one range: two ranges in all.
    EXPECT_EQ(PsAlgorithm("ps:servers=2,shard=greedy").Shards(mlp).size(), 2u);
}

TEST(PsAlgorithm, ChunksArePulledAsSoonAsTheirPushesAreIn)
{
    // W = 8400, chunk = 3000: chunks of 3000, 3000, 2400. N = 4 workers, one server (p4).
    SyncPlan plan = Compile("ps:chunk=3000", "star:n=5", "bytes:8400");
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    ASSERT_EQ(plan.transfers.size(), 3u * (4u + 4u));
    std::map<uint32_t, std::vector<TransferId>> pushesOfChunk;
    std::map<ParticipantIndex, TransferId> previousPush;
    for (const Transfer& t : plan.transfers)
    {
        if (t.phase == 0)
        {
            // A worker's first push waits for nothing; each later one for its previous push.
            auto prev = previousPush.find(t.src);
            EXPECT_EQ(t.deps,
                      prev == previousPush.end() ? std::vector<TransferId>{}
                                                 : std::vector<TransferId>{prev->second})
                << "push #" << t.id;
            previousPush[t.src] = t.id;
            pushesOfChunk[t.chunk].push_back(t.id);
            continue;
        }
        // A pull depends on exactly the 4 pushes of its own chunk, none of a later chunk.
        std::vector<TransferId> deps = t.deps;
        std::sort(deps.begin(), deps.end());
        EXPECT_EQ(deps, pushesOfChunk[t.chunk]) << "pull #" << t.id;
        EXPECT_EQ(deps.size(), 4u);
        EXPECT_EQ(t.bytes, t.chunk < 2 ? 3000u : 2400u);
    }
    // Chunking does not change the volumes: server N*W/S = 4 * 8400 = 33,600 each way.
    EXPECT_EQ(r.receivedBytes[4], 33600u);
    EXPECT_EQ(r.sentBytes[4], 33600u);
}

TEST(PsAlgorithm, CheckerRejectsMutations)
{
    auto plan = [] { return Compile("ps:servers=2", "star:n=6", "bytes:4000"); };
    // Transfers per shard: 4 pushes then 4 pulls; #4 is the first pull of shard 0.
    SyncPlan noDep = plan();
    noDep.transfers[4].deps.pop_back(); // the pull no longer waits for worker 3's push
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());

    SyncPlan dropped = plan();
    dropped.transfers.erase(dropped.transfers.begin() + 5); // worker 1 never pulls shard 0
    for (size_t i = 5; i < dropped.transfers.size(); ++i)
    {
        dropped.transfers[i].id = static_cast<TransferId>(i);
        for (TransferId& d : dropped.transfers[i].deps)
        {
            d -= d > 5 ? 1 : 0;
        }
    }
    EXPECT_FALSE(PlanChecker().Check(dropped).Ok());

    SyncPlan doubled = plan();
    Transfer again = doubled.transfers[0]; // worker 0 pushes shard 0 twice
    doubled.Add(again);
    EXPECT_FALSE(PlanChecker().Check(doubled).Ok());

    SyncPlan shortPush = plan();
    shortPush.transfers[1].bytes -= 1; // one byte of worker 1's push is missing
    EXPECT_FALSE(PlanChecker().Check(shortPush).Ok());
}

TEST(PsAlgorithm, OptionsAreValidatedAndSpelledOut)
{
    EXPECT_EQ(MakeSyncAlgorithm("ps")->Spec(),
              "ps:servers=1,placement=dedicated,shard=bytes,chunk=0");
    EXPECT_EQ(MakeSyncAlgorithm("ps:chunk=64KB,shard=greedy,servers=3,placement=colocated")->Spec(),
              "ps:servers=3,placement=colocated,shard=greedy,chunk=64000");
    const std::string spec = MakeSyncAlgorithm("ps:servers=2,chunk=1KiB")->Spec();
    EXPECT_EQ(MakeSyncAlgorithm(spec)->Spec(), spec) << "the spelled-out spec parses back";
    for (std::string bad : {"ps:servers=0",
                            "ps:servers=x",
                            "ps:placement=remote",
                            "ps:shard=layer",
                            "ps:chunk=abc",
                            "ps:chunk=-1",
                            "ps:server=2"})
    {
        EXPECT_THROW(MakeSyncAlgorithm(bad), std::invalid_argument) << bad;
    }
    auto star2 = MakeTopology("star:n=2", 40e9, 1e-6);
    std::string why;
    EXPECT_FALSE(MakeSyncAlgorithm("ps:servers=2")->AppliesTo(*star2, why));
    EXPECT_NE(why.find("at least one worker"), std::string::npos) << why;
    EXPECT_TRUE(MakeSyncAlgorithm("ps:servers=2,placement=colocated")->AppliesTo(*star2, why));
    EXPECT_FALSE(MakeSyncAlgorithm("ps:servers=3,placement=colocated")->AppliesTo(*star2, why));
    EXPECT_THROW(MakeSyncAlgorithm("ps:servers=2")
                     ->Compile(*star2, ModelProfile::Load("bytes:100", kModels)),
                 std::invalid_argument);
}

// The checker accepts every ps variant on every topology family, with W = 1,000,003 (prime:
// unequal shards and chunks) and the MNIST MLP profile (tensor boundaries).
TEST(PsAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    for (std::string t : CheckerTopologyGrid())
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string a : {"ps",
                              "ps:servers=2,shard=tensor",
                              "ps:servers=3,placement=colocated,shard=greedy",
                              "ps:servers=2,placement=colocated,chunk=100KB"})
        {
            for (std::string m : {"bytes:1000003", "mnist-mlp"})
            {
                SyncPlan plan = MakeSyncAlgorithm(a)->Compile(*topo,
                                                              ModelProfile::Load(m, kModels));
                PlanCheckResult r = PlanChecker().Check(plan);
                EXPECT_TRUE(r.Ok()) << t << " " << a << " " << m << "\n" << r.Summary();
            }
        }
    }
    // VGG-19 on BCube(4,1): 16 hosts, 4 dedicated servers, N = 12 workers. Each server
    // receives N*W/S = 12 * 574,668,960 / 4 = 1,724,006,880 B and sends as much.
    SyncPlan plan = Compile("ps:servers=4", "bcube:n=4,k=1", "vgg19");
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    for (uint32_t s = 12; s < 16; ++s)
    {
        EXPECT_EQ(r.receivedBytes[s], 1724006880u);
        EXPECT_EQ(r.sentBytes[s], 1724006880u);
    }
}

TEST(PsAlgorithm, FluidGstMatchesDedicatedClosedForm)
{
    // PS with S dedicated servers on an ideal fabric takes 2 max(W/B, NW/(SB)):
    // the push phase is limited by a worker's uplink (W) or a server's downlink (NW/S),
    // the pull phase likewise in the other direction. Star, B = 40 Gb/s, W = 8 MB.
    const double w = 8e6, b = 40e9;
    struct Case
    {
        uint32_t n, s;
    };
    for (Case c : {Case{8, 2}, Case{4, 8}, Case{8, 1}})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(c.n + c.s), b, 1e-6);
        SyncPlan plan = MakeSyncAlgorithm("ps:servers=" + std::to_string(c.s))
                            ->Compile(*topo, ModelProfile::Load("bytes:8MB", kModels));
        // (8,2): 2 * 8*8e6*8/(2*40e9) = 12.8 ms; (4,8): 2 * 8e6*8/40e9 = 3.2 ms;
        // (8,1): 2 * 8*8e6*8/40e9 = 25.6 ms.
        const double expected = 2 * std::max(w * 8 / b, c.n * w * 8 / (c.s * b));
        const double gst = FluidEstimator().Estimate(*topo, plan).gstS;
        EXPECT_NEAR(gst, expected, 0.01 * expected) << "N=" << c.n << " S=" << c.s;
    }
}

TEST(PsAlgorithm, FluidColocatedOnEveryWorkerIsTheMeshTerm)
{
    // S = N = 8 co-located servers, W = 8 MB, B = 40 Gb/s: every worker pushes 7 shards of
    // W/8 and receives 7, every link carries 7 equal flows, so the push phase takes
    // (7/8) W 8/B = 1.4 ms and the pull phase as much: 2 (N-1) W / (N B) = 2.8 ms.
    auto topo = MakeTopology("star:n=8", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("ps:servers=8,placement=colocated")
                        ->Compile(*topo, ModelProfile::Load("bytes:8MB", kModels));
    EXPECT_NEAR(FluidEstimator().Estimate(*topo, plan).gstS, 2.8e-3, 2.8e-5);
}

TEST(PsAlgorithm, FluidChunkingOverlapsPullsWithPushes)
{
    // N = 4 workers, one server, W = 4 MB in K = 8 chunks of 500 KB, B = 40 Gb/s. Each
    // worker pushes its chunks in order at B/4 (the server's downlink is shared), so chunk c
    // is in at (c+1) T0 with T0 = 4 * 500e3 * 8 / 40e9 = 0.4 ms; its 4 pulls then fill the
    // server's uplink for exactly T0. GST = (K + 1) T0 = 3.6 ms, against 2 N W / B = 6.4 ms
    // without chunks (pulls start only once the whole gradient is in).
    auto topo = MakeTopology("star:n=5", 40e9, 1e-6);
    ModelProfile model = ModelProfile::Load("bytes:4MB", kModels);
    auto gst = [&](const std::string& spec) {
        return FluidEstimator()
            .Estimate(*topo, MakeSyncAlgorithm(spec)->Compile(*topo, model))
            .gstS;
    };
    const double chunked = gst("ps:chunk=500KB");
    const double whole = gst("ps");
    EXPECT_NEAR(chunked, 3.6e-3, 0.01 * 3.6e-3);
    EXPECT_NEAR(whole, 6.4e-3, 0.01 * 6.4e-3);
}
