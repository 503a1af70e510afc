#include "channel-dependency.h"

#include "directed-cycle.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

std::vector<Channel>
FindDependencyCycle(const Topology& topology)
{
    const TopologyGraph& g = topology.Graph();
    const uint32_t lanes = topology.LaneCount();
    const uint32_t nodes = g.NodeCount();
    // Channel id: (2 link + direction) lanes + lane; direction 0 leaves from link.a.
    auto channelId = [&](LinkIndex link, NodeIndex from, uint8_t lane) {
        return (2 * link + (from == g.Link(link).a ? 0 : 1)) * lanes + lane;
    };
    const uint32_t channels = 2 * g.LinkCount() * lanes;
    std::vector<std::vector<uint32_t>> deps(channels);

    std::vector<RouteHop> hops;
    std::vector<bool> seen(size_t{nodes} * lanes);
    std::vector<std::vector<uint32_t>> in(size_t{nodes} * lanes);  // channels into a state
    std::vector<std::vector<uint32_t>> out(size_t{nodes} * lanes); // channels out of it
    std::vector<uint32_t> queue;
    for (HostRank dst = 0; dst < g.HostCount(); ++dst)
    {
        const NodeIndex target = g.HostNode(dst);
        std::fill(seen.begin(), seen.end(), false);
        queue.clear();
        for (HostRank src = 0; src < g.HostCount(); ++src)
        {
            if (src != dst)
            {
                uint32_t state = g.HostNode(src) * lanes;
                if (!seen[state])
                {
                    seen[state] = true;
                    queue.push_back(state);
                }
            }
        }
        for (size_t q = 0; q < queue.size(); ++q)
        {
            const uint32_t state = queue[q];
            const NodeIndex at = state / lanes;
            topology.NextHops(at, dst, static_cast<uint8_t>(state % lanes), hops);
            out[state].clear();
            for (const RouteHop& hop : hops)
            {
                if (hop.lane >= lanes)
                {
                    throw std::runtime_error(topology.Spec() + ": NextHops at " + g.Node(at).name +
                                             " gave lane " + std::to_string(hop.lane) +
                                             " >= LaneCount() " + std::to_string(lanes));
                }
                const PortPeer& peer = g.Ports(at)[hop.port];
                uint32_t channel = channelId(peer.link, at, hop.lane);
                out[state].push_back(channel);
                uint32_t next = peer.peer * lanes + hop.lane;
                in[next].push_back(channel);
                if (!seen[next] && peer.peer != target)
                {
                    seen[next] = true;
                    queue.push_back(next);
                }
            }
        }
        for (uint32_t state : queue)
        {
            for (uint32_t from : in[state])
            {
                deps[from].insert(deps[from].end(), out[state].begin(), out[state].end());
            }
            in[state].clear();
        }
        for (uint32_t lane = 0; lane < lanes; ++lane)
        {
            in[target * lanes + lane].clear(); // the destination consumes: no dependency
        }
        if (dst % 64 == 63 || dst + 1 == g.HostCount())
        {
            for (auto& d : deps)
            {
                std::sort(d.begin(), d.end());
                d.erase(std::unique(d.begin(), d.end()), d.end());
            }
        }
    }

    std::vector<Channel> cycle;
    for (uint32_t id : FindDirectedCycle(deps))
    {
        const LinkIndex link = id / lanes / 2;
        const bool reverse = (id / lanes) % 2 == 1;
        const TopologyLink& l = g.Link(link);
        cycle.push_back(Channel{link, reverse ? l.b : l.a, static_cast<uint8_t>(id % lanes)});
    }
    return cycle;
}

} // namespace ns3
