#include "ps-network-view.h"

#include "ns3/abort.h"
#include "ns3/topology.h"

#include <algorithm>
#include <limits>

namespace ns3
{

const std::vector<uint32_t>&
PsPaths::Path(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(src >= hosts || dst >= hosts, "PsPaths: no host " << src << " or " << dst);
    return route[src * hosts + dst];
}

PsPaths
PsPaths::FromTopology(const Topology& topology)
{
    const TopologyGraph& g = topology.Graph();
    PsPaths p;
    p.hosts = g.HostCount();
    for (uint32_t l = 0; l < g.LinkCount(); ++l)
    {
        for (int dir = 0; dir < 2; ++dir)
        {
            p.channelRateBps.push_back(g.Link(l).rateBps);
            p.channelDelayS.push_back(g.Link(l).delayS);
        }
    }
    p.route.assign(static_cast<size_t>(p.hosts) * p.hosts, {});
    std::vector<RouteHop> hops;
    for (uint32_t src = 0; src < p.hosts; ++src)
    {
        for (uint32_t dst = 0; dst < p.hosts; ++dst)
        {
            if (src == dst)
            {
                continue;
            }
            std::vector<uint32_t>& path = p.route[src * p.hosts + dst];
            NodeIndex at = g.HostNode(src);
            uint8_t lane = 0;
            while (at != g.HostNode(dst))
            {
                topology.NextHops(at, dst, lane, hops);
                NS_ABORT_MSG_IF(hops.empty() || path.size() > g.NodeCount(),
                                "PsPaths: no route from host " << src << " to " << dst);
                const LinkIndex l = g.LinkAt(at, hops.front().port);
                path.push_back(2 * l + (g.Link(l).a == at ? 0 : 1));
                lane = hops.front().lane;
                at = g.Ports(at)[hops.front().port].peer;
            }
        }
    }
    return p;
}

PsNetworkView::PsNetworkView(PsPaths paths)
    : m_paths(std::move(paths)),
      m_backlog(m_paths.channelRateBps.size(), 0)
{
}

void
PsNetworkView::Posted(uint32_t src, uint32_t dst, uint64_t bytes)
{
    if (!Known())
    {
        return;
    }
    for (uint32_t c : m_paths.Path(src, dst))
    {
        m_backlog[c] += bytes;
    }
}

void
PsNetworkView::Delivered(uint32_t src, uint32_t dst, uint64_t bytes)
{
    if (!Known())
    {
        return;
    }
    for (uint32_t c : m_paths.Path(src, dst))
    {
        NS_ABORT_MSG_IF(m_backlog[c] < bytes,
                        "PsNetworkView: channel " << c << " delivered more than posted");
        m_backlog[c] -= bytes;
    }
}

double
PsNetworkView::CompletionS(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    if (!Known())
    {
        return 0;
    }
    double drain = 0;
    double slowest = std::numeric_limits<double>::infinity();
    double propagation = 0;
    for (uint32_t c : m_paths.Path(src, dst))
    {
        const double rate = m_paths.channelRateBps[c];
        drain = std::max(drain, static_cast<double>(m_backlog[c]) * 8.0 / rate);
        slowest = std::min(slowest, rate);
        propagation += m_paths.channelDelayS[c];
    }
    return drain + static_cast<double>(bytes) * 8.0 / slowest + propagation;
}

} // namespace ns3
