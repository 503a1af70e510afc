// NetworkBuilder end to end: one message between every ordered pair of hosts of
// BCube(3,1), a 3x3 torus, fat-tree k=4 and bigraph s=2,m=2 arrives at the right host, with
// a latency equal to its hop count times (serialization + propagation) of one hop.
#include "ns3/forwarding-table.h"
#include "ns3/network-builder.h"
#include "ns3/pfc-switch.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double kRate = 40e9;
constexpr double kDelay = 1e-6;
constexpr uint32_t kPayload = 1000;
constexpr uint8_t kBasePriority = 3;

struct Arrival
{
    bool arrived{false};
    double atS{0};
    uint32_t receiver{0};
    uint32_t srcHost{0};
};

void
CheckEveryPair(const std::string& spec)
{
    auto topology = MakeTopology(spec, kRate, kDelay);
    NetworkBuilder builder;
    builder.SetTableAttribute("BasePriority", UintegerValue(kBasePriority));
    PfcNetwork net = builder.Build(*topology);
    const uint32_t hosts = topology->Graph().HostCount();

    // One message per ordered pair, far apart in time so that they never meet.
    const double gapS = 20e-6;
    std::vector<Arrival> arrivals(hosts * hosts);
    std::vector<double> sentAt(hosts * hosts, 0);
    for (uint32_t r = 0; r < hosts; ++r)
    {
        net.SetHostReceive(r,
                           MakeBoundCallback(
                               +[](std::vector<Arrival>* arr,
                                   uint32_t hostCount,
                                   uint32_t receiver,
                                   Ptr<PfcNetDevice>,
                                   Ptr<Packet> frame,
                                   uint8_t) {
                                   RoceFrameInfo info;
                                   ASSERT_TRUE(ReadRoceFrame(frame, info));
                                   Arrival& a = (*arr)[info.srcHost * hostCount + info.dstHost];
                                   a.arrived = true;
                                   a.atS = Simulator::Now().GetSeconds();
                                   a.receiver = receiver;
                                   a.srcHost = info.srcHost;
                               },
                               &arrivals,
                               hosts,
                               r));
    }
    uint32_t k = 0;
    for (uint32_t s = 0; s < hosts; ++s)
    {
        for (uint32_t d = 0; d < hosts; ++d)
        {
            if (s == d)
            {
                continue;
            }
            RoceFrameInfo info;
            info.srcHost = s;
            info.dstHost = d;
            info.udpSrcPort = static_cast<uint16_t>(49152 + k);
            info.payloadBytes = kPayload;
            const ForwardingRoute* route = net.tables[net.hostNode[s]]->Lookup(
                d, 0, s, info.udpSrcPort);
            ASSERT_NE(route, nullptr) << spec << " no route " << s << "->" << d;
            info.priority = kBasePriority + route->lane;
            Ptr<PfcNetDevice> dev = net.HostPorts(s)[route->port];
            sentAt[s * hosts + d] = k * gapS;
            Simulator::Schedule(Seconds(k * gapS),
                                &PfcNetDevice::Enqueue,
                                dev,
                                BuildRoceFrame(info),
                                info.priority);
            ++k;
        }
    }
    Simulator::Run();

    // Per hop: store-and-forward serialization of the wire bytes (frame + 20 B framing) at
    // 40 Gb/s plus 1 us propagation. 1000 B payload, tagged: 1066 B frame + 20 B = 1086 B
    // -> 217.2 ns; one hop = 1.2172 us. ns-3 rounds each transmit time to 1 ns.
    const double hopS = RoceWireBytes(kPayload, true, false) * 8.0 / kRate + kDelay;
    EXPECT_NEAR(hopS, 1.2172e-6, 1e-12);
    uint32_t checked = 0;
    for (uint32_t s = 0; s < hosts; ++s)
    {
        for (uint32_t d = 0; d < hosts; ++d)
        {
            if (s == d)
            {
                continue;
            }
            const Arrival& a = arrivals[s * hosts + d];
            ASSERT_TRUE(a.arrived) << spec << ": " << s << "->" << d << " never arrived";
            EXPECT_EQ(a.receiver, d) << spec;
            const size_t hops = topology->Path(s, d, 0).size();
            EXPECT_NEAR(a.atS - sentAt[s * hosts + d], hops * hopS, hops * 1e-9)
                << spec << ": " << s << "->" << d << " over " << hops << " hops";
            ++checked;
        }
    }
    EXPECT_EQ(checked, hosts * (hosts - 1));
    uint64_t drops = 0;
    for (const auto& sw : net.switches)
    {
        drops += sw ? sw->GetTotalDrops() : 0;
    }
    EXPECT_EQ(drops, 0u);
    Simulator::Destroy();
}

} // namespace

TEST(NetworkBuilderE2e, EveryPairOfBcube31)
{
    CheckEveryPair("bcube:n=3,k=1");
}

TEST(NetworkBuilderE2e, EveryPairOfTorus3x3)
{
    CheckEveryPair("torus:dims=3x3");
}

TEST(NetworkBuilderE2e, EveryPairOfFatTreeK4)
{
    CheckEveryPair("fattree:k=4");
}

TEST(NetworkBuilderE2e, EveryPairOfBigraphS2M2)
{
    CheckEveryPair("bigraph:s=2,m=2");
}

