// RoceNic, receive path: data frames in PSN order with ACK, NAK (go-back-N) and the CNPs ECN
// marks ask for; ACKs and NAKs that advance or rewind a QP; CNPs handed to congestion
// control. The rest of the class: roce-nic.cc (configuration, queue-pair bookkeeping,
// counters), roce-nic-tx.cc (send path).
#include "congestion-control.h"
#include "forwarding-table.h"
#include "prefetch-line.h"
#include "roce-frame.h"
#include "roce-nic.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <utility>
#include <vector>

namespace ns3
{

namespace
{

constexpr uint8_t kSyndromeAck = 0x00;         // AETH: ACK (credit field unused)
constexpr uint8_t kSyndromeNakPsnError = 0x60; // AETH: NAK, code 0 = PSN sequence error
constexpr uint32_t kCnpPayloadBytes = 16;      // the reserved bytes of a RoCEv2 CNP

/// Signed distance of a 24-bit wire PSN from the low 24 bits of a 64-bit reference.
int64_t
PsnDistance(uint32_t wirePsn, uint64_t reference)
{
    uint32_t d = (wirePsn - static_cast<uint32_t>(reference)) & RoceNic::kPsnMask;
    // Sign-extend 24 bits: half the PSN space ahead, half behind.
    return static_cast<int64_t>(static_cast<int32_t>(d << 8) >> 8);
}

} // namespace

void
RoceNic::Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t priority)
{
    // A header-only frame (null Packet) always comes with its header (GetRxInfo).
    SinkReceive(*dev, FrameRef(frame), priority, dev->GetRxInfo());
}

void
RoceNic::SinkReceive(PfcNetDevice& /* dev */,
                     FrameRef frame,
                     uint8_t /* priority */,
                     const RoceFrameInfo* info)
{
    if (info != nullptr)
    {
        Dispatch(*info);
        return;
    }
    RoceFrameInfo parsed;
    Ptr<Packet> bytes = frame.Share(nullptr);
    if (bytes && ReadRoceFrame(bytes, parsed))
    {
        Dispatch(parsed);
    }
}

void
RoceNic::WarmSinkReceive(int stage, const RoceFrameInfo& info) const
{
    // Dispatch's chain: our two per-packet lines; then an ACK's QP pointer or a data frame's
    // responder state (when it is the one looked up last); then the QP's lines.
    const bool toQp = info.opcode == RoceOpcode::kAck || info.opcode == RoceOpcode::kCnp;
    if (stage <= 1)
    {
        PrefetchLine(&m_ports);
        PrefetchLine(&m_rxLastKey);
        return;
    }
    if (!toQp)
    {
        if (stage == 2 && m_rxLast != nullptr &&
            ((uint64_t(info.srcHost) << 24) | info.destQp) == m_rxLastKey)
        {
            PrefetchLine(m_rxLast);
        }
        return;
    }
    if (info.destQp < kFirstQpNumber || info.destQp - kFirstQpNumber >= m_qps.size() || stage > 3)
    {
        return; // stage 3 warmed the QP, the last of the chain
    }
    if (stage == 2)
    {
        PrefetchLine(&m_qps[info.destQp - kFirstQpNumber]);
    }
    else
    {
        WarmQp(PeekPointer(m_qps[info.destQp - kFirstQpNumber]));
    }
}

FrameReceiveWarmer
RoceNic::GetReceiveWarmer() const
{
    return &WarmReceiveOf<RoceNic>;
}

void
RoceNic::Dispatch(const RoceFrameInfo& info)
{
    if (info.dstHost != m_hostRank)
    {
        return;
    }
    switch (info.opcode)
    {
    case RoceOpcode::kAck:
        ReceiveAck(info);
        break;
    case RoceOpcode::kCnp:
        ReceiveCnp(info);
        break;
    default:
        ReceiveData(info);
        break;
    }
}

