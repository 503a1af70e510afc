#include "ns3/bcube-topology.h"
#include "ns3/fluid-estimator.h"
#include "ns3/hips-algorithm.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"
#include "ns3/torus-topology.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

/// Level of the BCube NIC a transfer uses: the one digit in which src and dst differ.
uint32_t
BcubeLevel(const BcubeTopology& bcube, const Transfer& t)
{
    std::vector<uint32_t> a = bcube.Digits(t.src);
    std::vector<uint32_t> b = bcube.Digits(t.dst);
    uint32_t level = UINT32_MAX;
    for (uint32_t l = 0; l < a.size(); ++l)
    {
        if (a[l] != b[l])
        {
            EXPECT_EQ(level, UINT32_MAX) << "transfer crosses two levels: " << t.id;
            level = l;
        }
    }
    return level;
}

} // namespace

TEST(HipsAlgorithm, SpecSpellsOutOptionsAndRejectsBadOnes)
{
    EXPECT_EQ(MakeSyncAlgorithm("hips")->Spec(), "hips:rotate=1,bidir=1,stage=auto");
    EXPECT_EQ(MakeSyncAlgorithm("hips:stage=ring,rotate=0,bidir=0")->Spec(),
              "hips:rotate=0,bidir=0,stage=ring");
    EXPECT_THROW(MakeSyncAlgorithm("hips:stage=ps"), std::invalid_argument);
    EXPECT_THROW(MakeSyncAlgorithm("hips:rotate=2"), std::invalid_argument);
    EXPECT_THROW(MakeSyncAlgorithm("hips:levels=2"), std::invalid_argument);
}

TEST(HipsAlgorithm, AppliesOnlyWhereTheTopologyHasDimensions)
{
    auto hips = MakeSyncAlgorithm("hips");
    std::string why;
    for (std::string t : {"bcube:n=3,k=1", "torus:dims=3x3", "ring:n=5", "star:n=4"})
    {
        EXPECT_TRUE(hips->AppliesTo(*MakeTopology(t, 40e9, 1e-6), why)) << t;
    }
    for (std::string t : {"fattree:k=4", "bigraph:s=2,m=2"})
    {
        why.clear();
        auto topo = MakeTopology(t, 40e9, 1e-6);
        EXPECT_FALSE(hips->AppliesTo(*topo, why)) << t;
        EXPECT_NE(why.find(topo->Family()), std::string::npos) << why;
        EXPECT_THROW(hips->Compile(*topo, ModelProfile::Load("bytes:1000", ".")),
                     std::invalid_argument);
    }
}

// BCube(n,k), N = n^(k+1): W = 12 (k+1) N so every part (W/(k+1)) splits evenly at every
// level. Per worker 2(N-1)W/N each way (sum over levels of (n-1)/n^(s+1) = (N-1)/N, twice).
// rotate=1: NIC l carries stage (l-p) mod (k+1) of every part p, i.e. each level's share of
// each part once: 2(N-1)W/(N(k+1)) per NIC. rotate=0: the one part uses NIC l at stage l
// only: 2W(n-1)/n^(l+1).
TEST(HipsAlgorithm, BcubeVolumesPerWorkerAndPerNic)
{
    for (uint32_t n : {2u, 3u, 4u})
    {
        for (uint32_t k : {1u, 2u})
        {
            auto topo = MakeTopology(
                "bcube:n=" + std::to_string(n) + ",k=" + std::to_string(k), 40e9, 1e-6);
            const auto& bcube = dynamic_cast<const BcubeTopology&>(*topo);
            const uint64_t nn = topo->Graph().HostCount();
            const uint64_t w = 12 * (k + 1) * nn;
            ModelProfile model = ModelProfile::Load("bytes:" + std::to_string(w), ".");
            for (bool rotate : {true, false})
            {
                SyncPlan plan =
                    MakeSyncAlgorithm(rotate ? "hips" : "hips:rotate=0")->Compile(*topo, model);
                PlanCheckResult r = PlanChecker().Check(plan);
                ASSERT_TRUE(r.Ok()) << n << "," << k << "\n" << r.Summary();
                // parts x stages x 2 phases x N hosts x (n-1) peers.
                const uint64_t parts = rotate ? k + 1 : 1;
                EXPECT_EQ(plan.transfers.size(), parts * (k + 1) * 2 * nn * (n - 1));
                std::vector<std::vector<uint64_t>> nic(nn, std::vector<uint64_t>(k + 1, 0));
                for (const Transfer& t : plan.transfers)
                {
                    nic[t.src][BcubeLevel(bcube, t)] += t.bytes;
                }
                for (uint32_t p = 0; p < nn; ++p)
                {
                    EXPECT_EQ(r.sentBytes[p], 2 * (nn - 1) * w / nn);
                    EXPECT_EQ(r.receivedBytes[p], 2 * (nn - 1) * w / nn);
                    uint64_t pow = n;
                    for (uint32_t l = 0; l <= k; ++l, pow *= n)
                    {
                        EXPECT_EQ(nic[p][l],
                                  rotate ? 2 * (nn - 1) * w / (nn * (k + 1))
                                         : 2 * w * (n - 1) / pow)
                            << "n=" << n << " k=" << k << " host " << p << " level " << l;
                    }
                }
            }
        }
    }
}

