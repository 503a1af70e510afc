#include "ns3/bigraph-topology.h"
#include "ns3/fluid-estimator.h"
#include "ns3/hdrm-algorithm.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

using namespace ns3;

namespace
{

const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

/// The bigraph sizes hdrm serves (2sm a power of two, m <= s), up to 64 hosts.
const std::vector<std::string> kServed = {"bigraph:s=1,m=1",
                                          "bigraph:s=2,m=1",
                                          "bigraph:s=2,m=2",
                                          "bigraph:s=4,m=2",
                                          "bigraph:s=4,m=4",
                                          "bigraph:s=8,m=4"};

} // namespace

TEST(HdrmAlgorithm, SpecAndApplicability)
{
    EXPECT_EQ(MakeSyncAlgorithm("hdrm")->Spec(), "hdrm");
    EXPECT_THROW(MakeSyncAlgorithm("hdrm:fold=1"), std::invalid_argument);
    auto hdrm = MakeSyncAlgorithm("hdrm");
    std::string why;
    EXPECT_TRUE(hdrm->AppliesTo(*MakeTopology("bigraph:s=4,m=4", 40e9, 1e-6), why));
    // m > s: an upper switch's 4 hosts cannot reach 4 lower switches over 2 links.
    EXPECT_FALSE(hdrm->AppliesTo(*MakeTopology("bigraph:s=2,m=4", 40e9, 1e-6), why));
    EXPECT_NE(why.find("m <= s"), std::string::npos) << why;
    // 2 * 3 * 2 = 12 hosts: not a power of two.
    EXPECT_FALSE(hdrm->AppliesTo(*MakeTopology("bigraph:s=3,m=2", 40e9, 1e-6), why));
    EXPECT_NE(why.find("power of two"), std::string::npos) << why;
    auto torus = MakeTopology("torus:dims=4x4", 40e9, 1e-6);
    EXPECT_FALSE(hdrm->AppliesTo(*torus, why));
    EXPECT_NE(why.find("bigraph"), std::string::npos) << why;
    EXPECT_THROW(hdrm->Compile(*torus, ModelProfile::Load("bytes:1000", ".")),
                 std::invalid_argument);
}

// The property EFLOPS' rank mapping promises, checked on the routed paths: in every
// halving-doubling step (phase), every pair sits in the two different parts, and each
// inter-part link (switch to switch) is crossed by the transfers of at most one pair.
// Per worker 2(P-1)W/P each way with W = 64 P (divisible at every halving).
TEST(HdrmAlgorithm, EveryStepCrossesPartsWithoutSharingALink)
{
    for (const std::string& t : kServed)
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const auto& bigraph = dynamic_cast<const BigraphTopology&>(*topo);
        const TopologyGraph& graph = topo->Graph();
        const uint64_t p = graph.HostCount();
        const uint64_t w = 64 * p;
        SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << t << "\n" << r.Summary();
        ASSERT_EQ(plan.workers, p);
        std::set<uint32_t> hosts(plan.hostOf.begin(), plan.hostOf.end());
        EXPECT_EQ(hosts.size(), p) << t << ": the rank map is not a bijection";
        // D = log2 P steps each way, each worker sends one transfer per step.
        uint32_t d = 0;
        while ((1u << d) < p)
        {
            ++d;
        }
        EXPECT_EQ(plan.transfers.size(), 2 * d * p) << t;
        std::map<std::pair<uint32_t, LinkIndex>, std::set<std::pair<uint32_t, uint32_t>>> pairs;
        for (const Transfer& x : plan.transfers)
        {
            const uint32_t a = plan.hostOf[x.src];
            const uint32_t b = plan.hostOf[x.dst];
            EXPECT_NE(bigraph.Part(a), bigraph.Part(b)) << t << " transfer " << x.id;
            for (LinkIndex l : topo->Path(a, b, x.id))
            {
                const TopologyLink& link = graph.Link(l);
                if (!graph.Node(link.a).isHost && !graph.Node(link.b).isHost)
                {
                    pairs[{x.phase, l}].insert({std::min(a, b), std::max(a, b)});
                }
            }
        }
        for (const auto& [key, users] : pairs)
        {
            EXPECT_EQ(users.size(), 1u) << t << " phase " << key.first << " link " << key.second;
        }
        for (uint32_t i = 0; i < p; ++i)
        {
            EXPECT_EQ(r.sentBytes[i], 2 * (p - 1) * w / p) << t;
            EXPECT_EQ(r.receivedBytes[i], 2 * (p - 1) * w / p) << t;
        }
    }
}

