/*
 * TreePackingAlgorithm (`trees`): topology-adaptive allreduce over a packed forest of
 * spanning trees, after Zhang, Wu, Li, "Near-Optimal Topology-adaptive Parameter
 * Synchronization in Distributed DNN Training", IEEE INFOCOM 2021: trees rooted at
 * different workers are packed on the network's link capacities, each tree synchronizes a
 * partition of the gradient sized by its rate, aggregating up to its root and broadcasting
 * back down in pipelined blocks so the two directions overlap.
 */
#ifndef PARAMSYNC_TREE_PACKING_ALGORITHM_H
#define PARAMSYNC_TREE_PACKING_ALGORITHM_H

#include "sync-algorithm.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

struct TreePackingResult;

/**
 * \brief Forest-packing allreduce.
 *
 * Spec `trees[:iterations=I][,epsilon=E][,maxtrees=M][,gap=G][,streams=S][,blocks=K]`,
 * defaults 256, 0.1, 128, 0.025, 2, 8: I multiplicative-weights iterations with step E per
 * tree budget, the budget starting at min(32, M) trees and growing by half up to M while
 * the kept trees are not proven within G of the optimum (ArborescencePacking documents the
 * packing); on average S streams per tree; each stream's range cut into K blocks. Up to
 * 128 hosts the first budget suffices (the plans are those of a fixed 32-tree budget);
 * BCube(8,2), torus 8x8x8 and fat-tree k=12 keep 48-72 trees (see ArborescencePacking).
 *
 * Streams: neither the network nor the fluid estimator runs a tree at its packed rate:
 * links are shared max-min fairly among the busy queue pairs (one per host pair in the
 * ideal, serving its messages in order: workloads/fluid-estimator.h), so a fast tree that
 * shares links with slow ones gets only an equal share per edge. Each tree T therefore runs
 * as round(S x T x_T / lambda) >= 1 independent streams (T trees, lambda = sum x_T) of
 * (nearly) equal rate, so that trees whose edges join different host pairs share links in
 * about their packed proportions; streams between the same two hosts queue on the same
 * queue pair. Measured (fluid, 32 MB, 40 Gb/s, streams=2, blocks=8 / 32): BCube(4,1)
 * 7.19 / 6.77 ms and torus 4x4 3.51 / 3.18 ms against 6.00 and 3.00 ms at the optimal
 * packing's rate: the rest is the pipeline's fill and the sharing just described.
 *
 * Plan, per stream of rate r (aggregate rate lambda = sum of all streams' rates): its
 * partition is the byte range of length W r / lambda (cumulative rounding, so the lengths
 * sum to W exactly; streams then end together if each runs at its rate), synchronized over
 * its tree. Per block b:
 *  - up: every non-root host reduces block b into its parent once it received block b
 *    from all its children (carrying its subtree's contributions) and after its own
 *    block b-1 went up;
 *  - down: the root, once it holds the full sum of block b, copies it to each child;
 *    every inner host forwards block b to each child once it received it; each after the
 *    same edge's block b-1.
 * So block b+1 climbs while block b descends: aggregation and broadcast overlap, and one
 * message per tree edge and direction is in flight. Every tree edge carries its partition
 * once each way: the plan moves 2(N-1)W bytes in all (a host sends deg_T(h) W_T per tree).
 * The plan has about S M 2(N-1) K transfers (the trees' count is at most M).
 * Assumptions where the paper is silent or our model differs: trees span hosts only (edges
 * are routed paths; switches do not aggregate); the partition follows the packed rates
 * although the network shares links max-min fairly per flow, not at those rates; at most
 * 512 hosts (the packing routes all N^2 host pairs).
 */
class TreePackingAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses the spec above. \throws std::invalid_argument naming the bad option
    explicit TreePackingAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /// \brief The packing Compile() uses (trees, their rates), for tests and reports.
    TreePackingResult Pack(const Topology& topology) const;

    /**
     * \brief The streams of a packing: (tree index, stream rate), round(S x_T / lambda)
     * streams (at least one) per tree T, each with rate x_T / count, in tree order.
     */
    std::vector<std::pair<uint32_t, double>> Streams(const TreePackingResult& packing) const;

    /// \brief Most hosts the packing accepts.
    static constexpr uint32_t kMaxHosts = 512;

  private:
    uint32_t m_iterations;
    double m_epsilon;
    uint32_t m_maxTrees;
    double m_gap;
    uint32_t m_blocks;
    uint32_t m_streams;
};

} // namespace ns3

#endif // PARAMSYNC_TREE_PACKING_ALGORITHM_H