RoceNic::RxState&
RoceNic::Rx(uint32_t srcHost, uint32_t qp, uint16_t udpSrcPort)
{
    // One entry per peer QP, made at its first packet; a bulk transfer hits the cache.
    const uint64_t key = (uint64_t(srcHost) << 24) | qp;
    if (key == m_rxLastKey)
    {
        return *m_rxLast;
    }
    auto it = m_rx.find(key);
    if (it == m_rx.end())
    {
        RxState s;
        s.qp = qp;
        s.udpSrcPort = udpSrcPort;
        it = m_rx.emplace(key, s).first;
    }
    m_rxLastKey = key;
    m_rxLast = &it->second;
    return it->second;
}

void
RoceNic::ReceiveData(const RoceFrameInfo& info)
{
    RxState& rx = Rx(info.srcHost, info.destQp, info.udpSrcPort);
    const Time now = Simulator::Now();
    if (info.ecnCe && m_cnpEnabled && (!rx.cnpSent || now - rx.lastCnp >= m_cnpInterval))
    {
        rx.cnpSent = true;
        rx.lastCnp = now;
        ++m_cnpsSent;
        if (m_cnpInAck)
        {
            rx.becnPending = true; // the ACK or NAK this packet triggers carries it
        }
        else
        {
            SendControl(info.srcHost, rx, RoceOpcode::kCnp, 0, 0);
        }
        m_cnpSentTrace(info.srcHost, info.destQp);
    }
    const int64_t distance = PsnDistance(info.psn, rx.expected);
    if (distance > 0)
    {
        // A gap: go-back-N drops everything until the expected PSN; one NACK per gap.
        ++m_discarded;
        if (!rx.nackSent)
        {
            rx.nackSent = true;
            ++m_nacksSent;
            SendControl(info.srcHost, rx, RoceOpcode::kAck, kSyndromeNakPsnError, rx.expected);
        }
        return;
    }
    if (distance < 0)
    {
        // A duplicate: our ACK may have been lost; answer once until we advance again.
        ++m_discarded;
        if (!rx.dupAcked)
        {
            rx.dupAcked = true;
            ++m_acksSent;
            SendControl(info.srcHost, rx, RoceOpcode::kAck, kSyndromeAck, rx.expected - 1);
        }
        return;
    }
    ++rx.expected;
    rx.nackSent = false;
    rx.dupAcked = false;
    rx.msgBytes += info.payloadBytes;
    ++m_dataRecv;
    m_bytesRecv += info.payloadBytes;
    const bool last = info.opcode == RoceOpcode::kSendLast || info.opcode == RoceOpcode::kSendOnly;
    if (!last)
    {
        if (++rx.sinceAck >= m_ackInterval)
        {
            rx.sinceAck = 0;
            ++m_acksSent;
            SendControl(info.srcHost, rx, RoceOpcode::kAck, kSyndromeAck, rx.expected - 1);
        }
        return;
    }
    const uint64_t bytes = rx.msgBytes;
    rx.msgBytes = 0;
    rx.sinceAck = 0;
    ++rx.msn;
    ++m_received;
    ++m_acksSent;
    SendControl(info.srcHost, rx, RoceOpcode::kAck, kSyndromeAck, rx.expected - 1);
    // rx may move if the callback creates state; nothing of it is used below.
    m_messageReceivedTrace(info.srcHost, info.destQp, bytes);
    if (m_onMessage)
    {
        m_onMessage(info.srcHost, info.destQp, bytes);
    }
}

