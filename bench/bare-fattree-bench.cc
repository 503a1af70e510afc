/*
 * Bare fat-tree permutation (bench/README.md, Scaling): what a packet-hop costs this machine
 * at each network size when a simulator keeps almost nothing per port, so that the scaling
 * section can tell the machine's growth (caches, memory latency) from ours.
 *
 * The same network and traffic as the scaling cases of paramsync (bench/scaling_bench.py):
 * fattree:k=K (k^3/4 hosts, links at the driver's default rate and delay, DriverOptions'), one
 * permutation flow list, 1000 B payloads sent as paramsync's RoCEv2 frame on the wire
 * (RoceWireBytes: headers, FCS, preamble and gap), ECMP by a hash of (source, destination)
 * at the edge and aggregation layers, the event queue paramsync's packet backend uses
 * (RadixHeapScheduler). Per hop two ns-3 events as in the stock event path: the end of the
 * serialization and the arrival after the propagation delay. Per port only a FIFO of
 * 8-byte packet records and a busy flag (~40 B, against ~1.7 KB of device, MMU and egress
 * state per port in paramsync); no headers, no PFC, no buffer accounting, no ECN.
 * Congestion control is a window: a flow keeps at most one bandwidth-delay product of
 * packets in flight (its longest path's round trip at line rate), a credit returning
 * when a packet is delivered.
 *
 * Usage: bare-fattree-bench K FLOWS.txt [PAYLOAD]  (HPCC flow list: src dst ... bytes start,
 * host ranks 0..k^3/4-1); prints one JSON line with pkt_hops, events, sim_s, wall_s,
 * user_cpu_s and peak_rss_kb. Bad arguments: one line on stderr, exit 2.
 */
#include "ns3/core-module.h"
#include "ns3/driver-options.h"
#include "ns3/flow-list.h"
#include "ns3/ring-fifo.h"
#include "ns3/roce-frame.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// One packet in flight: its flow and payload bytes.
struct BarePacket
{
    uint32_t flow;
    uint32_t bytes;
};

/// A port: where it leads and what waits to be sent.
struct BarePort
{
    uint32_t peer{0};
    bool busy{false};
    RingFifo<BarePacket> fifo;
};

/// One flow of the list: what its source has still to send and how much is on the way.
struct BareFlow
{
    uint32_t src;
    uint32_t dst;
    uint64_t toSend;   //!< bytes not yet handed to the source's port
    uint64_t inFlight; //!< packets sent and not delivered
};

/**
 * A k-ary fat-tree: hosts 0..H-1, then the edge switches (pod-major), the aggregation
 * switches (pod-major), the core switches. Edge and aggregation switches have their k/2
 * down ports first, then k/2 up ports; a core switch's port p leads to pod p.
 */
class BareFatTree
{
  public:
    explicit BareFatTree(uint32_t k)
        : m_k(k),
          m_half(k / 2),
          m_hosts(k * k * k / 4),
          m_edge0(m_hosts),
          m_agg0(m_edge0 + k * m_half),
          m_core0(m_agg0 + k * m_half),
          m_ports(m_core0 + m_half * m_half)
    {
        for (uint32_t h = 0; h < m_hosts; ++h)
        {
            const uint32_t edge = m_edge0 + h / m_half;
            Link(h, edge, h % m_half);
        }
        for (uint32_t pod = 0; pod < k; ++pod)
        {
            for (uint32_t e = 0; e < m_half; ++e)
            {
                for (uint32_t a = 0; a < m_half; ++a)
                {
                    // edge e's up port a <-> aggregation a's down port e
                    Cable(m_edge0 + pod * m_half + e, m_half + a, m_agg0 + pod * m_half + a, e);
                }
            }
            for (uint32_t a = 0; a < m_half; ++a)
            {
                for (uint32_t j = 0; j < m_half; ++j)
                {
                    // aggregation a's up port j <-> core a * k/2 + j's port pod
                    Cable(m_agg0 + pod * m_half + a, m_half + j, m_core0 + a * m_half + j, pod);
                }
            }
        }
    }

