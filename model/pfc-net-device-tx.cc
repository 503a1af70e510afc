// PfcNetDevice, transmit scheduling: which frame goes next (the PFC control queue, then the
// control class, then the data priorities under StrictPriority, RoundRobin or
// DeficitRoundRobin), serialization and its end. The rest of the class: pfc-net-device.cc
// (configuration, counters, NetDevice), pfc-net-device-rx.cc (receive path, PFC pause state).
#include "pfc-channel.h"
#include "pfc-net-device.h"
#include "pooled-event.h"
#include "roce-frame.h"
#include "warmable-event.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

/// An event of the transmit path that runs `Step` on a device: the end of a frame's
/// serialization (TransmitComplete, one per frame and hop on a busy port) and a frame
/// source's wake-up (Wake, e.g. a NIC's pacing: one per paced packet). Its memory is reused
/// from a free list (pooled-event.h); it is warmed as what follows both, the next frame's
/// start (WarmTransmit, warmable-event.h).
///
/// WarmTransmit's second stage calls the relay's or the frame source's warm function, a
/// virtual call that reads the object's vptr: a line no stage of the device could prefetch
/// in time (the pointer is in the device's transmit line, loading in the stage before). The
/// event keeps the puller WarmTransmit would call when it is made (PfcNetDevice::
/// LikelyPuller, read from the device's lines while they are cached) and prefetches its
/// vptr's line in the first stage. In the 8,192-host permutation that load missed for most
/// NIC ports (half of this function's time). A puller that changes before the event runs
/// costs one wasted prefetch.
template<void (PfcNetDevice::*Step)()>
class PfcNetDevice::TransmitEvent final : public PooledEvent<TransmitEvent<Step>, WarmableEvent>
{
  public:
    /// \brief The step of dev's transmit path.
    explicit TransmitEvent(PfcNetDevice* dev)
        : m_dev(dev),
          m_puller(dev->LikelyPuller())
    {
    }

    void
    Warm(int stage) const override
    {
        if (stage <= 1 && m_puller != nullptr)
        {
            PrefetchLine(m_puller);
        }
        m_dev->WarmTransmit(stage);
    }

  private:
    void
    Notify() override
    {
        (m_dev->*Step)();
    }

    PfcNetDevice* m_dev;  //!< the device (held by its node until the simulation is destroyed)
    const void* m_puller; //!< the relay or source subobject WarmTransmit will likely call
};

EventId
PfcNetDevice::ScheduleWake(Time delay)
{
    return Simulator::Schedule(delay, TransmitEvent<&PfcNetDevice::Wake>::Make(this));
}

namespace
{
/// Priority index used for PFC frames in the transmit path.
constexpr uint8_t kControl = kPfcPriorities;
} // namespace

void
PfcNetDevice::TryTransmit()
{
    if (m_inTryTransmit)
    {
        // A puller woke us from inside the scan: scan again when the outer call ends.
        m_wakePending = true;
        return;
    }
    m_inTryTransmit = true;
    do
    {
        m_wakePending = false;
        if (!m_hasChannel || LineBusy() || SendQueuedControl() || SendNextDataFrame())
        {
            break;
        }
    } while (m_wakePending);
    m_inTryTransmit = false;
}

bool
PfcNetDevice::LineBusy()
{
    if (m_txState != BUSY)
    {
        return false;
    }
    if (Simulator::Now() < m_txEnd)
    {
        // Something may wait for the port: make sure the end of the frame is an event.
        if (!m_completion && HasEligibleFrame())
        {
            ScheduleCompletion(m_txEnd - Simulator::Now());
        }
        return true;
    }
    // The frame ended already; a completion event due now has not run yet.
    CancelCompletion();
    m_txState = READY;
    return false;
}

bool
PfcNetDevice::SendQueuedControl()
{
    if (!m_controlQueued)
    {
        return false;
    }
    FrameRef f(m_cold->m_control.front());
    const uint32_t bytes = m_cold->m_control.front()->GetSize();
    m_cold->m_control.pop_front();
    m_controlQueued = !m_cold->m_control.empty();
    TransmitStart(std::move(f), bytes, kControl, nullptr);
    return true;
}

