// RoceNic, send path: the active QPs of each port, the frames the port pulls from them (rate
// pacing, window, round robin), and the retransmission timer. The rest of the class:
// roce-nic.cc (configuration, queue-pair bookkeeping, counters), roce-nic-rx.cc (receive,
// ACK/NAK and CNP path).
#include "congestion-control.h"
#include "prefetch-line.h"
#include "roce-frame.h"
#include "roce-nic.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
RoceNic::Activate(QueuePair* qp)
{
    if (!qp->HasDataToSend())
    {
        return;
    }
    Port& port = m_ports[qp->m_port];
    if (!qp->m_active)
    {
        qp->m_active = true;
        port.active.push_back(ActiveQp{qp, PeekPointer(qp->m_cc)});
        if (port.activeCount[qp->m_priority]++ == 0)
        {
            port.dev->SetTxBacklog(qp->m_priority, true);
        }
    }
    if (qp->m_nextSendTime > Simulator::Now())
    {
        ScheduleWake(port, qp->m_nextSendTime);
    }
    else
    {
        port.dev->Wake();
    }
}

void
RoceNic::ScheduleWake(Port& port, Time t)
{
    if (port.wake.IsRunning())
    {
        if (static_cast<int64_t>(port.wake.GetTs()) <= t.GetTimeStep())
        {
            return; // an earlier (or equal) wake-up will re-scan anyway
        }
        port.wake.Cancel();
    }
    port.wake = port.dev->ScheduleWake(t - Simulator::Now());
}

void
RoceNic::SeekCursor(QueuePair* qp)
{
    std::size_t i = 0;
    while (i < qp->m_messages.size() && qp->m_messages[i].endPsn <= qp->m_nextPsn)
    {
        ++i;
    }
    qp->m_txMsg = i;
    LoadTxMessage(qp);
}

void
RoceNic::LoadTxMessage(QueuePair* qp)
{
    if (qp->m_txMsg < qp->m_messages.size())
    {
        const QueuePair::Message& m = qp->m_messages[qp->m_txMsg];
        qp->m_txFirstPsn = m.firstPsn;
        qp->m_txEndPsn = m.endPsn;
        qp->m_txBytes = m.bytes;
    }
}

void
RoceNic::WarmQp(const QueuePair* qp)
{
    PrefetchLine(&qp->m_nextPsn);
    PrefetchLine(&qp->m_txBytes);
}

void
RoceNic::WarmActiveQp(const ActiveQp& active)
{
    WarmQp(active.qp);
    PrefetchLine(active.cc); // set when the QP is made (MakeQueuePair), never replaced
}

void
RoceNic::WarmSourcePull(int stage, uint32_t portIndex, const void* hint) const
{
    // SourcePull's chain: our first line (the port vector) and the port (from the device's
    // line: the hint, PullWarmHint); its round-robin list at the next QP to look at; that
    // QP's lines.
    if (stage <= 1)
    {
        PrefetchLine(&m_ports);
        if (hint != nullptr)
        {
            PrefetchLine(hint);
        }
        return;
    }
    if (portIndex >= m_ports.size() || stage > 3)
    {
        return; // stage 3 warmed the QP, the last of the chain
    }
    const Port& port = m_ports[portIndex];
    if (!port.active.empty())
    {
        const std::size_t i = port.rr < port.active.size() ? port.rr : 0;
        if (stage == 2)
        {
            PrefetchLine(&port.active[i]);
        }
        else
        {
            WarmActiveQp(port.active[i]);
        }
    }
}

const void*
RoceNic::PullWarmHint(uint32_t port) const
{
    return port < m_ports.size() ? static_cast<const void*>(&m_ports[port]) : nullptr;
}

FrameRef
RoceNic::SourcePull(uint32_t portIndex, uint8_t p, RoceFrameInfo& info, uint32_t& bytes)
{
    Port& port = m_ports[portIndex];
    if (((port.dataMask >> p) & 1) == 0 || port.active.empty())
    {
        return FrameRef();
    }
    const Time now = Simulator::Now();
    bool waiting = false;
    Time earliest;
    std::size_t scanned = 0;
    std::size_t i = port.rr;
    while (scanned < port.active.size())
    {
        if (i >= port.active.size())
        {
            i = 0;
        }
        QueuePair* qp = port.active[i].qp;
        if (!qp->HasDataToSend())
        {
            // Leaves the round robin until PostSend, a NACK or a timeout gives it packets.
            qp->m_active = false;
            port.active.erase(port.active.begin() + static_cast<std::ptrdiff_t>(i));
            if (--port.activeCount[qp->m_priority] == 0)
            {
                port.dev->SetTxBacklog(qp->m_priority, false);
            }
            continue;
        }
        ++scanned;
        if (qp->m_priority != p)
        {
            ++i;
            continue;
        }
        if (qp->m_nextSendTime > now)
        {
            if (!waiting || qp->m_nextSendTime < earliest)
            {
                earliest = qp->m_nextSendTime;
                waiting = true;
            }
            ++i;
            continue;
        }
        port.rr = i + 1;
        return MakeDataFrame(qp, info, bytes);
    }
    if (waiting)
    {
        ScheduleWake(port, earliest);
    }
    return FrameRef();
}