// Square torus a x a, N = a^2, bidir + rotate: 4 parts of W/4, W = 4 N 10. Per worker
// 2(N-1)W/N. Each of the 4 links out of a server (dimension, direction) carries one part's
// first-stage share (a-1)/a and another part's second-stage share (a-1)/a^2 of W/4, twice
// (reduce-scatter and all-gather): 2 (W/4) (a^2-1)/a^2 = 2(N-1)W/(4N), a quarter each.
TEST(HipsAlgorithm, SquareTorusVolumesPerWorkerAndPerLink)
{
    for (uint32_t a : {3u, 4u, 5u})
    {
        auto topo = MakeTopology(
            "torus:dims=" + std::to_string(a) + "x" + std::to_string(a), 40e9, 1e-6);
        const auto& torus = dynamic_cast<const TorusTopology&>(*topo);
        const uint64_t nn = a * a;
        const uint64_t w = 4 * nn * 10;
        SyncPlan plan = MakeSyncAlgorithm("hips")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << a << "\n" << r.Summary();
        // 4 parts x 2 dimensions x 2 phases x N hosts x (a-1) ring steps.
        EXPECT_EQ(plan.transfers.size(), 4 * 2 * 2 * nn * (a - 1));
        std::vector<std::vector<uint64_t>> link(nn, std::vector<uint64_t>(4, 0));
        for (const Transfer& t : plan.transfers)
        {
            int which = -1;
            for (uint32_t d = 0; d < 2; ++d)
            {
                for (bool plus : {true, false})
                {
                    if (torus.Neighbour(t.src, d, plus) == t.dst)
                    {
                        which = 2 * d + (plus ? 0 : 1);
                    }
                }
            }
            ASSERT_GE(which, 0) << "transfer " << t.id << " is not between ring neighbours";
            link[t.src][which] += t.bytes;
        }
        for (uint32_t p = 0; p < nn; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2 * (nn - 1) * w / nn);
            EXPECT_EQ(r.receivedBytes[p], 2 * (nn - 1) * w / nn);
            for (uint32_t j = 0; j < 4; ++j)
            {
                EXPECT_EQ(link[p][j], 2 * (nn - 1) * w / (4 * nn)) << "a=" << a << " host " << p;
            }
        }
    }
}

// Non-square and 3-D tori: per worker 2(N-1)W/N with W divisible by (2d parts) x N.
TEST(HipsAlgorithm, TorusVolumesPerWorker)
{
    for (std::string dims : {"3x5", "2x4", "3x3x3", "2x3x4"})
    {
        auto topo = MakeTopology("torus:dims=" + dims, 40e9, 1e-6);
        const uint64_t nn = topo->Graph().HostCount();
        const uint64_t parts = 2 * topo->Dimensions().size();
        const uint64_t w = parts * nn * 7;
        SyncPlan plan = MakeSyncAlgorithm("hips")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << dims << "\n" << r.Summary();
        for (uint32_t p = 0; p < nn; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2 * (nn - 1) * w / nn) << dims;
            EXPECT_EQ(r.receivedBytes[p], 2 * (nn - 1) * w / nn) << dims;
        }
    }
}

