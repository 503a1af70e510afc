#include "run-guard.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

namespace ns3
{

RunGuard::RunGuard(Time stallAt, uint64_t maxEvents, Time grace, std::function<bool()> unfinished)
    : m_stallAt(stallAt),
      m_maxEvents(maxEvents),
      m_grace(grace),
      m_unfinished(std::move(unfinished))
{
    Simulator::ScheduleNow(&RunGuard::Tick, this);
}

void
RunGuard::Tick()
{
    const Time now = Simulator::Now();
    bool unfinished = m_unfinished();
    uint64_t events = Simulator::GetEventCount();
    if (m_global)
    {
        std::tie(unfinished, events) = m_global(unfinished, events);
    }
    if (!unfinished)
    {
        m_drained = true;
        m_endOfWork = now;
        Simulator::Stop(m_grace);
        return;
    }
    if (events >= m_maxEvents)
    {
        m_outOfEvents = true;
        m_endOfWork = now;
        Simulator::Stop();
        return;
    }
    if (now >= m_stallAt)
    {
        m_endOfWork = now;
        Simulator::Stop();
        return;
    }
    // A look every 100 us of simulated time: cheap, and the grace period starts at most
    // that late after the last delivery (GST is measured at the delivery itself).
    Simulator::Schedule(std::min(MicroSeconds(100), m_stallAt - now), &RunGuard::Tick, this);
}

RunProgress::RunProgress(bool enabled, std::function<std::pair<uint64_t, uint64_t>()> doneOfTotal)
    : m_enabled(enabled),
      m_doneOfTotal(std::move(doneOfTotal)),
      m_t0(std::chrono::steady_clock::now())
{
    if (m_enabled)
    {
        Simulator::Schedule(MicroSeconds(100), &RunProgress::Tick, this);
    }
}

RunProgress::~RunProgress()
{
    if (m_printed)
    {
        std::fprintf(stderr, "\r%*s\r", 100, "");
    }
}

void
RunProgress::Tick()
{
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
    // Silent for short runs: only a run past 2 s of wall time prints.
    if (wall > 2.0 && wall - m_lastPrint >= 0.5)
    {
        auto [done, total] = m_doneOfTotal();

        const double fraction = total ? static_cast<double>(done) / total : 0;
        std::fprintf(stderr,
                     "\r[paramsync] sim %.6f s  transfers %llu/%llu  wall %.1f s  eta %s   ",
                     Simulator::Now().GetSeconds(),
                     static_cast<unsigned long long>(done),
                     static_cast<unsigned long long>(total),
                     wall,
                     fraction > 0.01
                         ? (std::to_string(static_cast<int>(wall / fraction - wall)) + " s").c_str()
                         : "?");
        m_lastPrint = wall;
        m_printed = true;
    }
    auto [done, total] = m_doneOfTotal();
    if (done < total)
    {
        m_next = Simulator::Schedule(MicroSeconds(100), &RunProgress::Tick, this);
    }
}

} // namespace ns3