FrameRef
RoceNic::MakeDataFrame(QueuePair* qp, RoceFrameInfo& info, uint32_t& bytes)
{
    // The message of psn (LoadTxMessage keeps its range and size in the QP's lines).
    NS_ASSERT(qp->m_txMsg < qp->m_messages.size() &&
              qp->m_messages[qp->m_txMsg].firstPsn == qp->m_txFirstPsn &&
              qp->m_messages[qp->m_txMsg].endPsn == qp->m_txEndPsn);
    const uint64_t psn = qp->m_nextPsn;
    const uint64_t index = psn - qp->m_txFirstPsn;
    const bool first = psn == qp->m_txFirstPsn;
    const bool last = psn + 1 == qp->m_txEndPsn;

    info = RoceFrameInfo();
    info.srcHost = m_hostRank;
    info.dstHost = qp->m_dstHost;
    info.udpSrcPort = qp->m_udpSrcPort;
    info.priority = qp->m_priority;
    info.destQp = qp->m_number;
    info.psn = static_cast<uint32_t>(psn) & kPsnMask;
    info.ackRequest = last;
    info.payloadBytes = static_cast<uint32_t>(last ? qp->m_txBytes - index * m_mtu : m_mtu);
    info.opcode = first ? (last ? RoceOpcode::kSendOnly : RoceOpcode::kSendFirst)
                        : (last ? RoceOpcode::kSendLast : RoceOpcode::kSendMiddle);
    info.vlan = m_vlan;
    // The frame is its header unless its bytes are asked for (FrameRef, BuildFrameBytes).
    FrameRef frame = m_buildFrameBytes ? FrameRef(BuildRoceFrame(info)) : FrameRef::HeaderOnly();
    info = RoceFrameInfoAsParsed(info);
    bytes = RoceFrameBytes(info.payloadBytes, info.vlan, RoceHasAeth(info.opcode));

    ++qp->m_packetsSent;
    ++m_dataSent;
    if (psn < qp->m_maxSentPsn)
    {
        ++qp->m_retransmits;
        ++m_retransmits;
        m_retransmitTrace(qp, psn);
    }
    qp->m_nextPsn = psn + 1;
    if (qp->m_nextPsn > qp->m_maxSentPsn)
    {
        qp->m_maxSentPsn = qp->m_nextPsn;
    }
    if (last)
    {
        ++qp->m_txMsg;
        LoadTxMessage(qp);
    }

    // Pacing: the next packet may leave one wire time at the QP's rate after this one. At
    // line rate the port itself is the pacer (no rounding of the gap to whole nanoseconds).
    const uint32_t wireBytes = bytes + kFramingBytes;
    const uint64_t rate = qp->m_cc->GetRateBps();
    if (rate < qp->m_cc->GetLineRateBps())
    {
        const uint64_t scaled = uint64_t(wireBytes) * 8 * 1000000000ULL + qp->m_paceCarry;
        qp->m_paceCarry = scaled % rate;
        qp->m_nextSendTime = Simulator::Now() + NanoSeconds(static_cast<int64_t>(scaled / rate));
    }
    else
    {
        qp->m_paceCarry = 0;
        qp->m_nextSendTime = Simulator::Now();
    }
    qp->m_cc->OnBytesSent(wireBytes);
    ArmRto(qp);
    return frame;
}

void
RoceNic::ArmRto(QueuePair* qp)
{
    if (!qp->m_rtoArmed)
    {
        qp->m_lastProgress = Simulator::Now();
        qp->m_rtoEvent = Simulator::Schedule(m_rto, &RoceNic::RtoExpired, this, qp);
        qp->m_rtoArmed = true;
    }
}

void
RoceNic::RtoExpired(QueuePair* qp)
{
    qp->m_rtoArmed = false; // this is its event
    if (qp->m_unackedPsn >= qp->m_maxSentPsn)
    {
        return; // nothing outstanding: the next packet sent re-arms the timer
    }
    const Time deadline = qp->m_lastProgress + m_rto;
    const Time now = Simulator::Now();
    if (now < deadline)
    {
        // Progress since the timer was set: one event per RTO period, not one per ACK.
        qp->m_rtoEvent = Simulator::Schedule(deadline - now, &RoceNic::RtoExpired, this, qp);
        qp->m_rtoArmed = true;
        return;
    }
    ++qp->m_timeouts;
    ++m_timeouts;
    m_timeoutTrace(qp);
    qp->m_nextPsn = qp->m_unackedPsn;
    SeekCursor(qp);
    qp->m_lastProgress = now;
    qp->m_rtoEvent = Simulator::Schedule(m_rto, &RoceNic::RtoExpired, this, qp);
    qp->m_rtoArmed = true;
    Activate(qp);
}

} // namespace ns3
