#include "roce-nic.h"

#include "congestion-control.h"
#include "forwarding-table.h"
#include "roce-frame.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{

constexpr uint32_t kPsnMask = 0xFFFFFF;        // BTH PSN is 24 bit
constexpr uint32_t kMaxQpNumber = 0xFFFFFF;    // BTH destination QP is 24 bit
constexpr uint8_t kSyndromeAck = 0x00;         // AETH: ACK (credit field unused)
constexpr uint8_t kSyndromeNakPsnError = 0x60; // AETH: NAK, code 0 = PSN sequence error
constexpr uint32_t kCnpPayloadBytes = 16;      // the reserved bytes of a RoCEv2 CNP
constexpr uint8_t kPriorityFromTable = 8;      // Priority attribute: use BasePriority
constexpr uint32_t kRankUnset = std::numeric_limits<uint32_t>::max();

/// Signed distance of a 24-bit wire PSN from the low 24 bits of a 64-bit reference.
int64_t
PsnDistance(uint32_t wirePsn, uint64_t reference)
{
    uint32_t d = (wirePsn - static_cast<uint32_t>(reference)) & kPsnMask;
    // Sign-extend 24 bits: half the PSN space ahead, half behind.
    return static_cast<int64_t>(static_cast<int32_t>(d << 8) >> 8);
}

} // namespace

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<Object>()
            .SetGroupName("Paramsync")
            .AddConstructor<RoceNic>()
            .AddAttribute("Mtu",
                          "RDMA payload bytes per data packet (64..9000); set before the first "
                          "PostSend.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RoceNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("CongestionControl",
                          "TypeId name of the per-QP congestion control (a CongestionControl "
                          "subclass, e.g. ns3::RoceCcNone, ns3::DcqcnCongestionControl).",
                          StringValue("ns3::RoceCcNone"),
                          MakeStringAccessor(&RoceNic::m_ccName),
                          MakeStringChecker())
            .AddAttribute("Priority",
                          "PFC priority of lane-0 data (0..7; 8 = the ForwardingTable's "
                          "BasePriority); a QP adds its route's lane.",
                          UintegerValue(kPriorityFromTable),
                          MakeUintegerAccessor(&RoceNic::m_priority),
                          MakeUintegerChecker<uint8_t>(0, kPriorityFromTable))
            .AddAttribute("AckPriority",
                          "PFC priority of ACK, NACK and CNP frames (0..7), read-only: the "
                          "first port's PfcNetDevice ControlPriority (one source for both; "
                          "set that attribute to move them).",
                          TypeId::ATTR_GET,
                          UintegerValue(kDefaultControlPriority),
                          MakeUintegerAccessor(&RoceNic::GetAckPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("AckInterval",
                          "The responder ACKs every this many in-order data packets "
                          "(packets; and always at a message's last packet).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RoceNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RetransmitTimeout",
                          "Time without acknowledgement progress after which a QP resends "
                          "from its oldest unacknowledged packet (go-back-N).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RoceNic::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CnpInterval",
                          "Minimum time between two CNPs to the same QP (DCQCN: 50 us).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RoceNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpEnabled",
                          "Notification point: a CE-marked data packet triggers a CNP to its "
                          "QP (at most one per CnpInterval). Off without congestion control, "
                          "where nobody would react to a CNP.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_cnpEnabled),
                          MakeBooleanChecker())
            .AddAttribute("CnpInAck",
                          "Notify congestion by setting the BECN bit of the next ACK or NAK to "
                          "the QP instead of sending a CNP frame (HPCC's simulator flags the "
                          "ACK of an ECN-marked packet); the requester treats it as a CNP.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_cnpInAck),
                          MakeBooleanChecker())
            .AddAttribute("Vlan",
                          "Tag our frames with 802.1Q (PCP = priority); without it the "
                          "priority travels in the DSCP only.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_vlan),
                          MakeBooleanChecker())
            .AddAttribute("HostRank",
                          "Rank of this host (its address); must be set before use.",
                          UintegerValue(kRankUnset),
                          MakeUintegerAccessor(&RoceNic::m_hostRank),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("MessageComplete",
                            "A posted message was fully acknowledged (sender).",
                            MakeTraceSourceAccessor(&RoceNic::m_messageCompleteTrace),
                            "ns3::RoceNic::MessageCompleteTracedCallback")
            .AddTraceSource("MessageReceived",
                            "A message's last byte arrived in order (receiver).",
                            MakeTraceSourceAccessor(&RoceNic::m_messageReceivedTrace),
                            "ns3::RoceNic::MessageReceivedTracedCallback")
            .AddTraceSource("Retransmit",
                            "A data packet was sent again (go-back-N).",
                            MakeTraceSourceAccessor(&RoceNic::m_retransmitTrace),
                            "ns3::RoceNic::RetransmitTracedCallback")
            .AddTraceSource("Timeout",
                            "A QP's retransmission timer fired with packets outstanding.",
                            MakeTraceSourceAccessor(&RoceNic::m_timeoutTrace),
                            "ns3::RoceNic::QpTracedCallback")
            .AddTraceSource("CnpSent",
                            "A CNP was sent to a peer QP (receiver).",
                            MakeTraceSourceAccessor(&RoceNic::m_cnpSentTrace),
                            "ns3::RoceNic::CnpSentTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A CNP arrived for one of our QPs (sender).",
                            MakeTraceSourceAccessor(&RoceNic::m_cnpReceivedTrace),
                            "ns3::RoceNic::QpTracedCallback");
    return tid;
}

RoceNic::RoceNic() = default;

RoceNic::~RoceNic() = default;

void
RoceNic::DoDispose()
{
    for (auto& port : m_ports)
    {
        port.wake.Cancel();
        port.active.clear();
        port.dev = nullptr;
    }
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    m_rx.clear();
    m_rxLast = nullptr;
    m_rxLastKey = ~0ULL;
    m_table = nullptr;
    m_onMessage = nullptr;
    Object::DoDispose();
}

void
RoceNic::AddPort(Ptr<PfcNetDevice> dev)
{
    const auto index = static_cast<uint32_t>(m_ports.size());
    Port port;
    port.dev = dev;
    m_ports.push_back(port);
    // A lambda rather than MakeCallback(&RoceNic::Pull, this, index): one std::function layer
    // (and argument copy) less per call.
    dev->SetTxPuller(PfcNetDevice::TxPuller(
        [this, index](Ptr<PfcNetDevice> d, uint8_t p) { return Pull(index, d, p); }));
    for (uint8_t p = 0; p < kPfcPriorities; ++p)
    {
        dev->SetTxBacklog(p, false); // until a QP of p becomes active
    }
}

uint8_t
RoceNic::GetAckPriority() const
{
    return m_ports.empty() ? kDefaultControlPriority : m_ports.front().dev->ControlFramePriority();
}

uint32_t
RoceNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

void
RoceNic::SetForwardingTable(Ptr<ForwardingTable> table)
{
    m_table = table;
}

Ptr<ForwardingTable>
RoceNic::Table()
{
    if (!m_table)
    {
        m_table = GetObject<ForwardingTable>();
        NS_ABORT_MSG_IF(!m_table,
                        "RoceNic: no ForwardingTable (aggregate one to the node or call "
                        "SetForwardingTable)");
    }
    return m_table;
}

TypeId
RoceNic::CheckQueuePairRequest(uint32_t dstHost) const
{
    NS_ABORT_MSG_IF(m_hostRank == kRankUnset, "RoceNic: HostRank attribute not set");
    NS_ABORT_MSG_IF(m_ports.empty(), "RoceNic: CreateQueuePair before AddPort");
    if (dstHost == m_hostRank)
    {
        throw std::invalid_argument("RoceNic::CreateQueuePair: destination host " +
                                    std::to_string(dstHost) + " is this host");
    }
    TypeId ccTid;
    if (!TypeId::LookupByNameFailSafe(m_ccName, &ccTid) ||
        !ccTid.IsChildOf(CongestionControl::GetTypeId()))
    {
        throw std::invalid_argument("RoceNic CongestionControl: '" + m_ccName +
                                    "' is not a CongestionControl TypeId (allowed e.g. "
                                    "ns3::RoceCcNone, ns3::DcqcnCongestionControl)");
    }
    NS_ABORT_MSG_IF(m_qps.size() >= kMaxQpNumber - kFirstQpNumber,
                    "RoceNic: more than 2^24-1 queue pairs");
    return ccTid;
}

uint16_t
RoceNic::NextUdpSrcPort() const
{
    // Dynamic-port range 49152..65535 cycles through 16384 values of entropy per NIC; the
    // k-th QP (k = 1, 2, ...) gets 49152 + k mod 16384.
    return static_cast<uint16_t>(49152 + (m_qps.size() + 1) % 16384);
}

Ptr<QueuePair>
RoceNic::CreateQueuePair(uint32_t dstHost)
{
    const TypeId ccTid = CheckQueuePairRequest(dstHost);
    const uint16_t udpSrcPort = NextUdpSrcPort();
    const ForwardingRoute* route = Table()->Lookup(dstHost, 0, m_hostRank, udpSrcPort);
    return MakeQueuePair(dstHost, ccTid, udpSrcPort, route ? *route : ParkedRoute());
}

ForwardingRoute
RoceNic::ParkedRoute() const
{
    // Link failures cut the destination off for now (a partition until a repair): the QP
    // starts on port 0, its frames are lost like any sent into a failure, and Reroute()
    // moves it onto a real route when one comes back; its timeouts resend what was lost.
    return ForwardingRoute{0, 0};
}

Ptr<QueuePair>
RoceNic::CreateQueuePair(uint32_t dstHost, uint32_t routeIndex)
{
    const TypeId ccTid = CheckQueuePairRequest(dstHost);
    const std::vector<ForwardingRoute>& routes = Table()->Routes(dstHost, 0);
    if (routes.empty())
    {
        Ptr<QueuePair> qp = MakeQueuePair(dstHost, ccTid, NextUdpSrcPort(), ParkedRoute());
        qp->m_routeIndex = static_cast<int32_t>(routeIndex);
        return qp;
    }
    if (routeIndex >= routes.size())
    {
        throw std::invalid_argument(
            "RoceNic::CreateQueuePair: no route " + std::to_string(routeIndex) + " from host " +
            std::to_string(m_hostRank) + " to host " + std::to_string(dstHost) + " (it has " +
            std::to_string(routes.size()) + " equal-cost routes)");
    }
    Ptr<QueuePair> qp = MakeQueuePair(dstHost, ccTid, NextUdpSrcPort(), routes[routeIndex]);
    qp->m_routeIndex = static_cast<int32_t>(routeIndex);
    return qp;
}

void
RoceNic::Reroute()
{
    Ptr<ForwardingTable> table = Table();
    const uint32_t base = m_priority == kPriorityFromTable ? table->GetBasePriority() : m_priority;
    for (const Ptr<QueuePair>& q : m_qps)
    {
        QueuePair* qp = PeekPointer(q);
        if (!qp)
        {
            continue;
        }
        const std::vector<ForwardingRoute>& routes = table->Routes(qp->m_dstHost, 0);
        if (routes.empty())
        {
            continue; // unreachable now: the QP keeps its port and times out until repaired
        }
        const ForwardingRoute* route =
            qp->m_routeIndex >= 0 ? &routes[static_cast<uint32_t>(qp->m_routeIndex) % routes.size()]
                                  : table->Lookup(qp->m_dstHost, 0, m_hostRank, qp->m_udpSrcPort);
        const uint8_t priority = static_cast<uint8_t>(base + route->lane);
        if (route->port == qp->m_port && priority == qp->m_priority)
        {
            continue;
        }
        // Off the old port's round robin, onto the new port; what was sent but not
        // acknowledged may be lost with the link: go back to the oldest unacknowledged.
        if (qp->m_active)
        {
            Port& old = m_ports[qp->m_port];
            old.active.erase(std::find(old.active.begin(), old.active.end(), qp));
            old.rr = 0;
            if (--old.activeCount[qp->m_priority] == 0)
            {
                old.dev->SetTxBacklog(qp->m_priority, false);
            }
            qp->m_active = false;
        }
        qp->m_port = route->port;
        qp->m_priority = priority;
        m_ports[route->port].dataMask |= static_cast<uint8_t>(1u << priority);
        qp->m_nextPsn = qp->m_unackedPsn;
        SeekCursor(qp);
        Activate(qp);
    }
}

uint32_t
RoceNic::GetRouteCount(uint32_t dstHost)
{
    return static_cast<uint32_t>(Table()->Routes(dstHost, 0).size());
}

Ptr<QueuePair>
RoceNic::MakeQueuePair(uint32_t dstHost,
                       TypeId ccTid,
                       uint16_t udpSrcPort,
                       const ForwardingRoute& route)
{
    NS_ABORT_MSG_IF(route.port >= m_ports.size(),
                    "RoceNic: route to port " << route.port << " of " << m_ports.size());
    Ptr<ForwardingTable> table = Table();
    const uint32_t base = m_priority == kPriorityFromTable ? table->GetBasePriority() : m_priority;
    const uint32_t priority = base + route.lane;
    if (priority >= kPfcPriorities)
    {
        throw std::invalid_argument("RoceNic Priority: data priority " + std::to_string(base) +
                                    " + lane " + std::to_string(route.lane) +
                                    " exceeds 7 (allowed: priority + lanes <= 8)");
    }

    ObjectFactory factory;
    factory.SetTypeId(ccTid);
    for (const auto& [name, value] : m_ccAttributes)
    {
        factory.Set(name, *value);
    }
    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    qp->m_number = kFirstQpNumber + static_cast<uint32_t>(m_qps.size());
    qp->m_srcHost = m_hostRank;
    qp->m_dstHost = dstHost;
    qp->m_udpSrcPort = udpSrcPort;
    qp->m_port = route.port;
    qp->m_priority = static_cast<uint8_t>(priority);
    qp->m_cc = factory.Create<CongestionControl>();
    qp->m_cc->Start(m_ports[route.port].dev->GetDataRate());
    m_ports[route.port].dataMask |= static_cast<uint8_t>(1u << priority);
    m_qps.push_back(qp);
    return qp;
}

Ptr<QueuePair>
RoceNic::GetQueuePair(uint32_t number) const
{
    return Ptr<QueuePair>(FindQp(number));
}

QueuePair*
RoceNic::FindQp(uint32_t number) const
{
    return number >= kFirstQpNumber && number - kFirstQpNumber < m_qps.size()
               ? PeekPointer(m_qps[number - kFirstQpNumber])
               : nullptr;
}

void
RoceNic::PostSend(Ptr<QueuePair> qp, uint64_t bytes, std::function<void()> onComplete)
{
    NS_ABORT_MSG_IF(!qp || GetQueuePair(qp->m_number) != qp,
                    "RoceNic::PostSend: the queue pair is not one of this NIC's");
    // A zero-byte message still needs one packet to tell the receiver.
    const uint64_t packets = bytes == 0 ? 1 : (bytes + m_mtu - 1) / m_mtu;
    QueuePair::Message m{bytes,
                         qp->m_postedEndPsn,
                         qp->m_postedEndPsn + packets,
                         Simulator::Now(),
                         std::move(onComplete)};
    qp->m_postedEndPsn = m.endPsn;
    // The cursor (first message with endPsn > nextPsn) stays valid: if it pointed past the
    // end, it now points at this message.
    qp->m_messages.push_back(std::move(m));
    Activate(PeekPointer(qp));
}

void
RoceNic::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId ccTid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(m_ccName, &ccTid) ||
        !ccTid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("RoceNic: congestion control '" + m_ccName +
                                    "' has no attribute '" + name + "'");
    }
    Ptr<AttributeValue> checked = info.checker->CreateValidValue(value);
    if (!checked)
    {
        throw std::invalid_argument("RoceNic: value for congestion control attribute '" + name +
                                    "' does not fit it");
    }
    m_ccAttributes.emplace_back(name, checked);
}

