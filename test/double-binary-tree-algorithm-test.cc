#include "topology-grid.h"

#include "ns3/double-binary-tree-algorithm.h"
#include "ns3/fluid-estimator.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

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

double
FluidGst(const std::string& algorithm, const std::string& topology, const std::string& model)
{
    auto topo = MakeTopology(topology, 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm(algorithm)->Compile(*topo,
                                                          ModelProfile::Load(model, kModels));
    return FluidEstimator().Estimate(*topo, plan).gstS;
}
} // namespace

TEST(DoubleBinaryTreeAlgorithm, TreesAreInOrderAndComplementary)
{
    // P = 4, positions 1-based 1..4: the root is 4 (most trailing zeros), its child 2, whose
    // children are 1 and 3. Tree 0 (worker = position - 1): 3 <- 1 <- {0, 2}.
    EXPECT_EQ(DoubleBinaryTreeAlgorithm::Parents(4, 0), (std::vector<uint32_t>{1, 3, 1, 3}));
    // Tree 1 mirrors (worker r at position 3 - r): 0 <- 2 <- {3, 1}.
    EXPECT_EQ(DoubleBinaryTreeAlgorithm::Parents(4, 1), (std::vector<uint32_t>{0, 2, 0, 2}));
    // P = 7 (odd): tree 0 is 3 <- {1, 5}, 1 <- {0, 2}, 5 <- {4, 6}; tree 1 shifts (worker r
    // at position r - 1 mod 7): 4 <- {2, 6}, 2 <- {1, 3}, 6 <- {5, 0}.
    EXPECT_EQ(DoubleBinaryTreeAlgorithm::Parents(7, 0),
              (std::vector<uint32_t>{1, 3, 1, 3, 5, 3, 5}));
    EXPECT_EQ(DoubleBinaryTreeAlgorithm::Parents(7, 1),
              (std::vector<uint32_t>{6, 2, 4, 2, 4, 6, 4}));
    // Every worker is an inner node in at most one tree (Sanders et al. 2009); for odd P
    // worker 0 is a leaf in both. Depth <= ceil(log2(P + 1)).
    for (uint32_t p = 2; p <= 70; ++p)
    {
        std::vector<uint32_t> inner(p, 0);
        for (uint32_t t : {0u, 1u})
        {
            std::vector<uint32_t> parent = DoubleBinaryTreeAlgorithm::Parents(p, t);
            uint32_t roots = 0;
            std::vector<uint32_t> children(p, 0);
            for (uint32_t r = 0; r < p; ++r)
            {
                roots += parent[r] == r ? 1 : 0;
                children[parent[r]] += parent[r] != r ? 1 : 0;
                uint32_t depth = 0;
                for (uint32_t x = r; parent[x] != x && depth <= p; x = parent[x])
                {
                    ++depth;
                }
                uint32_t bound = 0;
                while ((1u << bound) < p + 1)
                {
                    ++bound;
                }
                EXPECT_LE(depth, bound) << "P=" << p << " tree " << t << " worker " << r;
            }
            EXPECT_EQ(roots, 1u) << "P=" << p;
            for (uint32_t r = 0; r < p; ++r)
            {
                EXPECT_LE(children[r], 2u);
                inner[r] += children[r] > 0 ? 1 : 0;
            }
        }
        for (uint32_t r = 0; r < p; ++r)
        {
            EXPECT_LE(inner[r], 1u) << "P=" << p << " worker " << r;
        }
    }
}

