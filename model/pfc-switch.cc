#include "pfc-switch.h"

#include "forwarding-table.h"
#include "pfc-channel.h"
#include "pfc-watchdog.h"
#include "prefetch-line.h"
#include "roce-frame.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcSwitch);

TypeId
PfcSwitch::GetTypeId()
{
    // Long by design: one attribute per model knob, each with its unit and range.
    static TypeId tid =
        TypeId("ns3::PfcSwitch")
            .SetParent<Object>()
            .SetGroupName("Paramsync")
            .AddConstructor<PfcSwitch>()
            .AddAttribute("BufferSize",
                          "Shared packet buffer of the switch (bytes), headroom included. "
                          "Default 32 MB as in HPCC's reference runs.",
                          UintegerValue(32u << 20),
                          MakeUintegerAccessor(&PfcSwitch::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("DynamicThreshold",
                          "XOFF = Alpha x free shared buffer (true) or StaticXoff (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcSwitch::m_dynamicThreshold),
                          MakeBooleanChecker())
            .AddAttribute("Alpha",
                          "Dynamic threshold factor (dimensionless, > 0).",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&PfcSwitch::m_alpha),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("LossyAlpha",
                          "Dynamic threshold factor of lossy classes (dimensionless, > 0): a "
                          "lossy port-priority holds at most LossyAlpha x free shared buffer. "
                          "Default 8 = 2^3, SONiC's lossy buffer profiles' dynamic_th 3.",
                          DoubleValue(8.0),
                          MakeDoubleAccessor(&PfcSwitch::m_lossyAlpha),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("StaticXoff",
                          "Static XOFF per ingress port and priority (bytes).",
                          UintegerValue(256000),
                          MakeUintegerAccessor(&PfcSwitch::m_staticXoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonHysteresis",
                          "XON = XOFF - XonHysteresis (bytes).",
                          UintegerValue(3000),
                          MakeUintegerAccessor(&PfcSwitch::m_hysteresis),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxFrameBytes",
                          "Largest frame incl. preamble, SFD and IFG (bytes); the MTU term of "
                          "the headroom. Default: 4096 B payload + 70 B headers + 20 B.",
                          UintegerValue(4186),
                          MakeUintegerAccessor(&PfcSwitch::m_mtuBytes),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("ResponseTime",
                          "Extra time the upstream port takes to act on a pause beyond "
                          "finishing its current frame and beyond its own PFC reaction delay "
                          "(the peer PfcNetDevice's PfcReactionBitTimes, always counted); its "
                          "bytes at line rate join the headroom (s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcSwitch::m_responseTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HeadroomScale",
                          "Headroom = HeadroomScale x (2 x delay x rate + 3 x MaxFrameBytes + "
                          "(peer's PFC reaction delay + ResponseTime) x rate); below 1 the "
                          "switch may drop with PFC on (for studies of undersized headroom).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&PfcSwitch::m_headroomScale),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("QueueReserveBytes",
                          "Private buffer of each lossless ingress port-priority (bytes): it "
                          "fills first and only bytes beyond it count against XOFF and the "
                          "shared pool, which gives it up. 0 (default) = none; HPCC's "
                          "simulator (--preset=hpcc): 4096.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitch::m_queueReserve),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomOneWayBdps",
                          "Headroom per lossless port-priority as this many one-way "
                          "bandwidth-delay products of the port (rate x delay / 8 bytes), "
                          "replacing the formula of HeadroomScale (still scaled by it). 0 "
                          "(default) = the formula; HPCC's simulator (--preset=hpcc): 3.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&PfcSwitch::m_headroomBdps),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("AlphaReferenceRate",
                          "Ports faster than this rate (bit/s) get Alpha doubled once per "
                          "doubling of their rate above it while it stays <= 1: HPCC's "
                          "free-buffer shift, 3 at the NIC rate and one less per doubling "
                          "(--preset=hpcc sets the hosts' NIC rate). 0 bit/s (default) = "
                          "Alpha on every port.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&PfcSwitch::m_alphaReferenceRate),
                          MakeDataRateChecker())
            .AddAttribute("LosslessPriorities",
                          "Bit mask of PFC priorities that are lossless (headroom reserved, "
                          "pause generated). 0 (default) = the data lanes of the "
                          "ForwardingTable, [BasePriority, BasePriority + lanes): the control "
                          "class (ACK/NAK/CNP) is lossy, served first and never paused.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitch::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcEnabled",
                          "Generate PFC pauses and reserve headroom (false: lossy switch).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcSwitch::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Quanta of the pauses sent (512 bit times each); refreshed every "
                          "half pause while above XON.",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&PfcSwitch::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("WatchdogDetection",
                          "PFC watchdog: an egress queue paused with frames waiting this long "
                          "is stormed and its frames are dropped until it has been unpaused "
                          "for WatchdogRestore (see pfc-watchdog.h); 0 = no watchdog.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&PfcSwitch::m_watchdogDetection),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("WatchdogRestore",
                          "PFC watchdog: unpaused time after which a stormed queue is "
                          "lossless again.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PfcSwitch::m_watchdogRestore),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("EcnEnabled",
                          "Mark CE at egress RED-style.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Egress queue (bytes) above which marking starts; 0 = 4000 B per "
                          "Gb/s of the port (HPCC: 400 KB at 100 Gb/s, 1600 KB at 400 Gb/s).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitch::m_kminAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Egress queue (bytes) above which every frame is marked; 0 = 16000 B "
                          "per Gb/s (HPCC: 1600 KB at 100 Gb/s, 6400 KB at 400 Gb/s).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitch::m_kmaxAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Marking probability at Kmax (HPCC: 0.2).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&PfcSwitch::m_pmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Drop",
                            "A frame found no buffer (frame, ingress port, priority).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_dropTrace),
                            "ns3::PfcSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A frame was marked CE (frame, egress port, priority).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_markTrace),
                            "ns3::PfcSwitch::MarkTracedCallback")
            .AddTraceSource("WatchdogDrop",
                            "The PFC watchdog dropped a frame of a stormed egress queue "
                            "(frame, egress port, priority).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_watchdogDropTrace),
                            "ns3::PfcSwitch::DropTracedCallback")
            .AddTraceSource("NoRouteDrop",
                            "A frame whose destination host no route reaches (link failures "
                            "cut it off) was dropped (frame, ingress port).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_noRouteDropTrace),
                            "ns3::PfcSwitch::NoRouteDropTracedCallback")
            .AddTraceSource("WatchdogStorm",
                            "The PFC watchdog declared a storm on (egress port, priority) "
                            "(true) or restored it (false).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_watchdogStormTrace),
                            "ns3::PfcSwitch::StormTracedCallback")
            .AddTraceSource("PauseSent",
                            "Pause (quanta > 0) or resume (0) sent upstream (ingress port, "
                            "priority, quanta).",
                            MakeTraceSourceAccessor(&PfcSwitch::m_pauseTrace),
                            "ns3::PfcSwitch::PauseTracedCallback");
    return tid;
}

PfcSwitch::PfcSwitch()
{
    m_uniform = CreateObject<UniformRandomVariable>();
}

PfcSwitch::~PfcSwitch() = default;

void
PfcSwitch::DoDispose()
{
    for (auto& timers : m_refresh)
    {
        for (auto& ev : timers)
        {
            ev.Cancel();
        }
    }
    m_refresh.clear();
    for (auto& port : m_ports)
    {
        port.Device()->SetFrameRelay(nullptr, 0);
        for (auto& q : port.egress)
        {
            q.fifo.clear();
            q.device = nullptr;
        }
    }
    m_watchdog.reset();
    m_ports.clear();
    if (m_table)
    {
        m_table->SetPortDevices({});
    }
    m_table = nullptr;
    m_up = PfcNetDevice::FrameReceiveCallback();
    m_localSink = nullptr;
    m_uniform = nullptr;
    Object::DoDispose();
}

void
PfcSwitch::AddPort(Ptr<PfcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_mmu, "PfcSwitch::AddPort after the switch started");
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    m_ports.emplace_back();
    for (auto& q : m_ports.back().egress)
    {
        q.device = device;
    }
    m_refresh.emplace_back();
    device->SetFrameRelay(this, index);
}

void
PfcSwitch::SetForwardingTable(Ptr<ForwardingTable> table)
{
    m_table = table;
    if (m_mmu)
    {
        GiveTableThePorts(); // else Initialize does
    }
}

void
PfcSwitch::GiveTableThePorts()
{
    std::vector<PfcNetDevice*> devices;
    for (const auto& port : m_ports)
    {
        devices.push_back(PeekPointer(port.Device()));
        port.Device()->RefreshWarmHints();
    }
    m_table->SetPortDevices(devices);
}

void
PfcSwitch::SetLocalDelivery(uint32_t hostRank,
                            PfcNetDevice::FrameReceiveCallback up,
                            bool takesHeaderOnly)
{
    m_hasLocal = true;
    m_localHost = hostRank;
    m_up = up;
    m_upTakesHeaders = takesHeaderOnly;
    m_localSink = nullptr;
}

void
PfcSwitch::SetLocalSink(uint32_t hostRank, PfcFrameSink* sink)
{
    m_hasLocal = true;
    m_localHost = hostRank;
    m_up = PfcNetDevice::FrameReceiveCallback();
    m_localSink = sink;
}

void
PfcSwitch::Initialize()
{
    if (m_mmu)
    {
        return;
    }
    SharedBufferMmu::Config c;
    c.bufferBytes = m_bufferBytes;
    c.dynamicThreshold = m_dynamicThreshold;
    c.alpha = m_alpha;
    c.lossyAlpha = m_lossyAlpha;
    c.staticXoffBytes = m_staticXoff;
    c.hysteresisBytes = m_hysteresis;
    c.mtuBytes = m_mtuBytes;
    c.responseTimeS = m_responseTime.GetSeconds();
    c.headroomScale = m_headroomScale;
    c.losslessMask = m_losslessMask ? m_losslessMask : DataLaneMask();
    c.pfcEnabled = m_pfcEnabled;
    c.queueReserveBytes = m_queueReserve;
    c.headroomBdps = m_headroomBdps;
    c.alphaReferenceRateBps = static_cast<double>(m_alphaReferenceRate.GetBitRate());
    auto mmu = std::make_unique<SharedBufferMmu>(c);
    m_minKmin = UINT64_MAX;
    for (auto& port : m_ports)
    {
        const Ptr<PfcNetDevice>& device = port.Device();
        double rate = static_cast<double>(device->GetDataRate().GetBitRate());
        Ptr<PfcChannel> ch = device->GetPfcChannel();
        // The peer reacts to our pauses: its reaction delay is part of this port's headroom.
        Ptr<PfcNetDevice> peer;
        if (ch)
        {
            peer = ch->GetPfcDevice(0) == device ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        }
        const double reactionS = peer ? peer->GetPfcReactionDelay().GetSeconds() : 0.0;
        mmu->AddPort(rate, ch ? ch->GetDelay().GetSeconds() : 0.0, reactionS);
        double gbps = rate / 1e9;
        const uint64_t kmin = m_kminAttr ? m_kminAttr : static_cast<uint64_t>(4000 * gbps);
        const uint64_t kmax = m_kmaxAttr ? m_kmaxAttr : static_cast<uint64_t>(16000 * gbps);
        for (auto& q : port.egress)
        {
            q.kminBytes = kmin;
            q.kmaxBytes = kmax;
        }
        m_minKmin = std::min(m_minKmin, kmin);
    }
    mmu->Finalize(); // throws std::invalid_argument when the headroom does not fit
    m_mmu = std::move(mmu);
    if (m_table)
    {
        GiveTableThePorts();
    }
    else
    {
        for (const auto& port : m_ports)
        {
            port.Device()->RefreshWarmHints(); // the MMU's accounts, the final egress queues
        }
    }
    if (m_watchdogDetection.IsStrictlyPositive())
    {
        StartWatchdog();
    }
}

uint8_t
PfcSwitch::DataLaneMask() const
{
    if (!m_table)
    {
        return 0xff; // no table, no lanes known: every priority
    }
    uint8_t mask = 0;
    for (uint32_t lane = 0; lane < m_table->GetLaneCount(); ++lane)
    {
        const uint32_t p = m_table->GetBasePriority() + lane;
        if (p < kPfcPriorities)
        {
            mask = static_cast<uint8_t>(mask | (1u << p));
        }
    }
    return mask;
}

void
PfcSwitch::StartWatchdog()
{
    PfcWatchdog::Hooks hooks;
    hooks.paused = [this](uint32_t port, uint8_t q) {
        return m_ports[port].egress[q].device->IsPaused(q);
    };
    hooks.backlogged = [this](uint32_t port, uint8_t q) {
        return !m_ports[port].egress[q].fifo.empty();
    };
    hooks.sent = [this](uint32_t port, uint8_t q) { return m_ports[port].egress[q].sent; };
    hooks.flush = [this](uint32_t port, uint8_t q) { FlushEgress(port, q); };
    hooks.changed = [this](uint32_t port, uint8_t q, bool on) {
        m_watchdogStormTrace(port, q, on);
    };
    m_watchdog = std::make_unique<PfcWatchdog>(static_cast<uint32_t>(m_ports.size()),
                                               m_watchdogDetection,
                                               m_watchdogRestore,
                                               std::move(hooks));
    for (auto& port : m_ports)
    {
        port.Device()->TraceConnectWithoutContext(
            "PauseReceived", Callback<void, uint8_t, uint16_t>([this](uint8_t, uint16_t quanta) {
                if (quanta > 0)
                {
                    m_watchdog->Wake();
                }
            }));
    }
}

void
PfcSwitch::FlushEgress(uint32_t port, uint8_t priority)
{
    EgressQueue& eq = m_ports[port].egress[priority];
    auto& q = eq.fifo;
    std::vector<std::pair<uint32_t, uint8_t>> ingress;
    while (!q.empty())
    {
        Queued item = std::move(q.front());
        q.pop_front();
        eq.bytes -= item.bytes;
        m_mmu->Release(item.inPort, item.inPriority, item.bytes);
        ingress.emplace_back(item.inPort, item.inPriority);
        ++m_watchdogDrops;
        if (!m_watchdogDropTrace.IsEmpty())
        {
            m_watchdogDropTrace(item.frame.Share(&item.info), port, priority);
        }
    }
    eq.device->SetRelayBacklog(priority, false);
    for (const auto& [inPort, inPriority] : ingress)
    {
        CheckPause(inPort, inPriority); // the freed buffer may end pauses upstream
    }
}

uint64_t
PfcSwitch::GetWatchdogStorms() const
{
    return m_watchdog ? m_watchdog->Storms() : 0;
}

uint32_t
PfcSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PfcNetDevice>
PfcSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i).Device();
}

const SharedBufferMmu&
PfcSwitch::GetMmu() const
{
    NS_ABORT_MSG_IF(!m_mmu, "PfcSwitch::GetMmu before Initialize");
    return *m_mmu;
}

uint64_t
PfcSwitch::EgressBytes(uint32_t port, uint8_t priority) const
{
    return m_ports.at(port).egress[priority].bytes;
}

uint64_t
PfcSwitch::EgressFrames() const
{
    uint64_t n = 0;
    for (const auto& port : m_ports)
    {
        for (const auto& q : port.egress)
        {
            n += q.fifo.size();
        }
    }
    return n;
}

uint64_t
PfcSwitch::GetDrops(uint32_t port, uint8_t priority) const
{
    return m_mmu ? m_mmu->Drops(port, priority) : 0;
}

uint64_t
PfcSwitch::GetTotalDrops() const
{
    return m_mmu ? m_mmu->TotalDrops() : 0;
}

uint64_t
PfcSwitch::EcnKmin(uint32_t port) const
{
    return m_ports.at(port).egress[0].kminBytes;
}

uint64_t
PfcSwitch::EcnKmax(uint32_t port) const
{
    return m_ports.at(port).egress[0].kmaxBytes;
}

int64_t
PfcSwitch::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

void
PfcSwitch::RelayReceive(uint32_t inPort,
                        PfcNetDevice& dev,
                        FrameRef frame,
                        uint8_t priority,
                        const RoceFrameInfo* known,
                        uint32_t bytes)
{
    if (!m_mmu)
    {
        Initialize();
    }
    RoceFrameInfo info;
    if (known)
    {
        info = *known;
    }
    else if (!ReadRoceFrame(frame.Share(nullptr), info))
    {
        // Only RoCEv2 is switched; anything else is counted as a drop of its class.
        m_dropTrace(frame.Share(nullptr), inPort, priority);
        return;
    }
    if (m_hasLocal && info.dstHost == m_localHost)
    {
        // The host's own frames, their header beside them (the NIC reads it with GetRxInfo).
        if (m_localSink != nullptr)
        {
            m_localSink->SinkReceive(dev, std::move(frame), priority, &info);
            return;
        }
        dev.DeliverTo(m_up, frame.Release(&info, !m_upTakesHeaders), priority, &info);
        return;
    }
    NS_ABORT_MSG_IF(!m_table, "PfcSwitch: no ForwardingTable");
    uint8_t inLane = 0;
    const bool isLane = LaneOf(priority, inLane);
    const ForwardingHop* route = m_table->Lookup(
        info.dstHost, inLane, info.srcHost, info.udpSrcPort);
    if (!route)
    {
        // Failed links cut the destination off (a partition until a repair): the frame is
        // lost as on a dead cable, and its queue pair resends once a route is back.
        ++m_noRouteDrops;
        if (!m_noRouteDropTrace.IsEmpty())
        {
            m_noRouteDropTrace(frame.Share(&info), inPort);
        }
        return;
    }
    uint8_t outPriority = isLane ? m_table->LanePriority(route->lane) : priority;
    if (m_watchdog && m_watchdog->Dropping(route->port, outPriority))
    {
        // A stormed egress: its frames are dropped before they take buffer.
        ++m_watchdogDrops;
        if (!m_watchdogDropTrace.IsEmpty())
        {
            m_watchdogDropTrace(frame.Share(&info), route->port, outPriority);
        }
        return;
    }
    if (m_mmu->Admit(inPort, priority, bytes) == SharedBufferMmu::DROP)
    {
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(frame.Share(&info), inPort, priority);
        }
        return;
    }
    CheckPause(inPort, priority);
    if (outPriority != priority)
    {
        if (!frame.IsHeaderOnly())
        {
            SetRoceFramePriority(frame.Share(nullptr), outPriority);
        }
        info.priority = outPriority;
    }
    if (m_stagedActive)
    {
        // A frame relayed from within a device's wake-up (nothing in the model does that
        // today): the frame being handed over heads its queue, so it is queued first.
        QueueStaged();
    }
    // The hop carries its port's device: Initialize (or SetForwardingTable after it) gave the
    // table our ports, and RelayReceive runs after Initialize.
    NS_ASSERT_MSG(route->device == PeekPointer(m_ports[route->port].Device()),
                  "PfcSwitch: a forwarding hop without its port's device");
    PfcNetDevice& out = *route->device;
    if (out.HasRelayBacklog(outPriority))
    {
        // Frames wait in the queue already (nothing is staged here now): this one joins them.
        EgressQueue& q = m_ports[route->port].egress[outPriority];
        q.bytes += bytes;
        q.fifo.push_back({std::move(frame), info, bytes, inPort, priority});
        out.Wake();
        return;
    }
    // An empty queue: the frame is its head. It waits in m_staged, a line of this object,
    // while the device is woken; an idle device pulls it at once (RelayPull), and only a
    // frame that must wait takes a slot of the queue's ring and is counted in its bytes:
    // most frames of a large network cross a switch without touching the queue's line or a
    // slot (bench/README.md, Scaling).
    out.SetRelayBacklog(outPriority, true);
    m_staged = Queued{std::move(frame), info, bytes, inPort, priority};
    m_stagedActive = true;
    m_stagedPort = route->port;
    m_stagedPriority = outPriority;
    m_stagedDevice = &out;
    out.Wake();
    if (m_stagedActive)
    {
        QueueStaged(); // the device is busy or paused: the frame waits in its queue
    }
}

void
PfcSwitch::QueueStaged()
{
    m_stagedActive = false;
    EgressQueue& q = m_ports[m_stagedPort].egress[m_stagedPriority];
    q.bytes += m_staged.bytes;
    q.fifo.push_back(std::move(m_staged));
}

bool
PfcSwitch::LaneOf(uint8_t priority, uint8_t& lane) const
{
    const uint8_t base = m_table->GetBasePriority();
    const bool isLane = priority >= base && priority < base + m_table->GetLaneCount();
    lane = isLane ? static_cast<uint8_t>(priority - base) : 0;
    return isLane;
}

void
PfcSwitch::WarmRelayReceive(int stage,
                            uint32_t inPort,
                            const RoceFrameInfo& info,
                            const PortWarmHints& hints) const
{
    // The chain RelayReceive walks: this object's two lines, the ingress account (with its
    // pause state) and the table's lookup line, all from the receiving device's line (the
    // hints: ReceiveWarmHints); then the MMU's line and the lane's forwarding runs and the
    // routes (all their lines: which run and which hop the lookup reads, only the lookup
    // finds; bench/README.md, "the route's lines warmed together"); then, from the route
    // looked up in the lines now cached, the egress device's transmit lines (its relay
    // backlog, read for every frame) and the egress queue's line (bench/README.md, "the
    // egress device warmed from the route"). The table remembers that route, and
    // RelayReceive's Lookup of the frame's flow takes it without a second search
    // (ForwardingTable::PeekedRoute). Three stages: the hints saved the one in which this
    // object's lines named the account and the table.
    if (stage <= 1)
    {
        PrefetchLine(this);
        PrefetchLine(reinterpret_cast<const char*>(this) + 64);
        SharedBufferMmu::WarmAccountAt(hints.port, info.priority);
        if (hints.shared != nullptr)
        {
            PrefetchLine(hints.shared);
        }
        return;
    }
    if (!m_mmu || !m_table || inPort >= m_ports.size() || stage > 3)
    {
        return; // not initialized yet, or nothing left to warm
    }
    uint8_t lane = 0;
    const bool isLane = LaneOf(info.priority, lane);
    if (stage == 2)
    {
        m_mmu->WarmAccount(1, 0, 0); // the MMU's line, which Admit reads
        m_table->WarmLookup(2, lane);
        return;
    }
    if (m_hasLocal && info.dstHost == m_localHost)
    {
        return; // the host's own frame: no route
    }
    const ForwardingHop* hop = m_table->PeekRoute(
        info.dstHost, lane, info.srcHost, info.udpSrcPort);
    if (hop == nullptr)
    {
        return;
    }
    if (hop->device != nullptr && hop->port < m_ports.size())
    {
        hop->device->WarmTransmit(1);
        const uint8_t outPriority = isLane ? m_table->LanePriority(hop->lane) : info.priority;
        if (outPriority < kPfcPriorities)
        {
            PrefetchLine(&m_ports[hop->port].egress[outPriority]);
        }
    }
}

FrameReceiveWarmer
PfcSwitch::GetReceiveWarmer() const
{
    return &WarmReceiveOf<PfcSwitch>;
}

PortWarmHints
PfcSwitch::ReceiveWarmHints(uint32_t port) const
{
    PortWarmHints hints;
    if (m_mmu)
    {
        hints.port = m_mmu->AccountsOf(port);
    }
    if (m_table)
    {
        hints.shared = m_table->LookupLine();
    }
    return hints;
}

const void*
PfcSwitch::PullWarmHint(uint32_t port) const
{
    return port < m_ports.size() ? static_cast<const void*>(m_ports[port].egress) : nullptr;
}

namespace
{
/**
 * \brief f(p) for each priority p whose bit is set in `backlog`, lowest first. By the lowest
 * set bit, not bit by bit: data frames wait on priority 3 by default (ForwardingTable
 * BasePriority), which the bit-by-bit loop reached after three empty steps, in each of a
 * switch transmission end's three warming stages (bench/README.md, "backlogged priorities by their
 * lowest bit").
 */
template<class F>
[[gnu::always_inline]] inline void
ForEachBacklogged(uint8_t backlog, F f)
{
    for (unsigned bits = backlog; bits != 0; bits &= bits - 1)
    {
        f(static_cast<uint8_t>(__builtin_ctz(bits)));
    }
}
} // namespace

void
PfcSwitch::WarmRelayPull(int stage, uint32_t port, uint8_t backlog, const void* hint) const
{
    // RelayPull reads this object, the egress queue line of the priority it serves (from
    // the device's line: the hint, PullWarmHint), the slot of the queue's first frame, the
    // MMU's line and the buffer account of the port that frame came in on (Release,
    // CheckPause). The account was last touched when the frame arrived, a queueing delay
    // ago: in a network larger than the cache it is a miss of its own
    // (SharedBufferMmu::Release stalled on it for 6 % of the 8,192-host run's time).
    if (stage <= 1)
    {
        PrefetchLine(this);
        PrefetchLine(reinterpret_cast<const char*>(this) + 64);
        if (hint != nullptr)
        {
            const auto* egress = static_cast<const EgressQueue*>(hint);
            ForEachBacklogged(backlog, [egress](uint8_t p) { PrefetchLine(egress + p); });
        }
        return;
    }
    if (!m_mmu || port >= m_ports.size() || stage > 3)
    {
        return; // not initialized yet, or stage 3 warmed the last line RelayPull reads
    }
    if (stage == 2)
    {
        m_mmu->WarmAccount(1, 0, 0);
    }
    const PortState& ps = m_ports[port];
    ForEachBacklogged(backlog, [this, &ps, stage](uint8_t p) {
        const EgressQueue& eq = ps.egress[p];
        if (!eq.fifo.empty())
        {
            const Queued& head = eq.fifo.front();
            if (stage == 2)
            {
                PrefetchLine(&head);
            }
            else
            {
                m_mmu->WarmAccount(2, head.inPort, head.inPriority);
            }
        }
    });
}

FrameRef
PfcSwitch::RelayPull(uint32_t port, uint8_t priority, RoceFrameInfo& info, uint32_t& bytes)
{
    Queued item;
    uint64_t queue = 0; // the queue's bytes with this frame at its head
    if (m_stagedActive && m_stagedPort == port && m_stagedPriority == priority)
    {
        // The head of an empty queue, being enqueued (RelayReceive): the device took it, and
        // the queue, whose line is not read, stays empty.
        m_stagedActive = false;
        item = std::move(m_staged);
        queue = item.bytes;
        m_stagedDevice->SetRelayBacklog(priority, false);
    }
    else
    {
        EgressQueue& eq = m_ports[port].egress[priority];
        if (eq.fifo.empty())
        {
            return FrameRef();
        }
        item = std::move(eq.fifo.front());
        eq.fifo.pop_front();
        if (eq.fifo.empty())
        {
            eq.device->SetRelayBacklog(priority, false);
        }
        queue = eq.bytes;
        eq.bytes -= item.bytes;
    }
    bytes = item.bytes;
    m_mmu->Release(item.inPort, item.inPriority, bytes);
    CheckPause(item.inPort, item.inPriority);
    // RED on the queue as this frame reaches its head (mark at dequeue, as HPCC does). Below
    // every port's Kmin the queue's own thresholds need not be read.
    if (m_ecnEnabled && item.info.ecnCapable && !item.info.ecnCe && queue > m_minKmin &&
        queue > m_ports[port].egress[priority].kminBytes)
    {
        const EgressQueue& eq = m_ports[port].egress[priority];
        bool mark = queue > eq.kmaxBytes;
        if (!mark)
        {
            double p = m_pmax * static_cast<double>(queue - eq.kminBytes) /
                       static_cast<double>(eq.kmaxBytes - eq.kminBytes);
            mark = m_uniform->GetValue() < p;
        }
        if (mark)
        {
            if (!item.frame.IsHeaderOnly())
            {
                MarkRoceFrameCe(item.frame.Share(nullptr));
            }
            item.info.ecnCe = true;
            ++m_ecnMarks;
            if (!m_markTrace.IsEmpty())
            {
                m_markTrace(item.frame.Share(&item.info), port, priority);
            }
        }
    }
    ++m_forwarded;
    if (m_watchdog)
    {
        ++m_ports[port].egress[priority].sent; // what the watchdog reads of a queue's progress
    }
    info = item.info;
    return std::move(item.frame);
}

void
PfcSwitch::CheckPause(uint32_t port, uint8_t priority)
{
    if (!m_mmu->IsPaused(port, priority))
    {
        if (m_mmu->ShouldPause(port, priority))
        {
            PfcNetDevice& device = *m_ports[port].egress[priority].device;
            m_mmu->SetPaused(port, priority, true);
            device.SendPause(priority, m_pauseQuanta);
            m_pauseTrace(port, priority, m_pauseQuanta);
            m_refresh[port][priority] = Simulator::Schedule(device.PauseDuration(m_pauseQuanta) / 2,
                                                            &PfcSwitch::RefreshPause,
                                                            this,
                                                            port,
                                                            priority);
        }
    }
    else if (m_mmu->ShouldResume(port, priority))
    {
        m_mmu->SetPaused(port, priority, false);
        m_refresh[port][priority].Cancel();
        m_ports[port].egress[priority].device->SendPause(priority, 0);
        m_pauseTrace(port, priority, 0);
    }
}

void
PfcSwitch::RefreshPause(uint32_t port, uint8_t priority)
{
    if (!m_mmu->IsPaused(port, priority))
    {
        return;
    }
    PfcNetDevice& device = *m_ports[port].egress[priority].device;
    if (m_mmu->ShouldResume(port, priority))
    {
        // XON may have come without a frame of ours leaving (XOFF is dynamic: other ports
        // freed the pool): resume instead of pausing again.
        m_mmu->SetPaused(port, priority, false);
        device.SendPause(priority, 0);
        m_pauseTrace(port, priority, 0);
        return;
    }
    device.SendPause(priority, m_pauseQuanta);
    m_pauseTrace(port, priority, m_pauseQuanta);
    m_refresh[port][priority] = Simulator::Schedule(
        device.PauseDuration(m_pauseQuanta) / 2, &PfcSwitch::RefreshPause, this, port, priority);
}

} // namespace ns3
