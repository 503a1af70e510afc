#include "arborescence-packing.h"

#include "ns3/topology.h"

#include <boost/graph/adjacency_matrix.hpp>
#include <boost/graph/prim_minimum_spanning_tree.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Directed links a route crosses, with the fraction of its traffic on each.
using Usage = std::vector<std::pair<uint32_t, double>>;

/// Directed link index: 2 * link for a -> b, 2 * link + 1 for b -> a.
uint32_t
Directed(const TopologyGraph& graph, LinkIndex link, NodeIndex from)
{
    return 2 * link + (graph.Link(link).a == from ? 0 : 1);
}

/**
 * The fluid-ECMP usage of the route src -> dst: weight 1 leaves src and splits evenly over
 * the equal-cost next hops at every node until it reaches dst. Propagated hop by hop
 * (linear, so a state reached along several branches just forwards the sum it got).
 */
Usage
RouteUsage(const Topology& topology, HostRank src, HostRank dst)
{
    const TopologyGraph& graph = topology.Graph();
    const NodeIndex target = graph.HostNode(dst);
    std::map<uint32_t, double> onLink;
    std::map<std::pair<NodeIndex, uint8_t>, double> frontier{{{graph.HostNode(src), 0}, 1.0}};
    std::vector<RouteHop> hops;
    for (uint32_t steps = 0; !frontier.empty(); ++steps)
    {
        if (steps > graph.NodeCount())
        {
            throw std::runtime_error("trees: the routing of " + topology.Spec() +
                                     " loops from host " + std::to_string(src) + " to host " +
                                     std::to_string(dst));
        }
        std::map<std::pair<NodeIndex, uint8_t>, double> next;
        for (const auto& [state, weight] : frontier)
        {
            if (state.first == target)
            {
                continue;
            }
            topology.NextHops(state.first, dst, state.second, hops);
            if (hops.empty())
            {
                throw std::runtime_error("trees: " + topology.Spec() + " has no route from " +
                                         graph.Node(state.first).name + " to host " +
                                         std::to_string(dst));
            }
            const double share = weight / hops.size();
            for (const RouteHop& hop : hops)
            {
                const PortPeer& peer = graph.Ports(state.first).at(hop.port);
                onLink[Directed(graph, peer.link, state.first)] += share;
                next[{peer.peer, hop.lane}] += share;
            }
        }
        frontier = std::move(next);
    }
    return Usage(onLink.begin(), onLink.end());
}

/// One distinct tree the oracle returned: its edges, usage and accumulated rate.
struct Candidate
{
    std::vector<std::pair<HostRank, HostRank>> edges; //!< (smaller, larger) rank, sorted
    Usage usage;                                      //!< per directed link, both ways
    double bottleneckBps;                             //!< rate of this tree alone
    double flow{0};                                   //!< rate accumulated by the packing
};

/// Largest uniform scale s such that s * sum_T flow_T usage_T(e) <= c_e on every link.
double
FeasibleScale(const std::vector<const Candidate*>& trees, const std::vector<double>& capacity)
{
    std::vector<double> load(capacity.size(), 0.0);
    for (const Candidate* t : trees)
    {
        for (const auto& [e, u] : t->usage)
        {
            load[e] += t->flow * u;
        }
    }
    double worst = 0;
    for (size_t e = 0; e < load.size(); ++e)
    {
        if (load[e] > 0)
        {
            worst = std::max(worst, load[e] / capacity[e]);
        }
    }
    return worst > 0 ? 1.0 / worst : 0.0;
}

} // namespace

ArborescencePacking::ArborescencePacking(uint32_t iterations, double epsilon, uint32_t maxTrees)
    : m_iterations(iterations)
    , m_epsilon(epsilon)
    , m_maxTrees(maxTrees)
{
    if (iterations == 0 || maxTrees == 0 || !(epsilon > 0 && epsilon <= 1))
    {
        throw std::invalid_argument("ArborescencePacking: iterations (" +
                                    std::to_string(iterations) + ") and maxTrees (" +
                                    std::to_string(maxTrees) + ") must be >= 1 and epsilon (" +
                                    std::to_string(epsilon) + ") in (0, 1]");
    }
}

