/*
 * PlanChecker: proves a SyncPlan correct symbolically, without a network. It is the oracle
 * every algorithm is tested against, and the driver runs it before any packet moves.
 */
#ifndef PARAMSYNC_PLAN_CHECKER_H
#define PARAMSYNC_PLAN_CHECKER_H

#include "sync-plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Outcome of PlanChecker::Check: readable errors and per-participant volumes.
 */
struct PlanCheckResult
{
    /// \brief True when errors is empty.
    bool
    Ok() const
    {
        return errors.empty();
    }
    /// \brief All errors joined by newlines (for test failure messages).
    std::string Summary() const;

    std::vector<std::string> errors;     //!< readable, at most maxErrors of them
    uint64_t errorCount{0};              //!< every error found, even those not listed
    std::vector<uint64_t> sentBytes;     //!< per participant, bytes it sends
    std::vector<uint64_t> receivedBytes; //!< per participant, bytes it receives
};

/**
 * \brief Symbolic checker of a SyncPlan (allreduce semantics).
 *
 * It replays transfers in id order keeping, per participant, byte-range segments (split on
 * demand, never per byte) with the contributor set each range holds and the transfers
 * that wrote it. It checks:
 *  - structure: transfers[i].id == i, src != dst, participants exist, bytes > 0, the range
 *    lies in [0, gradientBytes), carries is a non-empty set over `workers` workers;
 *  - dependencies point to earlier ids (so the plan is a DAG) and each has the transfer's
 *    src as its source or destination (src learns of it locally);
 *  - causality: over the whole range, the source holds exactly `carries`, and every
 *    transfer that wrote that data into the source is in the transfer's dependency
 *    closure (otherwise the data may not be there yet: a missing dependency, named);
 *  - no double counting: a Reduce whose carries overlap what the destination holds;
 *  - completeness: at the end every worker holds ContributorSet::All of every byte.
 * Execution model assumed: a transfer's payload is what its source holds when it starts,
 * and the destination applies it (add or replace) when it completes.
 * Cost: O(writers read + deps) a transfer when every writer is a dependency or is proven in
 * the closure by a chain of covers (plan-checker.cc); a backward search of the DAG otherwise.
 */
class PlanChecker
{
  public:
    /// \brief At most this many errors are listed (all are counted).
    explicit PlanChecker(uint32_t maxErrors = 20);
    /// \brief Checks plan; never throws on a bad plan, it reports.
    PlanCheckResult Check(const SyncPlan& plan) const;

  private:
    uint32_t m_maxErrors;
};

} // namespace ns3

#endif // PARAMSYNC_PLAN_CHECKER_H
