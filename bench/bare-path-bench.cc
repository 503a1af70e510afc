/*
 * Bare event path (bench/README.md): each hop is a Packet, a per-port FIFO and two scheduled
 * events (transmit complete, arrival after delay), forwarding by a precomputed BFS
 * next-hop table, no headers. The floor of what ns-3's event core can do.
 * Usage: bare-path-bench TOPO.txt FLOWS.txt [SCALE [PAYLOAD]]  (HPCC formats; PAYLOAD bytes
 * per packet, 1000 as in HPCC's runs); prints one JSON line.
 */
#include "ns3/core-module.h"
#include "ns3/file-topology.h"
#include "ns3/flow-list.h"
#include "ns3/packet.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <iostream>
#include <queue>
#include <stdexcept>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{
uint32_t g_payload = 1000; //!< bytes per packet

struct Port
{
    uint32_t peer;
    double bps;
    Time delay;
    std::deque<std::pair<Ptr<Packet>, uint32_t>> fifo; //!< packet, destination
    bool busy = false;
};

std::vector<std::vector<Port>> g_ports;
std::vector<std::vector<int>> g_next; //!< g_next[node][dst] = port index
uint64_t g_hops = 0;

void StartTx(uint32_t node, uint32_t port);

void
Arrive(uint32_t node, Ptr<Packet> p, uint32_t dst)
{
    if (node == dst)
    {
        return;
    }
    uint32_t port = g_next[node][dst];
    Port& pt = g_ports[node][port];
    pt.fifo.emplace_back(p, dst);
    if (!pt.busy)
    {
        StartTx(node, port);
    }
}

void
TxDone(uint32_t node, uint32_t port)
{
    Port& pt = g_ports[node][port];
    auto [p, dst] = pt.fifo.front();
    pt.fifo.pop_front();
    ++g_hops;
    Simulator::Schedule(pt.delay, &Arrive, pt.peer, p, dst);
    pt.busy = false;
    if (!pt.fifo.empty())
    {
        StartTx(node, port);
    }
}

void
StartTx(uint32_t node, uint32_t port)
{
    Port& pt = g_ports[node][port];
    pt.busy = true;
    Time ser = Seconds(pt.fifo.front().first->GetSize() * 8.0 / pt.bps);
    Simulator::Schedule(ser, &TxDone, node, port);
}

void
Inject(uint32_t src, uint32_t dst, uint64_t bytes)
{
    for (uint64_t left = bytes; left > 0;)
    {
        uint32_t sz = left > g_payload ? g_payload : left;
        left -= sz;
        Arrive(src, Create<Packet>(sz), dst);
    }
}
} // namespace

int
main(int argc, char** argv)
{
    if (argc < 3)
    {
        std::cerr << "usage: bare-path-bench TOPO FLOWS [SCALE [PAYLOAD]]\n";
        return 2;
    }
    double scale = argc > 3 ? std::stod(argv[3]) : 1.0;
    g_payload = argc > 4 ? static_cast<uint32_t>(std::stoul(argv[4])) : 1000;
    // The topology and flows as paramsync reads them (topologies/file-topology.h,
    // helper/flow-list.h): node index = the file's node id, ports in the file's link order.
    const FileTopology topology(argv[1], "hpcc");
    const TopologyGraph& g = topology.Graph();
    const uint32_t n = g.NodeCount();
    g_ports.assign(n, {});
    for (LinkIndex i = 0; i < g.LinkCount(); ++i)
    {
        const TopologyLink& link = g.Link(i);
        const Time d = NanoSeconds(std::llround(link.delayS * 1e9));
        g_ports[link.a].push_back({link.b, link.rateBps, d, {}, false});
        g_ports[link.b].push_back({link.a, link.rateBps, d, {}, false});
    }
    // next-hop table: BFS from every destination (first shortest path; no ECMP)
    g_next.assign(n, std::vector<int>(n, -1));
    for (uint32_t dst = 0; dst < n; ++dst)
    {
        std::vector<int> seen(n, 0);
        std::queue<uint32_t> q;
        q.push(dst);
        seen[dst] = 1;
        while (!q.empty())
        {
            uint32_t u = q.front();
            q.pop();
            for (auto& pt : g_ports[u])
            {
                uint32_t v = pt.peer;
                if (seen[v])
                    continue;
                seen[v] = 1;
                for (uint32_t k = 0; k < g_ports[v].size(); ++k)
                    if (g_ports[v][k].peer == u)
                    {
                        g_next[v][dst] = k;
                        break;
                    }
                q.push(v);
            }
        }
    }
    for (const FlowSpec& flow : FlowList::Load(argv[2]))
    {
        const uint64_t b = std::llround(flow.bytes * scale);
        Simulator::Schedule(Seconds(flow.startS), &Inject, flow.src, flow.dst, b);
    }
    auto w0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    double sim = Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::cout << "{\"program\":\"bare\",\"pkt_hops\":" << g_hops << ",\"events\":" << events
              << ",\"sim_s\":" << sim << ",\"wall_s\":" << wall
              << ",\"peak_rss_kb\":" << ru.ru_maxrss << "}" << std::endl;
    return 0;
}
