#include "pfc-pause-storm.h"

#include "pfc-net-device.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

PfcHeldPause::PfcHeldPause(Ptr<PfcNetDevice> dev,
                           uint8_t priority,
                           uint16_t quanta,
                           std::function<bool()> keepGoing)
    : m_dev(std::move(dev)),
      m_priority(priority),
      m_quanta(quanta),
      m_keepGoing(std::move(keepGoing))
{
}

PfcHeldPause::~PfcHeldPause()
{
    m_refresh.Cancel();
}

void
PfcHeldPause::Hold()
{
    if (!m_held)
    {
        m_held = true;
        Refresh();
    }
}

void
PfcHeldPause::Release()
{
    if (m_held)
    {
        m_held = false;
        m_refresh.Cancel();
        m_dev->SendPause(m_priority, 0);
    }
}

bool
PfcHeldPause::Is(const Ptr<PfcNetDevice>& dev, uint8_t priority) const
{
    return m_dev == dev && m_priority == priority;
}

void
PfcHeldPause::Refresh()
{
    m_dev->SendPause(m_priority, m_quanta);
    if (m_keepGoing())
    {
        // Half the pause time, as switches refresh an XOFF (model/pfc-switch.h): the peer
        // never sees the pause expire between two frames.
        m_refresh = Simulator::Schedule(
            m_dev->PauseDuration(m_quanta) / 2, &PfcHeldPause::Refresh, this);
    }
}

NS_OBJECT_ENSURE_REGISTERED(PfcPauseStorm);

TypeId
PfcPauseStorm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcPauseStorm")
            .SetParent<Object>()
            .SetGroupName("Paramsync")
            .AddConstructor<PfcPauseStorm>()
            .AddAttribute("Start",
                          "When the NIC starts flooding pause frames, from Install().",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&PfcPauseStorm::m_start),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Duration",
                          "How long the storm lasts; 0: until the run is over.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&PfcPauseStorm::m_duration),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Quanta",
                          "Pause time of each pause frame, in 512-bit times (802.1Qbb); "
                          "the largest by default, as a flooding NIC sends.",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&PfcPauseStorm::m_quanta),
                          MakeUintegerChecker<uint16_t>(1));
    return tid;
}

PfcPauseStorm::PfcPauseStorm()
    : m_keepGoing([]() { return true; })
{
}

PfcPauseStorm::~PfcPauseStorm() = default;

void
PfcPauseStorm::SetKeepGoing(std::function<bool()> keepGoing)
{
    m_keepGoing = std::move(keepGoing);
}

void
PfcPauseStorm::Install(const std::vector<Ptr<PfcNetDevice>>& ports,
                       const std::vector<uint8_t>& priorities)
{
    for (const auto& dev : ports)
    {
        for (uint8_t q : priorities)
        {
            // The held pauses ask the storm, not a copy of its predicate, so that a
            // SetKeepGoing after Install still counts.
            m_pauses.push_back(std::make_unique<PfcHeldPause>(
                dev, q, m_quanta, [this]() { return m_keepGoing(); }));
        }
    }
    m_begin = Simulator::Schedule(m_start, &PfcPauseStorm::Begin, this);
    if (m_duration.IsStrictlyPositive())
    {
        m_end = Simulator::Schedule(m_start + m_duration, &PfcPauseStorm::End, this);
    }
}

void
PfcPauseStorm::Begin()
{
    for (auto& p : m_pauses)
    {
        p->Hold();
    }
}

void
PfcPauseStorm::End()
{
    for (auto& p : m_pauses)
    {
        p->Release();
    }
}

void
PfcPauseStorm::DoDispose()
{
    m_begin.Cancel();
    m_end.Cancel();
    m_pauses.clear();
    Object::DoDispose();
}

} // namespace ns3
