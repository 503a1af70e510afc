/*
 * HdrmAlgorithm: halving-doubling with rank mapping (Dong et al., "EFLOPS: Algorithm and
 * System Co-design for a High Performance Distributed Training Platform", HPCA 2020). On
 * the BiGraph, ranks are placed on hosts so that every halving-doubling exchange crosses the
 * two switch parts and no two pairs of one step share an inter-part link: each step runs
 * contention-free at line rate.
 */
#ifndef PARAMSYNC_HDRM_ALGORITHM_H
#define PARAMSYNC_HDRM_ALGORITHM_H

#include "sync-algorithm.h"

#include <cstdint>
#include <vector>

namespace ns3
{


/**
 * \brief Halving-doubling with EFLOPS rank mapping on bigraph:s=S,m=M. No options.
 *
 * Halving-doubling (Thakur, Rabenseifner, Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 2005): P = 2^D workers; reduce-scatter by recursive halving
 * (step j pairs rank r with r XOR 2^(D-1-j), each sends the half of its current range the
 * partner keeps: the lower rank keeps the lower half), then all-gather by recursive doubling
 * in reverse order. Per worker 2(P-1)W/P each way. It is laid out by the hierarchical
 * engine (AddHierarchicalAllreduce) over the D hypercube dimensions {r, r XOR 2^j}.
 *
 * Rank mapping (our construction; the paper gives the property, not a formula): a
 * hypercube rank r lives in part parity(r), so flipping any one bit (every exchange) crosses
 * the parts. Let x = r without its top bit (D-1 = s + t bits, S = 2^s, M = 2^t). In part 0
 * (upper) r sits on switch x >> t, slot x mod M; in part 1 (lower) on switch x mod S, slot
 * x >> s. The hosts of an upper switch are a coset x0 + K_up with K_up = span of the low t
 * bits; their partners at any step are x0 + K_up + e (e = 0 or one bit), whose lower
 * switches (low s bits) are pairwise distinct because K_up meets the kernel of "low s bits"
 * only in 0 when t <= s. The same argument with the roles swapped holds for lower switches.
 * So each upper-lower switch pair (one link) carries at most one pair per step.
 *
 * Ideal (fluid) GST: no step shares a link, so step j moves W/2^(j+1) at line rate B and
 * the GST is the ring term 2(P-1)W/(PB); with hosts in plain switch order (no mapping) the
 * steps that cross or leave a switch share links (2.9x slower on bigraph:s=4,m=4).
 *
 * Requires: bigraph, 2SM a power of two (S and M powers of two) and M <= S (an upper switch's
 * M hosts need M distinct links each step). No fold-in for other sizes: AppliesTo() says why.
 */
class HdrmAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "hdrm" (no options). \throws std::invalid_argument on any option
    explicit HdrmAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /// \brief Host rank of every hypercube rank (the EFLOPS rank mapping) on `bigraph`.
    /// \throws std::invalid_argument when the sizes are not served (see the class comment)
    static std::vector<uint32_t> RankMap(const Topology& bigraph);
};

} // namespace ns3

#endif // PARAMSYNC_HDRM_ALGORITHM_H