TreePackingResult
ArborescencePacking::Pack(const Topology& topology) const
{
    const TopologyGraph& graph = topology.Graph();
    const uint32_t n = graph.HostCount();
    if (n == 0)
    {
        throw std::invalid_argument("trees: topology " + topology.Spec() + " has no host");
    }
    TreePackingResult result;
    if (n == 1)
    {
        return result; // nothing to synchronize: no tree, no transfer
    }

    // Routes of every ordered pair, and the capacity of every directed link they use.
    std::vector<Usage> route(size_t{n} * n);
    std::vector<double> capacity(2 * size_t{graph.LinkCount()}, 0.0);
    for (HostRank u = 0; u < n; ++u)
    {
        for (HostRank v = 0; v < n; ++v)
        {
            if (u == v)
            {
                continue;
            }
            route[size_t{u} * n + v] = RouteUsage(topology, u, v);
            for (const auto& [e, share] : route[size_t{u} * n + v])
            {
                capacity[e] = graph.Link(e / 2).rateBps;
                if (!(capacity[e] > 0))
                {
                    throw std::invalid_argument("trees: link " + std::to_string(e / 2) + " of " +
                                                topology.Spec() +
                                                " has rate 0 but carries a route");
                }
            }
        }
    }
    std::vector<double> length(capacity.size(), 0.0);
    for (size_t e = 0; e < capacity.size(); ++e)
    {
        length[e] = capacity[e] > 0 ? 1.0 / capacity[e] : 0.0;
    }

    using Graph = boost::adjacency_matrix<boost::undirectedS, boost::no_property,
                                          boost::property<boost::edge_weight_t, double>>;
    Graph complete(n);
    for (HostRank u = 0; u < n; ++u)
    {
        for (HostRank v = u + 1; v < n; ++v)
        {
            boost::add_edge(u, v, 0.0, complete);
        }
    }
    auto weight = boost::get(boost::edge_weight, complete);
    std::vector<Graph::vertex_descriptor> pred(n);
    std::map<std::vector<std::pair<HostRank, HostRank>>, Candidate> seen;
    std::vector<double> usage(capacity.size(), 0.0);
    std::vector<uint32_t> touched;

    auto routeCost = [&](HostRank u, HostRank v) {
        double cost = 0;
        for (const auto& [e, share] : route[size_t{u} * n + v])
        {
            cost += length[e] * share;
        }
        return cost;
    };
    for (uint32_t it = 0; it < m_iterations; ++it)
    {
        // Oracle: the minimum spanning tree of the symmetric pair costs (see the header).
        for (HostRank u = 0; u < n; ++u)
        {
            for (HostRank v = u + 1; v < n; ++v)
            {
                weight[boost::edge(u, v, complete).first] = routeCost(u, v) + routeCost(v, u);
            }
        }
        boost::prim_minimum_spanning_tree(complete, pred.data());
        std::vector<std::pair<HostRank, HostRank>> edges;
        touched.clear();
        for (HostRank v = 0; v < n; ++v)
        {
            if (pred[v] == v)
            {
                continue; // Prim's root
            }
            const HostRank p = static_cast<HostRank>(pred[v]);
            edges.emplace_back(std::min(v, p), std::max(v, p));
            for (size_t r : {size_t{v} * n + p, size_t{p} * n + v})
            {
                for (const auto& [e, share] : route[r])
                {
                    if (usage[e] == 0)
                    {
                        touched.push_back(e);
                    }
                    usage[e] += share;
                }
            }
        }
        std::sort(edges.begin(), edges.end());
        if (edges.size() + 1 != n)
        {
            throw std::runtime_error("trees: Prim's tree on " + topology.Spec() + " has " +
                                     std::to_string(edges.size()) + " edges, not " +
                                     std::to_string(n - 1));
        }
        double rate = std::numeric_limits<double>::infinity();
        for (uint32_t e : touched)
        {
            rate = std::min(rate, capacity[e] / usage[e]);
        }
        if (seen.size() == m_maxTrees && seen.find(edges) == seen.end())
        {
            break; // the tree budget is spent: stop rather than drop packed flow later
        }
        auto [entry, fresh] = seen.try_emplace(edges);
        Candidate& candidate = entry->second;
        if (fresh)
        {
            candidate.edges = edges;
            candidate.bottleneckBps = rate;
            for (uint32_t e : touched)
            {
                candidate.usage.emplace_back(e, usage[e]);
            }
        }
        candidate.flow += rate;
        for (uint32_t e : touched)
        {
            length[e] *= 1 + m_epsilon * usage[e] * rate / capacity[e];
            usage[e] = 0;
        }
    }

    // Scale to feasibility.
    std::vector<const Candidate*> all;
    const Candidate* bestSingle = nullptr;
    for (const auto& [key, c] : seen)
    {
        all.push_back(&c);
        if (!bestSingle || c.bottleneckBps > bestSingle->bottleneckBps)
        {
            bestSingle = &c;
        }
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Candidate* a, const Candidate* b) { return a->flow > b->flow; });
    double scale = FeasibleScale(all, capacity);
    std::vector<std::pair<const Candidate*, double>> kept;
    std::vector<double> residual = capacity;
    for (const Candidate* c : all)
    {
        kept.emplace_back(c, c->flow * scale);
        for (const auto& [e, u] : c->usage)
        {
            residual[e] -= c->flow * scale * u;
        }
    }
    // Uniform scaling leaves capacity on links other than the most loaded: hand it out
    // greedily, each tree in turn (largest first) taking what its residual bottleneck allows.
    double aggregate = 0;
    for (auto& [c, rate] : kept)
    {
        double extra = std::numeric_limits<double>::infinity();
        for (const auto& [e, u] : c->usage)
        {
            extra = std::min(extra, std::max(0.0, residual[e]) / u);
        }
        for (const auto& [e, u] : c->usage)
        {
            residual[e] -= extra * u;
        }
        rate += extra;
        aggregate += rate;
    }
    result.bestSingleBps = bestSingle->bottleneckBps;
    if (bestSingle->bottleneckBps > aggregate)
    {
        kept.assign(1, {bestSingle, bestSingle->bottleneckBps});
        aggregate = bestSingle->bottleneckBps;
    }
    result.aggregateBps = aggregate;

    // Root each tree at its center; ties to the host rooting the fewest trees so far.
    std::vector<uint32_t> rootedHere(n, 0);
    for (const auto& [c, rate] : kept)
    {
        std::vector<std::vector<HostRank>> adjacent(n);
        for (const auto& [a, b] : c->edges)
        {
            adjacent[a].push_back(b);
            adjacent[b].push_back(a);
        }
        auto bfs = [&](HostRank root, std::vector<HostRank>& parent) {
            parent.assign(n, kNoIndex);
            std::vector<uint32_t> depth(n, 0);
            std::vector<HostRank> queue{root};
            std::vector<bool> done(n, false);
            done[root] = true;
            uint32_t height = 0;
            for (size_t q = 0; q < queue.size(); ++q)
            {
                HostRank at = queue[q];
                height = std::max(height, depth[at]);
                for (HostRank next : adjacent[at])
                {
                    if (!done[next])
                    {
                        done[next] = true;
                        parent[next] = at;
                        depth[next] = depth[at] + 1;
                        queue.push_back(next);
                    }
                }
            }
            return height;
        };
        std::vector<HostRank> parent;
        HostRank root = 0;
        uint32_t bestHeight = UINT32_MAX;
        for (HostRank h = 0; h < n; ++h)
        {
            uint32_t height = bfs(h, parent);
            if (height < bestHeight || (height == bestHeight && rootedHere[h] < rootedHere[root]))
            {
                bestHeight = height;
                root = h;
            }
        }
        bfs(root, parent);
        ++rootedHere[root];
        result.trees.push_back(PackedTree{root, parent, rate});
    }
    return result;
}

} // namespace ns3
