/*
 * RoundPlan: the compact form of a step-synchronous plan, for fluid runs whose explicit
 * SyncPlan cannot be built (a ring over N workers has 2 (N-1) N transfers: 272 M at
 * N = 11,664, each with an N-bit contributor set and its dependencies).
 *
 * A round is a set of flows that start together and all carry the same number of bytes;
 * the next round starts when the last flow of this one has finished (a barrier), and a
 * round may repeat. Ring allreduce is one round of N flows repeated 2 (N-1) times; HiPS on
 * a torus is a round per stage, repeated g-1 times.
 *
 * What the compact form gives up, and why it still agrees with the explicit plan:
 *  - Barriers instead of per-worker dependencies. The algorithms that produce it are
 *    step-synchronous: every worker does the same thing at every step. When every flow of
 *    a round finishes at the same time (equal bytes, equal max-min rates: uncontended or
 *    symmetric rounds) a barrier waits for nothing and the two agree exactly; tests prove
 *    it on small instances (test/round-plan-test.cc). Under uneven contention the barrier
 *    makes fast workers wait, which the explicit plan does not.
 *  - One byte count per round: the largest piece of the step. Splits that are not exact
 *    give some pieces one byte more; the explicit plan's critical path follows such a
 *    largest piece (a ring chunk travels the whole ring), so on uncontended rounds this
 *    is what the explicit plan's fluid GST is too.
 *  - No contributor sets: the plan checker cannot run on it. Each generator is proven by
 *    tests that compare it with the explicit plan (transfers, bytes per link, fluid GST).
 */
#ifndef PARAMSYNC_ROUND_PLAN_H
#define PARAMSYNC_ROUND_PLAN_H

#include "sync-plan.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// \brief One point-to-point flow of a round: (source, destination) participants.
using RoundFlow = std::pair<ParticipantIndex, ParticipantIndex>;

/**
 * \brief Flows that start together, each carrying `bytes`, repeated `repeat` times with a
 * barrier after each repetition.
 */
struct SyncRound
{
    std::vector<RoundFlow> flows; //!< a pair may appear several times (several messages)
    uint64_t bytes{0};            //!< payload bytes of every flow (> 0)
    uint64_t repeat{1};           //!< consecutive repetitions (> 0)
    uint32_t phase{0};            //!< algorithm's phase label (as Transfer::phase)
};

/**
 * \brief A step-synchronous plan as a sequence of rounds (see the file comment).
 */
struct RoundPlan
{
    std::string algorithm;         //!< as SyncPlan::algorithm
    uint64_t gradientBytes{0};     //!< as SyncPlan::gradientBytes
    uint32_t workers{0};           //!< as SyncPlan::workers
    std::vector<uint32_t> hostOf;  //!< as SyncPlan::hostOf
    std::vector<SyncRound> rounds; //!< in execution order

    /// \brief Appends a round, or adds its repeats to the last round when that one has the
    /// same flows, bytes and phase. Rounds without flows or bytes are dropped.
    void Append(SyncRound round);
    /// \brief Transfers the explicit plan would have: sum of flows x repeat.
    uint64_t TransferCount() const;
    /// \brief Bytes each worker sends: sum of bytes x repeat over its flows (the closed
    /// forms of the volume tests).
    std::vector<uint64_t> SentBytes() const;
};

} // namespace ns3

#endif // PARAMSYNC_ROUND_PLAN_H
