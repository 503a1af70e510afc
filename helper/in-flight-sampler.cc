#include "in-flight-sampler.h"

#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

InFlightSampler::InFlightSampler(const PfcNetwork& net,
                                 Time interval,
                                 std::function<bool()> keepSampling)
    : m_net(net),
      m_interval(interval),
      m_keepSampling(std::move(keepSampling))
{
    if (!interval.IsStrictlyPositive())
    {
        throw std::invalid_argument("InFlightSampler: the interval must be > 0");
    }
}

void
InFlightSampler::Start()
{
    Tick();
}

void
InFlightSampler::Tick()
{
    m_peak = std::max(m_peak, Count(m_net));
    if (m_keepSampling())
    {
        m_next = Simulator::Schedule(m_interval, &InFlightSampler::Tick, this);
    }
}

uint64_t
InFlightSampler::Count(const PfcNetwork& net)
{
    uint64_t queued = 0;
    uint64_t sent = 0;
    uint64_t received = 0;
    for (const auto& node : net.ports)
    {
        for (const Ptr<PfcNetDevice>& dev : node)
        {
            queued += dev->QueuedFrames();
            for (uint8_t p = 0; p < kPfcPriorities; ++p)
            {
                sent += dev->GetTxFrames(p);
            }
            received += dev->GetRxFrames();
        }
    }
    for (const Ptr<PfcSwitch>& sw : net.switches)
    {
        if (sw)
        {
            queued += sw->EgressFrames();
        }
    }
    uint64_t lost = 0;
    for (const Ptr<PfcChannel>& ch : net.channels)
    {
        lost += ch->GetLinkDrops();
    }
    return queued + (sent - received - lost);
}

} // namespace ns3
