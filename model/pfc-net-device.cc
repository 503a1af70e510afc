#include "pfc-net-device.h"

#include "pfc-channel.h"
#include "pfc-header.h"
#include "roce-frame.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");
NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

namespace
{
/// pcap link type for Ethernet.
constexpr uint32_t kDltEn10mb = 1;
/// PfcReactionBitTimes: take 802.3's bound for the line rate.
constexpr uint32_t kReactionByRate = 0xFFFFFFFF;
} // namespace

TypeId
PfcNetDevice::GetTypeId()
{
    // Long by design: one attribute per model knob, each with its unit and range.
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Paramsync")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute("DataRate",
                          "Line rate of the port (bit/s).",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&PfcNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute(
                "TxScheduling",
                "Scheduling among the data priorities (after PFC frames and ControlPriority): "
                "DeficitRoundRobin (byte-fair turns of DrrQuantum, as switches schedule "
                "lossless classes), StrictPriority (7 first) or RoundRobin (one frame per "
                "eligible priority in turn).",
                EnumValue(DEFICIT_ROUND_ROBIN),
                MakeEnumAccessor(&PfcNetDevice::m_scheduling),
                MakeEnumChecker(DEFICIT_ROUND_ROBIN,
                                "DeficitRoundRobin",
                                STRICT_PRIORITY,
                                "StrictPriority",
                                ROUND_ROBIN,
                                "RoundRobin"))
            .AddAttribute(
                "DrrQuantum",
                "DeficitRoundRobin credit per turn (bytes; equal for every data "
                "priority; at least one frame keeps DRR's work per frame O(1), "
                "Shreedhar & Varghese, SIGCOMM'95; at most 1 GiB). Default 65536 B, by measurement "
                "(README \"Network model\"): with 9216 B mesh on BCube(3,1) took "
                "1.17x its ideal, with 64 KiB 1.05x, and no measured row got worse.",
                UintegerValue(65536),
                MakeUintegerAccessor(&PfcNetDevice::m_drrQuantum),
                MakeUintegerChecker<uint32_t>(64, kMaxDrrQuantum))
            .AddAttribute("ControlPriority",
                          "Priority served ahead of every data priority and never paused "
                          "(received pauses for it are counted and ignored): the class of "
                          "ACK, NAK and CNP: RoceNic sends them on it (its read-only "
                          "AckPriority follows). 8 = none (they then ride priority 7 as an "
                          "ordinary class).",
                          UintegerValue(kDefaultControlPriority),
                          MakeUintegerAccessor(&PfcNetDevice::m_controlPriority),
                          MakeUintegerChecker<uint8_t>(0, kPfcPriorities))
            .AddAttribute("PfcReactionBitTimes",
                          "Time from a received PFC frame's last bit to its effect, in bit "
                          "times at our DataRate (802.3 Annex 31B bounds it per speed: "
                          "60,416 at 40 Gb/s, 201,728 at 100 Gb/s, as quoted by switch "
                          "vendors). 4294967295 (default) = that bound for our rate "
                          "(PfcReactionBitTimesFor); 0 = at once.",
                          UintegerValue(kReactionByRate),
                          MakeUintegerAccessor(&PfcNetDevice::m_reactionBits),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PfcEnabled",
                          "Honour received PFC pause frames (counted either way).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Mtu",
                          "Largest frame payload (bytes, informative for NetDevice users).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&PfcNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("Enqueue",
                            "A frame entered an egress queue (frame, priority).",
                            ColdTraceAccessor(&ColdState::m_enqueueTrace),
                            "ns3::PfcNetDevice::FrameTracedCallback")
            .AddTraceSource("Dequeue",
                            "A data frame started transmission (frame, priority).",
                            ColdTraceAccessor(&ColdState::m_dequeueTrace),
                            "ns3::PfcNetDevice::FrameTracedCallback")
            .AddTraceSource("Drop",
                            "A received data frame had no receiver (frame, priority).",
                            ColdTraceAccessor(&ColdState::m_dropTrace),
                            "ns3::PfcNetDevice::FrameTracedCallback")
            .AddTraceSource("Rx",
                            "A data frame was received (frame, priority).",
                            ColdTraceAccessor(&ColdState::m_rxTrace),
                            "ns3::PfcNetDevice::FrameTracedCallback")
            .AddTraceSource("PauseSent",
                            "A PFC frame was queued for one priority (priority, quanta).",
                            ColdTraceAccessor(&ColdState::m_pauseSentTrace),
                            "ns3::PfcNetDevice::PauseTracedCallback")
            .AddTraceSource("PauseReceived",
                            "A PFC frame arrived for one priority (priority, quanta).",
                            ColdTraceAccessor(&ColdState::m_pauseRecvTrace),
                            "ns3::PfcNetDevice::PauseTracedCallback")
            .AddTraceSource("Resume",
                            "An egress priority resumed (priority, time it was paused).",
                            ColdTraceAccessor(&ColdState::m_resumeTrace),
                            "ns3::PfcNetDevice::ResumeTracedCallback");
    return tid;
}

