#include "arborescence-packing.h"

#include "packing-lp.h"

#include "ns3/topology.h"

#include <algorithm>
#include <boost/graph/adjacency_matrix.hpp>
#include <boost/graph/prim_minimum_spanning_tree.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Column generation stops when the packing is proven within this fraction of the optimum.
constexpr double kGap = 1e-3;
/// Column generation rounds at most (each one LP re-solve: the dense simplex costs O(rows x
/// columns) per pivot, and beyond this the kept trees, capped at maxTrees, gain little).
constexpr uint32_t kRounds = 64;
/// The first tree budget (then +50 % a step up to maxTrees, while not proven near optimal).
constexpr uint32_t kFirstBudget = 32;

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

/// One distinct tree: its edges and usage.
struct Candidate
{
    std::vector<std::pair<HostRank, HostRank>> edges; //!< (smaller, larger) rank, sorted
    Usage usage;                                      //!< per directed link, both ways
    double bottleneckBps;                             //!< rate of this tree alone
    double cost;                                      //!< sum of link length x usage
};

/// The routes of every ordered host pair and the capacity of the directed links they use.
struct PairRoutes
{
    uint32_t hosts;
    std::vector<Usage> route;     //!< [u * hosts + v]
    std::vector<double> capacity; //!< per directed link; 0 if no route uses it

    const Usage&
    Of(HostRank u, HostRank v) const
    {
        return route[size_t{u} * hosts + v];
    }
};

PairRoutes
RouteAllPairs(const Topology& topology)
{
    const TopologyGraph& graph = topology.Graph();
    const uint32_t n = graph.HostCount();
    PairRoutes r{n,
                 std::vector<Usage>(size_t{n} * n),
                 std::vector<double>(2 * size_t{graph.LinkCount()}, 0.0)};
    for (HostRank u = 0; u < n; ++u)
    {
        for (HostRank v = 0; v < n; ++v)
        {
            if (u == v)
            {
                continue;
            }
            r.route[size_t{u} * n + v] = RouteUsage(topology, u, v);
            for (const auto& [e, share] : r.route[size_t{u} * n + v])
            {
                r.capacity[e] = graph.Link(e / 2).rateBps;
                if (!(r.capacity[e] > 0))
                {
                    throw std::invalid_argument("trees: link " + std::to_string(e / 2) + " of " +
                                                topology.Spec() +
                                                " has rate 0 but carries a route");
                }
            }
        }
    }
    return r;
}

/**
 * The oracle: the host spanning tree of least cost sum_e length_e usage_T(e). Every tree
 * edge is used in both directions, so an edge's cost does not depend on which end is the
 * parent, and the min-cost tree (for any root) is the minimum spanning tree of the
 * symmetric pair costs, found by Prim's algorithm (Boost.Graph).
 */
class TreeOracle
{
  public:
    explicit TreeOracle(const PairRoutes& routes)
        : m_routes(routes),
          m_complete(routes.hosts),
          m_pred(routes.hosts),
          m_usage(routes.capacity.size(), 0.0)
    {
        for (HostRank u = 0; u < routes.hosts; ++u)
        {
            for (HostRank v = u + 1; v < routes.hosts; ++v)
            {
                boost::add_edge(u, v, 0.0, m_complete);
            }
        }
    }

    Candidate
    Cheapest(const std::vector<double>& length)
    {
        const uint32_t n = m_routes.hosts;
        auto weight = boost::get(boost::edge_weight, m_complete);
        auto routeCost = [&](HostRank u, HostRank v) {
            double cost = 0;
            for (const auto& [e, share] : m_routes.Of(u, v))
            {
                cost += length[e] * share;
            }
            return cost;
        };
        for (HostRank u = 0; u < n; ++u)
        {
            for (HostRank v = u + 1; v < n; ++v)
            {
                weight[boost::edge(u, v, m_complete).first] = routeCost(u, v) + routeCost(v, u);
            }
        }
        boost::prim_minimum_spanning_tree(m_complete, m_pred.data());
        Candidate tree{{}, {}, std::numeric_limits<double>::infinity(), 0};
        std::vector<uint32_t> touched;
        for (HostRank v = 0; v < n; ++v)
        {
            if (m_pred[v] == v)
            {
                continue; // Prim's root
            }
            const HostRank p = static_cast<HostRank>(m_pred[v]);
            tree.edges.emplace_back(std::min(v, p), std::max(v, p));
            for (const Usage* route : {&m_routes.Of(v, p), &m_routes.Of(p, v)})
            {
                for (const auto& [e, share] : *route)
                {
                    if (m_usage[e] == 0)
                    {
                        touched.push_back(e);
                    }
                    m_usage[e] += share;
                }
            }
        }
        std::sort(tree.edges.begin(), tree.edges.end());
        std::sort(touched.begin(), touched.end());
        for (uint32_t e : touched)
        {
            tree.usage.emplace_back(e, m_usage[e]);
            tree.bottleneckBps = std::min(tree.bottleneckBps, m_routes.capacity[e] / m_usage[e]);
            tree.cost += length[e] * m_usage[e];
            m_usage[e] = 0;
        }
        return tree;
    }

