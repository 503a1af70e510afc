/*
 * Stock ns-3 reference (issue 6): the same byte schedule on the same HPCC topology with
 * PointToPoint + InternetStack (global routing) + UDP OnOff senders at line rate in
 * 1000 B datagrams (no reliability). Packet-hops = PhyTxEnd on every device.
 * Usage: stock-ns3-bench TOPO.txt FLOWS.txt [SCALE [PAYLOAD]] (PAYLOAD: UDP payload bytes
 * per datagram, 1000 as in HPCC's runs; device MTUs grow to carry it unfragmented); prints
 * one JSON line.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <stdexcept>

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
    std::ifstream t(argv[1]);
    uint32_t n, nsw, nl;
    if (!(t >> n >> nsw >> nl))
        throw std::runtime_error(std::string(argv[1]) + ": expected 'nodes switches links'");
    for (uint32_t i = 0, x; i < nsw; ++i)
        t >> x;
    NodeContainer nodes;
    nodes.Create(n);
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> hostAddr(n);
    std::vector<std::string> hostRate(n);
    for (uint32_t i = 0; i < nl; ++i)
    {
        uint32_t a, b;
        std::string rate, delay;
        double err;
        t >> a >> b >> rate >> delay >> err;
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue(rate));
        p2p.SetChannelAttribute("Delay", StringValue(delay));
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        NetDeviceContainer d = p2p.Install(nodes.Get(a), nodes.Get(b));
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        addr.NewNetwork();
        if (hostAddr[a] == Ipv4Address())
        {
            hostAddr[a] = ifs.GetAddress(0);
            hostRate[a] = rate;
        }
        if (hostAddr[b] == Ipv4Address())
        {
            hostAddr[b] = ifs.GetAddress(1);
            hostRate[b] = rate;
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyTxEnd",
                                  MakeCallback(&OnPhyTxEnd));
    std::ifstream f(argv[2]);
    uint32_t nf;
    f >> nf;
    for (uint32_t i = 0; i < nf; ++i)
    {
        uint32_t s, d, pg, port;
        uint64_t bytes;
        double start;
        f >> s >> d >> pg >> port >> bytes >> start;
        uint64_t b = std::llround(bytes * scale);
        uint16_t dport = 10000 + i;
        PacketSinkHelper sink("ns3::UdpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), dport));
        sink.Install(nodes.Get(d)).Start(Seconds(0));
        OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(hostAddr[d], dport));
        onoff.SetConstantRate(DataRate(hostRate[s]), payload);
        onoff.SetAttribute("MaxBytes", UintegerValue(b));
        ApplicationContainer app = onoff.Install(nodes.Get(s));
        app.Start(Seconds(start));
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
