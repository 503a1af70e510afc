/*
 * DoubleBinaryTreeAlgorithm: the double binary tree allreduce of NCCL 2.4 (Jeaugey, "Massively
 * Scale Your Deep Learning Training with NCCL 2.4", NVIDIA blog, Feb. 2019), after Sanders,
 * Speck and Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and scan",
 * Parallel Computing 35(12), 2009: two complementary binary trees each carry half of the
 * gradient, pipelined in blocks, reduced up to the root and broadcast back down.
 */
#ifndef PARAMSYNC_DOUBLE_BINARY_TREE_ALGORITHM_H
#define PARAMSYNC_DOUBLE_BINARY_TREE_ALGORITHM_H

#include "sync-algorithm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Double binary tree allreduce ("dbtree:blocks=K", default K = 8).
 *
 * Tree shape: the in-order binary tree over positions 0..P-1 in which position p sits at
 * height = number of trailing zero bits of p + 1 (the root is the position with the most;
 * Sanders et al. build their two trees on in-order numbering). Leaves are the even
 * positions. Tree 0 puts worker r at position r; tree 1 at position P-1-r (mirror) when P
 * is even, at position (r - 1) mod P (shift) when P is odd (NCCL's rule): each worker is
 * then a leaf in one tree and an inner node in the other (for odd P, worker 0 is a leaf in
 * both), so every worker sends and receives at most 2W (2W + 1 for odd W).
 *
 * Tree 0 carries bytes [0, ceil(W/2)), tree 1 the rest, each cut into K blocks (the first
 * ones one byte longer). Per block: a node sends the sum of its subtree to its parent once
 * its children's blocks are in; the root then holds the full sum and sends it down; each
 * inner node forwards a block down as soon as it has it. Reduction and broadcast of
 * different blocks overlap.
 *
 * Per tree every one of the P-1 edges carries W/2 up and W/2 down: the plan moves
 * 2(P-1)W bytes in all.
 *
 * Assumptions where the sources are silent or differ: the root has up to two children
 * (NCCL's tree root has one); a node's blocks go to one peer one after another (each send
 * waits for the previous block's send to that peer), so the pipeline is ordered rather than
 * all blocks sharing the link at once; empty blocks (W < 2K) are left out.
 */
class DoubleBinaryTreeAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "dbtree[:blocks=K]". \throws std::invalid_argument
    explicit DoubleBinaryTreeAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /**
     * \brief Parent of each worker in tree `tree` (0 or 1) over `workers` workers; the
     * root's entry is itself. Exposed for tests.
     */
    static std::vector<uint32_t> Parents(uint32_t workers, uint32_t tree);

  private:
    uint32_t m_blocks;
};

} // namespace ns3

#endif // PARAMSYNC_DOUBLE_BINARY_TREE_ALGORITHM_H
