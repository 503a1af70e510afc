#include "pfc-watchdog.h"

#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

PfcWatchdog::PfcWatchdog(uint32_t ports, Time detection, Time restore, Hooks hooks)
    : m_state(ports),
      m_detection(detection),
      m_restore(restore),
      m_hooks(std::move(hooks))
{
    if (!m_hooks.paused || !m_hooks.backlogged || !m_hooks.sent || !m_hooks.flush ||
        !m_hooks.changed)
    {
        throw std::invalid_argument("PfcWatchdog: every hook must be set");
    }
    if (!detection.IsStrictlyPositive() || !restore.IsStrictlyPositive())
    {
        throw std::invalid_argument("PfcWatchdog: detection and restore times must be > 0");
    }
}

PfcWatchdog::~PfcWatchdog()
{
    m_poll.Cancel();
}

void
PfcWatchdog::Wake()
{
    if (!m_poll.IsRunning())
    {
        m_poll = Simulator::ScheduleNow(&PfcWatchdog::Poll, this);
    }
}

void
PfcWatchdog::Poll()
{
    const Time now = Simulator::Now();
    bool watching = false;
    for (uint32_t port = 0; port < m_state.size(); ++port)
    {
        for (uint8_t q = 0; q < 8; ++q)
        {
            Watch& w = m_state[port][q];
            const bool paused = m_hooks.paused(port, q);
            if (!w.stormed)
            {
                if (paused && m_hooks.backlogged(port, q))
                {
                    const uint64_t sent = m_hooks.sent(port, q);
                    if (w.pausedSince.IsStrictlyNegative() || sent != w.sentAtStart)
                    {
                        // First look, or the queue sent since the window began: it drains.
                        w.pausedSince = now;
                        w.sentAtStart = sent;
                    }
                    else if (now - w.pausedSince >= m_detection)
                    {
                        w.stormed = true;
                        w.clearSince = Time(-1);
                        ++m_storms;
                        m_hooks.changed(port, q, true);
                        m_hooks.flush(port, q);
                    }
                    watching = true;
                }
                else
                {
                    w.pausedSince = Time(-1);
                    watching = watching || paused;
                }
                continue;
            }
            watching = true;
            if (paused)
            {
                w.clearSince = Time(-1);
            }
            else if (w.clearSince.IsStrictlyNegative())
            {
                w.clearSince = now;
            }
            else if (now - w.clearSince >= m_restore)
            {
                w.stormed = false;
                w.pausedSince = Time(-1);
                m_hooks.changed(port, q, false);
            }
        }
    }
    if (watching)
    {
        m_poll = Simulator::Schedule(m_detection / 4, &PfcWatchdog::Poll, this);
    }
}

} // namespace ns3