  private:
    using Graph = boost::adjacency_matrix<boost::undirectedS,
                                          boost::no_property,
                                          boost::property<boost::edge_weight_t, double>>;
    const PairRoutes& m_routes;
    Graph m_complete;
    std::vector<Graph::vertex_descriptor> m_pred;
    std::vector<double> m_usage; //!< scratch, all zero between calls
};

/// The packing LP over the candidates in `trees` (rows: the directed links routes use).
struct TreeLp
{
    std::vector<uint32_t> rowOfLink; //!< directed link -> LP row, UINT32_MAX if unused
    std::vector<double> rowCapacity; //!< per row
    std::unique_ptr<PackingLp> lp;

    explicit TreeLp(const std::vector<double>& capacity)
        : rowOfLink(capacity.size(), UINT32_MAX)
    {
        for (size_t e = 0; e < capacity.size(); ++e)
        {
            if (capacity[e] > 0)
            {
                rowOfLink[e] = static_cast<uint32_t>(rowCapacity.size());
                rowCapacity.push_back(capacity[e]);
            }
        }
        lp = std::make_unique<PackingLp>(rowCapacity);
    }

    void
    Add(const Candidate& tree)
    {
        PackingLp::Column column;
        for (const auto& [e, u] : tree.usage)
        {
            column.emplace_back(rowOfLink[e], u);
        }
        lp->AddColumn(column);
    }

    /// Duals as lengths per directed link (0 on links no route uses).
    std::vector<double>
    Lengths() const
    {
        const std::vector<double> y = lp->Duals();
        std::vector<double> length(rowOfLink.size(), 0.0);
        for (size_t e = 0; e < rowOfLink.size(); ++e)
        {
            if (rowOfLink[e] != UINT32_MAX)
            {
                length[e] = y[rowOfLink[e]];
            }
        }
        return length;
    }
};

/// Roots each tree at its center (least height: the shortest pipeline); ties go to the
/// host that roots the fewest trees so far, so roots spread over the workers.
std::vector<PackedTree>
RootAtCenters(uint32_t n, const std::vector<std::pair<const Candidate*, double>>& kept)
{
    std::vector<PackedTree> trees;
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
        trees.push_back(PackedTree{root, parent, rate});
    }
    return trees;
}

/// Distinct trees found so far, keyed by their edges.
using SeenTrees = std::map<std::vector<std::pair<HostRank, HostRank>>, Candidate>;
/// Trees kept for the plan with their rates.
using KeptTrees = std::vector<std::pair<const Candidate*, double>>;

/// A proven bound of any packing, from the hosts' ports: a tree edge {u, v} leaves u through u's
/// ports (its routes' shares sum to 1) and v through v's, so a tree of rate x uses
/// deg_T(h) x of host h's outgoing capacity, 2(N-1) x over all hosts.
double
HostPortBound(const Topology& topology, uint32_t n)
{
    const TopologyGraph& graph = topology.Graph();
    double hostOut = 0;
    for (HostRank h = 0; h < n; ++h)
    {
        for (const PortPeer& port : graph.Ports(graph.HostNode(h)))
        {
            hostOut += graph.Link(port.link).rateBps;
        }
    }
    return hostOut / (2.0 * (n - 1));
}

/**
 * Warm start: multiplicative weights (Garg & Koenemann) propose trees quickly. The lengths
 * persist between calls, so a later Run() continues the same run with a larger tree budget.
 */
class MultiplicativeWeights
{
  public:
    MultiplicativeWeights(const PairRoutes& routes, double epsilon)
        : m_routes(routes),
          m_epsilon(epsilon),
          m_length(routes.capacity.size(), 0.0)
    {
        for (size_t e = 0; e < m_length.size(); ++e)
        {
            m_length[e] = routes.capacity[e] > 0 ? 1.0 / routes.capacity[e] : 0.0;
        }
    }