void
RoceNic::SetMessageReceivedCallback(MessageReceivedCallback cb)
{
    m_onMessage = std::move(cb);
}

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
        port.active.push_back(qp);
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
    port.wake = Simulator::Schedule(t - Simulator::Now(), &PfcNetDevice::Wake, port.dev);
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
}

Ptr<Packet>
RoceNic::Pull(uint32_t portIndex, const Ptr<PfcNetDevice>& /* dev */, uint8_t p)
{
    Port& port = m_ports[portIndex];
    if (((port.dataMask >> p) & 1) == 0 || port.active.empty())
    {
        return nullptr;
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
        QueuePair* qp = port.active[i];
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
        RoceFrameInfo info;
        Ptr<Packet> frame = MakeDataFrame(qp, info);
        port.dev->SetPulledFrameInfo(info);
        return frame;
    }
    if (waiting)
    {
        ScheduleWake(port, earliest);
    }
    return nullptr;
}

Ptr<Packet>
RoceNic::MakeDataFrame(QueuePair* qp, RoceFrameInfo& info)
{
    const QueuePair::Message& m = qp->m_messages[qp->m_txMsg];
    const uint64_t psn = qp->m_nextPsn;
    const uint64_t index = psn - m.firstPsn;
    const bool first = psn == m.firstPsn;
    const bool last = psn + 1 == m.endPsn;

    info = RoceFrameInfo();
    info.srcHost = m_hostRank;
    info.dstHost = qp->m_dstHost;
    info.udpSrcPort = qp->m_udpSrcPort;
    info.priority = qp->m_priority;
    info.destQp = qp->m_number;
    info.psn = static_cast<uint32_t>(psn) & kPsnMask;
    info.ackRequest = last;
    info.payloadBytes = static_cast<uint32_t>(last ? m.bytes - index * m_mtu : m_mtu);
    info.opcode = first ? (last ? RoceOpcode::kSendOnly : RoceOpcode::kSendFirst)
                        : (last ? RoceOpcode::kSendLast : RoceOpcode::kSendMiddle);
    info.vlan = m_vlan;
    Ptr<Packet> frame = BuildRoceFrame(info);
    info = RoceFrameInfoAsParsed(info);

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
    }

    // Pacing: the next packet may leave one wire time at the QP's rate after this one. At
    // line rate the port itself is the pacer (no rounding of the gap to whole nanoseconds).
    const uint32_t wireBytes = frame->GetSize() + kFramingBytes;
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
    if (!qp->m_rtoEvent.IsRunning())
    {
        qp->m_lastProgress = Simulator::Now();
        qp->m_rtoEvent = Simulator::Schedule(m_rto, &RoceNic::RtoExpired, this, qp);
    }
}

