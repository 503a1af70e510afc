/*
 * Stock ns-3 reference (bench/README.md): the same byte schedule on the same HPCC topology with
 * PointToPoint + InternetStack (global routing) + UDP OnOff senders at line rate in
 * 1000 B datagrams (no reliability). Packet-hops = PhyTxEnd on every device.
 * Usage: stock-ns3-bench TOPO.txt FLOWS.txt [SCALE [PAYLOAD]] (PAYLOAD: UDP payload bytes
 * per datagram, 1000 as in HPCC's runs; device MTUs grow to carry it unfragmented); prints
 * one JSON line.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/file-topology.h"
#include "ns3/flow-list.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <stdexcept>
#include <sys/resource.h>

using namespace ns3;

namespace
{
uint64_t g_hops = 0;
// When the network was last busy: the run's simulated time (ns-3 keeps running past it to
// the global routing's and the OnOff applications' idle events, so Now() at the end is not).
Time g_lastTxEnd;

void
OnPhyTxEnd(Ptr<const Packet>)
{
    ++g_hops;
    g_lastTxEnd = Simulator::Now();
}
} // namespace

int
main(int argc, char** argv)
{
    if (argc < 3)
    {
        std::cerr << "usage: stock-ns3-bench TOPO FLOWS [SCALE [PAYLOAD]]\n";
        return 2;
    }
    double scale = argc > 3 ? std::stod(argv[3]) : 1.0;
    const uint32_t payload = argc > 4 ? static_cast<uint32_t>(std::stoul(argv[4])) : 1000;
    // IPv4 (20 B) + UDP (8 B) around the payload must fit one PointToPoint frame.
    const uint32_t mtu = std::max<uint32_t>(1500, payload + 28);
    // The topology and flows as paramsync reads them (topologies/file-topology.h,
    // helper/flow-list.h): node index = the file's node id.
    const FileTopology topology(argv[1], "hpcc");
    const TopologyGraph& g = topology.Graph();
    const uint32_t n = g.NodeCount();
    NodeContainer nodes;
    nodes.Create(n);
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> hostAddr(n);
    std::vector<DataRate> hostRate(n);
    for (LinkIndex i = 0; i < g.LinkCount(); ++i)
    {
        const TopologyLink& link = g.Link(i);
        const DataRate rate(static_cast<uint64_t>(std::llround(link.rateBps)));
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(std::llround(link.delayS * 1e9))));
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        NetDeviceContainer d = p2p.Install(nodes.Get(link.a), nodes.Get(link.b));
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        addr.NewNetwork();
        const uint32_t ends[2] = {link.a, link.b};
        for (uint32_t e = 0; e < 2; ++e)
        {
            if (hostAddr[ends[e]] == Ipv4Address())
            {
                hostAddr[ends[e]] = ifs.GetAddress(e);
                hostRate[ends[e]] = rate;
            }
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyTxEnd",
                                  MakeCallback(&OnPhyTxEnd));
    const std::vector<FlowSpec> flows = FlowList::Load(argv[2]);
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& flow = flows[i];
        const uint64_t b = std::llround(flow.bytes * scale);
        const uint16_t dport = 10000 + i;
        PacketSinkHelper sink("ns3::UdpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), dport));
        sink.Install(nodes.Get(flow.dst)).Start(Seconds(0));
        OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(hostAddr[flow.dst], dport));
        onoff.SetConstantRate(hostRate[flow.src], payload);
        onoff.SetAttribute("MaxBytes", UintegerValue(b));
        ApplicationContainer app = onoff.Install(nodes.Get(flow.src));
        app.Start(Seconds(flow.startS));
    }
    auto w0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    double sim = g_lastTxEnd.GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::cout << "{\"program\":\"stock\",\"pkt_hops\":" << g_hops << ",\"events\":" << events
              << ",\"sim_s\":" << sim << ",\"wall_s\":" << wall
              << ",\"peak_rss_kb\":" << ru.ru_maxrss << "}" << std::endl;
    return 0;
}