TEST(DoubleBinaryTreeAlgorithm, VolumesFollowTheTrees)
{
    // P = 4, W = 8000, 4 blocks (trees above). Tree halves W/2 = 4000.
    // Worker 0: tree 0 leaf (up 4000), tree 1 root (down to 2: 4000): sends 8000.
    // Worker 1: tree 0 inner (up 4000, down to 0 and 2: 8000), tree 1 leaf (up 4000): 16,000.
    // Worker 2: the mirror of worker 1: 16,000. Worker 3: the mirror of worker 0: 8000.
    // Receives are the same by symmetry; all in all 2(P-1)W = 48,000.
    SyncPlan plan = Compile("dbtree:blocks=4", "star:n=4", "bytes:8000");
    PlanCheckResult r = PlanChecker().Check(plan);
    ASSERT_TRUE(r.Ok()) << r.Summary();
    const std::vector<uint64_t> expected = {8000, 16000, 16000, 8000};
    EXPECT_EQ(r.sentBytes, expected);
    EXPECT_EQ(r.receivedBytes, expected);
    // 2 trees x 3 edges x 2 directions x 4 blocks.
    EXPECT_EQ(plan.transfers.size(), 48u);
    for (uint32_t p : {2u, 3u, 5u, 8u, 13u, 16u})
    {
        // W = 1,000,003 odd: halves 500,002 and 500,001; every edge carries its tree's half
        // both ways: 2 (P-1) W bytes in all.
        SyncPlan odd = Compile("dbtree:blocks=3", "star:n=" + std::to_string(p), "bytes:1000003");
        PlanCheckResult ro = PlanChecker().Check(odd);
        ASSERT_TRUE(ro.Ok()) << "P=" << p << "\n" << ro.Summary();
        uint64_t total = 0;
        for (uint32_t q = 0; q < p; ++q)
        {
            total += ro.sentBytes[q];
            // Inner in one tree (up + two down), leaf in the other (up): at most 4 halves,
            // 3 of them the longer one: 3 * 500,002 + 500,001 = 2W + 1.
            EXPECT_LE(ro.sentBytes[q], 2u * 1000003u + 1) << "P=" << p << " worker " << q;
            EXPECT_LE(ro.receivedBytes[q], 2u * 1000003u + 1) << "P=" << p << " worker " << q;
        }
        EXPECT_EQ(total, 2u * (p - 1) * 1000003u) << "P=" << p;
    }
}

TEST(DoubleBinaryTreeAlgorithm, BlocksArePipelinedInOrder)
{
    // P = 2, 4 blocks: tree 0 is 1 <- 0. Worker 0's block b up waits only for its block b-1
    // up; worker 1 sends block b down once block b came up and its block b-1 went down.
    SyncPlan plan = Compile("dbtree:blocks=4", "star:n=2", "bytes:8000");
    std::vector<TransferId> up, down;
    for (const Transfer& t : plan.transfers)
    {
        if (t.phase == 0)
        {
            EXPECT_EQ(t.src, 0u);
            EXPECT_EQ(t.bytes, 1000u); // W/2 / 4
            EXPECT_EQ(t.deps,
                      up.empty() ? std::vector<TransferId>{} : std::vector<TransferId>{up.back()});
            up.push_back(t.id);
        }
        else if (t.phase == 1)
        {
            std::vector<TransferId> deps = {up.back()};
            if (!down.empty())
            {
                deps.push_back(down.back());
            }
            EXPECT_EQ(t.deps, deps) << "block " << t.chunk;
            down.push_back(t.id);
        }
    }
    EXPECT_EQ(up.size(), 4u);
    EXPECT_EQ(down.size(), 4u);
}

