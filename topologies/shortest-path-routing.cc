#include "shortest-path-routing.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/visitors.hpp>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace ns3
{

ShortestPathRouting::ShortestPathRouting(const TopologyGraph& graph,
                                         std::vector<bool> down,
                                         const std::string& what,
                                         Unreachable unreachable)
    : m_graph(graph),
      m_down(std::move(down))
{
    m_down.resize(graph.LinkCount(), false);
    const uint32_t nodes = graph.NodeCount();
    const uint32_t hosts = graph.HostCount();
    if (hosts < 2)
    {
        throw std::invalid_argument(what + ": " + std::to_string(hosts) +
                                    " hosts; allowed: a topology with at least 2 hosts");
    }
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Graph g(nodes);
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        if (!m_down[l])
        {
            boost::add_edge(graph.Link(l).a, graph.Link(l).b, g);
        }
    }
    constexpr uint32_t unreached = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(nodes);
    // dist: hops from src to every node (unreached where no path is up).
    const auto distancesFrom = [&](NodeIndex src) {
        std::fill(dist.begin(), dist.end(), unreached);
        dist[src] = 0;
        boost::breadth_first_search(g,
                                    src,
                                    boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                        dist.data(), boost::on_tree_edge()))));
    };
    if (unreachable == Unreachable::REFUSE)
    {
        // Every host reachable from host 0, checked before the table of nodes x hosts entries
        // is made: a file of a few lines can declare millions of nodes and link none of them.
        const NodeIndex src = graph.HostNode(0);
        distancesFrom(src);
        for (HostRank h = 1; h < hosts; ++h)
        {
            if (dist[graph.HostNode(h)] == unreached)
            {
                throw std::invalid_argument(
                    what + ": host " + graph.Node(src).name + " cannot reach host " +
                    graph.Node(graph.HostNode(h)).name + "; allowed: a connected topology");
            }
        }
    }
    const double tableBytes = double(nodes) * hosts * sizeof(uint16_t);
    const double machineBytes = double(sysconf(_SC_PHYS_PAGES)) *
                                double(sysconf(_SC_PAGE_SIZE)); // < 0: unknown
    if (machineBytes > 0 && tableBytes > machineBytes)
    {
        const auto gb = [](double bytes) {
            char text[32];
            std::snprintf(text, sizeof(text), "%.1f GB", bytes / 1e9);
            return std::string(text);
        };
        throw std::invalid_argument(what + ": its hop counts (" + std::to_string(nodes) +
                                    " nodes x " + std::to_string(hosts) + " hosts x 2 B = " +
                                    gb(tableBytes) + ") exceed this machine's memory (" +
                                    gb(machineBytes) + "); allowed: a topology whose table fits");
    }
    m_dist.assign(size_t{nodes} * hosts, std::numeric_limits<uint16_t>::max());
    for (HostRank h = 0; h < hosts; ++h)
    {
        const NodeIndex src = graph.HostNode(h);
        distancesFrom(src);
        // (Under REFUSE every host was found reachable above: the graph is undirected.)
        for (NodeIndex n = 0; n < nodes; ++n)
        {
            if (dist[n] != unreached)
            {
                if (dist[n] >= std::numeric_limits<uint16_t>::max())
                {
                    throw std::invalid_argument(what + ": a shortest path of " +
                                                std::to_string(dist[n]) +
                                                " hops; allowed: < 65535");
                }
                m_dist[size_t{h} * nodes + n] = static_cast<uint16_t>(dist[n]);
            }
        }
    }
}

std::vector<std::vector<HostRank>>
ShortestPathRouting::HostGroups(const TopologyGraph& graph, const std::vector<bool>& down)
{
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Graph g(graph.NodeCount());
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        if (l >= down.size() || !down[l])
        {
            boost::add_edge(graph.Link(l).a, graph.Link(l).b, g);
        }
    }
    std::vector<uint32_t> component(graph.NodeCount());
    boost::connected_components(g, component.data());
    std::vector<std::vector<HostRank>> groups;
    std::vector<int64_t> groupOfComponent(graph.NodeCount(), -1);
    for (HostRank h = 0; h < graph.HostCount(); ++h)
    {
        int64_t& group = groupOfComponent[component[graph.HostNode(h)]];
        if (group < 0)
        {
            group = static_cast<int64_t>(groups.size());
            groups.emplace_back();
        }
        groups[group].push_back(h);
    }
    return groups;
}

uint32_t
ShortestPathRouting::Distance(NodeIndex node, HostRank dst) const
{
    return m_dist.at(size_t{dst} * m_graph.NodeCount() + node);
}

void
ShortestPathRouting::NextHops(NodeIndex at, HostRank dst, std::vector<RouteHop>& out) const
{
    out.clear();
    const uint16_t* dist = &m_dist[size_t{dst} * m_graph.NodeCount()];
    const uint16_t here = dist[at];
    const auto& ports = m_graph.Ports(at);
    for (uint32_t p = 0; p < ports.size(); ++p)
    {
        if (!m_down[m_graph.LinkAt(at, p)] && dist[ports[p].peer] + 1 == here)
        {
            out.push_back(RouteHop{p, 0});
        }
    }
}

DegradedTopology::DegradedTopology(const Topology& original,
                                   const std::vector<bool>& down,
                                   ShortestPathRouting::Unreachable unreachable)
    : m_spec(original.Spec() + " (degraded)"),
      m_family(original.Family())
{
    m_graph = original.Graph();
    m_routing = std::make_unique<ShortestPathRouting>(m_graph, down, original.Spec(), unreachable);
}

void
DegradedTopology::NextHops(NodeIndex at,
                           HostRank dst,
                           uint8_t /* lane */,
                           std::vector<RouteHop>& out) const
{
    m_routing->NextHops(at, dst, out);
}

} // namespace ns3
