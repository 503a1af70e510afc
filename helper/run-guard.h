/*
 * RunGuard and RunProgress: how a packet run ends and what it shows meanwhile
 * (ARCHITECTURE.md, Data flow of one run). The guard ends the simulation at its stop time if
 * work is left, or a grace period after the work finished, so that the last ACKs land and the
 * buffers drain (periodic timers, e.g. congestion control's, would otherwise keep the
 * simulation alive); only a run that ended by the grace period is "drained", and only then
 * are the drain invariants checked. The progress line prints on stderr for long runs.
 *
 * Over MPI ranks (ParamsyncHelper::SetRanks) each rank sees only its own hosts' work and
 * events; SetGlobalView makes every look decide on the whole run: the ranks look at the same
 * simulated times (the looks are scheduled alike on every rank), combine (work left
 * anywhere, events summed) in one all-reduce (MpiSession::CombineLook), and so all stop at
 * the same time for the same reason. A rank that stopped alone would leave the others
 * waiting for its ACKs and pause frames until --stop.
 */
#ifndef PARAMSYNC_RUN_GUARD_H
#define PARAMSYNC_RUN_GUARD_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace ns3
{

/**
 * \brief Ends a run: at the stop time, at an event limit, or a grace period after the work.
 */
class RunGuard
{
  public:
    /// \brief Looks now and every 100 us of simulated time while unfinished() is true.
    RunGuard(Time stallAt, uint64_t maxEvents, Time grace, std::function<bool()> unfinished);

    /// \brief (work left, events) of the whole run from this process's own: an all-reduce
    /// over the ranks (MpiSession::CombineLook). Default: this process's view as it is.
    using GlobalView = std::function<std::pair<bool, uint64_t>(bool, uint64_t)>;
    /// \brief Combine every look with the other ranks' (set before Simulator::Run).
    void
    SetGlobalView(GlobalView view)
    {
        m_global = std::move(view);
    }

    /// \brief Whether the run ended by the grace period after the work finished.
    bool
    Drained() const
    {
        return m_drained;
    }

    /// \brief When the guard first saw nothing unfinished (at most one look, 100 us, after
    /// the last delivery), or when it stopped the run; zero while it runs.
    Time
    EndOfWork() const
    {
        return m_endOfWork;
    }

    /// \brief Whether the event limit ended the run.
    bool
    OutOfEvents() const
    {
        return m_outOfEvents;
    }

  private:
    /// \brief One look: stop, or look again.
    void Tick();

    Time m_stallAt;                     //!< stop time
    uint64_t m_maxEvents;               //!< event limit
    bool m_outOfEvents{false};          //!< the limit ended the run
    Time m_grace;                       //!< run on this long after the work
    std::function<bool()> m_unfinished; //!< work left?
    GlobalView m_global;                //!< SetGlobalView, or none
    bool m_drained{false};              //!< ended by the grace period
    Time m_endOfWork;                   //!< see EndOfWork()
};

/**
 * \brief Progress line on stderr: simulated time, units done, wall time, estimate. Silent for
 * runs under 2 s of wall time; the line is cleared when the object goes.
 */
class RunProgress
{
  public:
    /// \brief doneOfTotal gives (done, total) units; enabled false: prints nothing.
    RunProgress(bool enabled, std::function<std::pair<uint64_t, uint64_t>()> doneOfTotal);
    ~RunProgress();
    RunProgress(const RunProgress&) = delete;
    RunProgress& operator=(const RunProgress&) = delete;

  private:
    /// \brief Prints (at most every 0.5 s of wall time) and looks again in 100 us.
    void Tick();

    bool m_enabled;                                               //!< print at all
    std::function<std::pair<uint64_t, uint64_t>()> m_doneOfTotal; //!< progress
    std::chrono::steady_clock::time_point m_t0;                   //!< wall start
    double m_lastPrint{0};                                        //!< wall of the last line
    bool m_printed{false};                                        //!< a line is showing
    EventId m_next;                                               //!< next look
};

} // namespace ns3

#endif // PARAMSYNC_RUN_GUARD_H