// The checker accepts every variant on the grid (where hips applies), with
// W = 1,000,003 (prime: uneven chunks), the MNIST MLP profile and W = 5 (most sub-chunks
// empty, so skipped transfers must not break the dependency chains).
TEST(HipsAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    for (std::string t : {"bcube:n=2,k=1",
                          "bcube:n=3,k=1",
                          "bcube:n=4,k=1",
                          "bcube:n=2,k=2",
                          "bcube:n=3,k=2",
                          "bcube:n=4,k=2",
                          "torus:dims=2x2",
                          "torus:dims=3x3",
                          "torus:dims=4x4",
                          "torus:dims=5x5",
                          "torus:dims=3x5",
                          "torus:dims=2x3x4",
                          "torus:dims=3x3x3",
                          "ring:n=9",
                          "star:n=8"})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string a : {"hips",
                              "hips:rotate=0",
                              "hips:bidir=0",
                              "hips:rotate=0,bidir=0",
                              "hips:stage=ring",
                              "hips:stage=mesh",
                              "hips:stage=ring,bidir=0"})
        {
            for (std::string m : {"bytes:1000003", "mnist-mlp", "bytes:5"})
            {
                SyncPlan plan = MakeSyncAlgorithm(a)->Compile(*topo,
                                                              ModelProfile::Load(m, kModels));
                PlanCheckResult r = PlanChecker().Check(plan);
                EXPECT_TRUE(r.Ok()) << t << " " << a << " " << m << "\n" << r.Summary();
            }
        }
    }
}

// VGG-19 on BCube(4,1): 2 parts of 287,334,480 B split by 4 twice, evenly, so each of the
// 16 workers sends 2 * 15 * 574,668,960 / 16 = 1,077,504,300 B (the same as ring).
TEST(HipsAlgorithm, Vgg19OnBcube)
{
    auto topo = MakeTopology("bcube:n=4,k=1", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("hips")->Compile(*topo, ModelProfile::Load("vgg19", kModels));
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    for (uint32_t p = 0; p < 16; ++p)
    {
        EXPECT_EQ(r.sentBytes[p], 1077504300u);
    }
}

TEST(HipsAlgorithm, CheckerRejectsMutatedPlans)
{
    auto topo = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    ModelProfile model = ModelProfile::Load("bytes:1800", ".");
    SyncPlan plan = MakeSyncAlgorithm("hips")->Compile(*topo, model);
    ASSERT_TRUE(PlanChecker().Check(plan).Ok());
    // A transfer of the second reduce-scatter stage (phase 1) that forgets its first-stage
    // receives: it may send its range before the level's partial sums arrived.
    SyncPlan noDep = plan;
    bool mutated = false;
    for (Transfer& t : noDep.transfers)
    {
        if (t.phase == 1 && !mutated)
        {
            t.deps.clear();
            mutated = true;
        }
    }
    ASSERT_TRUE(mutated);
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());
    // A dropped last transfer: its receiver ends without that range.
    SyncPlan dropped = plan;
    dropped.transfers.pop_back();
    EXPECT_FALSE(PlanChecker().Check(dropped).Ok());
    // A reduce one byte short: that byte of its receiver's sum misses a contribution.
    SyncPlan shortBytes = plan;
    ASSERT_EQ(shortBytes.transfers[0].op, TransferOp::Reduce);
    shortBytes.transfers[0].bytes -= 1;
    EXPECT_FALSE(PlanChecker().Check(shortBytes).Ok());
    // The first reduce sent twice: its receiver counts the sender's gradient twice.
    SyncPlan twice = plan;
    Transfer again = twice.transfers[0];
    twice.Add(again);
    EXPECT_FALSE(PlanChecker().Check(twice).Ok());
}

