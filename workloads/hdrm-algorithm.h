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
 * What is the paper's: halving-doubling on the BiGraph with ranks mapped to hosts so that
 * the pairs of a step do not contend for the links between the two switch parts (Dong et
 * al., HPCA 2020). The paper states the property; the mappings below, the treatment of
 * m > s and of host counts that are not a power of two, and the bounds are ours.
 *
 * Halving-doubling (Thakur, Rabenseifner, Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 2005): P = 2^D workers; reduce-scatter by recursive halving
 * (step j pairs rank r with r XOR 2^(D-1-j), each sends the half of its current range the
 * partner keeps: the lower rank keeps the lower half), then all-gather by recursive doubling
 * in reverse order. Per worker 2(P-1)W/P each way. It is laid out by the hierarchical
 * engine (AddHierarchicalAllreduce) over the D hypercube dimensions {r, r XOR 2^j}.
 *
 * 1. P = 2SM a power of two, M <= S (contention-free). A hypercube rank r lives in part
 * parity(r), so flipping any one bit (every exchange) crosses the parts. Let x = r without
 * its top bit (D-1 = s + t bits, S = 2^s, M = 2^t). In part 0 (upper) r sits on switch
 * x >> t, slot x mod M; in part 1 (lower) on switch x mod S, slot x >> s. The hosts of an
 * upper switch are a coset x0 + K_up with K_up = span of the low t bits; their partners at
 * any step are x0 + K_up + e (e = 0 or one bit), whose lower switches (low s bits) are
 * pairwise distinct because K_up meets the kernel of "low s bits" only in 0 when t <= s.
 * The same argument with the roles swapped holds for lower switches. So each upper-lower
 * switch pair (one link) carries at most one pair per step. Fluid GST: step j moves
 * W/2^(j+1) at line rate B, 2(P-1)W/(PB) in all (the ring term); with hosts in plain
 * switch order the steps that cross or leave a switch share links (2.9x slower on
 * bigraph:s=4,m=4).
 *
 * 2. P a power of two, M = 2^k S with k >= 1 (not contention-free; no mapping is). Why
 * none is: in a contention-free step at most S of a switch's M hosts can have their partner
 * off the switch (S links leave it), so over the D dimensions a switch's host set (M
 * vertices of the D-cube) has at most D S edges leaving it; the cube's edge-isoperimetric
 * inequality (Harper 1964; Bernstein 1967) needs at least M (D - log2 M) = M (1 + s), and
 * M (1 + s) = 2^k S (1 + s) >= D S = S (1 + 2s + k) for every k >= 1, strictly for
 * k >= 2; at k = 1 only subcubes reach the inequality's bound, and a subcube's M hosts all
 * leave it together in a dimension that leaves it (M > S flows on S links). Ours: the top k rank
 * bits pick one of 2^k groups of S slots of a switch and the low 1 + 2s bits are laid out as in 1.
 * on bigraph:s=S,m=S. The first k halving steps (the largest, W/2 .. W/2^k) stay inside a switch
 * (host links only); in each of the other 1 + 2s steps every inter-part link carries exactly M/S
 * flows (each group alone is contention-free and uses every link once). Fluid GST: 2 W / B (1 - S/M
 * + (M/S)(S/M - 1/P)) = 2 W / B (2 - S/M - 1/(2 S^2)); bigraph:s=4,m=8: 1.469 x 2W/B against the
 * ring term's 0.984 x 2W/B.
 *
 * 3. P not a power of two: fold-in as in hd (HalvingDoublingAlgorithm: the first r = P - C
 * core positions, C the largest power of two <= P, each take in one extra worker's whole
 * gradient first and return the whole sum last), with a layout found by a backtracking
 * search: every core position v goes to a switch of part parity(v) so that no two pairs of
 * a dimension share an inter-part link (the condition of 1.), and every extra worker sits
 * on the switch of the core position it folds into (the fold crosses no inter-switch
 * link). A switch then holds exactly M hosts: its core positions count 1, those below r
 * count 2 (they bring their extra). Every step (fold, halving, doubling, unfold) is
 * contention-free. The search is exhaustive up to kSearchNodes nodes; where it proves there
 * is no such layout (bigraph:s=3,m=3: not even for the 16-host core alone; s=3,m=2: not
 * with the folds inside a switch) or gives up (its plain depth-first order does on e.g.
 * s=6,m=6; s=7,m=5; s=9,m=9), AppliesTo() says so; so it does, without a search, when a
 * part has more folded positions than its switches have room for beside them (s floor(m/2);
 * e.g. s=9,m=3; s=5,m=3). Served, for
 * instance: s=5,m=2; s=6,m=2; s=7,m=3; s=5,m=4; s=6,m=4; s=5,m=5; s=12,m=4. Fluid GST with
 * r = C/2 (s=6,m=4; s=6,m=2; s=12,m=4): (4.5 - 2/C) W / B: the fold W/B, the halving
 * (1 - 1/C) W/B, the doubling (1 - 1/C) W/B, the unfold W/B, plus W/(2B) because hd lets a
 * position without an extra send its first halving message into a position still taking
 * in its fold (the two share that host link; see halving-doubling-algorithm.h). With
 * r != C/2 hd's steps run out of step with each other and more such host-link overlaps
 * follow (fluid, measured: s=5,m=2 and s=5,m=4 0.25 W/B more, s=7,m=3 and s=5,m=5 0.44
 * W/B more); no step shares a link with itself. The bound 2(P-1)W/(PB) is not reached:
 * the fold is Rabenseifner's price for P not a power of two.
 */
class HdrmAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "hdrm" (no options). \throws std::invalid_argument on any option
    explicit HdrmAlgorithm(const std::string& spec);
    std::string Spec() const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /// \brief Host rank of every worker of the plan on `bigraph`: of every hypercube rank
    /// when 2SM is a power of two, else of hd's workers (extras and core, see the class
    /// comment). \throws std::invalid_argument when the sizes are not served
    static std::vector<uint32_t> RankMap(const Topology& bigraph);

    /// \brief Nodes the fold-in layout search visits before it gives up.
    static constexpr uint64_t kSearchNodes = 1000000;
};

} // namespace ns3

#endif // PARAMSYNC_HDRM_ALGORITHM_H
