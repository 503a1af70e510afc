// The resource estimate (helper/resource-estimate.h): closed-form counts checked against the
// built topologies and by hand, the estimate's growth, its bytes from the counts and the
// fitted costs (packet and fluid, by hand), and the driver's guard: a run within
// the limit goes on, runs far over it are refused in well under a second with exit 2 and one
// line, --estimate prints and exits 0.
#include "driver-run.h"

#include "ns3/driver-options.h"
#include "ns3/job-registry.h"
#include "ns3/model-profile.h"
#include "ns3/resource-estimate.h"
#include "ns3/sync-algorithm.h"
#include "ns3/sync-plan.h"
#include "ns3/topology.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace
{

using namespace ns3;
using namespace paramsync_test;

/// Options as the driver validates them, with the given topology and algorithm.
DriverOptions
Options(const std::string& topology, const std::string& algorithm, const std::string& backend)
{
    DriverOptions o;
    o.topology = topology;
    o.algorithm = algorithm;
    o.backend = backend;
    o.Validate();
    return o;
}

/// Entries of the deps of every transfer of spec's plan on topology (1 MB of gradient).
uint64_t
CompiledDependencies(const std::string& spec, const std::string& topology)
{
    const auto t = MakeTopology(topology, 40e9, 1e-6);
    const SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(*t, ModelProfile::Load("bytes:1MB", ""));
    uint64_t deps = 0;
    for (const Transfer& tr : plan.transfers)
    {
        deps += tr.deps.size();
    }
    return deps;
}

double
SecondsOf(const std::function<void()>& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST(ResourceEstimate, FatTreeK4CountsByHand)
{
    // Fat-tree k=4 (Al-Fares et al., SIGCOMM 2008): k^3/4 = 16 hosts; k pods of k/2 edge and
    // k/2 aggregation switches (16) plus (k/2)^2 = 4 cores: 20 switches. Links: 16 host
    // cables + 4 pods x 2 x 2 edge-agg + 4 pods x 2 x 2 agg-core = 48 = 3 k^3 / 4.
    const auto c = CountTopology("fattree:k=4");
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->hosts, 16u);
    EXPECT_EQ(c->switches, 20u);
    EXPECT_EQ(c->links, 48u);
    const ResourceEstimate e = ResourceEstimate::Of(Options("fattree:k=4", "ring", "packet"));
    EXPECT_EQ(e.nodes, 36u);
    // Two ports per link.
    EXPECT_EQ(e.devices, 96u);
    // Every switch: an entry per host (20 x 16 = 320); every one-port host: one per other
    // host (16 x 15 = 240): 560.
    EXPECT_EQ(e.routingEntries, 560u);
    // Ring: 2 (N - 1) steps in which each of the N workers sends once: 2 x 16 x 15 = 480.
    EXPECT_EQ(e.transfers, 480u);
}

TEST(ResourceEstimate, ClosedFormsMatchTheBuiltTopologies)
{
    for (const std::string spec : {"bcube:n=3,k=1",
                                   "bcube:n=2,k=3",
                                   "fattree:k=4,oversub=2",
                                   "fattree:k=6",
                                   "torus:dims=4x3",
                                   "torus:dims=2x5x4",
                                   "bigraph:s=2,m=3",
                                   "ring:n=5",
                                   "ring:n=3",
                                   "star:n=7"})
    {
        const auto c = CountTopology(spec);
        ASSERT_TRUE(c.has_value()) << spec;
        const auto t = MakeTopology(spec, 40e9, 1e-6);
        EXPECT_EQ(c->hosts, t->Graph().HostCount()) << spec;
        EXPECT_EQ(c->switches, t->Graph().SwitchCount()) << spec;
        EXPECT_EQ(c->links, t->Graph().LinkCount()) << spec;
        EXPECT_EQ(c->lanes, t->LaneCount()) << spec;
    }
}

TEST(ResourceEstimate, GrowsAsTheClosedFormSays)
{
    const ResourceEstimate k4 = ResourceEstimate::Of(Options("fattree:k=4", "none", "packet"));
    const ResourceEstimate k8 = ResourceEstimate::Of(Options("fattree:k=8", "none", "packet"));
    // Devices = 2 x 3 k^3 / 4: doubling k multiplies them by 8 (96 -> 768).
    EXPECT_EQ(k8.devices, 768u);
    EXPECT_EQ(k8.devices, 8 * k4.devices);
    // k=8: 128 hosts, 80 switches: 80 x 128 + 128 x 127 = 26496 entries (~k^6 / 16).
    EXPECT_EQ(k8.routingEntries, 26496u);
    EXPECT_GT(k8.bytes, k4.bytes);
    // Halving-doubling: log2 N rounds each way, N sends per round: 2 x 8 x 3 = 48.
    EXPECT_EQ(JobRegistry::SizeBound("hd", 8).transfers, 48u);
    // Mesh: every worker sends a shard to each other one, twice: 2 x 9 x 8 = 144, on the
    // 9 x 8 = 72 ordered pairs.
    EXPECT_EQ(JobRegistry::SizeBound("mesh", 9).transfers, 144u);
    EXPECT_EQ(JobRegistry::SizeBound("mesh", 9).queuePairs, 72u);
    // bwmesh: each of its rounds=3 is a mesh-shaped reduce-scatter and all-gather:
    // 3 x 144 = 432.
    EXPECT_EQ(JobRegistry::SizeBound("bwmesh:rounds=3", 9).transfers, 432u);
    // A parameter server: a push and a pull per worker: 2 x 9.
    EXPECT_EQ(JobRegistry::SizeBound("asp", 9).transfers, 18u);
    EXPECT_EQ(JobRegistry::SizeBound("none", 9).transfers, 0u);
    // "all" holds every plan at once: at least mesh's and ring's (144 each), and the most
    // queue pairs of any one of them (mesh's 72).
    EXPECT_GE(JobRegistry::SizeBound("all", 9).transfers, 288u);
    EXPECT_EQ(JobRegistry::SizeBound("all", 9).queuePairs, 72u);
    // A spec the algorithm cannot read is refused, as the driver would.
    EXPECT_THROW(JobRegistry::SizeBound("mesh:x=1", 9), std::invalid_argument);
}

TEST(ResourceEstimate, SpecsTheConstructorRefusesHaveNoCounts)
{
    // The closed forms read a spec as the constructors do: BCube(255, 15) (255^16 ~ 3e38
    // hosts, over the 2^24 a BCube may have), an odd fat-tree, a star beyond 65,535 hosts, a
    // torus side of 0, a ring without n, an unknown key and an unknown family have no counts
    // (MakeTopology names what is wrong).
    for (const char* spec : {"bcube:n=255,k=15",
                             "fattree:k=7",
                             "star:n=65536",
                             "torus:dims=4x0",
                             "ring:deadlockfree=1",
                             "bigraph:s=2,m=2,colour=red",
                             "moebius:n=3"})
    {
        EXPECT_FALSE(CountTopology(spec).has_value()) << spec;
    }
    // The largest BCube of three levels that may be built: 255^3 = 16,581,375 hosts (<= 2^24),
    // 3 x 255^2 = 195,075 switches, a link per host and level.
    const auto c = CountTopology("bcube:n=255,k=2");
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->hosts, 16581375u);
    EXPECT_EQ(c->switches, 195075u);
    EXPECT_EQ(c->links, 3u * 16581375u);
    // Saturating arithmetic for the estimate's products: 2^40 x 2^40 caps at 2^62.
    EXPECT_EQ(SaturatingMul(uint64_t{1} << 40, uint64_t{1} << 40), kCountCap);
    EXPECT_EQ(SaturatingPow(255, 16), kCountCap);
    EXPECT_EQ(SaturatingPow(255, 2), 65025u);
}

