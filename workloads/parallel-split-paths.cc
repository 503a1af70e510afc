#include "parallel-split-paths.h"

#include "fluid-estimator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

ParallelSplitPaths::ParallelSplitPaths(const Topology& topology,
                                       std::shared_ptr<const ParallelPaths> routes)
    : m_topology(topology),
      m_routes(std::move(routes))
{
}

uint32_t
ParallelSplitPaths::QueuePairs(HostRank /* src */, HostRank /* dst */) const
{
    return m_routes->PathCount();
}

std::vector<FluidLinkUse>
ParallelSplitPaths::Uses(HostRank src, HostRank dst, uint32_t qp) const
{
    const TopologyGraph& g = m_topology.Graph();
    const uint32_t route = m_routes->Route(src, dst, qp);
    const NodeIndex target = g.HostNode(dst);
    NodeIndex node = g.HostNode(src);
    std::vector<FluidLinkUse> uses;
    while (node != target)
    {
        if (uses.size() > g.NodeCount())
        {
            throw std::runtime_error("parallel paths: route " + std::to_string(route) +
                                     " of host " + std::to_string(src) + " -> host " +
                                     std::to_string(dst) + " loops");
        }
        const RouteHop hop = m_routes->Hop(node, dst, route);
        const PortPeer& peer = g.Ports(node).at(hop.port);
        uses.push_back({FluidResult::DirectedIndex(g, peer.link, node), 1.0});
        node = peer.peer;
    }
    std::sort(uses.begin(), uses.end(), [](const FluidLinkUse& a, const FluidLinkUse& b) {
        return a.link < b.link;
    });
    return uses;
}

double
ParallelSplitPaths::WireBytes(uint64_t payload) const
{
    return static_cast<double>(payload);
}

} // namespace ns3
