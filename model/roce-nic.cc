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
#include <map>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{

constexpr uint32_t kMaxQpNumber = 0xFFFFFF; // BTH destination QP is 24 bit
constexpr uint8_t kPriorityFromTable = 8;   // Priority attribute: use BasePriority
constexpr uint32_t kRankUnset = std::numeric_limits<uint32_t>::max();

} // namespace

TypeId
RoceNic::GetTypeId()
{
    // Long by design: one attribute per model knob, each with its unit and range.
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
            .AddAttribute("BuildFrameBytes",
                          "Build each frame's bytes (an ns-3 Packet) as it is sent, so that "
                          "one Packet travels end to end (its uid and tags with it). false: "
                          "a frame is its header and size until something reads its bytes "
                          "(pcap, a Packet trace with a sink, an MPI crossing), which gets "
                          "them built from the header, byte for byte the same "
                          "(model/frame-ref.h); results do not depend on it.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_buildFrameBytes),
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
    dev->SetFrameSource(this, index);
    for (uint32_t earlier = 0; earlier < index; ++earlier)
    {
        // Their port records may have moved as this one was added (PullWarmHint).
        m_ports[earlier].dev->RefreshWarmHints();
    }
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
    // Source-routed tables read the route index from the UDP source port at every relay.
    const uint16_t udpSrcPort = Table()->IsSourceRouted()
                                    ? ForwardingTable::SourceRoutedPort(
                                          NextUdpSrcPort(),
                                          routeIndex,
                                          static_cast<uint32_t>(routes.size()))
                                    : NextUdpSrcPort();
    Ptr<QueuePair> qp = MakeQueuePair(dstHost, ccTid, udpSrcPort, routes[routeIndex]);
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
            old.active.erase(std::find_if(old.active.begin(),
                                          old.active.end(),
                                          [qp](const ActiveQp& a) { return a.qp == qp; }));
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

    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    qp->m_number = kFirstQpNumber + static_cast<uint32_t>(m_qps.size());
    qp->m_srcHost = m_hostRank;
    qp->m_dstHost = dstHost;
    qp->m_udpSrcPort = udpSrcPort;
    qp->m_port = route.port;
    qp->m_priority = static_cast<uint8_t>(priority);
    qp->m_cc = NewCongestionControl(ccTid);
    qp->m_cc->Start(m_ports[route.port].dev->GetDataRate());
    m_ports[route.port].dataMask |= static_cast<uint8_t>(1u << priority);
    m_qps.push_back(qp);
    return qp;
}

/**
 * One configured congestion control per (TypeId, attribute values) in the process: the
 * NICs of a network set the same preset each, so an 8,192-host fat-tree builds one DCQCN
 * instance through ns-3's attribute construction instead of one per QP. It also keeps the
 * type's attribute defaults it was built with: Config::SetDefault replaces a default's value
 * object, so a changed default makes a new prototype.
 */
struct RoceNic::CcPrototype
{
    Ptr<CongestionControl> prototype;                //!< never started; copied per new QP
    std::vector<Ptr<const AttributeValue>> defaults; //!< the type's defaults it was made with
    std::vector<Ptr<const AttributeValue>> values;   //!< the settings it was made with
};

namespace
{

/**
 * The shared prototypes by key: the type's name and each attribute's name and value (the
 * value's identity when it was handed over by Ptr, else its text), in the order they were
 * set (a later value of a name overrides an earlier one, as before). Nodes of an unordered_map stay
 * where they are, so NICs keep pointers to them.
 */
template<typename Prototype>
Prototype&
SharedPrototype(const std::string& key)
{
    static std::unordered_map<std::string, Prototype> prototypes;
    return prototypes[key];
}

} // namespace

Ptr<CongestionControl>
RoceNic::NewCongestionControl(TypeId ccTid)
{
    const auto build = [this, ccTid]() {
        ObjectFactory factory;
        factory.SetTypeId(ccTid);
        for (const CcAttribute& a : m_ccAttributes)
        {
            factory.Set(a.name, *a.value);
        }
        return factory.Create<CongestionControl>();
    };
    if (!m_ccPrototype || m_ccPrototypeTid != ccTid)
    {
        std::string key = ccTid.GetName();
        for (const CcAttribute& a : m_ccAttributes)
        {
            key += '\n';
            key += a.name;
            // A value shared by Ptr is its own identity (the prototype keeps it alive, so
            // its address is not reused); another is its text, as its checker writes it.
            key += a.shared
                       ? '@' + std::to_string(reinterpret_cast<uintptr_t>(PeekPointer(a.value)))
                       : '=' + a.value->SerializeToString(a.checker);
        }
        m_ccPrototype = &SharedPrototype<CcPrototype>(key);
        m_ccPrototypeTid = ccTid;
    }
    std::vector<Ptr<const AttributeValue>> defaults;
    for (TypeId t = ccTid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            defaults.push_back(t.GetAttribute(i).initialValue);
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    CcPrototype& shared = *m_ccPrototype;
    if (!shared.prototype || shared.defaults != defaults)
    {
        shared.values.clear();
        for (const CcAttribute& a : m_ccAttributes)
        {
            shared.values.push_back(a.value);
        }
        shared.prototype = build();
        shared.defaults = std::move(defaults);
    }
    Ptr<CongestionControl> cc = shared.prototype->Copy();
    // A type without Copy is built from its TypeId each time.
    return cc ? cc : build();
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
    LoadTxMessage(PeekPointer(qp)); // the new message may be the one of m_nextPsn
    Activate(PeekPointer(qp));
}

Ptr<const AttributeChecker>
RoceNic::CcAttributeChecker(const std::string& name) const
{
    // TypeId::LookupAttributeByName compares names one by one and copies each attribute's
    // description on the way: for the 12 settings of a DCQCN preset on each of 1,024 NICs
    // that was ~9 % of a fat-tree k=16 set-up (callgrind). A TypeId's attributes never
    // change once registered, so the checkers are kept.
    // Only found ones are kept: a TypeId registers at its first GetTypeId call, so one
    // missing now may exist later.
    static std::map<std::pair<std::string, std::string>, Ptr<const AttributeChecker>> checkers;
    auto it = checkers.find({m_ccName, name});
    if (it == checkers.end())
    {
        TypeId ccTid;
        TypeId::AttributeInformation info;
        if (!TypeId::LookupByNameFailSafe(m_ccName, &ccTid) ||
            !ccTid.LookupAttributeByName(name, &info))
        {
            throw std::invalid_argument("RoceNic: congestion control '" + m_ccName +
                                        "' has no attribute '" + name + "'");
        }
        it = checkers.emplace(std::make_pair(m_ccName, name), info.checker).first;
    }
    return it->second;
}

void
RoceNic::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    Ptr<const AttributeChecker> checker = CcAttributeChecker(name);
    Ptr<const AttributeValue> checked = checker->CreateValidValue(value);
    if (!checked)
    {
        throw std::invalid_argument("RoceNic: value for congestion control attribute '" + name +
                                    "' does not fit it");
    }
    m_ccAttributes.push_back(CcAttribute{name, checked, checker, false});
    m_ccPrototype = nullptr;
}

void
RoceNic::SetCongestionControlAttribute(const std::string& name, Ptr<const AttributeValue> value)
{
    Ptr<const AttributeChecker> checker = CcAttributeChecker(name);
    if (!value)
    {
        throw std::invalid_argument("RoceNic: no value for congestion control attribute '" + name +
                                    "'");
    }
    if (!checker->Check(*value))
    {
        SetCongestionControlAttribute(name, *value); // parsed, or refused by name
        return;
    }
    m_ccAttributes.push_back(CcAttribute{name, value, checker, true});
    m_ccPrototype = nullptr;
}

void
RoceNic::SetMessageReceivedCallback(MessageReceivedCallback cb)
{
    m_onMessage = std::move(cb);
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
