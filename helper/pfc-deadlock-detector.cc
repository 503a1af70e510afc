#include "pfc-deadlock-detector.h"

#include "ns3/directed-cycle.h"
#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

PfcDeadlockDetector::PfcDeadlockDetector(const PfcNetwork& net,
                                         Time interval,
                                         std::function<bool()> keepLooking)
    : m_net(net),
      m_interval(interval),
      m_keepLooking(std::move(keepLooking))
{
    if (!interval.IsStrictlyPositive())
    {
        throw std::invalid_argument("PfcDeadlockDetector: the interval must be > 0");
    }
    m_peer = net.PeerNodes();
    m_last.resize(net.ports.size());
    for (uint32_t v = 0; v < net.ports.size(); ++v)
    {
        m_last[v].resize(net.ports[v].size());
    }
}

void
PfcDeadlockDetector::Start()
{
    m_next = Simulator::Schedule(m_interval, &PfcDeadlockDetector::Tick, this);
}

void
PfcDeadlockDetector::Tick()
{
    std::string cycle = Look();
    if (!cycle.empty())
    {
        m_cycle = cycle;
        m_foundAt = Simulator::Now();
        Simulator::Stop();
        return;
    }
    if (m_keepLooking())
    {
        m_next = Simulator::Schedule(m_interval, &PfcDeadlockDetector::Tick, this);
    }
}

std::string
PfcDeadlockDetector::Look()
{
    // One pass over the ports; the per-node graph is built only when some port is stuck
    // (this runs every look of every run, nearly always on a network without a deadlock).
    struct Stuck
    {
        uint8_t q;
        uint32_t node;
        uint32_t port;
    };
    std::vector<Stuck> stuckPorts;
    for (uint32_t v = 0; v < m_net.ports.size(); ++v)
    {
        for (uint32_t p = 0; p < m_net.ports[v].size(); ++p)
        {
            const Ptr<PfcNetDevice>& dev = m_net.ports[v][p];
            PortSnapshot& last = m_last[v][p];
            uint8_t paused = 0;
            for (uint8_t q = 0; q < 8; ++q)
            {
                paused |= dev->IsPaused(q) ? static_cast<uint8_t>(1u << q) : 0;
            }
            for (uint8_t q = 0; q < 8; ++q)
            {
                const uint8_t bit = static_cast<uint8_t>(1u << q);
                if (!(paused & bit))
                {
                    continue;
                }
                const uint64_t sent = dev->GetTxFrames(q);
                if ((last.pausedMask & bit) && sent == last.txFrames[q])
                {
                    stuckPorts.push_back({q, v, p});
                }
                last.txFrames[q] = sent;
            }
            last.pausedMask = paused;
        }
    }
    if (stuckPorts.empty())
    {
        return "";
    }
    std::array<std::vector<std::vector<std::pair<uint32_t, uint32_t>>>, 8> stuck;
    for (const Stuck& x : stuckPorts)
    {
        auto& byNode = stuck[x.q];
        byNode.resize(m_net.ports.size());
        byNode[x.node].emplace_back(x.port, m_peer[x.node][x.port]);
    }
    for (uint8_t q = 0; q < 8; ++q)
    {
        if (stuck[q].empty())
        {
            continue;
        }
        std::string cycle = FindCycle(q, stuck[q]);
        if (!cycle.empty())
        {
            return cycle;
        }
    }
    return "";
}

std::string
PfcDeadlockDetector::FindCycle(
    uint8_t q, const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& out) const
{
    // The graph's vertices are stuck ports (v, p). A stuck port's frames wait in its peer
    // w's ingress, which drains only into w's other ports: (v, p) -> (w, p2) for each stuck
    // port p2 of w that does not lead back to v (minimal routes never turn back on a link;
    // two neighbours pausing each other's opposite directions are no cycle).
    // A cycle of that graph, by the one cycle finder (topologies/directed-cycle.h).
    struct Vertex
    {
        uint32_t node;
        uint32_t port;
    };
    std::vector<Vertex> vertices;
    std::vector<std::vector<uint32_t>> idOf(out.size()); // [node][k] -> vertex id
    for (uint32_t v = 0; v < out.size(); ++v)
    {
        for (const auto& [port, peer] : out[v])
        {
            idOf[v].push_back(static_cast<uint32_t>(vertices.size()));
            vertices.push_back({v, port});
        }
    }
    std::vector<std::vector<uint32_t>> successors(vertices.size());
    for (uint32_t id = 0; id < vertices.size(); ++id)
    {
        const Vertex& x = vertices[id];
        const uint32_t w = m_peer[x.node][x.port];
        for (size_t k = 0; k < out[w].size(); ++k)
        {
            if (out[w][k].second != x.node)
            {
                successors[id].push_back(idOf[w][k]);
            }
        }
    }
    const std::vector<uint32_t> cycle = FindDirectedCycle(successors);
    if (cycle.empty())
    {
        return "";
    }
    std::string text = "priority " + std::to_string(q) + ": ";
    for (uint32_t id : cycle)
    {
        text += m_net.names[vertices[id].node] + "/" + std::to_string(vertices[id].port) + " -> ";
    }
    const Vertex& first = vertices[cycle.front()];
    return text + m_net.names[first.node] + "/" + std::to_string(first.port);
}

} // namespace ns3
