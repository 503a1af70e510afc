/*
 * GstLowerBound: a time no schedule of a SyncPlan on given queue pairs and paths can beat
 * (a relaxation), as opposed to the FluidEstimator's max-min run, which is one feasible
 * schedule. It gives `ideal_gst_s` (on EcmpSplitPaths) and `bound_gst_s` (on the packet
 * run's PinnedPaths, framed, with latency), so that ideal <= bound <= GST holds by proof.
 *
 * Inputs: the plan's transfers, and per host pair the queue pairs a transfer is striped
 * over (FluidPaths::QueuePairs, equal parts, the first `bytes mod parts` one byte longer,
 * parts = min(QPs, bytes), as SyncJob::Post stripes), the links each queue pair uses with
 * their fractions a_l (FluidPaths::Uses) and the bytes a message puts on the wire.
 *
 * 1. Solo time s_t of transfer t: a part of W wire bytes on a queue pair that sends a_l of
 *    its traffic over link l (capacity c_l bytes/s) puts a_l W bytes on l, which takes at
 *    least a_l W / c_l; so the part lasts at least W / r_q with r_q = min_l c_l / a_l, and
 *    the transfer at least s_t = max over its parts. A caller may raise a part's time with
 *    the least time the packet model needs to carry it alone (PathTime: propagation and
 *    store-and-forward, helper/routed-bound.h). A co-located transfer (same host) has 0.
 * 2. Heads and tails: t starts only after its dependencies completed, so by induction it
 *    starts no earlier than r_t = max_d (r_d + s_d) (deps point backwards: one forward
 *    pass); after t completes, its dependents still need q_t = max_u (s_u + q_u) (one
 *    backward pass). The chain bound is max_t (r_t + s_t + q_t). A dependency d that t's
 *    source sent is seen done only when acknowledged: r_d + s_d + ack (AckTime). Heads are
 *    raised further by the dependencies' shared host ports: every d in D(t) must have
 *    entered its destination host h (all its wire bytes through h's incoming links, of
 *    total rate C_in(h)) before t starts, so for the deps of t into h sorted by head,
 *    r_t >= max_k (r_(k) + sum over deps with r >= r_(k) of W_d / C_in(h)) (the one-machine
 *    bound without tails on the host's ingress; the same for the egress of their sources).
 *    With several solo transfers, the load on a link sums over the transfer's parts too:
 *    s_t >= W_min x max_l sum_q a_ql / c_l (W_min: the smallest part's wire bytes).
 * 3. Link bound (the one-machine relaxation with heads and tails; Carlier, "The one-machine
 *    sequencing problem", EJOR 11 (1982); Jackson's preemptive rule attains it): the bytes of
 *    the transfers of a set S on directed link l need sum_S p_t of link time, p_t = sum
 *    over t's parts of a_l W / c_l. None starts before min_S r, so the last of them leaves l
 *    no earlier than min_S r + sum_S p; the transfer it belongs to completes no earlier,
 *    and its dependents need min_S q more: GST >= min_S r + sum_S p + min_S q for every S.
 *    Computing the best S is a sort per link; instead, with thresholds theta_1 < ... <
 *    theta_K among the heads and phi_1 < ... < phi_K among the tails, the sets
 *    S_ij = {t : r_t >= theta_i, q_t >= phi_j} give theta_i + load(S_ij) + phi_j, each a
 *    valid instance of the inequality (min_S r >= theta_i, min_S q >= phi_j). Every use adds
 *    p_t to cell (i(t), j(t)) of its link (the largest thresholds below r_t, q_t); 2D
 *    suffix sums then give every load(S_ij). With at most K distinct heads and tails the
 *    thresholds are the values themselves and the sets S_ij are exactly the ones the exact
 *    bound ranges over. The grid is K x K doubles per directed link, K <= 32 and smaller
 *    when the links are many (kMaxCells).
 * 4. Result: max(chain, every link's bound).
 *
 * Cost: the uses are asked twice per host pair (solo times, then loads; never stored, so a
 * 1,024-host mesh spread over ~146 links a pair does not keep 150 M entries), O(uses x
 * transfers of the pair) additions; memory O(transfers x links at their end hosts +
 * dependencies + K^2 x links).
 */
#ifndef PARAMSYNC_GST_LOWER_BOUND_H
#define PARAMSYNC_GST_LOWER_BOUND_H

#include "fluid-paths.h"
#include "round-plan.h"
#include "sync-plan.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief Outcome of GstLowerBound::Compute: the bound and which term binds.
 */
struct GstBound
{
    static constexpr uint32_t kNoLink = ~0u;

    double gstS{0};   //!< max(chainS, linkS): no schedule completes the plan earlier (s)
    double chainS{0}; //!< the longest chain of solo times (s)
    double linkS{0};  //!< the best link bound (s)
    /// \brief Directed link (FluidResult::DirectedIndex) of linkS; kNoLink without links.
    uint32_t link{kNoLink};
    double linkHeadS{0}; //!< theta of the binding link's best cell (s)
    double linkLoadS{0}; //!< load of that cell's set on the link (s)
    double linkTailS{0}; //!< phi of that cell (s)

    /// \brief "chain" or "link A->B (head + load + tail)" for explanations.
    std::string Describe(const Topology& topology) const;
};

/**
 * \brief The relaxation: chain and per-link bounds with heads and tails.
 */
class GstLowerBound
{
  public:
    /// \brief Least time (s) a part of `payload` bytes on queue pair `qp` of (src, dst)
    /// needs alone, beyond what its rate gives (0 when none is known).
    using PathTime = std::function<double(HostRank src, HostRank dst, uint32_t qp, uint64_t)>;
    /// \brief Least time (s) between a message from src to dst arriving whole and its
    /// sender learning it (the acknowledgement's way back; 0 when none is known).
    using AckTime = std::function<double(HostRank src, HostRank dst)>;

    /// \brief Most grid cells over all directed links (16 M doubles: 128 MB).
    static constexpr uint64_t kMaxCells = uint64_t{1} << 24;
    /// \brief Most thresholds per axis.
    static constexpr uint32_t kMaxThresholds = 32;

    /**
     * \brief The bound of `plan` on `paths`.
     * \param pathTime optional least solo time of a part (see PathTime)
     * \param ackTime optional acknowledgement time: a dependency whose source is the
     * dependent's own source is seen done only when acknowledged (SyncJob: the sender's
     * completion), so its completion counts with it in heads and tails
     * \throws std::invalid_argument naming the link if a used link has no finite rate > 0
     */
    GstBound Compute(const Topology& topology,
                     const SyncPlan& plan,
                     const FluidPaths& paths,
                     const PathTime& pathTime = nullptr,
                     const AckTime& ackTime = nullptr) const;

    /**
     * \brief The bound of a RoundPlan on the perfect ECMP split: rounds are barrier-
     * separated in that form (workloads/round-plan.h), so each repetition of a round lasts
     * at least max(max_l load_l / c_l, the longest solo flow), and the sum over rounds of
     * that times `repeat` bounds the compact plan's execution.
     */
    double ComputeRounds(const Topology& topology, const RoundPlan& plan) const;
};

} // namespace ns3

#endif // PARAMSYNC_GST_LOWER_BOUND_H
