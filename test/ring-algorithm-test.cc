#include "topology-grid.h"

#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/ring-algorithm.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"
#include "ns3/torus-topology.h"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>

using namespace ns3;

TEST(RingAlgorithm, CheckerAcceptsAndVolumesMatchClosedForm)
{
    for (uint32_t n : {2u, 3u, 5u, 8u})
    {
        auto topo = MakeTopology("star:n=" + std::to_string(n), 40e9, 1e-6);
        // W = 8400 divisible by n: each worker sends n-1 chunks per phase, 2(N-1)W/N.
        ModelProfile model = ModelProfile::Load("bytes:8400", ".");
        for (std::string spec : {"ring", "ring:order=topo"})
        {
            SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(*topo, model);
            PlanCheckResult r = PlanChecker().Check(plan);
            ASSERT_TRUE(r.Ok()) << spec << " n=" << n << "\n" << r.Summary();
            EXPECT_EQ(plan.transfers.size(), 2u * n * (n - 1));
            for (uint32_t p = 0; p < n; ++p)
            {
                EXPECT_EQ(r.sentBytes[p], 2u * (n - 1) * 8400u / n);
                EXPECT_EQ(r.receivedBytes[p], 2u * (n - 1) * 8400u / n);
            }
        }
    }
}

TEST(RingAlgorithm, CheckerRejectsRemovedDependency)
{
    auto topo = MakeTopology("star:n=4", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("ring")->Compile(*topo,
                                                       ModelProfile::Load("bytes:4000", "."));
    plan.transfers[5].deps.clear(); // a step-1 send no longer waits for its step-0 receive
    EXPECT_FALSE(PlanChecker().Check(plan).Ok());
}

// The checker accepts ring and mesh on every topology family, with W = 1,000,003 (prime,
// so chunks are unequal) and the MNIST MLP profile.
TEST(RingAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    const std::string models = PARAMSYNC_SOURCE_DIR "/workloads/models";
    for (std::string t : CheckerTopologyGrid())
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string a : {"mesh", "ring", "ring:order=topo"})
        {
            for (std::string m : {"bytes:1000003", "mnist-mlp"})
            {
                SyncPlan plan = MakeSyncAlgorithm(a)->Compile(*topo, ModelProfile::Load(m, models));
                PlanCheckResult r = PlanChecker().Check(plan);
                EXPECT_TRUE(r.Ok()) << t << " " << a << " " << m << "\n" << r.Summary();
            }
        }
    }
    // VGG-19 on BCube(4,1), 16 workers: 2 * 15 * 574,668,960 / 16 = 1,077,504,300 B sent.
    auto bcube = MakeTopology("bcube:n=4,k=1", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("ring")->Compile(*bcube, ModelProfile::Load("vgg19", models));
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    EXPECT_EQ(r.sentBytes[0], 1077504300u);
}

