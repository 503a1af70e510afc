#include "ns3/bigraph-topology.h"
#include "ns3/fluid-estimator.h"
#include "ns3/hdrm-algorithm.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>

using namespace ns3;

namespace
{

const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";

/// Power-of-two bigraphs with m <= s (case 1 of hdrm-algorithm.h), up to 64 hosts.
const std::vector<std::string> kServed = {"bigraph:s=1,m=1",
                                          "bigraph:s=2,m=1",
                                          "bigraph:s=2,m=2",
                                          "bigraph:s=4,m=2",
                                          "bigraph:s=4,m=4",
                                          "bigraph:s=8,m=2",
                                          "bigraph:s=8,m=4"};

/// Bigraphs whose 2sm is not a power of two and that the fold-in layout search serves (case
/// 3 of hdrm-algorithm.h): 20 to 50 hosts.
const std::vector<std::string> kFolded = {"bigraph:s=5,m=2",
                                          "bigraph:s=6,m=2",
                                          "bigraph:s=7,m=3",
                                          "bigraph:s=5,m=4",
                                          "bigraph:s=6,m=4",
                                          "bigraph:s=5,m=5"};

/// Power-of-two bigraphs with m = 2^k s, k >= 1 (case 2 of hdrm-algorithm.h).
const std::vector<std::string> kWide = {
    "bigraph:s=1,m=2", "bigraph:s=2,m=4", "bigraph:s=2,m=8", "bigraph:s=4,m=8"};

/// What one step (phase) puts on one directed link: transfers and bytes.
struct LinkLoad
{
    uint32_t flows{0};
    uint64_t bytes{0};
};

/// Per (phase, directed link) loads of a plan's routed transfers; a directed link is (link,
/// node it is left from). `largest[phase]` gets the largest transfer of the phase.
std::map<std::pair<uint32_t, std::pair<LinkIndex, NodeIndex>>, LinkLoad>
LoadsByStep(const Topology& topo, const SyncPlan& plan, std::map<uint32_t, uint64_t>& largest)
{
    const TopologyGraph& graph = topo.Graph();
    std::map<std::pair<uint32_t, std::pair<LinkIndex, NodeIndex>>, LinkLoad> loads;
    for (const Transfer& x : plan.transfers)
    {
        largest[x.phase] = std::max(largest[x.phase], x.bytes);
        NodeIndex at = plan.hostOf[x.src];
        for (LinkIndex l : topo.Path(plan.hostOf[x.src], plan.hostOf[x.dst], x.id))
        {
            LinkLoad& load = loads[{x.phase, {l, at}}];
            ++load.flows;
            load.bytes += x.bytes;
            at = graph.Link(l).a == at ? graph.Link(l).b : graph.Link(l).a;
        }
        EXPECT_EQ(at, plan.hostOf[x.dst]) << "transfer " << x.id << " path does not arrive";
    }
    return loads;
}

/// Whether link l joins two switches.
bool
InterSwitch(const TopologyGraph& graph, LinkIndex l)
{
    return !graph.Node(graph.Link(l).a).isHost && !graph.Node(graph.Link(l).b).isHost;
}

} // namespace