bool
PfcNetDevice::SendNextDataFrame()
{
    // Priorities that may have a frame: an idle port with nothing anywhere costs one test.
    uint8_t ready = EligiblePriorities();
    bool sent = false;
    // The control class (ACK, NAK, CNP) first: it clocks every data sender.
    if (m_controlPriority < kPfcPriorities && ((ready >> m_controlPriority) & 1))
    {
        sent = SendFromPriority(m_controlPriority, ready);
    }
    if (m_scheduling == DEFICIT_ROUND_ROBIN)
    {
        while (!sent && ready)
        {
            const uint8_t p = DrrPick(ready);
            sent = SendFromPriority(p, ready);
            if (!sent)
            {
                m_drrCredit[p] = std::min(m_drrCredit[p], 0); // empty: no credit
            }
        }
    }
    for (uint8_t k = 0; k < kPfcPriorities && !sent && ready; ++k)
    {
        uint8_t p = (m_scheduling == STRICT_PRIORITY)
                        ? static_cast<uint8_t>(kPfcPriorities - 1 - k)
                        : static_cast<uint8_t>((m_rrNext + k) % kPfcPriorities);
        if ((ready >> p) & 1)
        {
            sent = SendFromPriority(p, ready);
        }
    }
    return sent;
}

bool
PfcNetDevice::SendFromPriority(uint8_t p, uint8_t& ready)
{
    ready = static_cast<uint8_t>(ready & ~(1u << p));
    FrameRef f;
    uint32_t bytes = 0;
    RoceFrameInfo info; // on the stack, which is in the cache: the device's lines are not
    bool known = false;
    if ((m_queueMask >> p) & 1)
    {
        ColdState::PushQueue& q = m_cold->m_queues[p];
        TxFrame& head = q.frames.front();
        f = std::move(head.frame);
        bytes = head.bytes;
        info = head.info;
        known = head.known;
        q.frames.pop_front();
        q.bytes -= bytes;
        if (q.frames.empty())
        {
            m_queueMask = static_cast<uint8_t>(m_queueMask & ~(1u << p));
        }
    }
    else
    {
        f = PullFrom(p, bytes, info, known);
    }
    if (!f)
    {
        return false;
    }
    m_rrNext = static_cast<uint8_t>((p + 1) % kPfcPriorities);
    if (m_scheduling == DEFICIT_ROUND_ROBIN && p != m_controlPriority)
    {
        m_drrCredit[p] -= static_cast<int32_t>(bytes);
    }
    TransmitStart(std::move(f), bytes, p, known ? &info : nullptr);
    return true;
}

uint8_t
PfcNetDevice::DrrPick(uint8_t ready)
{
    // Each pass either returns or gives a ready priority a quantum of credit; credit never
    // falls below minus one frame, so this ends after a few turns.
    for (;;)
    {
        const uint8_t p = m_drrCurrent;
        const bool isReady = (ready >> p) & 1;
        if (isReady && m_drrCredit[p] > 0)
        {
            return p;
        }
        if (!isReady)
        {
            m_drrCredit[p] = std::min(m_drrCredit[p], 0); // idle: keeps only its debt
        }
        // The next ready priority after p (p itself when it is the only one) takes its turn.
        uint8_t next = p;
        for (uint8_t k = 1; k <= kPfcPriorities; ++k)
        {
            next = static_cast<uint8_t>((p + k) % kPfcPriorities);
            if ((ready >> next) & 1)
            {
                break;
            }
        }
        m_drrCurrent = next;
        m_drrCredit[next] += static_cast<int32_t>(m_drrQuantum); // at most kMaxDrrQuantum
    }
}