// Every option keeps the per-worker volume 2(N-1)W/N. W = 2^4 * 3^2 * 5 * 7 * 100 = 504,000
// is divisible by R*N*K for every case below (R rings x N workers x K segments), so the
// closed form is exact; the transfer count is R * 2N(N-1) * K (one per ring, step, worker
// and segment).
TEST(RingAlgorithm, OptionsKeepClosedFormVolume)
{
    struct Case
    {
        std::string topology;
        std::string spec;
        uint32_t rings;
    };
    const std::vector<Case> cases = {
        {"star:n=5", "ring:bidir=1", 2},
        {"star:n=6", "ring:segments=4", 1},
        {"star:n=6", "ring:bidir=1,segments=3", 2},
        {"bcube:n=3,k=1", "ring:order=gray,bidir=1", 2},
        {"bcube:n=3,k=1", "ring:order=gray,nics=all", 2},    // k+1 = 2 ports
        {"bcube:n=2,k=2", "ring:order=natural,nics=all", 3}, // 3 ports
        {"bcube:n=2,k=2", "ring:order=topo,nics=all,bidir=1,segments=2", 6},
        {"torus:dims=3x4", "ring:order=snake,nics=all", 4}, // 2d = 4 ports
        {"torus:dims=2x2x2", "ring:order=snake,nics=all,segments=2", 6},
        {"ring:n=7", "ring:order=snake,nics=all", 2},
        {"fattree:k=4", "ring:order=topo,nics=all,bidir=1", 2}, // one port per host
    };
    const uint64_t w = 504000;
    for (const Case& c : cases)
    {
        auto topo = MakeTopology(c.topology, 40e9, 1e-6);
        auto algorithm = MakeSyncAlgorithm(c.spec);
        SyncPlan plan = algorithm->Compile(*topo, ModelProfile::Load("bytes:504000", "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << c.topology << " " << c.spec << "\n" << r.Summary();
        const uint64_t n = topo->Graph().HostCount();
        const uint64_t k = c.spec.find("segments=") == std::string::npos
                               ? 1
                               : std::stoul(c.spec.substr(c.spec.find("segments=") + 9));
        ASSERT_EQ(w % (c.rings * n * k), 0u) << c.spec;
        EXPECT_EQ(plan.transfers.size(), c.rings * 2 * n * (n - 1) * k)
            << c.topology << " " << c.spec;
        for (uint32_t p = 0; p < n; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2 * (n - 1) * w / n) << c.topology << " " << c.spec;
            EXPECT_EQ(r.receivedBytes[p], 2 * (n - 1) * w / n) << c.topology << " " << c.spec;
        }
    }
}

TEST(RingAlgorithm, SpecSpellsOutEveryOptionAndRejectsBadInput)
{
    EXPECT_EQ(MakeSyncAlgorithm("ring")->Spec(), "ring:order=natural,bidir=0,nics=1,segments=1");
    EXPECT_EQ(MakeSyncAlgorithm("ring:order=gray,bidir=1")->Spec(),
              "ring:order=gray,bidir=1,nics=1,segments=1");
    EXPECT_EQ(MakeSyncAlgorithm("ring:nics=all,segments=8")->Spec(),
              "ring:order=natural,bidir=0,nics=all,segments=8");
    for (const char* bad :
         {"ring:order=spiral", "ring:segments=0", "ring:nics=2", "ring:bidir=2", "ring:colour=red"})
    {
        EXPECT_THROW(MakeSyncAlgorithm(bad), std::invalid_argument) << bad;
    }
    // gray needs BCube digits, snake a torus: elsewhere AppliesTo says why, Compile throws.
    auto torus = MakeTopology("torus:dims=3x3", 40e9, 1e-6);
    auto bcube = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    std::string why;
    EXPECT_FALSE(MakeSyncAlgorithm("ring:order=gray")->AppliesTo(*torus, why));
    EXPECT_NE(why.find("bcube"), std::string::npos) << why;
    EXPECT_FALSE(MakeSyncAlgorithm("ring:order=snake")->AppliesTo(*bcube, why));
    EXPECT_TRUE(MakeSyncAlgorithm("ring:order=snake")->AppliesTo(*torus, why));
    EXPECT_THROW(
        MakeSyncAlgorithm("ring:order=gray")->Compile(*torus, ModelProfile::Load("bytes:900", ".")),
        std::invalid_argument);
}

namespace
{
/// Port of the source host that the routed path of hop src -> dst leaves through.
uint32_t
FirstPort(const Topology& topo, HostRank src, HostRank dst)
{
    LinkIndex first = topo.Path(src, dst, 0).front();
    const TopologyLink& link = topo.Graph().Link(first);
    return link.a == topo.Graph().HostNode(src) ? link.portA : link.portB;
}
} // namespace

// nics=all on BCube(3,1): ring p walks the Gray code with level p fastest. Of its 9 cyclic
// hops, digit p changes on n^2 - n = 6 (the other 3 change the slower digit), and a hop
// that changes digit l is one level-l switch hop, leaving through port l. So ring 0 sends
// 6 of 9 hops through port 0 and ring 1 6 of 9 through port 1: each ring has its own NIC.
TEST(RingAlgorithm, NicsAllGivesEachRingItsOwnPortOnBcube)
{
    auto topo = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    RingAlgorithm ring("ring:order=gray,nics=all");
    auto orders = ring.RingOrders(*topo);
    ASSERT_EQ(orders.size(), 2u);
    for (uint32_t p = 0; p < 2; ++p)
    {
        uint32_t onOwnPort = 0;
        for (uint32_t i = 0; i < 9; ++i)
        {
            HostRank a = orders[p][i];
            HostRank b = orders[p][(i + 1) % 9];
            EXPECT_EQ(topo->Path(a, b, 0).size(), 2u) << "ring " << p << " hop " << i;
            onOwnPort += FirstPort(*topo, a, b) == p ? 1 : 0;
        }
        EXPECT_EQ(onOwnPort, 6u) << "ring " << p;
    }
}

// nics=all on a square torus (topology-aware order): rings 0 and 1 are two edge-disjoint
// Hamiltonian cycles, rings 2 and 3 their reverses, so the 4 rings use each of the
// 2 x 2 x k^2 directed cables exactly once (64 for k = 4, 100 for k = 5, odd side), every hop
// is one cable, and ring 0 walks rows: k-1 of every k hops change coordinate 1.
TEST(RingAlgorithm, NicsAllOnSquareTorusUsesEveryDirectedCableOnce)
{
    for (uint32_t k : {4u, 5u})
    {
        auto topo = MakeTopology(
            "torus:dims=" + std::to_string(k) + "x" + std::to_string(k), 40e9, 1e-6);
        const auto* torus = dynamic_cast<const TorusTopology*>(topo.get());
        ASSERT_NE(torus, nullptr);
        auto orders = RingAlgorithm("ring:order=snake,nics=all").RingOrders(*topo);
        ASSERT_EQ(orders.size(), 4u);
        std::set<std::pair<HostRank, HostRank>> used;
        uint32_t rowHops = 0;
        for (uint32_t p = 0; p < 4; ++p)
        {
            ASSERT_EQ(std::set<HostRank>(orders[p].begin(), orders[p].end()).size(), k * k);
            for (uint32_t i = 0; i < k * k; ++i)
            {
                HostRank a = orders[p][i];
                HostRank b = orders[p][(i + 1) % (k * k)];
                ASSERT_EQ(topo->Path(a, b, 0).size(), 1u) << "ring " << p << " hop " << i;
                EXPECT_TRUE(used.insert({a, b}).second) << "k " << k << " ring " << p;
                if (p == 0)
                {
                    rowHops += torus->Coordinates(a)[1] != torus->Coordinates(b)[1] ? 1 : 0;
                }
            }
        }
        EXPECT_EQ(used.size(), 4u * k * k);
        EXPECT_EQ(rowHops, k * (k - 1));
    }
}

// segments=K: segments move independently. In star:n=3, W = 600, K = 2: chunk 0 is
// [0,200), segment 1 of it [100,200). Position 1's reduce-scatter step-1 send of segment 1
// (chunk 0, received from position 0 at step 0) depends on exactly that receipt and on its
// own step-0 send of segment 1, not on segment 0.
TEST(RingAlgorithm, SegmentsDependOnlyOnTheirOwnChain)
{
    auto topo = MakeTopology("star:n=3", 40e9, 1e-6);
    SyncPlan plan =
        MakeSyncAlgorithm("ring:segments=2")->Compile(*topo, ModelProfile::Load("bytes:600", "."));
    ASSERT_TRUE(PlanChecker().Check(plan).Ok());
    const Transfer* step1 = nullptr;
    for (const Transfer& t : plan.transfers)
    {
        if (t.phase == 1 && t.src == 1 && t.offset == 100)
        {
            step1 = &t;
        }
    }
    ASSERT_NE(step1, nullptr);
    EXPECT_EQ(step1->bytes, 100u);
    ASSERT_EQ(step1->deps.size(), 2u);
    for (TransferId d : step1->deps)
    {
        const Transfer& dep = plan.transfers[d];
        EXPECT_EQ(dep.phase, 0u);
        // Own step-0 segment-1 send covers chunk 1 [200,400): [300,400); the receipt [100,200).
        EXPECT_TRUE((dep.src == 1 && dep.offset == 300) || (dep.src == 0 && dep.offset == 100))
            << plan.Dump();
    }
}

// Topology-aware options on the grid, checker only (W prime so every split is unequal).
TEST(RingAlgorithm, OptionsCheckOnTopologyGrid)
{
    for (std::string t : CheckerTopologyGrid())
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string a : {"ring:order=topo,bidir=1,nics=all,segments=3",
                              "ring:order=gray",
                              "ring:order=snake,nics=all"})
        {
            auto algorithm = MakeSyncAlgorithm(a);
            std::string why;
            if (!algorithm->AppliesTo(*topo, why))
            {
                continue;
            }
            SyncPlan plan = algorithm->Compile(*topo, ModelProfile::Load("bytes:1000003", "."));
            PlanCheckResult r = PlanChecker().Check(plan);
            EXPECT_TRUE(r.Ok()) << t << " " << a << "\n" << r.Summary();
        }
    }
}