TEST(HdrmAlgorithm, SpecAndApplicability)
{
    EXPECT_EQ(MakeSyncAlgorithm("hdrm")->Spec(), "hdrm");
    EXPECT_THROW(MakeSyncAlgorithm("hdrm:fold=1"), std::invalid_argument);
    auto hdrm = MakeSyncAlgorithm("hdrm");
    std::string why;
    EXPECT_TRUE(hdrm->AppliesTo(*MakeTopology("bigraph:s=4,m=4", 40e9, 1e-6), why));
    // Served since hdrm covers every size (hdrm-algorithm.h): m > s (case 2) and 2sm not a
    // power of two (case 3).
    EXPECT_TRUE(hdrm->AppliesTo(*MakeTopology("bigraph:s=2,m=4", 40e9, 1e-6), why)) << why;
    EXPECT_TRUE(hdrm->AppliesTo(*MakeTopology("bigraph:s=4,m=8", 40e9, 1e-6), why)) << why;
    EXPECT_TRUE(hdrm->AppliesTo(*MakeTopology("bigraph:s=6,m=4", 40e9, 1e-6), why)) << why;
    // 18 hosts: the 16-host core cannot be laid out contention-free on 3 + 3 switches of 3
    // hosts (the search exhausts every placement); 12 hosts: the 8-host core can, but not
    // with each of the 4 extras on its core's switch. Both refused, saying why.
    for (const char* t : {"bigraph:s=3,m=3", "bigraph:s=3,m=2"})
    {
        EXPECT_FALSE(hdrm->AppliesTo(*MakeTopology(t, 40e9, 1e-6), why)) << t;
        EXPECT_NE(why.find("no fold-in layout of its construction exists"), std::string::npos)
            << why;
        EXPECT_THROW(
            hdrm->Compile(*MakeTopology(t, 40e9, 1e-6), ModelProfile::Load("bytes:1000", ".")),
            std::invalid_argument);
    }
    // 54 hosts = 32 + 22: the 22 folded positions are 11 per part (v < 22, either parity),
    // but 9 switches of 3 hosts hold at most one folded position beside its extra each
    // (s floor(m/2) = 9 < 11).
    EXPECT_FALSE(hdrm->AppliesTo(*MakeTopology("bigraph:s=9,m=3", 40e9, 1e-6), why));
    EXPECT_NE(why.find("puts 11 extras in part 0"), std::string::npos) << why;
    EXPECT_NE(why.find("= 9 fit"), std::string::npos) << why;
    auto torus = MakeTopology("torus:dims=4x4", 40e9, 1e-6);
    EXPECT_FALSE(hdrm->AppliesTo(*torus, why));
    EXPECT_NE(why.find("bigraph"), std::string::npos) << why;
    EXPECT_THROW(hdrm->Compile(*torus, ModelProfile::Load("bytes:1000", ".")),
                 std::invalid_argument);
}

TEST(HdrmAlgorithm, RefusesTheServerModelSayingWhy)
{
    // The server wrapper's ranks are GPUs inside servers, not bigraph hosts: refused with
    // the reason and what to run instead, even when one GPU pairs with each NIC.
    auto hdrm = MakeSyncAlgorithm("hdrm");
    for (const char* t :
         {"server:gpus=8,nics=2/bigraph:s=4,m=4", "server:gpus=4,nics=4/bigraph:s=4,m=4"})
    {
        auto server = MakeTopology(t, 40e9, 1e-6);
        std::string why;
        EXPECT_FALSE(hdrm->AppliesTo(*server, why)) << t;
        EXPECT_NE(why.find("GPUs behind each server's NICs"), std::string::npos) << why;
        EXPECT_NE(why.find("run hdrm on the bigraph itself"), std::string::npos) << why;
        EXPECT_THROW(hdrm->Compile(*server, ModelProfile::Load("bytes:1000", ".")),
                     std::invalid_argument);
    }
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
        // The same on every directed link, host links included: one transfer, so at most
        // one flow's bytes, per link and step.
        std::map<uint32_t, uint64_t> largest;
        for (const auto& [key, load] : LoadsByStep(*topo, plan, largest))
        {
            EXPECT_EQ(load.flows, 1u) << t << " phase " << key.first;
            EXPECT_LE(load.bytes, largest[key.first]) << t;
        }
        for (uint32_t i = 0; i < p; ++i)
        {
            EXPECT_EQ(r.sentBytes[i], 2 * (p - 1) * w / p) << t;
            EXPECT_EQ(r.receivedBytes[i], 2 * (p - 1) * w / p) << t;
        }
    }
}

