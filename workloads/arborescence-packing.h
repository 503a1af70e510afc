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
    /// \brief A proven upper bound of the optimal packing, the smaller of the LP dual bound
    /// and the hosts' port capacity over 2(N-1): aggregateBps / upperBoundBps is how near
    /// optimal the packing is (1 = optimal).
    double upperBoundBps{0};
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
 * Algorithm, in steps, so that the result is near optimal with a proof:
 *  1. Warm start: Garg-Koenemann multiplicative weights (Garg & Koenemann, FOCS 1998) for
 *     at most `iterations` oracle calls or B distinct trees (the tree budget, first
 *     min(32, maxTrees)): lengths l_e = 1/c_e; each call finds the tree of least cost
 *     sum_e l_e usage(e) and multiplies each l_e on it by 1 + eps * usage(e) * rate / c_e
 *     (rate: the tree's bottleneck alone).
 *  2. Column generation (Dantzig-Wolfe): the exact LP over the trees found so far
 *     (PackingLp, a warm-started simplex); its duals y_e price the links, and the oracle's
 *     cheapest tree under y either costs < 1 (it improves the LP: added, re-solved) or
 *     proves the LP optimal over all trees. Stops when proven within 0.1 % or after
 *     min(`iterations`, 64) more oracle calls. LP value / cheapest cost is an upper bound
 *     at every round (weak duality), reported as upperBoundBps with the hosts' port bound.
 *  3. The LP optimum's trees, at most B (below). If they are not proven within `gap` of the
 *     optimum (aggregate >= (1 - gap) x upper bound) and B < maxTrees, B grows by half (32,
 *     48, 72, 108, 128 ...) and steps 1 and 3 continue from where they were (the same lengths,
 *     `iterations` more oracle calls; the LP gets the new trees; no column generation: at
 *     hundreds of hosts the LP's duals are degenerate, most links price at 0, and the
 *     cheapest tree under them rarely helps: 64 rounds raise BCube(8,2)'s LP over 32 trees
 *     from 56.56 to 56.87 Gb/s).
 *     What limits a fixed budget: at 432-512 hosts the warm start reaches 32 distinct trees
 *     long before its iterations, and the LP over 32 trees is 93-94 % of the optimum
 *     (BCube(8,2) 56.6 of 60.1 Gb/s, fat-tree k=12 18.6 of 20.0, torus 8x8x8 113.9 of
 *     120.2); 64 trees give 97.7-97.9 %, 96 trees 98.7-99.1 %. With gap 0.025 the three
 *     stop at 72 trees: 58.97 (98.1 %), 19.73 (98.4 %), 118.06 Gb/s (98.2 %), in 8-13 s of
 *     CPU on a loaded 2-core machine (routing all host pairs, about 100 oracle calls of
 *     N^2 / 2 route costs and Prim's algorithm, the dense LP over 2 x links rows).
 * The oracle is exact: every tree edge is used in both directions, so an edge's cost does
 * not depend on which end is the parent, and the min-cost tree (for any root) is the
 * minimum spanning tree of the symmetric pair costs, found by Prim's algorithm
 * (Boost.Graph). The trees with a positive LP rate are kept, at most B of them (every tree
 * becomes messages of the plan): when the optimum uses more, the largest are kept and
 * re-optimized among themselves. If one tree alone is faster, that tree is used. Networks
 * up to 128 hosts are within the gap at the first budget of 32 trees (the figures below);
 * the budget grows only where the proof needs it.
 * Measured (40 Gb/s, the hosts' port bound in brackets, which the LP proves optimal where
 * they meet): BCube(4,1) 42.67 (42.67), BCube(3,2) 61.98 (62.31: 32 trees of the LP's
 * optimum kept), BCube(4,2) 59.5 (60.95), torus 4x4 85.33 (85.33), 5x5 82.72 (83.33),
 * 3x3x3 121.9 (124.6), fat-tree k=4 21.33 (21.33), k=6 20.26 (20.38), k=8 19.69 (20.16)
 * Gb/s.
 * Each kept tree is rooted at its center (least height, so the pipeline is short), ties
 * going to the host that roots the fewest trees so far, so roots spread over the workers.
 */
class ArborescencePacking
{
  public:
    /**
     * \brief Packer with an oracle-call budget (per budget step), a step size, a cap on
     * distinct trees and the proven gap to the optimum at which the tree budget stops
     * growing (0.025: at least 97.5 % of the optimum when reached).
     * \throws std::invalid_argument if iterations or maxTrees is 0, epsilon not in (0, 1]
     * or gap not in [0, 1)
     */
    ArborescencePacking(uint32_t iterations, double epsilon, uint32_t maxTrees, double gap);

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
    double m_gap;
};

} // namespace ns3

#endif // PARAMSYNC_ARBORESCENCE_PACKING_H