TEST(ResourceEstimate, AnAffordableRunGoesOnAndHugeOnesAreRefusedBeforeBuilding)
{
    // Within the limit: runs and exits 0.
    Outcome ok = RunParamsync("--backend=fluid --topology=star:n=4 --algorithm=ring "
                              "--model=bytes:1MB --max-memory=4GB --format=json");
    EXPECT_EQ(ok.code, 0) << ok.err;
    // BCube(255, 2): 16.6 M servers, 50 M links; it used to die of bad_alloc. A 1 M-host
    // packet run (fat-tree k=128 with 2:1 oversubscription: 128 x 64 x 2 x 64 = 1,048,576
    // hosts) failed after 31 s. Both are refused from the closed form, in far under the
    // time building either would take (the graph alone is minutes and gigabytes).
    for (const std::string args :
         {"--topology=bcube:n=255,k=2 --algorithm=ring --max-memory=4GB",
          "--topology=fattree:k=128,oversub=2 --algorithm=hd --model=bytes:1MB --max-memory=64GB"})
    {
        Outcome o;
        const double s = SecondsOf([&] { o = RunParamsync(args); });
        EXPECT_EQ(o.code, 2) << args << "\n" << o.err;
        EXPECT_LT(s, 5.0) << args;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
        EXPECT_NE(o.err.find("needs an estimated"), std::string::npos) << o.err;
        EXPECT_NE(o.err.find("over the limit of"), std::string::npos) << o.err;
        EXPECT_EQ(o.out, "");
    }
}

