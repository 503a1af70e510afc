// The server model (topologies/server-topology.h): GPUs and NICs behind PCIe switches wrapped
// around a network; structure, routes, deadlock freedom, and the PCIe bottleneck of a shared
// path in closed form.
#include "driver-run.h"

#include "ns3/channel-dependency.h"
#include "ns3/fluid-estimator.h"
#include "ns3/server-topology.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kB = 40e9; // bit/s, the network's links

const ServerTopology&
AsServer(const Topology& topo)
{
    return dynamic_cast<const ServerTopology&>(topo);
}

std::string
Thrown(const std::string& spec)
{
    try
    {
        MakeTopology(spec, kB, 1e-6);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// GPUs 0..n-1 each send `bytes` to GPU n + i at once (no dependencies).
SyncPlan
PairsPlan(uint32_t n, uint64_t bytes)
{
    SyncPlan plan;
    plan.algorithm = "pairs";
    plan.workers = 2 * n;
    for (uint32_t i = 0; i < 2 * n; ++i)
    {
        plan.hostOf.push_back(i);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        plan.Add({0,
                  i,
                  n + i,
                  i * bytes,
                  bytes,
                  TransferOp::Copy,
                  ContributorSet::Single(plan.workers, i),
                  {},
                  0,
                  0});
    }
    plan.gradientBytes = n * bytes;
    return plan;
}

} // namespace

TEST(ServerTopology, ConventionalServerCounts)
{
    // 2 servers of 4 GPUs, one NIC each, on star:n=2. Nodes: 8 GPUs + star's 2 hosts (the
    // NICs) and 1 switch + 2 PCIe switches (no root with one NIC) = 13. Links: star's 2 +
    // per server 1 PCIe-to-NIC + 4 GPU links = 2 + 2 x 5 = 12.
    auto topo = MakeTopology("server:gpus=4,nics=1/star:n=2", kB, 1e-6);
    const TopologyGraph& g = topo->Graph();
    EXPECT_EQ(g.HostCount(), 8u);
    EXPECT_EQ(g.NodeCount(), 13u);
    EXPECT_EQ(g.LinkCount(), 12u);
    EXPECT_EQ(topo->Spec(), "server:gpus=4,nics=1/star:n=2");
    EXPECT_EQ(topo->Family(), "server");
    EXPECT_EQ(AsServer(*topo).Servers(), 2u);
    // GPU links at the PCIe 3.0 x16 default, 16 x 8 GT/s x 128/130 = 126 Gb/s; star's at kB.
    EXPECT_DOUBLE_EQ(g.Link(g.LinkAt(g.HostNode(0), 0)).rateBps, 126e9);
    EXPECT_DOUBLE_EQ(g.Link(0).rateBps, kB);
    // GPU 0 -> GPU 4: GPU, PCIe switch, NIC, star switch, NIC, PCIe switch, GPU = 6 links;
    // GPU 0 -> GPU 1 turns at the PCIe switch: 2 links.
    EXPECT_EQ(topo->Path(0, 4, 0).size(), 6u);
    EXPECT_EQ(topo->Path(0, 1, 0).size(), 2u);
    // Every GPU of server 0 leaves through the same PCIe-to-NIC link: the shared path.
    const LinkIndex shared = topo->Path(0, 4, 0)[1];
    for (HostRank r = 1; r < 4; ++r)
    {
        EXPECT_EQ(topo->Path(r, 4 + r, 0)[1], shared) << "GPU " << r;
    }
}

TEST(ServerTopology, EflopsServerPairsEveryGpuWithItsNic)
{
    // 2 servers of 4 GPUs and 4 NICs on star:n=8. Nodes: 8 GPUs + 9 (star) + 8 PCIe
    // switches + 2 roots = 27; links: 8 (star) + 8 x (NIC + GPU) + 2 x 4 root links = 32.
    auto topo = MakeTopology("server:gpus=4,nics=4,pcie=64Gbps,pciedelay=50ns/star:n=8", kB, 1e-6);
    const ServerTopology& s = AsServer(*topo);
    EXPECT_EQ(topo->Graph().HostCount(), 8u);
    EXPECT_EQ(topo->Graph().NodeCount(), 27u);
    EXPECT_EQ(topo->Graph().LinkCount(), 32u);
    EXPECT_EQ(topo->Spec(), "server:gpus=4,nics=4,pcie=64Gbps,pciedelay=50ns/star:n=8");
    // GPU r of server 0 leaves through its own NIC (star host r), so the 4 paths to server
    // 1 share no link: 6 links each, 24 distinct.
    std::set<LinkIndex> used;
    for (HostRank r = 0; r < 4; ++r)
    {
        auto path = topo->Path(r, 4 + r, 0);
        ASSERT_EQ(path.size(), 6u);
        used.insert(path.begin(), path.end());
        EXPECT_NE(s.NicOf(r), s.NicOf((r + 1) % 4));
    }
    EXPECT_EQ(used.size(), 24u);
    // Inside a server GPU 0 -> GPU 1 goes PCIe switch 0, root, PCIe switch 1: 4 links at
    // 64 Gb/s with 50 ns each.
    auto inside = topo->Path(0, 1, 0);
    ASSERT_EQ(inside.size(), 4u);
    for (LinkIndex l : inside)
    {
        EXPECT_DOUBLE_EQ(topo->Graph().Link(l).rateBps, 64e9);
        EXPECT_DOUBLE_EQ(topo->Graph().Link(l).delayS, 50e-9);
    }
    // SwitchLevels: level 0 = a server's GPUs, level 1 = one GPU slot across the servers.
    auto levels = topo->SwitchLevels();
    ASSERT_EQ(levels.size(), 2u);
    ASSERT_EQ(levels[0].size(), 2u);
    EXPECT_EQ(levels[0][1].members, (std::vector<HostRank>{4, 5, 6, 7}));
    ASSERT_EQ(levels[1].size(), 4u);
    EXPECT_EQ(levels[1][3].members, (std::vector<HostRank>{3, 7}));
}

TEST(ServerTopology, WrappedLanesStayDeadlockFree)
{
    // The torus routes with a dateline lane and BCube relays through its hosts (now NIC
    // switches); the PCIe parts hang off the NICs as trees and add no cycle.
    for (const char* spec : {"server:gpus=2,nics=1/torus:dims=3x3",
                             "server:gpus=4,nics=2/torus:dims=4x4",
                             "server:gpus=3,nics=3/bcube:n=3,k=1",
                             "server:gpus=4,nics=1/fattree:k=4"})
    {
        auto topo = MakeTopology(spec, kB, 1e-6);
        EXPECT_TRUE(FindDependencyCycle(*topo).empty()) << spec;
        EXPECT_GE(topo->LaneCount(), 1u);
    }
}

TEST(ServerTopology, SharedPcieLinkIsTheBottleneckInClosedForm)
{
    // 4 GPUs of server 0 each send B = 1 MB to their peer GPU in server 1, PCIe at P =
    // 20 Gb/s, the network at 40 Gb/s. Conventional server (nics=1): the 4 flows share
    // PCIe switch -> NIC at P/4 each (the NIC's 40 Gb/s link would give 10 each), so each
    // takes 4 B / P = 4 x 8e6 bit / 20e9 = 1.6 ms.
    const uint64_t bytes = 1000000;
    FluidEstimator fluid;
    auto conv = MakeTopology("server:gpus=4,nics=1,pcie=20Gbps/star:n=2", kB, 1e-6);
    FluidResult c = fluid.Estimate(*conv, PairsPlan(4, bytes));
    EXPECT_DOUBLE_EQ(c.gstS, 1.6e-3);
    // Two NICs (two GPUs per PCIe path): 2 B / P = 0.8 ms.
    auto two = MakeTopology("server:gpus=4,nics=2,pcie=20Gbps/star:n=4", kB, 1e-6);
    EXPECT_DOUBLE_EQ(fluid.Estimate(*two, PairsPlan(4, bytes)).gstS, 0.8e-3);
    // EFLOPS server (nics=4): each GPU has its own PCIe path and NIC: B / P = 0.4 ms, 4x
    // faster than the conventional server.
    auto eflops = MakeTopology("server:gpus=4,nics=4,pcie=20Gbps/star:n=8", kB, 1e-6);
    FluidResult e = fluid.Estimate(*eflops, PairsPlan(4, bytes));
    EXPECT_DOUBLE_EQ(e.gstS, 0.4e-3);
    // With PCIe faster than the network (P = 126 Gb/s) the conventional server's single
    // 40 Gb/s NIC link binds instead: 4 B / 40 Gb/s = 0.8 ms.
    auto fast = MakeTopology("server:gpus=4,nics=1/star:n=2", kB, 1e-6);
    EXPECT_DOUBLE_EQ(fluid.Estimate(*fast, PairsPlan(4, bytes)).gstS, 0.8e-3);
}

TEST(ServerTopology, BadSpecsNameTheProblem)
{
    EXPECT_NE(Thrown("server:gpus=4,nics=1").find("missing '/NETWORK'"), std::string::npos);
    EXPECT_NE(Thrown("server:gpus=4,nics=3/star:n=3").find("nics = 3 does not divide gpus = 4"),
              std::string::npos);
    EXPECT_NE(Thrown("server:gpus=4,nics=2/star:n=3").find("3 hosts, not a multiple of nics"),
              std::string::npos);
    EXPECT_NE(Thrown("server:gpus=4,nics=5/star:n=5").find("nics"), std::string::npos);
    EXPECT_NE(Thrown("server:nics=1/star:n=2").find("missing 'gpus'"), std::string::npos);
    EXPECT_NE(Thrown("server:gpus=2,nics=1/bogus:n=2").find("unknown topology family"),
              std::string::npos);
}

TEST(ServerTopology, PacketLevelHalvingDoublingShowsTheSharedPath)
{
    // hd on 8 GPUs, 2 servers of 4, W = 4 MB, PCIe P = 20 Gb/s, network 40 Gb/s. Halving
    // pairs distance 4 first (workloads/halving-doubling-algorithm.h): GPU r <-> r + 4
    // across the servers with W/2 = 2 MB each, then distances 2 and 1 inside a server with
    // W/4 and W/8 over PCIe links of their own. Conventional server (nics=1): the 4 crossing
    // flows share PCIe switch -> NIC: 4 x 2 MB x 8 / 20 Gb/s = 3.2 ms, then 0.4 + 0.2 ms;
    // the all-gather mirrors it: 2 x 3.8 = 7.6 ms, the GST a schedule reaches. The ideal is
    // the relaxation (workloads/gst-lower-bound.h), which cannot see that the 0.4 + 0.2 +
    // 0.2 + 0.4 ms of intra-server steps separate the two crossings: the 8 crossing flows
    // of both phases leave a server over its PCIe switch -> NIC link, 8 x 0.8 = 6.4 ms, from
    // head 0 to tail 0 (no other set does better: the halving crossings alone give
    // 0 + 3.2 + 2.0 ms of solo steps after them, 5.2 ms). EFLOPS server (nics=4): each
    // crossing flow alone on its path at P: 0.8 ms, 2 x (0.8 + 0.4 + 0.2) = 2.8 ms, the
    // chain of solo times (ideal and GST). Packets add framing and per-hop delay: within
    // 5 % of the schedules, so the ratio stays above 2.5.
    using paramsync_test::Field;
    using paramsync_test::RunParamsync;
    const std::string common =
        " --algorithm=hd --model=bytes:4MB --backend=packet --rate=40Gbps --format=json";
    auto conv = RunParamsync("--topology='server:gpus=4,nics=1,pcie=20Gbps/star:n=2'" + common);
    auto own = RunParamsync("--topology='server:gpus=4,nics=4,pcie=20Gbps/star:n=8'" + common);
    ASSERT_EQ(conv.code, 0) << conv.err;
    ASSERT_EQ(own.code, 0) << own.err;
    EXPECT_DOUBLE_EQ(Field(conv.out, "ideal_gst_s"), 6.4e-3);
    EXPECT_DOUBLE_EQ(Field(own.out, "ideal_gst_s"), 2.8e-3);
    const double c = Field(conv.out, "gst_s");
    const double e = Field(own.out, "gst_s");
    EXPECT_GE(c, 7.6e-3);
    EXPECT_LE(c, 7.6e-3 * 1.05);
    EXPECT_GE(e, 2.8e-3);
    EXPECT_LE(e, 2.8e-3 * 1.05);
    EXPECT_EQ(Field(conv.out, "drops"), 0); // lossless inside the server too
}