TEST(NetworkBuilder, RelayHostsGetASwitchAndSinglePortHostsDoNot)
{
    // BCube(3,1): 9 servers with 2 ports (relays) + 6 switches -> 15 PfcSwitch objects.
    auto bcube = MakeTopology("bcube:n=3,k=1", kRate, kDelay);
    PfcNetwork a = NetworkBuilder().Build(*bcube);
    uint32_t switches = 0;
    for (const auto& sw : a.switches)
    {
        switches += sw ? 1 : 0;
    }
    EXPECT_EQ(switches, 15u);
    EXPECT_EQ(a.channels.size(), 18u); // 9 servers x 2 ports
    // star:n=4: one switch, 4 single-port hosts without relay.
    auto star = MakeTopology("star:n=4", kRate, kDelay);
    PfcNetwork b = NetworkBuilder().Build(*star);
    EXPECT_FALSE(b.HostSwitch(0));
    EXPECT_EQ(b.HostPorts(2).size(), 1u);
    Simulator::Destroy();
}

namespace
{

/// Core switches of fat-tree k=4 that carried frames of 64 flows from host 0 to host 15.
uint32_t
CoresUsed(bool saltPerNode)
{
    auto fattree = MakeTopology("fattree:k=4", kRate, kDelay);
    NetworkBuilder builder;
    builder.SetHashSalt(1, saltPerNode);
    PfcNetwork net = builder.Build(*fattree);
    const TopologyGraph& g = fattree->Graph();
    std::vector<uint64_t> frames(g.NodeCount(), 0);
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        for (const auto& dev : net.ports[v])
        {
            dev->TraceConnectWithoutContext(
                "Dequeue",
                MakeBoundCallback(
                    +[](uint64_t* n, Ptr<const Packet>, uint8_t) { ++*n; }, &frames[v]));
        }
    }
    net.SetHostReceive(15, MakeCallback(+[](Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t) {}));
    for (uint32_t i = 0; i < 64; ++i)
    {
        RoceFrameInfo info;
        info.srcHost = 0;
        info.dstHost = 15;
        info.udpSrcPort = static_cast<uint16_t>(49152 + 37 * i);
        info.payloadBytes = 100;
        net.HostPorts(0)[0]->Enqueue(BuildRoceFrame(info), 0);
    }
    Simulator::Run();
    Simulator::Destroy();
    // Core switches are the switches whose every neighbour is a switch (no host below).
    uint32_t used = 0;
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        if (g.Node(v).isHost)
        {
            continue;
        }
        bool core = true;
        for (const auto& p : g.Ports(v))
        {
            core = core && !g.Node(p.peer).isHost;
            for (const auto& q : g.Ports(p.peer))
            {
                core = core && !g.Node(q.peer).isHost;
            }
        }
        used += (core && frames[v] > 0) ? 1 : 0;
    }
    return used;
}

} // namespace

TEST(NetworkBuilder, PerNodeEcmpSaltSpreadsInterPodFlowsOverAllFourCores)
{
    // Fat-tree k=4 has (k/2)^2 = 4 core switches, each on one of the 4 equal-cost paths
    // between two pods; 64 flows with distinct UDP source ports must use all of them.
    EXPECT_EQ(CoresUsed(true), 4u);
}

TEST(NetworkBuilder, HpccMmuFollowsHpccsSimulatorOnItsFatTree)
{
    // HPCC's fat.txt: 320 hosts at 100 Gb/s (the NIC rate), 160 fabric links at 400 Gb/s,
    // every link 1 us. SetHpccMmu: headroom 3 x rate x delay / 8 per port, free-buffer shift
    // 3 (alpha 1/8) at 100 Gb/s and one less per doubling, i.e. shift 1 (alpha 1/2) at
    // 400 Gb/s = 2 doublings; 4096 B reserve, resume 3072 B below XOFF; pauses obeyed at once.
    auto fat = MakeTopology("file:" PARAMSYNC_SOURCE_DIR "/topologies/hpcc/fat.txt", kRate, kDelay);
    NetworkBuilder hpcc;
    hpcc.SetHpccMmu();
    PfcNetwork net = hpcc.Build(*fat);
    uint32_t slow = 0;
    uint32_t fast = 0;
    for (uint32_t v = 0; v < net.switches.size(); ++v)
    {
        if (!net.switches[v])
        {
            continue;
        }
        const SharedBufferMmu& mmu = net.switches[v]->GetMmu();
        EXPECT_EQ(mmu.GetConfig().queueReserveBytes, 4096u);
        EXPECT_EQ(mmu.GetConfig().hysteresisBytes, 3072u);
        for (uint32_t p = 0; p < net.ports[v].size(); ++p)
        {
            EXPECT_EQ(net.ports[v][p]->GetPfcReactionDelay(), Time(0));
            if (net.ports[v][p]->GetDataRate().GetBitRate() == 100000000000ULL)
            {
                ++slow;
                EXPECT_EQ(mmu.Alpha(p), 1.0 / 8);
                EXPECT_EQ(mmu.HeadroomBytes(p), 37500u); // 3 x 100 Gb/s x 1 us / 8
            }
            else
            {
                ++fast;
                EXPECT_EQ(mmu.Alpha(p), 1.0 / 2);
                EXPECT_EQ(mmu.HeadroomBytes(p), 150000u); // 3 x 400 Gb/s x 1 us / 8
            }
        }
    }
    EXPECT_EQ(slow, 320u);     // one switch end per host link
    EXPECT_EQ(fast, 2 * 160u); // both ends of every fabric link
    // Without the preset every port keeps Alpha 1/8 and the headroom formula.
    PfcNetwork plain = NetworkBuilder().Build(*fat);
    for (uint32_t v = 0; v < plain.switches.size(); ++v)
    {
        if (plain.switches[v])
        {
            for (uint32_t p = 0; p < plain.ports[v].size(); ++p)
            {
                EXPECT_EQ(plain.switches[v]->GetMmu().Alpha(p), 1.0 / 8);
            }
        }
    }
    Simulator::Destroy();
}