// The device's warm part stays within six lines: what the arena keeps per device (its cold
// state is on the heap; bench/README.md, "Then: fewer pages a hop").
static_assert(sizeof(PfcNetDevice) <= 384, "a device in the arena is at most 384 B");

template<class Source>
Ptr<const TraceSourceAccessor>
PfcNetDevice::ColdTraceAccessor(Source ColdState::*trace)
{
    // As ns-3's DoMakeTraceSourceAccessor (trace-source-accessor.h), through m_cold: each
    // call goes to the source's own (hiding) methods, so a FlaggedTracedCallback keeps its
    // flag for connections made by Config paths, TraceConnect and direct calls alike.
    struct Accessor : public TraceSourceAccessor
    {
        explicit Accessor(Source ColdState::*t)
            : m_trace(t)
        {
        }
        /// \brief obj's trace, or null when obj is not a PfcNetDevice (a local class has no
        /// member templates, so each method below calls its own source method after this).
        Source*
        Of(ObjectBase* obj) const
        {
            auto* dev = dynamic_cast<PfcNetDevice*>(obj);
            return dev != nullptr ? &((*dev->m_cold).*m_trace) : nullptr;
        }
        bool
        ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            Source* s = Of(obj);
            return s != nullptr && (s->ConnectWithoutContext(cb), true);
        }
        bool
        Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            Source* s = Of(obj);
            return s != nullptr && (s->Connect(cb, context), true);
        }
        bool
        DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            Source* s = Of(obj);
            return s != nullptr && (s->DisconnectWithoutContext(cb), true);
        }
        bool
        Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            Source* s = Of(obj);
            return s != nullptr && (s->Disconnect(cb, context), true);
        }
        Source ColdState::*m_trace; //!< the trace in the cold state
    };
    return Ptr<const TraceSourceAccessor>(new Accessor(trace), false);
}

PfcNetDevice::ColdState::ColdState(bool* rxTraced, bool* dequeueTraced, bool* enqueueTraced)
    : m_rxTrace(rxTraced),
      m_dequeueTrace(dequeueTraced),
      m_enqueueTrace(enqueueTraced)
{
}
PfcNetDevice::ColdState::~ColdState() = default;

PfcNetDevice::PfcNetDevice()
    : m_inTryTransmit(false),
      m_wakePending(false),
      m_controlQueued(false),
      m_hasPuller(false),
      m_hasRelay(false),
      m_hasSource(false),
      m_hasChannel(false),
      m_txPcap(false),
      m_pathKnown(false),
      m_cold(std::make_unique<ColdState>(&m_rxTraced, &m_dequeueTraced, &m_enqueueTraced))
{
}

PfcNetDevice::~PfcNetDevice() = default;

