/*
 * HalvingDoublingAlgorithm: Rabenseifner's allreduce as described by Thakur, Rabenseifner
 * and Gropp, "Optimization of Collective Communication Operations in MPICH", IJHPCA 19(1),
 * 2005 (its allreduce section): a reduce-scatter by recursive halving followed by an
 * all-gather by recursive doubling, with a fold-in step for a number of workers that is not
 * a power of two.
 */
#ifndef PARAMSYNC_HALVING_DOUBLING_ALGORITHM_H
#define PARAMSYNC_HALVING_DOUBLING_ALGORITHM_H

#include "sync-algorithm.h"

#include <string>

namespace ns3
{

/**
 * \brief Halving-doubling allreduce ("hd", no options).
 *
 * P workers; p' the largest power of two <= P, r = P - p'. Fold-in (Thakur et al.):
 * among the first 2r workers, each even worker 2i sends its whole gradient to 2i+1, which
 * reduces it and takes part in the p' exchange; at the end 2i+1 sends the whole result back.
 * The p' remaining workers are renumbered 0..p'-1 in worker order. Recursive halving: step
 * j = 1..log2 p' pairs v with v XOR p'/2^j (distance p'/2 first, as in the paper); the
 * lower-numbered partner keeps the lower half of its current range, each sends the other
 * half (its partial sum) to the partner, so after the last step v holds the full sum of
 * block v of p' blocks. Recursive doubling mirrors it: distance 1 first, each sends all it
 * has (full sums) and the ranges double.
 *
 * Closed form (P a power of two, P | W): each worker sends and receives 2(P-1)W/P. With the
 * fold-in, an even worker among the first 2r sends and receives W, its partner
 * 2(p'-1)W/p' + W.
 *
 * Assumptions where the paper is silent: blocks are W split into p' parts with the first
 * W mod p' one byte longer; each step of a worker waits for its previous send and receive
 * (as in MPI's blocking exchange), but not for its partner to be ready: a worker not folded
 * into sends its first halving message to a fold-in partner while the fold-in still runs
 * (a sender cannot see a transfer it is not part of), so the two share that link; a step
 * that would move 0 bytes (W < p') is left out.
 */
class HalvingDoublingAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "hd" (no options). \throws std::invalid_argument on any option
    explicit HalvingDoublingAlgorithm(const std::string& spec);
    std::string Spec() const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;
};

} // namespace ns3

#endif // PARAMSYNC_HALVING_DOUBLING_ALGORITHM_H