    /// At most `iterations` oracle calls, stopping before the (maxTrees + 1)-th distinct
    /// tree of this run; the trees new to `seen` are added to it and returned in order.
    std::vector<const Candidate*>
    Run(TreeOracle& oracle, uint32_t iterations, uint32_t maxTrees, SeenTrees& seen)
    {
        std::vector<const Candidate*> fresh;
        for (uint32_t it = 0; it < iterations; ++it)
        {
            Candidate tree = oracle.Cheapest(m_length);
            const bool known = m_found.count(tree.edges) != 0;
            if (m_found.size() == maxTrees && !known)
            {
                break;
            }
            for (const auto& [e, u] : tree.usage)
            {
                m_length[e] *= 1 + m_epsilon * u * tree.bottleneckBps / m_routes.capacity[e];
            }
            if (!known)
            {
                m_found.insert(tree.edges);
            }
            auto [entry, added] = seen.try_emplace(tree.edges, std::move(tree));
            if (added)
            {
                fresh.push_back(&entry->second);
            }
        }
        return fresh;
    }

  private:
    const PairRoutes& m_routes;
    double m_epsilon;
    std::vector<double> m_length;                                 //!< l_e per directed link
    std::set<std::vector<std::pair<HostRank, HostRank>>> m_found; //!< distinct trees so far
};

/**
 * Column generation (Dantzig-Wolfe) on the exact packing LP: its duals price the links, and
 * the oracle's cheapest tree under those prices either improves the packing (cost < 1: it
 * enters) or proves it optimal. At any round, LP value / cheapest cost is an upper bound of
 * the optimum (the duals scaled to feasibility: weak duality).
 */
struct ExactPacking
{
    TreeLp lp;
    std::vector<const Candidate*> columns;                 //!< the LP's columns in order
    double value{0};                                       //!< the LP optimum over the columns
    double bound{std::numeric_limits<double>::infinity()}; //!< best dual bound so far
    double hostBound;                                      //!< HostPortBound

    ExactPacking(const std::vector<double>& capacity, double hostPortBound)
        : lp(capacity),
          hostBound(hostPortBound)
    {
    }

    /// The smallest proven upper bound of the optimal packing.
    double
    UpperBound() const
    {
        return std::min(std::max(value, bound), hostBound);
    }

    /// Adds `fresh` as columns, then at most `rounds` oracle-priced columns, until proven
    /// within kGap of the optimum.
    void
    Improve(const std::vector<const Candidate*>& fresh,
            TreeOracle& oracle,
            SeenTrees& seen,
            uint32_t rounds)
    {
        for (const Candidate* c : fresh)
        {
            lp.Add(*c);
            columns.push_back(c);
        }
        value = lp.lp->Solve();
        for (uint32_t round = 0; round < rounds; ++round)
        {
            Candidate tree = oracle.Cheapest(lp.Lengths());
            if (tree.cost > 0)
            {
                bound = std::min(bound, value / tree.cost);
            }
            if (tree.cost >= 1 - kGap || std::min(bound, hostBound) <= value * (1 + kGap) ||
                seen.find(tree.edges) != seen.end())
            {
                break; // optimal within kGap (or numerically so)
            }
            auto entry = seen.try_emplace(tree.edges, std::move(tree)).first;
            lp.Add(entry->second);
            columns.push_back(&entry->second);
            value = lp.lp->Solve();
        }
    }
};

/// The trees the LP optimum uses, at most maxTrees of them (every tree becomes messages of
/// the plan): the largest, re-optimized among themselves when some had to go.
KeptTrees
KeepUsedTrees(const TreeLp& lp,
              const std::vector<const Candidate*>& columns,
              double value,
              const PairRoutes& routes,
              uint32_t maxTrees)
{
    KeptTrees kept;
    for (uint32_t j = 0; j < columns.size(); ++j)
    {
        const double x = lp.lp->Value(j);
        if (x > value * 1e-9)
        {
            kept.emplace_back(columns[j], x);
        }
    }
    std::stable_sort(
        kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (kept.size() > maxTrees)
    {
        kept.resize(maxTrees);
        TreeLp capped(routes.capacity);
        for (const auto& [c, x] : kept)
        {
            capped.Add(*c);
        }
        capped.lp->Solve();
        for (uint32_t j = 0; j < kept.size(); ++j)
        {
            kept[j].second = capped.lp->Value(j);
        }
        kept.erase(std::remove_if(kept.begin(),
                                  kept.end(),
                                  [&](const auto& k) { return k.second <= value * 1e-9; }),
                   kept.end());
    }
    return kept;
}

/// The LP's right-hand sides are perturbed a hair (PackingLp): scales the kept rates to the
/// exact capacities and returns their sum.
double
ScaleToCapacity(KeptTrees& kept, const PairRoutes& routes)
{
    std::vector<double> load(routes.capacity.size(), 0.0);
    double over = 1;
    for (const auto& [c, x] : kept)
    {
        for (const auto& [e, u] : c->usage)
        {
            load[e] += x * u;
            over = std::max(over, load[e] / routes.capacity[e]);
        }
    }
    double aggregate = 0;
    for (auto& [c, x] : kept)
    {
        x /= over;
        aggregate += x;
    }
    return aggregate;
}

} // namespace