    uint32_t
    Hosts() const
    {
        return m_hosts;
    }

    BarePort&
    Port(uint32_t node, uint32_t port)
    {
        return m_ports[node][port];
    }

    /// The port a packet for host dst leaves node by (hash: the flow's ECMP choice).
    uint32_t
    Next(uint32_t node, uint32_t dst, uint32_t hash) const
    {
        if (node < m_hosts)
        {
            return 0;
        }
        const uint32_t dstPod = dst / (m_half * m_half);
        if (node < m_agg0)
        {
            const uint32_t edge = node - m_edge0;
            return dst / m_half == edge ? dst % m_half : m_half + hash % m_half;
        }
        if (node < m_core0)
        {
            const uint32_t pod = (node - m_agg0) / m_half;
            return pod == dstPod ? (dst / m_half) % m_half : m_half + (hash / m_half) % m_half;
        }
        return dstPod;
    }

  private:
    /// Host h's only port <-> edge port p.
    void
    Link(uint32_t host, uint32_t edge, uint32_t p)
    {
        m_ports[host].resize(1);
        m_ports[host][0].peer = edge;
        Grow(edge, p);
        m_ports[edge][p].peer = host;
    }

    /// Port pa of a <-> port pb of b.
    void
    Cable(uint32_t a, uint32_t pa, uint32_t b, uint32_t pb)
    {
        Grow(a, pa);
        Grow(b, pb);
        m_ports[a][pa].peer = b;
        m_ports[b][pb].peer = a;
    }

    void
    Grow(uint32_t node, uint32_t port)
    {
        if (m_ports[node].size() <= port)
        {
            m_ports[node].resize(m_k); // a switch has k ports
        }
    }

    uint32_t m_k;
    uint32_t m_half;
    uint32_t m_hosts;
    uint32_t m_edge0;
    uint32_t m_agg0;
    uint32_t m_core0;
    std::vector<std::vector<BarePort>> m_ports;
};

// The run's state, as bare-path-bench keeps it: free functions scheduled with their
// arguments (ns-3's stock event path), no objects.
BareFatTree* g_tree = nullptr;
std::vector<BareFlow> g_flows;
uint32_t g_payload = 1000;
uint64_t g_window = 1;
Time g_delay;   // the driver's default link delay (main)
double g_bps{}; // the driver's default link rate (main)
uint64_t g_hops = 0;

uint32_t
FlowHash(const BareFlow& f)
{
    // A multiplicative hash of the pair, so that ECMP spreads the permutation.
    uint64_t x = (uint64_t{f.src} << 32 | f.dst) * 0x9E3779B97F4A7C15ull;
    return static_cast<uint32_t>(x >> 32);
}

void StartTx(uint32_t node, uint32_t port);
void SourceKick(uint32_t flow);

void
Arrive(uint32_t node, BarePacket p)
{
    const BareFlow& f = g_flows[p.flow];
    if (node == f.dst)
    {
        --g_flows[p.flow].inFlight;
        SourceKick(p.flow); // the credit returns at delivery
        return;
    }
    const uint32_t port = g_tree->Next(node, f.dst, FlowHash(f));
    BarePort& pt = g_tree->Port(node, port);
    pt.fifo.push_back(BarePacket(p));
    if (!pt.busy)
    {
        StartTx(node, port);
    }
}

void
TxDone(uint32_t node, uint32_t port)
{
    BarePort& pt = g_tree->Port(node, port);
    const BarePacket p = pt.fifo.front();
    pt.fifo.pop_front();
    ++g_hops;
    Simulator::Schedule(g_delay, &Arrive, pt.peer, p);
    pt.busy = false;
    if (!pt.fifo.empty())
    {
        StartTx(node, port);
    }
}

void
StartTx(uint32_t node, uint32_t port)
{
    BarePort& pt = g_tree->Port(node, port);
    pt.busy = true;
    const uint32_t wire = RoceWireBytes(pt.fifo.front().bytes, true, false);
    Simulator::Schedule(NanoSeconds(std::llround(wire * 8e9 / g_bps)), &TxDone, node, port);
}