namespace
{
/// Fluid (ideal, latency-free) GST of a ring spec on a topology at 40 Gb/s, W = 100 MB.
double
FluidGst(const std::string& topology, const std::string& spec)
{
    auto topo = MakeTopology(topology, 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm(spec)->Compile(*topo, ModelProfile::Load("bytes:100MB", "."));
    return FluidEstimator().Estimate(*topo, plan).gstS;
}
} // namespace

// Fluid GST closed forms (the issue: within 1%). One ring: 2(N-1)W/(NB); W = 8e8 bit,
// B = 40 Gb/s, so W/B = 20 ms.
//  - ring:n=8 cabled ring, natural order = the cable order: 2 x 7/8 x 20 = 35 ms; bidir=1
//    and nics=all (2 ports: the ring and its reverse) put half the data on the other
//    direction of every cable: 17.5 ms; segments=4 changes nothing on an ideal fabric.
//  - BCube(3,1), Gray order: 2 x 8/9 x 20 = 35.56 ms; nics=all runs 2 rings on W/2 each,
//    every host sending them through different ports: 1/(k+1) = half, 17.78 ms.
//  - torus 5x5, snake: 2 x 24/25 x 20 = 38.4 ms; nics=all 9.6 ms.
TEST(RingAlgorithm, FluidGstMatchesClosedForms)
{
    const double ring8 = 2.0 * 7 / 8 * 0.02;
    EXPECT_NEAR(FluidGst("ring:n=8", "ring"), ring8, ring8 * 0.01);
    EXPECT_NEAR(FluidGst("ring:n=8", "ring:bidir=1"), ring8 / 2, ring8 / 2 * 0.01);
    EXPECT_NEAR(FluidGst("ring:n=8", "ring:order=snake,nics=all"), ring8 / 2, ring8 / 2 * 0.01);
    EXPECT_NEAR(FluidGst("ring:n=8", "ring:segments=4"), ring8, ring8 * 0.01);
    const double bcube = 2.0 * 8 / 9 * 0.02;
    EXPECT_NEAR(FluidGst("bcube:n=3,k=1", "ring:order=gray"), bcube, bcube * 0.01);
    EXPECT_NEAR(FluidGst("bcube:n=3,k=1", "ring:order=gray,nics=all"), bcube / 2, bcube / 2 * 0.01);
    // Square torus, nics=all: 4 port-disjoint rings on W/4 each, 1/4 of one ring.
    const double torus = 2.0 * 24 / 25 * 0.02;
    EXPECT_NEAR(FluidGst("torus:dims=5x5", "ring:order=snake"), torus, torus * 0.01);
    EXPECT_NEAR(
        FluidGst("torus:dims=5x5", "ring:order=snake,nics=all"), torus / 4, torus / 4 * 0.01);
}