TEST(ResourceEstimate, TheRefusalAllocatesNothing)
{
    // Under a 1 GB address-space limit, BCube(255, 2) is still refused by the estimate (exit
    // 2), not by a failed allocation (exit 5): nothing of its size was built. The limit
    // given (4 GB) is over the address-space limit, so the refusal is the estimate's.
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit allows";
#endif
    const int status = std::system(("(ulimit -v 1000000; " + std::string(PARAMSYNC_BINARY_DIR) +
                                    "/paramsync --topology=bcube:n=255,k=2 --algorithm=ring "
                                    "--max-memory=4GB) >/dev/null 2>&1")
                                       .c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST(ResourceEstimate, EstimatePrintsTheCountsAndRunsNothing)
{
    Outcome o = RunParamsync("--topology=fattree:k=4 --algorithm=ring --estimate=1 "
                             "--max-memory=4GB");
    EXPECT_EQ(o.code, 0) << o.err;
    // The hand-derived counts of FatTreeK4CountsByHand, and the limit as given (4 GB).
    EXPECT_NE(o.out.find("devices        96\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("routing        560 entries"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("limit          4 GB (--max-memory)"), std::string::npos) << o.out;
    // Nothing after the estimate: no (empty) results table, whose header starts "topology ".
    EXPECT_EQ(o.out.find("topology "), std::string::npos) << o.out;
    EXPECT_EQ(o.out.substr(o.out.size() - std::string("(--max-memory)\n").size()),
              "(--max-memory)\n")
        << o.out;
}

TEST(ResourceEstimate, EstimateRefusesWhatTheRunRefuses)
{
    // star:n takes 2..65535 (topologies/star-topology.cc); the closed form alone counts one
    // host for n=1. With --estimate the spec is refused as the run refuses it: exit 2, one
    // line naming the value and the range, no estimate.
    for (const char* estimate : {"--estimate=1 ", ""})
    {
        Outcome o = RunParamsync(std::string("--topology=star:n=1 --algorithm=none ") + estimate +
                                 "--max-memory=4GB");
        EXPECT_EQ(o.code, 2) << estimate << o.out;
        EXPECT_NE(o.err.find("n must be an integer from 2 to 65535"), std::string::npos) << o.err;
        EXPECT_EQ(o.out.find("hosts"), std::string::npos) << o.out;
    }
    // An unknown parameter, which the closed form does not read either.
    Outcome o = RunParamsync("--topology=fattree:k=4,colour=red --estimate=1 --max-memory=4GB");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_NE(o.err.find("colour"), std::string::npos) << o.err;
    // Over the limit the estimate is still printed (nothing would be built): what it costs.
    o = RunParamsync("--topology=fattree:k=64 --algorithm=mesh --estimate=1 --max-memory=1GB");
    EXPECT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find("hosts          65536\n"), std::string::npos) << o.out;
    // Unless the topology cannot be built: BCube n=1000 (n takes 2..255) would count 10^12
    // hosts, far over any limit, and was estimated (exit 0) where the run refused it for its
    // memory, not its n. Both now name n, as the constructor does; so does an odd k.
    for (const char* estimate : {"--estimate=1 ", ""})
    {
        o = RunParamsync(std::string("--topology=bcube:n=1000,k=3 ") + estimate +
                         "--max-memory=1GB");
        EXPECT_EQ(o.code, 2) << estimate << o.out;
        EXPECT_NE(o.err.find("n must be an integer from 2 to 255"), std::string::npos) << o.err;
        EXPECT_EQ(o.err.find("memory"), std::string::npos) << o.err;
        EXPECT_EQ(o.out.find("hosts"), std::string::npos) << o.out;
    }
    o = RunParamsync("--topology=fattree:k=127 --estimate=1 --max-memory=1GB");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_NE(o.err.find("k = 127 is odd"), std::string::npos) << o.err;
}

TEST(ResourceEstimate, PacketBytesAreTheCountsTimesTheFittedCosts)
{
    // Fat-tree k=4, ring, 64 KB of gradient (64,000 B), MTU 4096, 32 MB buffers: the counts
    // of FatTreeK4CountsByHand (96 ports, 560 entries, 480 transfers, one row each); one ring
    // uses its 16 ordered pairs; each transfer waits on at most 2: 960 dependencies; frames:
    // min(20 switches x floor(32e6 / 4196) = 152,520, 2 x 16 x 64,000 / 4096 = 500 + 480
    // transfers) = 980, plus one per port: 1,076. With the costs of
    // helper/resource-estimate.cc: 13.9e6 + 96 x 4150 (398,400) + 560 x 3.6 (2,016)
    // + 480 x 500 (240,000) + 16 x 4140 (66,240) + 480 x 80 (38,400) + 1076 x 121 (130,196)
    // + 960 x 10.6 (10,176) = 14,785,428 B.
    DriverOptions o = Options("fattree:k=4", "ring", "packet");
    o.model = "bytes:64KB";
    const ResourceEstimate e = ResourceEstimate::Of(o);
    EXPECT_EQ(e.queuePairs, 16u);
    EXPECT_EQ(e.dependencies, 960u);
    EXPECT_EQ(e.packetsInFlight, 1076u);
    EXPECT_NEAR(static_cast<double>(e.bytes), 14785428.0, 1.0);
}

TEST(ResourceEstimate, PausesCostPerPauseAndPerPortBesideTheEstimate)
{
    // The run of PacketBytesAreTheCountsTimesTheFittedCosts (14,785,428 B, 96 ports) with
    // PFC on: every port may make its pause state, 96 x 650 = 62,400 B; 1,000 pauses at
    // 104 B each (a 24 B record in a doubling vector, 48 B at most, and the trace's 56 B
    // interval) are 104,000 B more: 14,785,428 + 62,400 + 104,000 = 14,951,828 B.
    DriverOptions o = Options("fattree:k=4", "ring", "packet");
    o.model = "bytes:64KB";
    const ResourceEstimate e = ResourceEstimate::Of(o);
    EXPECT_EQ(e.pauseStateBytes, 62400u);
    EXPECT_EQ(e.BytesWithPauses(0), e.bytes + 62400u);
    EXPECT_NEAR(static_cast<double>(e.BytesWithPauses(1000)), 14951828.0, 1.0);
    // The pauses stay out of the memory figure (and so out of the refusal): the count is
    // known only after the run. --estimate says so, with the two costs.
    EXPECT_NEAR(static_cast<double>(e.bytes), 14785428.0, 1.0);
    const std::string text = e.Describe();
    EXPECT_NE(text.find("pauses         not counted above: at most 104 B per PFC pause"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("62.4 KB of pause state (650 B per port)"), std::string::npos) << text;
    // With --trace the trace is written in pieces of at most 1 MiB: 170 B x 480 transfer
    // slices = 81,600 B plus 88 B per pause slice, 81,600 + 88,000 = 169,600 B, fits in one
    // piece, and a 16 B index per pause, 16,000 B: 185,600 B more, 14,951,828 + 185,600 =
    // 15,137,428 B. --trace-max caps the document: at 100,000 B the trace takes 100,000 +
    // 16,000 = 116,000 B. A million pauses make an 88 MB document of which one piece,
    // 1,048,576 B, is in memory, beside 16,000,000 B of index: 17,048,576 B.
    o.trace = "trace.json";
    const ResourceEstimate traced = ResourceEstimate::Of(o);
    EXPECT_EQ(traced.traceBytes, 81600u);
    EXPECT_EQ(traced.TraceMemory(1000), 185600u);
    EXPECT_NEAR(static_cast<double>(traced.BytesWithPauses(1000)), 15137428.0, 1.0);
    EXPECT_EQ(traced.TraceMemory(1000000), 17048576u);
    EXPECT_EQ(traced.bytes, e.bytes);
    o.traceMaxBytes = 100000;
    EXPECT_EQ(ResourceEstimate::Of(o).TraceMemory(1000), 116000u);
    o.trace.clear();
    // PFC off: no port makes pause state. A count whose bytes pass 2^64 stops at the cap of
    // bytes (4e18) instead of wrapping.
    o.pfc = false;
    const ResourceEstimate off = ResourceEstimate::Of(o);
    EXPECT_EQ(off.pauseStateBytes, 0u);
    EXPECT_EQ(off.BytesWithPauses(0), off.bytes);
    EXPECT_EQ(off.BytesWithPauses(UINT64_MAX), uint64_t{4000000000000000000});
}

TEST(ResourceEstimate, FluidBytesAreTheCountsTimesTheFittedCosts)
{
    // The same run on the fluid backend: 480 transfers x 16 workers is far under 2^27, so
    // the explicit plan and its path tables count: 13.9e6 + 48 links x 660 (31,680)
    // + 16 hosts x 36 nodes x 9.4 (5,414.4) + 480 x 640 (307,200) + 480 rows x 80 (38,400)
    // + 960 dependencies x 10.6 (10,176) = 14,292,870.4 B, truncated to whole bytes.
    DriverOptions o = Options("fattree:k=4", "ring", "fluid");
    o.model = "bytes:64KB";
    const ResourceEstimate e = ResourceEstimate::Of(o);
    EXPECT_NEAR(static_cast<double>(e.bytes), 14292870.0, 1.0);
}

TEST(ResourceEstimate, DependenciesOfMeshShapedPlansByClosedForm)
{
    // Mesh, N = 9: each of the 9 x 8 collect transfers waits on the 8 reduce transfers into
    // its source: 9 x 8 x 8 = 576, what the compiled plan holds.
    EXPECT_EQ(JobRegistry::SizeBound("mesh", 9).dependencies, 576u);
    EXPECT_EQ(CompiledDependencies("mesh", "star:n=9"), 576u);
    // bwmesh, 3 rounds: the all-gather of each round waits as mesh's does (576 a round), the
    // reduce-scatter of rounds 2 and 3 on the sender's 8 parts of the round before (576
    // each): (2 x 3 - 1) x 576 = 2,880.
    EXPECT_EQ(JobRegistry::SizeBound("bwmesh:rounds=3", 9).dependencies, 2880u);
    EXPECT_EQ(CompiledDependencies("bwmesh:rounds=3", "star:n=9"), 2880u);
    // A parameter server with 4 dedicated servers on 9 hosts (5 workers): per shard each of
    // the 5 pulls waits on the 5 pushes, and no push waits (one chunk a shard): 4 x 25 =
    // 100, under the bound that counts every host a worker: 4 x 9 x 10 = 360.
    EXPECT_EQ(CompiledDependencies("ps:servers=4", "star:n=9"), 100u);
    EXPECT_EQ(JobRegistry::SizeBound("ps:servers=4", 9).dependencies, 360u);
    // The estimate charges 10.6 B a dependency: mesh at 1,024 hosts (1,024 x 1,023^2 =
    // 1,071,645,696 of them) holds 11.4 GB in its dependencies alone.
    DriverOptions o = Options("fattree:k=16", "mesh", "packet");
    const ResourceEstimate e = ResourceEstimate::Of(o);
    EXPECT_EQ(e.dependencies, 1071645696u);
    EXPECT_NEAR(
        e.planBytes - 500.0 * e.transfers - 80.0 * e.transferRows, 10.6 * 1071645696.0, 1.0);
}

TEST(ResourceEstimate, APlanOverItsBudgetStopsAsItIsBuilt)
{
    // 1,000 B for plans at 100 B a transfer and 10 B a dependency: transfers with 2
    // dependencies cost 120 B, so 8 fit (960 B) and the ninth (1,080 B) is refused.
    {
        PlanMemoryBudget budget(1000, 100, 10);
        SyncPlan plan;
        Transfer t{0, 0, 1, 0, 1, TransferOp::Copy, ContributorSet(), {0, 0}, 0, 0};
        for (int i = 0; i < 8; ++i)
        {
            plan.Add(t);
        }
        EXPECT_DOUBLE_EQ(budget.Charged(), 960.0);
        try
        {
            plan.Add(t);
            ADD_FAILURE() << "the ninth transfer fit";
        }
        catch (const PlanTooLarge& e)
        {
            EXPECT_NE(std::string(e.what()).find("9 transfers with 18 dependencies"),
                      std::string::npos)
                << e.what();
        }
        // An inner scope replaces the outer one while it lives.
        {
            PlanMemoryBudget inner(100000, 1, 0);
            plan.Add(t);
            EXPECT_DOUBLE_EQ(inner.Charged(), 1.0);
        }
        EXPECT_EQ(PlanMemoryBudget::Active(), &budget);
    }
    // Without a scope nothing is charged or refused.
    EXPECT_EQ(PlanMemoryBudget::Active(), nullptr);
    SyncPlan plan;
    plan.Add({0, 0, 1, 0, 1, TransferOp::Copy, ContributorSet(), {}, 0, 0});
    EXPECT_EQ(plan.transfers.size(), 1u);
}

TEST(ResourceEstimate, APlanTheClosedFormUnderCountsIsRefusedWhileCompiled)
{
    // HiPS's size is its hierarchy's: the closed form counts the default's 2 x 16 x 15 = 480
    // transfers on torus:dims=4x4, and --estimate says "at least"; its two rotations and two
    // directions of rings make 768. With the limit 50 KB over the estimate the plan may
    // take 480 x 580 B (a transfer and its result row) + 50 KB = 328 KB, and stops at the
    // transfer that passes it (the 548th here): exit 2, one line.
    DriverOptions options = Options("torus:dims=4x4", "hips", "packet");
    options.model = "bytes:1MB";
    const ResourceEstimate e = ResourceEstimate::Of(options);
    EXPECT_FALSE(e.planBounded);
    EXPECT_EQ(e.transfers, 480u);
    const std::string args = "--topology=torus:dims=4x4 --algorithm=hips --model=bytes:1MB "
                             "--max-memory=" +
                             std::to_string(e.bytes + 50000) + "B";
    Outcome o = RunParamsync(args + " --estimate=1");
    EXPECT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find("transfers      at least 480 per synchronization"), std::string::npos)
        << o.out;
    const double s = SecondsOf([&] { o = RunParamsync(args); });
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find("--algorithm: hips:"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("its plan needs more than 328 KB"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("--max-memory"), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "");
    EXPECT_LT(s, 30.0);
    // ring:segments=4096 was such a plan before ring's closed form read its options: 4,096 x
    // 2 x 64 x 63 = 33 M transfers (19 GB), now refused by the estimate, before building.
    o = RunParamsync("--topology=star:n=64 --algorithm=ring:segments=4096 --model=bytes:64MB "
                     "--max-memory=1GB");
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_NE(o.err.find("needs an estimated"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("33030144 transfers"), std::string::npos) << o.err;
}

TEST(ResourceEstimate, ClosedFormsBoundTheCompiledPlans)
{
    // Every algorithm, with options that multiply its plan, on topologies of each family and
    // two gradient sizes: where the closed form says it bounds the plan, the compiled plan's
    // transfers, ordered host pairs and dependencies are within it. (Before, ring:bidir,
    // segments, nics=all, dbtree and ps:servers, chunk counted the plain algorithm: up to
    // 14x under.)
    int checked = 0;
    for (const std::string topology : {"star:n=8",
                                       "star:n=9",
                                       "fattree:k=4",
                                       "bcube:n=3,k=1",
                                       "torus:dims=4x4",
                                       "torus:dims=3x3x2",
                                       "bigraph:s=2,m=4"})
    {
        const auto t = MakeTopology(topology, 40e9, 1e-6);
        for (const std::string model : {"bytes:1MB", "bytes:37MB"})
        {
            const ModelProfile profile = ModelProfile::Load(model, "");
            for (const std::string spec : {"mesh",
                                           "ring",
                                           "ring:bidir=1",
                                           "ring:segments=4",
                                           "ring:nics=all",
                                           "ring:nics=all,bidir=1,order=topo",
                                           "hips",
                                           "ps",
                                           "ps:servers=4",
                                           "ps:servers=3,placement=colocated",
                                           "ps:chunk=64KB",
                                           "ps:servers=2,chunk=3MB",
                                           "hd",
                                           "hdrm",
                                           "2d-ring",
                                           "dbtree",
                                           "dbtree:blocks=3",
                                           "trees",
                                           "trees:maxtrees=4,blocks=2,streams=3",
                                           "bwmesh",
                                           "bwmesh:rounds=2"})
            {
                const auto algorithm = MakeSyncAlgorithm(spec);
                std::string why;
                if (!algorithm->AppliesTo(*t, why))
                {
                    continue;
                }
                const SyncPlan plan = algorithm->Compile(*t, profile);
                PlanSizeInputs in;
                in.hosts = t->Graph().HostCount();
                in.links = t->Graph().LinkCount();
                in.modelBytes = profile.TotalBytes();
                const PlanSizeBound b = algorithm->SizeBound(in);
                if (!b.bounds)
                {
                    continue;
                }
                uint64_t deps = 0;
                std::set<std::pair<uint32_t, uint32_t>> pairs;
                for (const Transfer& tr : plan.transfers)
                {
                    deps += tr.deps.size();
                    pairs.insert({plan.hostOf[tr.src], plan.hostOf[tr.dst]});
                }
                const std::string where = spec + " on " + topology + " with " + model;
                EXPECT_LE(plan.transfers.size(), b.transfers) << where;
                EXPECT_LE(pairs.size(), b.queuePairs) << where;
                if (b.dependencies > 0) // 0: no closed form (trees), the budget counts them
                {
                    EXPECT_LE(deps, b.dependencies) << where;
                }
                ++checked;
            }
        }
    }
    // HiPS (the hierarchy's groups) says it does not bound; every other algorithm is checked
    // on every topology it applies to.
    EXPECT_GE(checked, 200);
}

TEST(ResourceEstimate, TheMachinesLimitIsReadOnceBeforeAnythingIsBuilt)
{
    // Without --max-memory the limit is MemAvailable as first read (or ulimit -v). The plans'
    // allowance reads it again after the topology (and, with --seeds, an earlier run) is
    // built; had MemAvailable been read then, what this process holds would be counted twice.
    DriverOptions o = Options("star:n=4", "ring", "packet");
    std::string source;
    const uint64_t before = ResourceEstimate::MemoryLimit(o, source);
    std::vector<char> held(uint64_t{256} << 20, 1); // 256 MiB, every page touched
    std::string again;
    EXPECT_EQ(ResourceEstimate::MemoryLimit(o, again), before);
    EXPECT_EQ(again, source);
    EXPECT_EQ(held[held.size() / 2], 1);
}

TEST(ResourceEstimate, AllLeavesOutTheAlgorithmsWhosePlansDoNotFit)
{
    // --algorithm=all on fattree:k=16 (1,024 hosts, VGG-16, packets) under 8 GB. In all's
    // order: mesh's plan alone is 2.1 M transfers x 580 B + 1.07 x 10^9 dependencies x 10.6 B
    // = 12.6 GB: out. ring, hips and 2d-ring (2.1 M transfers each, 1.2 GB), ps, hdrm, hd and
    // dbtree (under 33 k each) fit with the network's ~0.4 GB: ~4 GB. trees' bound, 3 x 128
    // x 8 x 2,046 = 6.3 M transfers (3.6 GB) with its 262 k queue pairs (1.1 GB), takes that
    // over 8 GB: out; bwmesh's 16.8 M transfers (9.7 GB): out. The guard lets the rest run
    // and names the three.
    DriverOptions o = Options("fattree:k=16", "all", "packet");
    o.model = "vgg16";
    o.maxMemoryBytes = 8000000000;
    // A trace capped at 1 KB: the guard's warning that it will be cut must come too, beside
    // the names left out (the run goes on).
    o.trace = "trace.json";
    o.traceMaxBytes = 1000;
    o.traceMaxText = "1KB";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_TRUE(ResourceEstimate::Guard(o, out, err));
    EXPECT_EQ(o.leftOutOfAll, (std::vector<std::string>{"mesh", "trees", "bwmesh"}));
    EXPECT_NE(err.str().find("--algorithm=all leaves out mesh, trees, bwmesh"), std::string::npos)
        << err.str();
    EXPECT_NE(err.str().find("--trace-max=1KB will truncate it"), std::string::npos) << err.str();
    o.trace.clear();
    EXPECT_LE(ResourceEstimate::Of(o).bytes, o.maxMemoryBytes);
    // --estimate prints the whole estimate and what would be left out.
    Outcome est = RunParamsync("--topology=fattree:k=16 --algorithm=all --model=vgg16 "
                               "--max-memory=8GB --estimate=1");
    EXPECT_EQ(est.code, 0) << est.err;
    EXPECT_NE(est.out.find("left out       mesh, trees, bwmesh\n"), std::string::npos) << est.out;
    // When no algorithm fits (the network alone is over the limit), the run is refused.
    Outcome none = RunParamsync("--topology=bcube:n=255,k=2 --algorithm=all --max-memory=4GB");
    EXPECT_EQ(none.code, 2) << none.err;
    EXPECT_NE(none.err.find("needs an estimated"), std::string::npos) << none.err;
}
