#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<PfcChannel>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay of each direction (s).",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&PfcChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

PfcChannel::PfcChannel() = default;

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel: a point-to-point link has two ends");
    m_ends[m_nDevices++] = device;
}

bool
PfcChannel::TransmitStart(Ptr<Packet> frame, Ptr<PfcNetDevice> src, Time txTime)
{
    if (m_nDevices < 2)
    {
        return false;
    }
    Ptr<PfcNetDevice> dst = (m_ends[0] == src) ? m_ends[1] : m_ends[0];
    // The frame changes hands: the sender keeps no reference after TransmitComplete, so the
    // receiver may rewrite it in place without a copy.
    Simulator::ScheduleWithContext(dst->GetNode() ? dst->GetNode()->GetId() : 0,
                                   txTime + m_delay,
                                   &PfcNetDevice::Receive,
                                   dst,
                                   frame);
    return true;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return m_ends[i];
}

Ptr<PfcNetDevice>
PfcChannel::GetPfcDevice(std::size_t i) const
{
    return m_ends[i];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