// Case 3 (fold-in, hdrm-algorithm.h), checked on the routed paths of every step: no
// directed link (host or switch link) carries more than one transfer, so no more than one
// flow's bytes, in any phase. W = 64 C with C the largest power of two <= P, so every
// halving splits evenly. Bytes per worker (hd's closed form, halving-doubling-algorithm.h):
// the r = P - C extras send and receive W (fold, unfold); the C core workers
// 2(C-1)W/C, plus W for the r that take in an extra.
TEST(HdrmAlgorithm, FoldInIsContentionFreeInEveryStep)
{
    for (const std::string& t : kFolded)
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const uint64_t p = topo->Graph().HostCount();
        uint64_t c = 1;
        while (c * 2 <= p)
        {
            c *= 2;
        }
        const uint64_t w = 64 * c;
        SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(w), "."));
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << t << "\n" << r.Summary();
        ASSERT_EQ(plan.workers, p);
        std::set<uint32_t> hosts(plan.hostOf.begin(), plan.hostOf.end());
        EXPECT_EQ(hosts.size(), p) << t << ": the rank map is not a bijection";
        std::map<uint32_t, uint64_t> largest;
        uint32_t crossing = 0;
        for (const auto& [key, load] : LoadsByStep(*topo, plan, largest))
        {
            EXPECT_EQ(load.flows, 1u)
                << t << " phase " << key.first << " link " << key.second.first;
            EXPECT_LE(load.bytes, largest[key.first]) << t;
            crossing += InterSwitch(topo->Graph(), key.second.first) ? 1 : 0;
        }
        EXPECT_GT(crossing, 0u) << t << ": the core's exchanges cross the parts";
        const uint64_t extra = p - c;
        uint64_t folded = 0;
        for (uint32_t i = 0; i < p; ++i)
        {
            const uint64_t core = 2 * (c - 1) * w / c;
            EXPECT_TRUE(r.sentBytes[i] == w || r.sentBytes[i] == core || r.sentBytes[i] == core + w)
                << t << " worker " << i << " sent " << r.sentBytes[i];
            EXPECT_EQ(r.receivedBytes[i], r.sentBytes[i]) << t;
            folded += r.sentBytes[i] == w ? 1 : 0;
        }
        EXPECT_EQ(folded, extra) << t;
    }
}

// Case 2 (m = 2^k s, hdrm-algorithm.h): no mapping is contention-free; ours keeps the
// first k halving steps and the last k doubling steps inside a switch (no inter-switch
// link used), and in every other step each inter-part link carries exactly m/s transfers
// (every link: the s x s copies are each contention-free and use every link once) while a
// host link carries one. D = log2(2sm) steps each way: 2k phases without inter-switch
// traffic, 2(D-k) with it.
TEST(HdrmAlgorithm, WideSwitchesShareEachLinkByExactlyMOverS)
{
    for (const std::string& t : kWide)
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        const Topology::BipartiteShape shape = *topo->Bipartite();
        const uint32_t ratio = shape.hostsPerSwitch / shape.switchesPerPart;
        uint32_t k = 0;
        while ((1u << k) < ratio)
        {
            ++k;
        }
        const uint32_t p = topo->Graph().HostCount();
        uint32_t d = 0;
        while ((1u << d) < p)
        {
            ++d;
        }
        SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(
            *topo, ModelProfile::Load("bytes:" + std::to_string(64 * p), "."));
        ASSERT_TRUE(PlanChecker().Check(plan).Ok()) << t;
        std::map<uint32_t, uint64_t> largest;
        std::map<uint32_t, std::set<uint32_t>> interFlows; // phase -> flow counts seen
        std::map<uint32_t, uint32_t> interLinks;           // phase -> directed links used
        for (const auto& [key, load] : LoadsByStep(*topo, plan, largest))
        {
            if (InterSwitch(topo->Graph(), key.second.first))
            {
                interFlows[key.first].insert(load.flows);
                ++interLinks[key.first];
            }
            else
            {
                EXPECT_EQ(load.flows, 1u) << t << " host link, phase " << key.first;
            }
        }
        EXPECT_EQ(largest.size(), 2 * d) << t;
        EXPECT_EQ(interFlows.size(), 2 * (d - k)) << t;
        for (const auto& [phase, counts] : interFlows)
        {
            EXPECT_EQ(counts, std::set<uint32_t>{ratio}) << t << " phase " << phase;
            // 2 s^2 directed inter-part links, all in use.
            EXPECT_EQ(interLinks[phase], 2 * shape.switchesPerPart * shape.switchesPerPart)
                << t << " phase " << phase;
        }
    }
}