void
PfcNetDevice::DoDispose()
{
    if (PauseState* pause = m_cold->m_pause.get())
    {
        for (auto& ev : pause->timer)
        {
            ev.Cancel();
        }
        while (!pause->pending.empty())
        {
            pause->pending.front().Cancel();
            pause->pending.pop_front();
        }
    }
    m_cold->m_node = nullptr;
    m_channel = nullptr;
    m_hasChannel = false;
    ForgetDirectPath();
    CancelCompletion();
    m_cold->m_control.clear();
    m_controlQueued = false;
    for (auto& q : m_cold->m_queues)
    {
        q.frames.clear();
        q.bytes = 0;
    }
    m_queueMask = 0;
    m_puller = TxPuller();
    m_hasPuller = false;
    m_source = nullptr;
    m_hasSource = false;
    m_relay = nullptr;
    m_txRelay = nullptr;
    m_hasRelay = false;
    m_relayReceives = false;
    RefreshWarmHints();
    m_cold->m_frameRx = FrameReceiveCallback();
    m_frameSink = nullptr;
    m_receiveWarmer = nullptr;
    m_cold->m_rxCallback = NetDevice::ReceiveCallback();
    m_cold->m_pcap = nullptr;
    m_rxPcap = false;
    m_txPcap = false;
    NetDevice::DoDispose();
}

void
PfcNetDevice::Attach(Ptr<PfcChannel> channel)
{
    m_channel = channel;
    m_hasChannel = channel != nullptr;
    ForgetDirectPath();
    channel->Attach(this);
}

void
PfcNetDevice::Enqueue(Ptr<Packet> frame, uint8_t priority)
{
    const uint32_t bytes = frame->GetSize();
    EnqueueFrame(FrameRef(frame), bytes, priority, nullptr);
}

void
PfcNetDevice::EnqueueRoce(Ptr<Packet> frame, uint8_t priority, const RoceFrameInfo& info)
{
    const uint32_t bytes = frame->GetSize();
    // Downstream the header alone gives the size (the arrival event does not carry it).
    NS_ABORT_MSG_IF(bytes != RoceFrameBytes(info),
                    "PfcNetDevice::EnqueueRoce: a frame of " << bytes << " B with a header of a "
                                                             << RoceFrameBytes(info) << " B frame");
    EnqueueFrame(FrameRef(frame), bytes, priority, &info);
}

void
PfcNetDevice::EnqueueRoce(uint8_t priority, const RoceFrameInfo& info)
{
    const uint32_t bytes = RoceFrameBytes(info.payloadBytes, info.vlan, RoceHasAeth(info.opcode));
    EnqueueFrame(FrameRef::HeaderOnly(), bytes, priority, &info);
}

void
PfcNetDevice::EnqueueFrame(FrameRef frame,
                           uint32_t bytes,
                           uint8_t priority,
                           const RoceFrameInfo* info)
{
    NS_ABORT_MSG_IF(priority >= kPfcPriorities, "PfcNetDevice::Enqueue: priority > 7");
    ColdState::PushQueue& q = m_cold->m_queues[priority];
    q.frames.push_back({std::move(frame), bytes, info ? *info : RoceFrameInfo(), info != nullptr});
    q.bytes += bytes;
    m_queueMask = static_cast<uint8_t>(m_queueMask | (1u << priority));
    if (m_enqueueTraced)
    {
        // Per frame: no argument copies (nor a Packet for a header-only frame) with no sink.
        m_cold->m_enqueueTrace(q.frames.back().frame.Share(info), priority);
    }
    TryTransmit();
}

uint64_t
PfcNetDevice::QueuedBytes(uint8_t priority) const
{
    return m_cold->m_queues[priority].bytes;
}

uint64_t
PfcNetDevice::QueuedFrames() const
{
    uint64_t n = m_cold->m_control.size();
    for (const auto& q : m_cold->m_queues)
    {
        n += q.frames.size();
    }
    return n;
}

void
PfcNetDevice::SetTxPuller(TxPuller puller)
{
    m_puller = puller;
    m_hasPuller = !puller.IsNull();
    m_source = nullptr;
    m_hasSource = false;
    RefreshWarmHints();
}

void
PfcNetDevice::SetFrameSource(PfcFrameSource* source, uint32_t port)
{
    NS_ABORT_MSG_IF(port > kMaxFrameSourcePorts,
                    "PfcNetDevice: frame source port " << port << " is over "
                                                       << kMaxFrameSourcePorts);
    m_source = source;
    m_hasSource = source != nullptr;
    m_sourcePort = static_cast<uint16_t>(port);
    m_puller = TxPuller();
    m_hasPuller = false;
    RefreshWarmHints();
}