ArborescencePacking::ArborescencePacking(uint32_t iterations,
                                         double epsilon,
                                         uint32_t maxTrees,
                                         double gap)
    : m_iterations(iterations),
      m_epsilon(epsilon),
      m_maxTrees(maxTrees),
      m_gap(gap)
{
    if (iterations == 0 || maxTrees == 0 || !(epsilon > 0 && epsilon <= 1) ||
        !(gap >= 0 && gap < 1))
    {
        throw std::invalid_argument(
            "ArborescencePacking: iterations (" + std::to_string(iterations) + ") and maxTrees (" +
            std::to_string(maxTrees) + ") must be >= 1, epsilon (" + std::to_string(epsilon) +
            ") in (0, 1] and gap (" + std::to_string(gap) + ") in [0, 1)");
    }
}

TreePackingResult
ArborescencePacking::Pack(const Topology& topology) const
{
    const uint32_t n = topology.Graph().HostCount();
    if (n == 0)
    {
        throw std::invalid_argument("trees: topology " + topology.Spec() + " has no host");
    }
    TreePackingResult result;
    if (n == 1)
    {
        return result; // nothing to synchronize: no tree, no transfer
    }
    const PairRoutes routes = RouteAllPairs(topology);
    TreeOracle oracle(routes);
    MultiplicativeWeights warm(routes, m_epsilon);
    SeenTrees seen;
    ExactPacking exact(routes.capacity, HostPortBound(topology, n));

    // Rounds of: (1) warm start to `budget` distinct trees, (2) column generation on the
    // exact LP, (3) the trees its optimum uses, at most `budget`. Until the kept trees are
    // proven within m_gap of the optimum, the budget grows by half (up to maxTrees) and the
    // warm start continues: small networks stop at the first budget, large ones add trees
    // only as far as the proof needs them.
    uint32_t budget = std::min(m_maxTrees, kFirstBudget);
    KeptTrees kept;
    double aggregate = 0;
    for (;;)
    {
        std::vector<const Candidate*> fresh = warm.Run(oracle, m_iterations, budget, seen);
        std::sort(fresh.begin(), fresh.end(), [](const Candidate* a, const Candidate* b) {
            return a->edges < b->edges;
        });
        // Column generation in the first step only: at hundreds of hosts the LP's duals are
        // degenerate (most links price at 0) and the cheapest tree under them rarely helps
        // (BCube(8,2): 64 rounds raise the LP over 32 trees from 56.56 to 56.87 Gb/s), while
        // more warm-start trees do.
        const bool first = exact.columns.empty();
        exact.Improve(fresh, oracle, seen, first ? std::min(m_iterations, kRounds) : 0);
        kept = KeepUsedTrees(exact.lp, exact.columns, exact.value, routes, budget);
        aggregate = ScaleToCapacity(kept, routes);
        if (budget == m_maxTrees || fresh.empty() || aggregate >= (1 - m_gap) * exact.UpperBound())
        {
            break;
        }
        budget = std::min(m_maxTrees, budget + budget / 2);
    }
    result.upperBoundBps = exact.UpperBound();

    const Candidate* bestSingle = nullptr;
    for (const auto& [key, c] : seen)
    {
        if (!bestSingle || c.bottleneckBps > bestSingle->bottleneckBps)
        {
            bestSingle = &c;
        }
    }
    result.bestSingleBps = bestSingle->bottleneckBps;
    if (bestSingle->bottleneckBps > aggregate)
    {
        kept.assign(1, {bestSingle, bestSingle->bottleneckBps});
        aggregate = bestSingle->bottleneckBps;
    }
    result.aggregateBps = aggregate;
    result.trees = RootAtCenters(n, kept);
    return result;
}

} // namespace ns3
