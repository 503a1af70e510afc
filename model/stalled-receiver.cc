#include "stalled-receiver.h"

#include "pfc-pause-storm.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(StalledReceiver);

TypeId
StalledReceiver::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StalledReceiver")
                            .SetParent<Object>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<StalledReceiver>()
                            .AddAttribute("Start",
                                          "When the receiver stops draining, from Wrap().",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&StalledReceiver::m_start),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute("Duration",
                                          "How long it stays stalled; 0: for good.",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&StalledReceiver::m_duration),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute(
                                "XoffBytes",
                                "Bytes of waiting frames above which the receiver pauses the port "
                                "and priority a frame came by: the NIC's on-chip receive buffer "
                                "(256 KiB, of the order of a ConnectX NIC's).",
                                UintegerValue(256 * 1024),
                                MakeUintegerAccessor(&StalledReceiver::m_xoffBytes),
                                MakeUintegerChecker<uint64_t>(1));
    return tid;
}

StalledReceiver::StalledReceiver()
    : m_keepGoing([]() { return true; })
{
}

StalledReceiver::~StalledReceiver() = default;

void
StalledReceiver::SetKeepGoing(std::function<bool()> keepGoing)
{
    m_keepGoing = std::move(keepGoing);
}

PfcNetDevice::FrameReceiveCallback
StalledReceiver::Wrap(PfcNetDevice::FrameReceiveCallback deliver)
{
    m_deliver = std::move(deliver);
    m_begin = Simulator::Schedule(m_start, [this]() { m_stalled = true; });
    if (m_duration.IsStrictlyPositive())
    {
        m_drain = Simulator::Schedule(m_start + m_duration, &StalledReceiver::Drain, this);
    }
    return PfcNetDevice::FrameReceiveCallback(
        [this](Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t p) { Receive(dev, frame, p); });
}

void
StalledReceiver::Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t priority)
{
    if (!m_stalled)
    {
        m_deliver(dev, frame, priority);
        return;
    }
    m_bytes += frame->GetSize();
    m_held.push_back({dev, frame, priority});
    if (m_bytes > m_xoffBytes)
    {
        PauseOf(dev, priority).Hold();
    }
}

PfcHeldPause&
StalledReceiver::PauseOf(const Ptr<PfcNetDevice>& dev, uint8_t priority)
{
    for (auto& p : m_pauses)
    {
        if (p->Is(dev, priority))
        {
            return *p;
        }
    }
    m_pauses.push_back(
        std::make_unique<PfcHeldPause>(dev, priority, 0xffff, [this]() { return m_keepGoing(); }));
    return *m_pauses.back();
}

void
StalledReceiver::Drain()
{
    m_stalled = false;
    std::deque<Held> held;
    held.swap(m_held);
    m_bytes = 0;
    for (const Held& h : held)
    {
        m_deliver(h.dev, h.frame, h.priority);
    }
    for (auto& p : m_pauses)
    {
        p->Release();
    }
}

void
StalledReceiver::DoDispose()
{
    m_begin.Cancel();
    m_drain.Cancel();
    m_pauses.clear();
    m_held.clear();
    m_deliver = PfcNetDevice::FrameReceiveCallback();
    Object::DoDispose();
}

} // namespace ns3