void
SourceKick(uint32_t flow)
{
    BareFlow& f = g_flows[flow];
    while (f.toSend > 0 && f.inFlight < g_window)
    {
        const auto bytes = static_cast<uint32_t>(std::min<uint64_t>(f.toSend, g_payload));
        f.toSend -= bytes;
        ++f.inFlight;
        Arrive(f.src, BarePacket{flow, bytes});
    }
}

[[noreturn]] void
Refuse(const std::string& what)
{
    std::cerr << "bare-fattree-bench: " << what << std::endl;
    std::exit(2);
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc < 3)
    {
        Refuse("usage: bare-fattree-bench K FLOWS.txt [PAYLOAD]");
    }
    const long k = std::strtol(argv[1], nullptr, 10);
    if (k < 2 || k % 2 != 0 || k > 64)
    {
        Refuse(std::string("K ") + argv[1] + " is not allowed; allowed: an even integer 2..64");
    }
    if (argc > 3)
    {
        const long payload = std::strtol(argv[3], nullptr, 10);
        if (payload < 1 || payload > 9000)
        {
            Refuse(std::string("PAYLOAD ") + argv[3] + " is not allowed; allowed: 1..9000 bytes");
        }
        g_payload = static_cast<uint32_t>(payload);
    }
    // The links paramsync's scaling cases get: the driver's defaults, read from the driver's
    // own options (a copy of the numbers here would drift when a default changes).
    DriverOptions defaults;
    try
    {
        defaults.Validate();
    }
    catch (const std::exception& e)
    {
        Refuse(std::string("the driver's default options do not validate: ") + e.what());
    }
    g_bps = defaults.rateBps;
    g_delay = Seconds(defaults.delayS);
    BareFatTree tree(static_cast<uint32_t>(k));
    g_tree = &tree;
    // One bandwidth-delay product of packets: the longest path (6 links: host, edge, agg,
    // core, agg, edge, host) there and back, each link a frame time plus the delay.
    const double frameS = RoceWireBytes(g_payload, true, false) * 8.0 / g_bps;
    const double rttS = 2 * 6 * (frameS + g_delay.GetSeconds());
    g_window = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(rttS / frameS)));

    std::vector<FlowSpec> flows;
    try
    {
        flows = FlowList::Load(argv[2]);
    }
    catch (const std::exception& e)
    {
        Refuse(e.what());
    }
    for (const FlowSpec& f : flows)
    {
        if (f.src >= tree.Hosts() || f.dst >= tree.Hosts() || f.src == f.dst)
        {
            Refuse("flow " + std::to_string(f.src) + " -> " + std::to_string(f.dst) +
                   " is not allowed; allowed: two different hosts 0.." +
                   std::to_string(tree.Hosts() - 1));
        }
        g_flows.push_back({f.src, f.dst, f.bytes, 0});
    }
    ObjectFactory scheduler;
    scheduler.SetTypeId("ns3::RadixHeapScheduler");
    Simulator::SetScheduler(scheduler);
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        Simulator::Schedule(Seconds(flows[i].startS), &SourceKick, i);
    }
    const auto w0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    const double sim = Simulator::Now().GetSeconds();
    const uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    for (const BareFlow& f : g_flows)
    {
        if (f.toSend != 0 || f.inFlight != 0)
        {
            std::cerr << "bare-fattree-bench: a flow did not finish" << std::endl;
            return 1;
        }
    }
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const double user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
    std::cout << "{\"program\":\"bare-fattree\",\"k\":" << k << ",\"pkt_hops\":" << g_hops
              << ",\"events\":" << events << ",\"sim_s\":" << sim << ",\"wall_s\":" << wall
              << ",\"user_cpu_s\":" << user << ",\"window\":" << g_window
              << ",\"peak_rss_kb\":" << ru.ru_maxrss << "}" << std::endl;
    return 0;
}