// The checker accepts hdrm with uneven chunks (W prime), a real profile and a tiny W.
TEST(HdrmAlgorithm, CheckerAcceptsOnServedBigraphs)
{
    for (const std::string& t : kServed)
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string m : {"bytes:1000003", "mnist-mlp", "bytes:3"})
        {
            SyncPlan plan =
                MakeSyncAlgorithm("hdrm")->Compile(*topo, ModelProfile::Load(m, kModels));
            PlanCheckResult r = PlanChecker().Check(plan);
            EXPECT_TRUE(r.Ok()) << t << " " << m << "\n" << r.Summary();
        }
    }
}

TEST(HdrmAlgorithm, CheckerRejectsMutatedPlans)
{
    auto topo = MakeTopology("bigraph:s=2,m=2", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(*topo, ModelProfile::Load("bytes:800", "."));
    ASSERT_TRUE(PlanChecker().Check(plan).Ok());
    // Step 1 of the halving sends a half-sum that needs step 0's receive.
    SyncPlan noDep = plan;
    for (Transfer& x : noDep.transfers)
    {
        if (x.phase == 1)
        {
            x.deps.clear();
            break;
        }
    }
    EXPECT_FALSE(PlanChecker().Check(noDep).Ok());
    SyncPlan doubled = plan;
    // Claims the sum of every gradient while its source holds only its own.
    doubled.transfers[0].carries = ContributorSet::All(plan.workers);
    EXPECT_FALSE(PlanChecker().Check(doubled).Ok());
}

// Fluid GST on bigraph:s=4,m=4 (P = 32), B = 5e9 B/s, W = 32e6 B. hdrm: no link is shared in
// any step, so step j of the halving moves W/2^(j+1) at B: 2(P-1)W/(PB), the ring term
// (the test). The same plan with the identity rank map (hosts in switch order,
// halving over rank bits 4, 3, 2, 1, 0 moving W/2, W/4, ..., W/32):
//  - bit 4 (the part): all 4 hosts of a switch go to one switch of the other part over one
//    link: 4 x (W/2) / B;
//  - bits 3, 2 (other switch, same part): every switch of both parts sends to a switch of
//    its own part through all 4 switches of the other part (fluid ECMP, 1 flow's worth per
//    inter-part link), and each inter-part link carries that for both parts: 2 x the time;
//  - bits 1, 0 stay inside a switch: full rate.
// 2 (2 + 2/4 + 2/8 + 1/16 + 1/32) W / B = 2 (91/32) W / B, about 2.9x hdrm.
TEST(HdrmAlgorithm, FluidGstIsTheRingTermAndBeatsTheIdentityMap)
{
    const double b = 40e9 / 8;
    const double w = 32e6;
    auto topo = MakeTopology("bigraph:s=4,m=4", 40e9, 1e-6);
    SyncPlan plan =
        MakeSyncAlgorithm("hdrm")->Compile(*topo, ModelProfile::Load("bytes:32000000", "."));
    const double ring = 2 * 31 * w / (32 * b);
    FluidResult mapped = FluidEstimator().Estimate(*topo, plan);
    EXPECT_NEAR(mapped.gstS, ring, 0.01 * ring);
    for (uint32_t r = 0; r < plan.workers; ++r)
    {
        plan.hostOf[r] = r;
    }
    const double identity = 2 * (91.0 / 32) * w / b;
    FluidResult plain = FluidEstimator().Estimate(*topo, plan);
    EXPECT_NEAR(plain.gstS, identity, 0.01 * identity);
}