TEST(DoubleBinaryTreeAlgorithm, FluidGstOnStar)
{
    // W = 8 MB, B = 40 Gb/s, T = W 8 / B = 1.6 ms.
    // P = 2: each uplink carries its tree's half up and the other tree's half down (W in
    // all) with no idle time: block 0 up alone (tau = T / 2K), then block b+1 up and b down
    // share it (2 tau each), then the last block down alone: 2 K tau = T, for any K.
    for (uint32_t k : {1u, 8u})
    {
        EXPECT_NEAR(
            FluidGst("dbtree:blocks=" + std::to_string(k), "star:n=2", "bytes:8MB"), 1.6e-3, 1.6e-5)
            << "K=" << k;
    }
    // P = 3, K = 1: tree 0 is 1 <- {0, 2}, tree 1 is 2 <- {0, 1}. Up: 0->1, 2->1, 0->2, 1->2
    // put exactly two W/2 flows on 0's uplink and on 1's and 2's downlinks: all at B/2,
    // done at T. Down: 1->0, 1->2, 2->0, 2->1 likewise: 2T = 3.2 ms.
    EXPECT_NEAR(FluidGst("dbtree:blocks=1", "star:n=3", "bytes:8MB"), 3.2e-3, 3.2e-5);
    // P = 8: six workers are inner nodes and carry 2W on their uplink, so GST >= 2T = 3.2 ms.
    // More blocks fill the pipeline better: GST falls from K = 1 to 4 to 16. Beyond that the
    // fluid model's queue pairs serve one message at a time, so the blocks of the two trees
    // between the same two hosts wait for each other instead of sharing the pair (the same
    // one QP the packet run uses), and K = 64 gains nothing more; it still respects 2T.
    double previous = 1;
    for (uint32_t k : {1u, 4u, 16u})
    {
        const double gst = FluidGst("dbtree:blocks=" + std::to_string(k), "star:n=8", "bytes:8MB");
        EXPECT_GE(gst, 3.2e-3 * (1 - 1e-9)) << "K=" << k;
        EXPECT_LT(gst, previous) << "K=" << k;
        previous = gst;
    }
    EXPECT_GE(FluidGst("dbtree:blocks=64", "star:n=8", "bytes:8MB"), 3.2e-3 * (1 - 1e-9));
}

TEST(DoubleBinaryTreeAlgorithm, CheckerRejectsMutations)
{
    auto plan = [] { return Compile("dbtree:blocks=2", "star:n=4", "bytes:8000"); };
    // Block 0 of tree 0 comes first: reduce sends in post-order 0->1, 2->1, 1->3 (#0..#2).
    SyncPlan noDep = plan();
    ASSERT_EQ(noDep.transfers[2].src, 1u);
    noDep.transfers[2].deps.pop_back(); // 1 sends up before 2's block is in
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());

    SyncPlan dropped = plan();
    dropped.transfers.pop_back(); // the last broadcast never arrives
    EXPECT_FALSE(PlanChecker().Check(dropped).Ok());

    SyncPlan doubled = plan();
    Transfer again = doubled.transfers[0];
    again.deps = {0};
    doubled.Add(again); // worker 0's block reduced into 1 twice
    EXPECT_FALSE(PlanChecker().Check(doubled).Ok());
}

TEST(DoubleBinaryTreeAlgorithm, OptionsAreValidated)
{
    EXPECT_EQ(MakeSyncAlgorithm("dbtree")->Spec(), "dbtree:blocks=8");
    EXPECT_EQ(MakeSyncAlgorithm("dbtree:blocks=32")->Spec(), "dbtree:blocks=32");
    for (std::string bad : {"dbtree:blocks=0", "dbtree:blocks=x", "dbtree:block=2"})
    {
        EXPECT_THROW(MakeSyncAlgorithm(bad), std::invalid_argument) << bad;
    }
}

// The checker accepts dbtree on every topology family with W = 1,000,003 and the MNIST MLP
// profile; tiny W (fewer bytes than blocks) leaves empty blocks out.
TEST(DoubleBinaryTreeAlgorithm, CheckerAcceptsOnTopologyGrid)
{
    for (std::string t : CheckerTopologyGrid())
    {
        for (std::string m : {"bytes:1000003", "mnist-mlp"})
        {
            PlanCheckResult r = PlanChecker().Check(Compile("dbtree", t, m));
            EXPECT_TRUE(r.Ok()) << t << " " << m << "\n" << r.Summary();
        }
    }
    PlanCheckResult tiny = PlanChecker().Check(Compile("dbtree:blocks=8", "star:n=5", "bytes:3"));
    EXPECT_TRUE(tiny.Ok()) << tiny.Summary();
    // VGG-19 on BCube(4,1), 16 workers: 2 * 15 * 574,668,960 = 17,240,068,800 B in all.
    PlanCheckResult r = PlanChecker().Check(Compile("dbtree", "bcube:n=4,k=1", "vgg19"));
    ASSERT_TRUE(r.Ok()) << r.Summary();
    uint64_t total = 0;
    for (uint64_t b : r.sentBytes)
    {
        total += b;
    }
    EXPECT_EQ(total, 17240068800u);
}