void
RoceNic::RtoExpired(QueuePair* qp)
{
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
        return;
    }
    ++qp->m_timeouts;
    ++m_timeouts;
    m_timeoutTrace(qp);
    qp->m_nextPsn = qp->m_unackedPsn;
    SeekCursor(qp);
    qp->m_lastProgress = now;
    qp->m_rtoEvent = Simulator::Schedule(m_rto, &RoceNic::RtoExpired, this, qp);
    Activate(qp);
}

void
RoceNic::Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t /* priority */)
{
    RoceFrameInfo info;
    const RoceFrameInfo* known = dev->GetRxInfo();
    if (known)
    {
        info = *known;
    }
    else if (!ReadRoceFrame(frame, info))
    {
        return;
    }
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
    m_ports[port].dev->EnqueueRoce(BuildRoceFrame(info), priority, RoceFrameInfoAsParsed(info));
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

uint64_t
RoceNic::GetRetransmittedPackets() const
{
    return m_retransmits;
}

uint64_t
RoceNic::GetDataPacketsSent() const
{
    return m_dataSent;
}

uint64_t
RoceNic::GetDataPacketsReceived() const
{
    return m_dataRecv;
}

uint64_t
RoceNic::GetDataPacketsDiscarded() const
{
    return m_discarded;
}

uint64_t
RoceNic::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
RoceNic::GetNacksSent() const
{
    return m_nacksSent;
}

uint64_t
RoceNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RoceNic::GetCnpsReceived() const
{
    return m_cnpsRecv;
}

uint64_t
RoceNic::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RoceNic::GetMessagesCompleted() const
{
    return m_completed;
}

uint64_t
RoceNic::GetMessagesReceived() const
{
    return m_received;
}

uint64_t
RoceNic::GetBytesReceived() const
{
    return m_bytesRecv;
}

} // namespace ns3
