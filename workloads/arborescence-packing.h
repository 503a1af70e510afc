/*
 * ArborescencePacking: packs spanning trees over the hosts of a topology on its link
 * capacities, the graph part of the `trees` algorithm (Zhang, Wu, Li, "Near-Optimal
 * Topology-adaptive Parameter Synchronization in Distributed DNN Training", INFOCOM 2021).
 * Plain C++ over Topology: no plan, no simulation.
 */
#ifndef PARAMSYNC_ARBORESCENCE_PACKING_H
#define PARAMSYNC_ARBORESCENCE_PACKING_H

#include "ns3/topology-graph.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief One packed tree: a spanning tree over the hosts, rooted at one of them, with the
 * rate (bit/s) at which it aggregates and broadcasts its share of the gradient.
 */
struct PackedTree
{
    HostRank root;                //!< the host that ends up with the full sum first
    std::vector<HostRank> parent; //!< per host rank, its parent; kNoIndex for the root
    double rateBps;               //!< data rate of the tree (each tree edge carries it twice)
};

/**
 * \brief Outcome of ArborescencePacking::Pack.
 */
struct TreePackingResult
{
    std::vector<PackedTree> trees; //!< by decreasing rate; their loads fit every capacity
    double aggregateBps{0};        //!< sum of the kept trees' rates
    double bestSingleBps{0};       //!< best rate of one tree alone among the trees seen
};

/**
 * \brief Fractional packing of host spanning trees by multiplicative weights.
 *
 * Model (the paper's forest packing, on hosts). A tree edge {u, v} is the routed path
 * u -> v (aggregation towards the root) plus v -> u (broadcast back), so a tree of rate x
 * puts x * usage(e) on every directed link e, where usage counts how many of its edge
 * paths cross e. Paths follow the topology's routing with fluid ECMP (traffic split evenly
 * over the equal-cost next hops at every node, as in FluidEstimator), so usage may be
 * fractional. Switches only forward; the tree's inner nodes are hosts, which add what they
 * receive (the paper also lets programmable switches aggregate; our plans have hosts only).
 * The rates maximize sum x_T subject to sum_T x_T usage_T(e) <= capacity(e) for every
 * directed link (full duplex: each direction has the link's rate).
 *
 * Algorithm: Garg-Koenemann style multiplicative weights (Garg & Koenemann, FOCS 1998),
 * with a fixed iteration budget instead of the epsilon-derived one, which is too large to
 * run (m log m / eps^2 oracle calls). Lengths l_e = 1/c_e; each iteration finds the tree of
 * least cost sum_e l_e usage(e), gives it its bottleneck rate min_e c_e/usage(e) and
 * multiplies each l_e by 1 + eps * usage(e) * rate / c_e. The oracle is exact: every
 * tree edge is used in both directions, so an edge's cost does not depend on which end is
 * the parent, and the min-cost arborescence (for any root) is the minimum spanning tree
 * of the symmetric pair costs, found by Prim's algorithm (Boost.Graph). At the end the
 * accumulated rates are scaled down uniformly until the most loaded link is exactly full,
 * then capacity left on other links is handed out greedily (largest tree first, each up to
 * its residual bottleneck), and if one tree alone is faster than the packing, that tree is
 * used. The loop stops early when the oracle returns a tree beyond `maxTrees` distinct ones
 * (every tree becomes messages of the plan, so its size is bounded; stopping keeps the
 * packing consistent, whereas dropping trees afterwards lost up to 40% of the rate on
 * fat-trees, whose packings spread over many near-equal trees).
 * Each kept tree is rooted at its center (least height, so the pipeline is short), ties
 * going to the host that roots the fewest trees so far, so roots spread over the workers.
 */
class ArborescencePacking
{
  public:
    /**
     * \brief Packer with an oracle-call budget, a step size and a cap on distinct trees.
     * \throws std::invalid_argument if iterations or maxTrees is 0 or epsilon not in (0, 1]
     */
    ArborescencePacking(uint32_t iterations, double epsilon, uint32_t maxTrees);

    /**
     * \brief Packs trees over all hosts of the topology.
     * \throws std::invalid_argument if the topology has no host or a used link has rate 0
     * \throws std::runtime_error if its routing loops
     */
    TreePackingResult Pack(const Topology& topology) const;

  private:
    uint32_t m_iterations;
    double m_epsilon;
    uint32_t m_maxTrees;
};

} // namespace ns3

#endif // PARAMSYNC_ARBORESCENCE_PACKING_H
