#include "rank-partition.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace ns3
{

RankPartition::RankPartition(const TopologyGraph& graph, uint32_t ranks)
    : m_ranks(ranks),
      m_rank(graph.NodeCount(), kNoIndex)
{
    const uint32_t hosts = graph.HostCount();
    if (ranks == 0 || ranks > hosts)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) + " for " +
                                    std::to_string(hosts) + " hosts: allowed 1.." +
                                    std::to_string(hosts));
    }
    for (HostRank h = 0; h < hosts; ++h)
    {
        m_rank[graph.HostNode(h)] = static_cast<uint32_t>(static_cast<uint64_t>(h) * ranks / hosts);
    }
    PlaceSwitches(graph);
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        const TopologyLink& link = graph.Link(l);
        m_cut += m_rank[link.a] != m_rank[link.b] ? 1 : 0;
    }
}

void
RankPartition::PlaceSwitches(const TopologyGraph& graph)
{
    // Breadth-first from every host at once: a switch is placed after every switch nearer
    // to the hosts (the same order on every rank: it depends on the graph alone).
    std::vector<uint32_t> distance(graph.NodeCount(), kNoIndex);
    std::deque<NodeIndex> frontier;
    for (HostRank h = 0; h < graph.HostCount(); ++h)
    {
        distance[graph.HostNode(h)] = 0;
        frontier.push_back(graph.HostNode(h));
    }
    std::vector<NodeIndex> order;
    while (!frontier.empty())
    {
        const NodeIndex v = frontier.front();
        frontier.pop_front();
        for (const PortPeer& p : graph.Ports(v))
        {
            if (distance[p.peer] == kNoIndex)
            {
                distance[p.peer] = distance[v] + 1;
                order.push_back(p.peer);
                frontier.push_back(p.peer);
            }
        }
    }
    // Switches no host reaches (a disconnected file topology) go last.
    for (NodeIndex v = 0; v < graph.NodeCount(); ++v)
    {
        if (distance[v] == kNoIndex)
        {
            order.push_back(v);
        }
    }
    std::vector<uint32_t> placed(m_ranks, 0);
    for (NodeIndex v = 0; v < graph.NodeCount(); ++v)
    {
        if (m_rank[v] != kNoIndex)
        {
            ++placed[m_rank[v]];
        }
    }
    std::vector<uint32_t> links(m_ranks);
    for (const NodeIndex v : order)
    {
        std::fill(links.begin(), links.end(), 0);
        for (const PortPeer& p : graph.Ports(v))
        {
            if (m_rank[p.peer] != kNoIndex)
            {
                ++links[m_rank[p.peer]];
            }
        }
        uint32_t best = 0;
        for (uint32_t r = 1; r < m_ranks; ++r)
        {
            if (links[r] > links[best] || (links[r] == links[best] && placed[r] < placed[best]))
            {
                best = r;
            }
        }
        m_rank[v] = best;
        ++placed[best];
    }
}

uint32_t
RankPartition::NodesOn(uint32_t rank) const
{
    return static_cast<uint32_t>(std::count(m_rank.begin(), m_rank.end(), rank));
}

} // namespace ns3
