/*
 * RankIterationBarrier: over MPI ranks, when a sync job's next iteration begins and as of
 * which time. SyncJob's timing model (workloads/sync-job.h) starts iteration i + 1 at T_end,
 * the last delivery of iteration i anywhere; over ranks each rank sees only the deliveries
 * to its own hosts, its end T_r (SyncJob::SetIterationBarrier), and T_end = max_r T_r. Each
 * rank tells every other rank its T_r (through the notices of helper/rank-post-notices.h,
 * which arrive one lookahead L later); the rank holding every T_r of iteration i begins
 * i + 1 as of T_end (SyncJob::BeginNextIteration). It learns the last T_r at most L after
 * T_end, so a run equals the one-process run whenever each iteration's first post comes at
 * least L after T_end (compute, or its forward share under overlap, >= L). Otherwise a
 * rank's first posts of an iteration come up to L late, which reorders that iteration's
 * sharing: its GST may come out later or earlier, by about L (measured: -1,520 to +170 ns
 * with L = 1 us; the tested tolerance is in README "Running across MPI ranks").
 *
 * Plain C++ on ns-3 Time: the channel is a function, so the logic is tested without MPI
 * (test/rank-iteration-barrier-test.cc).
 */
#ifndef PARAMSYNC_RANK_ITERATION_BARRIER_H
#define PARAMSYNC_RANK_ITERATION_BARRIER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \brief Collects every rank's end of each iteration and releases the next one.
 */
class RankIterationBarrier
{
  public:
    /// \brief Tells rank `to` that this rank's part of `iteration` ended at `end`.
    using Send = std::function<void(uint32_t to, uint32_t iteration, Time end)>;
    /// \brief Begins the iteration after `iteration`, as of `end` (the last rank's end).
    using Release = std::function<void(uint32_t iteration, Time end)>;

    /**
     * \param ranks the ranks of the run (>= 1)
     * \param self this process's rank (< ranks)
     * \throws std::invalid_argument for self >= ranks or no rank
     */
    RankIterationBarrier(uint32_t ranks, uint32_t self, Send send, Release release);

    /// \brief This rank's part of `iteration` ended at `end`: told to every other rank.
    /// \throws std::logic_error when this rank's end of that iteration was given before
    void LocalEnd(uint32_t iteration, Time end);
    /// \brief Rank `rank`'s notice: its part of `iteration` ended at `end`.
    /// \throws std::invalid_argument for a rank out of range or this rank's own;
    /// std::logic_error for a second end of one rank and iteration
    void RemoteEnd(uint32_t rank, uint32_t iteration, Time end);

  private:
    /// \brief Records one rank's end; releases the next iteration when it was the last.
    void Record(uint32_t rank, uint32_t iteration, Time end);

    uint32_t m_ranks;                             //!< ranks of the run
    uint32_t m_self;                              //!< this rank
    Send m_send;                                  //!< the notice channel
    Release m_release;                            //!< begins the next iteration
    std::map<uint32_t, std::vector<Time>> m_ends; //!< by open iteration: ends by rank, < 0 unknown
    uint32_t m_released{0};                       //!< iterations released (in order)
};

} // namespace ns3

#endif // PARAMSYNC_RANK_ITERATION_BARRIER_H