void
PfcNetDevice::SetFrameRelay(PfcFrameRelay* relay, uint32_t port)
{
    m_relay = relay;
    m_relayPort = port;
    m_relayReceives = relay != nullptr;
    NS_ABORT_MSG_IF(port > kMaxFrameSourcePorts,
                    "PfcNetDevice: frame relay port " << port << " is over "
                                                      << kMaxFrameSourcePorts);
    m_txRelay = relay;
    m_txRelayPort = static_cast<uint16_t>(port);
    m_hasRelay = relay != nullptr;
    UpdateReceiveWarmer();
    RefreshWarmHints();
}

void
PfcNetDevice::RefreshWarmHints()
{
    m_receiveHints = m_relay != nullptr ? m_relay->ReceiveWarmHints(m_relayPort) : PortWarmHints{};
    const void* puller = nullptr;
    const void* hint = nullptr;
    if (m_txRelay != nullptr)
    {
        puller = m_txRelay;
        hint = m_txRelay->PullWarmHint(m_txRelayPort);
    }
    else if (m_source != nullptr)
    {
        puller = m_source;
        hint = m_source->PullWarmHint(m_sourcePort);
    }
    const auto distance = reinterpret_cast<intptr_t>(hint) - reinterpret_cast<intptr_t>(puller);
    const bool fits = hint != nullptr && distance >= INT32_MIN && distance <= INT32_MAX;
    m_pullHintOffset = fits ? static_cast<int32_t>(distance) : 0;
}

void
PfcNetDevice::UpdateReceiveWarmer()
{
    if (m_relayReceives)
    {
        m_receiveWarmer = m_relay->GetReceiveWarmer();
    }
    else
    {
        m_receiveWarmer = m_frameSink != nullptr ? m_frameSink->GetReceiveWarmer() : nullptr;
    }
}

void
PfcNetDevice::Wake()
{
    TryTransmit();
}

void
PfcNetDevice::SetFrameReceiveCallback(FrameReceiveCallback cb, bool takesHeaderOnly)
{
    m_cold->m_frameRx = cb;
    m_cold->m_frameRxTakesHeaders = takesHeaderOnly;
    m_frameSink = nullptr;
    m_relayReceives = false;
    UpdateReceiveWarmer();
}

void
PfcNetDevice::SetFrameSink(PfcFrameSink* sink)
{
    m_frameSink = sink;
    m_cold->m_frameRx = FrameReceiveCallback();
    m_relayReceives = false;
    UpdateReceiveWarmer();
}

void
PfcNetDevice::DeliverTo(const FrameReceiveCallback& cb,
                        const Ptr<Packet>& frame,
                        uint8_t priority,
                        const RoceFrameInfo* info)
{
    const RoceFrameInfo* outer = m_cold->m_rxInfo;
    m_cold->m_rxInfo = info;
    cb(this, frame, priority);
    m_cold->m_rxInfo = outer;
}

void
PfcNetDevice::SendPause(uint8_t priority, uint16_t quanta)
{
    NS_ABORT_MSG_IF(priority >= kPfcPriorities, "PfcNetDevice::SendPause: priority > 7");
    m_cold->m_control.push_back(BuildPfcFrame(priority, quanta, MacBytes()));
    m_controlQueued = true;
    ++PauseStateForPfc().sent[priority];
    m_cold->m_pauseSentTrace(priority, quanta);
    TryTransmit();
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_rate;
}

void
PfcNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
}

Time
PfcNetDevice::PauseDuration(uint16_t quanta) const
{
    // One quantum is 512 bit times; exact in time steps, rounded down.
    unsigned __int128 bits = uint64_t(quanta) * 512;
    unsigned __int128 steps = bits * Time::FromInteger(1, Time::S).GetTimeStep();
    return TimeStep(static_cast<uint64_t>(steps / m_rate.GetBitRate()));
}

uint32_t
PfcNetDevice::PfcReactionBitTimesFor(uint64_t bitRate)
{
    // IEEE 802.3 Annex 31B (pause reaction timing), per-speed maxima in pause quanta of 512
    // bit times: 394 at 100 Gb/s, 118 at 40 Gb/s (figures as vendors quote them, e.g. in
    // PFC headroom guides). Faster ports use the 100 Gb/s figure; slower ones the 40 Gb/s
    // one (no smaller figure is cited here).
    return bitRate >= 100000000000ULL ? 394 * 512 : 118 * 512;
}