// The engine refuses groups that are not a product of coordinates: with dimension 0 =
// {0,1},{2,3} (host 0 keeps the first half, host 3 the second), a dimension-1 group {0,3}
// would have to reduce two different ranges.
TEST(HipsAlgorithm, EngineRejectsNonProductDimensions)
{
    SyncPlan plan;
    plan.workers = 4;
    plan.gradientBytes = 100;
    plan.hostOf = {0, 1, 2, 3};
    HostDimension d0{{{0, 1}, false}, {{2, 3}, false}};
    HostDimension bad{{{0, 3}, false}, {{1, 2}, false}};
    HostDimension partial{{{0, 1, 2}, false}};
    EXPECT_THROW(
        AddHierarchicalAllreduce(plan, {d0, bad}, {{{0, 1}, false}}, GroupExchange::AsGrouped, "t"),
        std::invalid_argument);
    EXPECT_THROW(
        AddHierarchicalAllreduce(plan, {partial}, {{{0}, false}}, GroupExchange::AsGrouped, "t"),
        std::invalid_argument);
    EXPECT_THROW(
        AddHierarchicalAllreduce(plan, {d0}, {{{0, 0}, false}}, GroupExchange::AsGrouped, "t"),
        std::invalid_argument);
    // Three hosts, one group {0,1,2} then {0},{1,2}: 1 and 2 hold different thirds of W = 99,
    // but with W = 1 both hold the empty range [1,1) and only their overlapping
    // contributions ({0,1,2} each) tell that the grouping is not a product.
    SyncPlan three;
    three.workers = 3;
    three.hostOf = {0, 1, 2};
    HostDimension all3{{{0, 1, 2}, false}};
    HostDimension split{{{0}, false}, {{1, 2}, false}};
    for (uint64_t w : {99u, 1u})
    {
        three.gradientBytes = w;
        EXPECT_THROW(AddHierarchicalAllreduce(
                         three, {all3, split}, {{{0, 1}, false}}, GroupExchange::AsGrouped, "t"),
                     std::invalid_argument)
            << w;
    }
    HostDimension withEmpty{{{0, 1, 2, 3}, false}, {{}, false}};
    EXPECT_THROW(
        AddHierarchicalAllreduce(plan, {withEmpty}, {{{0}, false}}, GroupExchange::AsGrouped, "t"),
        std::invalid_argument);
    HostDimension good{{{0, 2}, false}, {{1, 3}, false}};
    SyncPlan ok = plan;
    AddHierarchicalAllreduce(ok, {d0, good}, {{{0, 1}, false}}, GroupExchange::AsGrouped, "t");
    EXPECT_TRUE(PlanChecker().Check(ok).Ok());
}

// Fluid GST on BCube(n,k) at B = 40 Gb/s (5e9 B/s), W = 12 (k+1) N * 1000 B. rotate=1: at
// every stage each of the k+1 parts uses a different level's NIC, and a level-s stage moves
// (n-1) W/((k+1) n^(s+1)) through one NIC; summed over stages and both phases the GST is
// 2(N-1)W/(N B (k+1)): 1/(k+1) of a single-NIC ring's 2(N-1)W/(NB) (the test).
// rotate=0 runs the stages one NIC at a time: exactly the single-NIC ring's time.
TEST(HipsAlgorithm, FluidGstOnBcubeIsRingOverLevels)
{
    const double b = 40e9 / 8;
    for (auto [n, k] :
         std::vector<std::pair<uint32_t, uint32_t>>{{2, 1}, {3, 1}, {4, 1}, {2, 2}, {3, 2}})
    {
        auto topo = MakeTopology(
            "bcube:n=" + std::to_string(n) + ",k=" + std::to_string(k), 40e9, 1e-6);
        const double nn = topo->Graph().HostCount();
        const uint64_t w = 12 * (k + 1) * static_cast<uint64_t>(nn) * 1000;
        ModelProfile model = ModelProfile::Load("bytes:" + std::to_string(w), ".");
        const double ring = 2 * (nn - 1) * w / (nn * b);
        FluidResult rotated = FluidEstimator().Estimate(
            *topo, MakeSyncAlgorithm("hips")->Compile(*topo, model));
        EXPECT_NEAR(rotated.gstS, ring / (k + 1), 0.01 * ring / (k + 1)) << "n=" << n << " k=" << k;
        FluidResult serial = FluidEstimator().Estimate(
            *topo, MakeSyncAlgorithm("hips:rotate=0")->Compile(*topo, model));
        EXPECT_NEAR(serial.gstS, ring, 0.01 * ring) << "n=" << n << " k=" << k;
    }
}