void
RoceNic::SendControl(uint32_t peer, RxState& rx, uint8_t opcode, uint8_t syndrome, uint64_t psn)
{
    RoceFrameInfo info;
    info.srcHost = m_hostRank;
    info.dstHost = peer;
    info.udpSrcPort = rx.udpSrcPort;
    uint32_t port = 0;
    if (m_ports.size() > 1)
    {
        const ForwardingRoute* route = Table()->Lookup(peer, 0, m_hostRank, rx.udpSrcPort);
        NS_ABORT_MSG_IF(!route, "RoceNic: no route back to host " << peer);
        port = route->port;
    }
    // The port's control class: the device serves it first and never pauses it.
    const uint8_t priority = m_ports[port].dev->ControlFramePriority();
    info.priority = priority;
    info.ecnCapable = false; // control frames are not ECN-capable (no CNP for a CNP)
    info.opcode = opcode;
    info.destQp = rx.qp;
    info.psn = static_cast<uint32_t>(psn) & kPsnMask;
    info.aethSyndrome = syndrome;
    info.aethMsn = rx.msn & kPsnMask;
    info.payloadBytes = opcode == RoceOpcode::kCnp ? kCnpPayloadBytes : 0;
    if (opcode == RoceOpcode::kAck && rx.becnPending)
    {
        info.becn = true;
        rx.becnPending = false;
    }
    info.vlan = m_vlan;
    if (m_buildFrameBytes)
    {
        m_ports[port].dev->EnqueueRoce(BuildRoceFrame(info), priority, RoceFrameInfoAsParsed(info));
    }
    else
    {
        m_ports[port].dev->EnqueueRoce(priority, RoceFrameInfoAsParsed(info));
    }
}

void
RoceNic::ReceiveAck(const RoceFrameInfo& info)
{
    QueuePair* qp = FindQp(info.destQp);
    if (!qp || qp->m_dstHost != info.srcHost)
    {
        return;
    }
    if (info.becn)
    {
        ReceiveCnp(info); // the congestion notification rides on this ACK (CnpInAck)
    }
    const uint64_t base = qp->m_unackedPsn;
    const int64_t distance = PsnDistance(info.psn, base);
    const bool nack = (info.aethSyndrome >> 5) == 3;
    uint64_t newUnacked = base;
    if (nack)
    {
        ++qp->m_nacksRecv;
        // NACK(e): everything before e arrived; resend from e. A stale NACK is ignored.
        if (distance < 0 || base + distance > qp->m_maxSentPsn)
        {
            return;
        }
        newUnacked = base + distance;
        qp->m_nextPsn = newUnacked;
    }
    else
    {
        // ACK(psn): everything up to psn arrived.
        if (distance < 0 || base + distance + 1 > qp->m_maxSentPsn)
        {
            return; // a duplicate or stale ACK
        }
        newUnacked = base + distance + 1;
        if (qp->m_nextPsn < newUnacked)
        {
            qp->m_nextPsn = newUnacked; // a timeout rewound us past packets that arrived
        }
    }
    if (newUnacked > base)
    {
        qp->m_unackedPsn = newUnacked;
        qp->m_lastProgress = Simulator::Now();
    }
    if (qp->m_unackedPsn >= qp->m_maxSentPsn)
    {
        qp->m_rtoEvent.Cancel();
        qp->m_rtoArmed = false;
    }
    // Collect completed messages first, so that callbacks that post again see a
    // consistent QP.
    std::vector<QueuePair::Message> done;
    while (!qp->m_messages.empty() && qp->m_messages.front().endPsn <= qp->m_unackedPsn)
    {
        done.push_back(std::move(qp->m_messages.front()));
        qp->m_messages.pop_front();
    }
    SeekCursor(qp);
    if (nack)
    {
        Activate(qp);
    }
    Ptr<QueuePair> keep = qp; // a callback may drop the owner's last reference
    for (auto& m : done)
    {
        ++qp->m_completed;
        ++m_completed;
        qp->m_bytesAcked += m.bytes;
        m_messageCompleteTrace(keep, m.bytes, m.postedAt);
        if (m.onComplete)
        {
            m.onComplete();
        }
    }
}

void
RoceNic::ReceiveCnp(const RoceFrameInfo& info)
{
    QueuePair* qp = FindQp(info.destQp);
    if (!qp || qp->m_dstHost != info.srcHost)
    {
        return;
    }
    ++qp->m_cnpsRecv;
    ++m_cnpsRecv;
    qp->m_cc->OnCnpReceived();
    m_cnpReceivedTrace(qp);
}

} // namespace ns3