Time
PfcNetDevice::GetPfcReactionDelay() const
{
    const uint64_t bits = m_reactionBits == kReactionByRate
                              ? PfcReactionBitTimesFor(m_rate.GetBitRate())
                              : m_reactionBits;
    unsigned __int128 steps = static_cast<unsigned __int128>(bits) *
                              Time::FromInteger(1, Time::S).GetTimeStep();
    return TimeStep(static_cast<uint64_t>(steps / m_rate.GetBitRate()));
}

Time
PfcNetDevice::SerializationTime(uint32_t wireBytes)
{
    // Time steps of wireBytes at the line rate, carrying the fraction of a step to the next
    // frame: at 100 Gb/s a 1086 B frame takes 86.88 ns, and rounding every frame to whole
    // nanoseconds would make the link up to 1% fast or slow. With the carry the long-run rate
    // is exact at any time resolution.
    unsigned __int128 num = static_cast<unsigned __int128>(wireBytes) * 8 *
                                Time::FromInteger(1, Time::S).GetTimeStep() +
                            m_txCarry;
    uint64_t rate = m_rate.GetBitRate();
    m_txCarry = static_cast<uint64_t>(num % rate);
    return TimeStep(static_cast<uint64_t>(num / rate));
}

Ptr<PfcChannel>
PfcNetDevice::GetPfcChannel() const
{
    return m_channel;
}

bool
PfcNetDevice::IsTxIdle() const
{
    return m_txState == READY || Simulator::Now() >= m_txEnd;
}

uint64_t
PfcNetDevice::GetPauseFramesSent(uint8_t priority) const
{
    return m_cold->m_pause ? m_cold->m_pause->sent[priority] : 0;
}

uint64_t
PfcNetDevice::GetPauseFramesReceived(uint8_t priority) const
{
    return m_cold->m_pause ? m_cold->m_pause->received[priority] : 0;
}

uint64_t
PfcNetDevice::GetResumeFramesReceived(uint8_t priority) const
{
    return m_cold->m_pause ? m_cold->m_pause->resumes[priority] : 0;
}

Time
PfcNetDevice::GetPausedTime(uint8_t priority) const
{
    const PauseState* pause = m_cold->m_pause.get();
    if (pause == nullptr)
    {
        return Time(0);
    }
    Time t = pause->pausedTime[priority];
    if (IsPaused(priority))
    {
        t += Simulator::Now() - pause->start[priority];
    }
    return t;
}

uint64_t
PfcNetDevice::GetTxFrames(uint8_t priority) const
{
    // A priority has a count in at most one run counter (both start at priority 0, empty).
    uint64_t n = m_txFrames[priority];
    for (std::size_t i = 0; i < m_txRun.size(); ++i)
    {
        n += priority == m_txRunPriority[i] ? m_txRun[i] : 0;
    }
    return n;
}

void
PfcNetDevice::EnablePcap(const std::string& filename)
{
    m_cold->m_pcap = CreateObject<PcapFileWrapper>();
    m_rxPcap = true;
    m_txPcap = true;
    // Nanosecond timestamps: at 100 Gb/s a 64 B frame lasts 6.7 ns, microseconds merge them.
    m_cold->m_pcap->SetAttribute("NanosecMode", BooleanValue(true));
    m_cold->m_pcap->Open(filename, std::ios::out);
    NS_ABORT_MSG_IF(m_cold->m_pcap->Fail(), "PfcNetDevice: cannot open pcap file " << filename);
    m_cold->m_pcap->Init(kDltEn10mb, 65535);
}

std::array<uint8_t, 6>
PfcNetDevice::MacBytes() const
{
    std::array<uint8_t, 6> mac;
    m_cold->m_address.CopyTo(mac.data());
    return mac;
}

// ------------------------------------------------------------------ NetDevice

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_cold->m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_cold->m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_cold->m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_cold->m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
PfcNetDevice::IsBroadcast() const
{
    return false;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return false;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    Enqueue(packet, 0);
    return true;
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_cold->m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_cold->m_node = node;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_cold->m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