// The checker accepts hdrm with uneven chunks (W prime), a real profile and a tiny W.
TEST(HdrmAlgorithm, CheckerAcceptsOnServedBigraphs)
{
    std::vector<std::string> all = kServed;
    all.insert(all.end(), kFolded.begin(), kFolded.end());
    all.insert(all.end(), kWide.begin(), kWide.end());
    for (const std::string& t : all)
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        for (std::string m : {"bytes:1000003", "mnist-mlp", "bytes:3"})
        {
            SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(*topo,
                                                               ModelProfile::Load(m, kModels));
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
// any step, so step j of the halving moves W/2^(j+1) at B: 2(P-1)W/(PB), the ring term.
// The same plan with the identity rank map (hosts in switch order,
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
    SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(*topo,
                                                       ModelProfile::Load("bytes:32000000", "."));
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

// Fluid GST on bigraph:s=4,m=8 (P = 64, case 2 of hdrm-algorithm.h), B = 5e9 B/s, W = 64e6 B.
// The first halving step (W/2) stays in a switch: W/(2B). Steps 1..5 (W/4 .. W/64) share
// every inter-part link by m/s = 2 flows: 2 (1/2 - 1/64) W / B. The doubling mirrors it:
// GST = 2 (1/2 + 2 (1/2 - 1/64)) W / B = 2 (2 - 1/2 - 1/32) W / B = 2.9375 W / B,
// 1.49x the contention-free bound 2(P-1)W/(PB) = 2 (63/64) W / B.
TEST(HdrmAlgorithm, FluidGstOnWideSwitchesMeetsTheSharedLinkBound)
{
    const double b = 40e9 / 8;
    const double w = 64e6;
    auto topo = MakeTopology("bigraph:s=4,m=8", 40e9, 1e-6);
    SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(*topo,
                                                       ModelProfile::Load("bytes:64000000", "."));
    const double expected = 2 * (2 - 0.5 - 1.0 / 32) * w / b;
    FluidResult r = FluidEstimator().Estimate(*topo, plan);
    EXPECT_NEAR(r.gstS, expected, 0.01 * expected);
}

// Fluid GST of the fold-in (case 3 of hdrm-algorithm.h) where r = P - C = C/2, so every
// first halving pair has one position that takes in an extra: B = 5e9 B/s, W = 32e6 B.
// Core positions C/2..C-1 send their first halving message (W/2) at once into positions
// 0..C/2-1, which are taking in their extra's W: the two share the host link at B/2 each
// until the W/2 is in (W/B), the fold's last W/2 then runs at B (W/(2B)), and the reply W/2
// at B (W/(2B)): step 0 ends at 2 W/B. The other halving steps (W/4 .. W/C) and the
// doubling (W/C .. W/2) are contention-free: (1/2 - 1/C + 1 - 1/C) W/B; the unfold W/B.
// GST = (4.5 - 2/C) W / B. (With r != C/2, positions ahead of others send into host links
// still receiving an earlier step; hdrm-algorithm.h gives the measured excess.)
TEST(HdrmAlgorithm, FluidGstOfTheFoldIn)
{
    const double b = 40e9 / 8;
    const double w = 32e6;
    // {topology, C}: 48 = 32 + 16, 24 = 16 + 8, 96 = 64 + 32 hosts.
    for (const auto& [t, c] : std::vector<std::pair<std::string, double>>{
             {"bigraph:s=6,m=4", 32}, {"bigraph:s=6,m=2", 16}, {"bigraph:s=12,m=4", 64}})
    {
        auto topo = MakeTopology(t, 40e9, 1e-6);
        SyncPlan plan = MakeSyncAlgorithm("hdrm")->Compile(
            *topo, ModelProfile::Load("bytes:32000000", "."));
        const double expected = (4.5 - 2.0 / c) * w / b;
        FluidResult r = FluidEstimator().Estimate(*topo, plan);
        EXPECT_NEAR(r.gstS, expected, 0.01 * expected) << t;
    }
}