// Fluid GST on a square a x a torus: 4 parts (2 dimensions x 2 directions) keep the 4
// links of every server busy with equal loads (2(N-1)W/(4N) each, see above), so the GST is
// 1/4 of a one-direction single-NIC ring's 2(N-1)W/(NB) (the test). bidir=0 halves
// the links in use: 1/2 of the ring.
TEST(HipsAlgorithm, FluidGstOnSquareTorusIsQuarterRing)
{
    const double b = 40e9 / 8;
    for (uint32_t a : {3u, 4u, 5u})
    {
        auto topo = MakeTopology(
            "torus:dims=" + std::to_string(a) + "x" + std::to_string(a), 40e9, 1e-6);
        const double nn = a * a;
        const uint64_t w = 4 * a * a * 10000;
        ModelProfile model = ModelProfile::Load("bytes:" + std::to_string(w), ".");
        const double ring = 2 * (nn - 1) * w / (nn * b);
        FluidResult both = FluidEstimator().Estimate(
            *topo, MakeSyncAlgorithm("hips")->Compile(*topo, model));
        EXPECT_NEAR(both.gstS, ring / 4, 0.01 * ring / 4) << "a=" << a;
        FluidResult one = FluidEstimator().Estimate(
            *topo, MakeSyncAlgorithm("hips:bidir=0")->Compile(*topo, model));
        EXPECT_NEAR(one.gstS, ring / 2, 0.01 * ring / 2) << "a=" << a;
    }
}

// Fluid GST on a d-dimensional cube a^d (and the 1-D ring:n=9): 2d parts, one per
// (dimension, direction), so each of a server's 2d links carries (N-1)/N of W/(2d) per
// phase (a first-stage share (a-1)/a, a second (a-1)/a^2, ... of W/(2d)), with every flow's
// stages equally long: GST = 2(N-1)W/(2d N B), 1/(2d) of the single-NIC ring.
TEST(HipsAlgorithm, FluidGstOnCubesIsRingOverTwiceTheDimensions)
{
    const double b = 40e9 / 8;
    for (auto [t, d] : std::vector<std::pair<std::string, uint32_t>>{
             {"torus:dims=3x3x3", 3}, {"torus:dims=4x4x4", 3}, {"ring:n=9", 1}})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const double nn = topo->Graph().HostCount();
        const uint64_t w = 6 * 64 * 27 * 100;
        SyncPlan plan = MakeSyncAlgorithm("hips")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        const double expected = 2 * (nn - 1) * w / (nn * b) / (2 * d);
        EXPECT_NEAR(FluidEstimator().Estimate(*topo, plan).gstS, expected, 0.01 * expected) << t;
    }
}

// stage=ring on BCube(3,1) and stage=mesh on a 4x4 torus: the same per-worker volume
// 2(N-1)W/N (W = 4N 100, even at every split). BCube(3,1), stage=ring: part p's two
// directions share the level-(p+s) NIC at stage s, which sends (n-1)/n^(s+1) of W/2 in
// all, as the direct exchange does: fluid GST again 1/(k+1) = 1/2 of the single-NIC ring.
TEST(HipsAlgorithm, StageOptionKeepsVolumesAndBcubeGst)
{
    const double b = 40e9 / 8;
    for (auto [t, spec] : std::vector<std::pair<std::string, std::string>>{
             {"bcube:n=3,k=1", "hips:stage=ring"}, {"torus:dims=4x4", "hips:stage=mesh"}})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const uint64_t nn = topo->Graph().HostCount();
        const uint64_t w = 4 * nn * 100;
        SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << t << "\n" << r.Summary();
        for (uint32_t p = 0; p < nn; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2 * (nn - 1) * w / nn) << spec;
            EXPECT_EQ(r.receivedBytes[p], 2 * (nn - 1) * w / nn) << spec;
        }
        if (t == "bcube:n=3,k=1")
        {
            const double ring = 2 * (nn - 1.0) * w / (nn * b);
            EXPECT_NEAR(FluidEstimator().Estimate(*topo, plan).gstS, ring / 2, 0.01 * ring / 2);
        }
    }
}
