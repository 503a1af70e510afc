/*
 * InFlightSampler: how many frames exist at once in a packet-level run (bench/README.md: memory
 * must grow with packets in flight, at most 400 B each, never with message size).
 *
 * A frame exists (a Packet in memory) while it waits in a device's queue or a switch's
 * egress FIFO, or travels on a link. NICs build frames on demand and keep none for
 * retransmission, so their windows hold no Packets. Every `interval` of simulated time the
 * sampler counts
 *   queued  = sum of PfcNetDevice::QueuedFrames + PfcSwitch::EgressFrames,
 *   on wire = sum of data frames sent - sum of data frames received - link drops,
 * and keeps the largest sum. The bench harness divides the growth of peak RSS between two
 * runs by the growth of this peak: bytes per frame in flight. PFC frames on the wire (a few
 * per port at most) and frames held by a receiver that stopped draining are not counted.
 */
#ifndef PARAMSYNC_IN_FLIGHT_SAMPLER_H
#define PARAMSYNC_IN_FLIGHT_SAMPLER_H

#include "network-builder.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \brief Samples the frames that exist in a PfcNetwork and keeps the peak.
 */
class InFlightSampler
{
  public:
    /**
     * \brief Sample net every interval (> 0) from Start() while keepSampling() is true.
     * The network must outlive the sampler.
     */
    InFlightSampler(const PfcNetwork& net, Time interval, std::function<bool()> keepSampling);

    /// \brief Take a sample now and schedule the next ones.
    void Start();
    /// \brief The largest count seen.
    uint64_t
    Peak() const
    {
        return m_peak;
    }
    /// \brief Frames queued in the devices and switches or on the links of net now.
    static uint64_t Count(const PfcNetwork& net);

  private:
    /// \brief One sample, then the next one if the run goes on.
    void Tick();

    const PfcNetwork& m_net;              //!< the sampled network
    Time m_interval;                      //!< sampling interval
    std::function<bool()> m_keepSampling; //!< false once the run has finished
    uint64_t m_peak{0};                   //!< largest count
    EventId m_next;                       //!< next sample
};

} // namespace ns3

#endif // PARAMSYNC_IN_FLIGHT_SAMPLER_H