FrameRef
PfcNetDevice::PullFrom(uint8_t p, uint32_t& bytes, RoceFrameInfo& info, bool& known)
{
    known = false;
    auto local = [&]() {
        if (m_hasSource)
        {
            FrameRef f = m_source->SourcePull(m_sourcePort, p, info, bytes);
            known = static_cast<bool>(f);
            return f;
        }
        // The puller builds the frame now: reading its size touches nothing cold.
        m_cold->m_pulledInfoSet = false;
        Ptr<Packet> f = m_puller(this, p);
        bytes = f ? f->GetSize() : 0;
        if (f && m_cold->m_pulledInfoSet)
        {
            NS_ABORT_MSG_IF(bytes != RoceFrameBytes(m_cold->m_pulledInfo),
                            "PfcNetDevice: a pulled frame of "
                                << bytes << " B with a header of a "
                                << RoceFrameBytes(m_cold->m_pulledInfo) << " B frame");
            info = m_cold->m_pulledInfo;
            known = true;
        }
        return FrameRef(f);
    };
    auto relay = [&]() {
        FrameRef f = m_txRelay->RelayPull(m_txRelayPort, p, info, bytes);
        known = static_cast<bool>(f);
        return f;
    };
    bool hasLocal = ((m_txBacklog >> p) & 1) && (m_hasSource || m_hasPuller);
    bool hasRelay = ((m_relayBacklog >> p) & 1) && m_hasRelay;
    if (hasLocal != hasRelay)
    {
        return hasLocal ? local() : relay();
    }
    if (!hasLocal)
    {
        return FrameRef();
    }
    // Both: ask the one whose turn it is first; the other gets the next turn if it answers.
    bool relayFirst = (m_relayFirst >> p) & 1;
    FrameRef f = relayFirst ? relay() : local();
    if (f)
    {
        m_relayFirst = static_cast<uint8_t>(m_relayFirst ^ (1u << p));
        return f;
    }
    return relayFirst ? local() : relay();
}

void
PfcNetDevice::TransmitStart(FrameRef frame,
                            uint32_t bytes,
                            uint8_t priority,
                            const RoceFrameInfo* info)
{
    NS_ASSERT_MSG(m_txState == READY, "PfcNetDevice: transmit started while busy");
    m_txState = BUSY;
    if (priority < kPfcPriorities)
    {
        CountTxFrame(priority);
        if (m_dequeueTraced)
        {
            m_cold->m_dequeueTrace(frame.Share(info), priority);
        }
    }
    if (m_txPcap)
    {
        m_cold->m_pcap->Write(Simulator::Now(), frame.Share(info));
    }
    Time txTime = SerializationTime(bytes + kFramingBytes);
    m_txEnd = Simulator::Now() + txTime;
    // The end of a frame is an event only when another frame may follow it: a port that has
    // nothing else turns idle by itself at m_txEnd (TryTransmit sees the time), which saves
    // an event per hop on every uncongested port. A frame that arrives meanwhile schedules it.
    if (HasEligibleFrame())
    {
        ScheduleCompletion(txTime);
    }
    if (info != nullptr)
    {
        if (!m_pathKnown)
        {
            const PfcChannel::DirectPath path = m_channel->GetDirectPath(this);
            m_peer = path.peer;
            m_peerDelay = path.delay;
            m_peerContext = path.context;
            m_pathKnown = true;
        }
        if (m_peer != nullptr)
        {
            // The channel's TransmitFrame on an up, local link, without reading the channel.
            NS_ASSERT(bytes == RoceFrameBytes(*info));
            PfcChannel::ScheduleArrival(
                m_peer, m_peerContext, txTime + m_peerDelay, std::move(frame), *info);
            return;
        }
    }
    m_channel->TransmitFrame(std::move(frame), bytes, this, txTime, info);
}

bool
PfcNetDevice::HasEligibleFrame() const
{
    return m_controlQueued || EligiblePriorities() != 0;
}

uint8_t
PfcNetDevice::EligiblePriorities() const
{
    uint8_t ready = m_queueMask;
    if (m_hasSource || m_hasPuller)
    {
        ready |= m_txBacklog;
    }
    if (m_hasRelay)
    {
        ready |= m_relayBacklog;
    }
    if (m_pfcEnabled)
    {
        ready &= static_cast<uint8_t>(~m_pausedMask);
    }
    return ready;
}

void
PfcNetDevice::ScheduleCompletion(Time delay)
{
    m_completion = Simulator::Schedule(delay,
                                       TransmitEvent<&PfcNetDevice::TransmitComplete>::Make(this))
                       .PeekEventImpl();
}

void
PfcNetDevice::CancelCompletion()
{
    if (m_completion)
    {
        m_completion->Cancel(); // pending: as Simulator::Cancel of its EventId
        m_completion = nullptr;
    }
}

void
PfcNetDevice::TransmitComplete()
{
    NS_ASSERT_MSG(m_txState == BUSY, "PfcNetDevice: transmit completed while idle");
    // Not pending any more; and our hold on this event is dropped while its line is in the
    // cache (the next assignment of m_completion would release it then, a cold line per
    // congested hop).
    m_completion = nullptr;
    m_txState = READY;
    TryTransmit();
}

} // namespace ns3
