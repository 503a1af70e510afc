#include "routed-bound.h"

#include "ns3/fluid-estimator.h"
#include "ns3/forwarding-table.h"
#include "ns3/queue-pair.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-nic.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

double
RoutedBound::WireBytes(uint64_t payload, uint32_t mtu, bool vlan)
{
    // Full packets of `mtu` payload bytes, then one with the rest (a message of 0 bytes is
    // one empty SEND Only packet).
    const uint64_t full = payload / mtu;
    const auto rest = static_cast<uint32_t>(payload % mtu);
    double wire = static_cast<double>(full) * RoceWireBytes(mtu, vlan, false);
    if (rest > 0 || full == 0)
    {
        wire += RoceWireBytes(rest, vlan, false);
    }
    return wire;
}

double
RoutedBound::SoloTime(const TopologyGraph& graph,
                      const std::vector<uint32_t>& path,
                      uint64_t payload,
                      uint32_t mtu,
                      bool vlan)
{
    const uint64_t rest = payload % mtu;
    const double smallest = RoceWireBytes(
        static_cast<uint32_t>(rest > 0 || payload == 0 ? rest : mtu), vlan, false);
    const double wire = WireBytes(payload, mtu, vlan);
    double delays = 0;
    double small = 0; // sum over hops of S / c_i
    for (uint32_t link : path)
    {
        const TopologyLink& l = graph.Link(link / 2);
        delays += l.delayS;
        small += smallest * 8 / l.rateBps;
    }
    double best = 0;
    for (uint32_t link : path)
    {
        const double rate = graph.Link(link / 2).rateBps / 8;
        best = std::max(best, wire / rate + small - smallest / rate);
    }
    return delays + best;
}

std::function<double(HostRank, HostRank)>
RoutedBound::AckTimes(const TopologyGraph& graph)
{
    double minDelay = INFINITY;
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        minDelay = std::min(minDelay, graph.Link(l).delayS);
    }
    if (!(minDelay > 0) || !std::isfinite(minDelay))
    {
        return [](HostRank, HostRank) { return 0.0; };
    }
    auto hops = std::make_shared<std::map<HostRank, std::vector<uint32_t>>>();
    return [&graph, minDelay, hops](HostRank src, HostRank dst) {
        auto it = hops->find(dst);
        if (it == hops->end())
        {
            // Breadth-first search from the receiver over every node.
            std::vector<uint32_t> dist(graph.NodeCount(), ~0u);
            std::vector<NodeIndex> queue{graph.HostNode(dst)};
            dist[queue[0]] = 0;
            for (size_t k = 0; k < queue.size(); ++k)
            {
                for (const PortPeer& p : graph.Ports(queue[k]))
                {
                    if (dist[p.peer] == ~0u)
                    {
                        dist[p.peer] = dist[queue[k]] + 1;
                        queue.push_back(p.peer);
                    }
                }
            }
            it = hops->emplace(dst, std::move(dist)).first;
        }
        const uint32_t d = it->second[graph.HostNode(src)];
        return d == ~0u ? 0.0 : d * minDelay;
    };
}

PinnedPaths
RoutedBound::Pin(const OrderedPaths& ordered,
                 const RoceSyncTransport& transport,
                 uint32_t mtu,
                 bool vlan)
{
    PinnedPaths paths(
        [&transport](HostRank src, HostRank dst) { return transport.QueuePairs(src, dst); },
        [mtu, vlan](uint64_t payload) { return WireBytes(payload, mtu, vlan); });
    for (const auto& [key, links] : ordered)
    {
        paths.Pin(key, links);
    }
    return paths;
}

RoutedBound::OrderedPaths
RoutedBound::Trace(const PfcNetwork& net,
                   const Topology& topology,
                   const RoceSyncTransport& transport)
{
    const TopologyGraph& graph = topology.Graph();
    OrderedPaths ordered;
    transport.ForEachSyncQueuePair(
        [&](uint32_t src, uint32_t dst, uint32_t index, const QueuePair& qp) {
            // The first hop: the NIC port the QP was bound to, on the lane of that equal-cost
            // route (RoceNic::CreateQueuePair(dst, routeIndex)).
            const NodeIndex target = graph.HostNode(dst);
            NodeIndex node = graph.HostNode(src);
            const std::vector<ForwardingRoute>& first = net.tables[node]->Routes(dst, 0);
            uint32_t port = qp.GetPort();
            // (A source-routed table holds a route per route id, the id in the UDP source port.)
            const uint32_t member = net.sourceRoutes ? qp.GetUdpSrcPort() : index;
            uint8_t lane = first.empty() ? 0 : first[member % first.size()].lane;
            std::vector<uint32_t> links;
            while (true)
            {
                const PortPeer& peer = graph.Ports(node).at(port);
                links.push_back(FluidResult::DirectedIndex(graph, peer.link, node));
                node = peer.peer;
                if (node == target)
                {
                    break;
                }
                const ForwardingRoute* next = links.size() <= graph.NodeCount()
                                                  ? net.tables[node]->Lookup(
                                                        dst, lane, src, qp.GetUdpSrcPort())
                                                  : nullptr;
                if (!next)
                {
                    throw std::runtime_error("routed bound: queue pair " + std::to_string(index) +
                                             " of host " + std::to_string(src) + " -> host " +
                                             std::to_string(dst) + " has no route or loops at " +
                                             graph.Node(node).name);
                }
                port = next->port;
                lane = next->lane;
            }
            ordered[{src, dst, index}] = std::move(links);
        });
    return ordered;
}

} // namespace ns3
