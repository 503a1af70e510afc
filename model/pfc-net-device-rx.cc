// PfcNetDevice, receive path: frames from the channel go to the PFC state machine (pause
// frames, after the reaction delay; pause timers and their accounting) or to the owner (relay,
// frame callback, NetDevice callback). The rest of the class: pfc-net-device.cc,
// pfc-net-device-tx.cc (transmit scheduling).
#include "pfc-header.h"
#include "pfc-net-device.h"
#include "roce-frame.h"

#include "ns3/assert.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"

namespace ns3
{

void
PfcNetDevice::Receive(Ptr<Packet> frame)
{
    if (m_rxPcap)
    {
        m_cold->m_pcap->Write(Simulator::Now(), frame);
    }
    // One read of the first 18 bytes decides PFC or data and the priority.
    uint8_t head[18];
    const uint32_t n = frame->CopyData(head, sizeof(head));
    const uint16_t type = n >= 14 ? static_cast<uint16_t>((head[12] << 8) | head[13]) : 0;
    if (type == PfcHeader::kEtherType)
    {
        ReceivePfc(frame);
        return;
    }
    const uint32_t bytes = frame->GetSize();
    Deliver(FrameRef(frame), bytes, n < 18 ? 0 : FramePriorityFromHead(head), nullptr);
}

void
PfcNetDevice::ReceiveFrame(FrameRef frame, const RoceFrameInfo& info, uint32_t bytes)
{
    if (m_relayReceives && !m_rxPcap && !m_rxTraced)
    {
        // The switch's path: the frame moves on untouched.
        ++m_rxFrames;
        m_relay->RelayReceive(m_relayPort, *this, std::move(frame), info.priority, &info, bytes);
        return;
    }
    if (m_rxPcap)
    {
        m_cold->m_pcap->Write(Simulator::Now(), frame.Share(&info));
    }
    Deliver(std::move(frame), bytes, info.priority, &info);
}

void
PfcNetDevice::Deliver(FrameRef frame, uint32_t bytes, uint8_t priority, const RoceFrameInfo* info)
{
    ++m_rxFrames;
    if (m_rxTraced)
    {
        m_cold->m_rxTrace(frame.Share(info), priority);
    }
    if (m_relayReceives)
    {
        m_relay->RelayReceive(m_relayPort, *this, std::move(frame), priority, info, bytes);
    }
    else if (m_frameSink != nullptr)
    {
        m_frameSink->SinkReceive(*this, std::move(frame), priority, info);
    }
    else if (!m_cold->m_frameRx.IsNull())
    {
        // A sink that reads the header (GetRxInfo) takes a header-only frame as it is.
        DeliverTo(
            m_cold->m_frameRx, frame.Release(info, !m_cold->m_frameRxTakesHeaders), priority, info);
    }
    else if (!m_cold->m_rxCallback.IsNull())
    {
        m_cold->m_rxCallback(this, frame.Release(info), 0, m_cold->m_address);
    }
    else if (!m_cold->m_dropTrace.IsEmpty())
    {
        m_cold->m_dropTrace(frame.Share(info), priority);
    }
}

void
PfcNetDevice::ReceivePfc(Ptr<Packet> frame)
{
    PfcHeader h;
    frame->PeekHeader(h);
    if (h.opcode != PfcHeader::kOpcode)
    {
        return; // other MAC control frames (802.3x PAUSE) are not modelled
    }
    PauseState& state = PauseStateForPfc();
    uint8_t enabled = 0;
    std::array<uint16_t, kPfcPriorities> quanta{};
    for (uint8_t p = 0; p < kPfcPriorities; ++p)
    {
        if (!h.IsEnabled(p))
        {
            continue;
        }
        quanta[p] = h.quanta[p];
        m_cold->m_pauseRecvTrace(p, quanta[p]);
        ++(quanta[p] == 0 ? state.resumes[p] : state.received[p]);
        if (m_pfcEnabled && p != m_controlPriority)
        {
            enabled = static_cast<uint8_t>(enabled | (1u << p));
        }
    }
    if (enabled == 0)
    {
        return;
    }
    const Time reaction = GetPfcReactionDelay();
    if (reaction.IsZero())
    {
        ApplyPfc(enabled, quanta);
        return;
    }
    // Every PFC frame is delayed alike, so they take effect in their order of arrival.
    state.pending.push_back(Simulator::Schedule(reaction, [this, enabled, quanta]() {
        m_cold->m_pause->pending.pop_front();
        ApplyPfc(enabled, quanta);
    }));
}

void
PfcNetDevice::ApplyPfc(uint8_t enabled, std::array<uint16_t, kPfcPriorities> quanta)
{
    PauseState& state = *m_cold->m_pause; // ReceivePfc made it
    bool resumed = false;
    for (uint8_t p = 0; p < kPfcPriorities; ++p)
    {
        if (((enabled >> p) & 1) == 0)
        {
            continue;
        }
        const uint16_t q = quanta[p];
        if (q == 0)
        {
            if (IsPaused(p))
            {
                EndPause(p);
                resumed = true;
            }
            continue;
        }
        if (!IsPaused(p))
        {
            m_pausedMask = static_cast<uint8_t>(m_pausedMask | (1u << p));
            state.start[p] = Simulator::Now();
        }
        // A new pause replaces what is left of the previous one.
        state.timer[p].Cancel();
        state.timer[p] = Simulator::Schedule(
            PauseDuration(q), &PfcNetDevice::PauseExpired, this, p);
    }
    if (resumed)
    {
        TryTransmit();
    }
}

void
PfcNetDevice::PauseExpired(uint8_t priority)
{
    EndPause(priority);
    TryTransmit();
}

void
PfcNetDevice::EndPause(uint8_t priority)
{
    NS_ASSERT(IsPaused(priority));
    PauseState& state = *m_cold->m_pause;
    Time paused = Simulator::Now() - state.start[priority];
    state.pausedTime[priority] += paused;
    m_pausedMask = static_cast<uint8_t>(m_pausedMask & ~(1u << priority));
    state.timer[priority].Cancel();
    m_cold->m_resumeTrace(priority, paused);
}

PfcNetDevice::PauseState&
PfcNetDevice::PauseStateForPfc()
{
    if (!m_cold->m_pause)
    {
        m_cold->m_pause = std::make_unique<PauseState>();
    }
    return *m_cold->m_pause;
}

} // namespace ns3
