#include "network-recorder.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/pfc-switch.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ns3
{

namespace
{

/**
 * One trace source, by name, connected on many objects: its accessor is looked up once per
 * type (TypeId::LookupTraceSourceByName walks a type's sources and its parents' by string
 * compare), and kept for the next object of the same type, as the network's objects of one
 * kind come in a row. What ObjectBase::TraceConnectWithoutContext does, with the lookup kept.
 */
class TraceSource
{
  public:
    explicit TraceSource(std::string name)
        : m_name(std::move(name))
    {
    }

    /// \brief Connects cb to this source of object (aborts naming it if object has none).
    void
    Connect(ObjectBase& object, const CallbackBase& cb)
    {
        const TypeId tid = object.GetInstanceTypeId();
        if (!m_accessor || tid != m_tid)
        {
            m_accessor = tid.LookupTraceSourceByName(m_name);
            m_tid = tid;
        }
        NS_ABORT_MSG_UNLESS(m_accessor && m_accessor->ConnectWithoutContext(&object, cb),
                            "NetworkRecorder: no trace source " << m_name << " on "
                                                                << tid.GetName());
    }

  private:
    std::string m_name;                        //!< the source's name
    TypeId m_tid;                              //!< the type m_accessor is of
    Ptr<const TraceSourceAccessor> m_accessor; //!< its accessor (null: not looked up)
};

/**
 * A trace sink around a lambda, equal only to itself (and its copies). ns-3.37's
 * Callback(lambda) keeps, for IsEqual, a list of the lambda and its bound values (two shared
 * objects and a vector) and wraps the lambda in a second std::function: four allocations per
 * sink, for 2 sinks on each of a k=32 fat-tree's 57,344 ports. This one is one allocation
 * (the lambdas here fit std::function's inline buffer). A sink made here is compared only
 * by a Disconnect, which would hand it back itself.
 */
template<typename... Args>
class PortSink : public CallbackImpl<void, Args...>
{
  public:
    /// \brief A sink calling fn.
    explicit PortSink(std::function<void(Args...)> fn)
        : CallbackImpl<void, Args...>(std::move(fn), CallbackComponentVector())
    {
    }

    /// \brief Equal to itself only.
    bool
    IsEqual(Ptr<const CallbackImplBase> other) const override
    {
        return PeekPointer(other) == this;
    }
};

/// \brief A Callback<void, Args...> of fn, made as a PortSink.
template<typename... Args, typename F>
Callback<void, Args...>
MakePortSink(F fn)
{
    return Callback<void, Args...>(Ptr<CallbackImpl<void, Args...>>(
        Create<PortSink<Args...>>(std::function<void(Args...)>(std::move(fn)))));
}

} // namespace

NetworkRecorder::NetworkRecorder(const PfcNetwork& net)
    : m_net(net),
      m_peer(net.PeerNodes())
{
    size_t ports = 0;
    for (const auto& nodePorts : net.ports)
    {
        ports += nodePorts.size();
    }
    m_ports.reserve(ports);
    // Only link failures fire these, rarely: reading the frame here costs nothing per hop.
    const Callback<void, Ptr<const Packet>> lostToFailure([this](Ptr<const Packet> frame) {
        ++m_linkDrops;
        RoceFrameInfo info;
        if (ReadRoceFrame(frame, info) && info.opcode <= RoceOpcode::kSendOnly)
        {
            ++m_dataLinkDrops;
        }
    });
    TraceSource linkDrop("LinkDrop");
    for (const auto& channel : net.channels)
    {
        linkDrop.Connect(*channel, lostToFailure);
    }
    // Pauses received need no trace: the device counts them (PfcNetDevice::
    // GetPauseFramesReceived, quanta > 0, as counted here before), which saves a third of the
    // ports' connections. Pauses sent do: the device's count includes resumes (quanta 0).
    TraceSource pauseSent("PauseSent");
    TraceSource resume("Resume");
    TraceSource drop("Drop");
    TraceSource watchdogDrop("WatchdogDrop");
    TraceSource noRouteDrop("NoRouteDrop");
    TraceSource ecnMark("EcnMark");
    for (uint32_t v = 0; v < net.ports.size(); ++v)
    {
        const auto firstPort = static_cast<uint32_t>(m_ports.size());
        for (uint32_t p = 0; p < net.ports[v].size(); ++p)
        {
            const uint32_t index = static_cast<uint32_t>(m_ports.size());
            m_ports.push_back(Port{v, p, {}, {}});
            Ptr<PfcNetDevice> dev = net.ports[v][p];
            // PortSinks, not MakeBoundCallback or Callback(lambda): see PortSink.
            pauseSent.Connect(
                *dev,
                MakePortSink<uint8_t, uint16_t>([this, index](uint8_t priority, uint16_t quanta) {
                    OnPauseSent(this, index, priority, quanta);
                }));
            resume.Connect(
                *dev, MakePortSink<uint8_t, Time>([this, index](uint8_t priority, Time paused) {
                    OnResume(this, index, priority, paused);
                }));
        }
        if (net.switches[v])
        {
            drop.Connect(*net.switches[v], MakeBoundCallback(&OnDrop, this, firstPort));
            watchdogDrop.Connect(*net.switches[v],
                                 Callback<void, Ptr<const Packet>, uint32_t, uint8_t>(
                                     [this](Ptr<const Packet>, uint32_t, uint8_t priority) {
                                         ++m_watchdogDrops[priority & 7];
                                     }));
            noRouteDrop.Connect(
                *net.switches[v],
                Callback<void, Ptr<const Packet>, uint32_t>(
                    [lostToFailure](Ptr<const Packet> frame, uint32_t) { lostToFailure(frame); }));
            ecnMark.Connect(*net.switches[v], MakeBoundCallback(&OnMark, this));
        }
    }
}

void
NetworkRecorder::OnPauseSent(NetworkRecorder* self,
                             uint32_t port,
                             uint8_t priority,
                             uint16_t quanta)
{
    if (quanta > 0 && priority < 8)
    {
        ++self->m_pauseFrames;
        ++self->m_ports[port].pausesSent[priority];
    }
}

void
NetworkRecorder::OnResume(NetworkRecorder* self, uint32_t port, uint8_t priority, Time paused)
{
    Port& p = self->m_ports[port];
    const double now = Simulator::Now().GetSeconds();
    p.endedPausedS[priority & 7] += paused.GetSeconds();
    self->m_ended.push_back({port, priority, now - paused.GetSeconds(), now});
}

void
NetworkRecorder::OnDrop(
    NetworkRecorder* self, uint32_t firstPort, Ptr<const Packet>, uint32_t inPort, uint8_t priority)
{
    ++self->m_drops;
    if (priority < 8)
    {
        ++self->m_ports[firstPort + inPort].drops[priority];
    }
}

void
NetworkRecorder::OnMark(NetworkRecorder* self, Ptr<const Packet>, uint32_t, uint8_t)
{
    ++self->m_ecnMarks;
}

uint64_t
NetworkRecorder::WatchdogDrops() const
{
    uint64_t n = 0;
    for (uint64_t d : m_watchdogDrops)
    {
        n += d;
    }
    return n;
}

uint64_t
NetworkRecorder::DropsOfPriority(uint8_t priority) const
{
    uint64_t n = 0;
    for (const Port& p : m_ports)
    {
        n += priority < 8 ? p.drops[priority] : 0;
    }
    return n;
}

void
NetworkRecorder::Fill(RunResult& result) const
{
    // Packet-hops: every data frame a port started to send (the devices count them; a
    // per-frame trace sink cost ~5 % of a large run).
    for (const auto& node : m_net.ports)
    {
        for (const auto& dev : node)
        {
            for (uint8_t prio = 0; prio < 8; ++prio)
            {
                result.pktHops += dev->GetTxFrames(prio);
            }
        }
    }
    result.pfcPauseFrames += m_pauseFrames;
    result.drops += m_drops;
    result.watchdogDrops += WatchdogDrops();
    result.linkDrops += m_linkDrops;
    result.ecnMarks += m_ecnMarks;
    for (const Port& p : m_ports)
    {
        Ptr<PfcNetDevice> dev = m_net.ports[p.node][p.port];
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            // The device accounts paused time itself, an ongoing pause up to now.
            const double paused = dev->GetPausedTime(prio).GetSeconds();
            const uint64_t pausesReceived = dev->GetPauseFramesReceived(prio);
            result.pfcPausedS += paused;
            if (p.pausesSent[prio] || pausesReceived || paused > 0 || p.drops[prio])
            {
                result.pfc.push_back({m_net.names[p.node],
                                      p.port,
                                      prio,
                                      p.pausesSent[prio],
                                      pausesReceived,
                                      paused,
                                      p.drops[prio]});
            }
        }
    }
    // Pauses still on at the end (a storm without end, a deadlock) count up to now: their
    // start is what the device's paused time has beyond the pauses that ended.
    std::vector<EndedPause> ongoing;
    const std::vector<EndedPause>* const lists[] = {&m_ended, &ongoing};
    const double now = Simulator::Now().GetSeconds();
    for (uint32_t index = 0; index < m_ports.size(); ++index)
    {
        const Port& p = m_ports[index];
        Ptr<PfcNetDevice> dev = m_net.ports[p.node][p.port];
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            const double ongoingS = dev->GetPausedTime(prio).GetSeconds() - p.endedPausedS[prio];
            if (dev->IsPaused(prio) && ongoingS > 0)
            {
                ongoing.push_back({index, prio, now - ongoingS, now});
            }
        }
    }
    // The spread's input first, freed by Depth before the trace's intervals are made: the
    // two never exist at once (the ended pauses, then the ongoing ones, as they were kept).
    {
        std::vector<PausedEgress> paused;
        paused.reserve(m_ended.size() + ongoing.size());
        for (const std::vector<EndedPause>* list : lists)
        {
            for (const EndedPause& e : *list)
            {
                const Port& p = m_ports[e.port];
                paused.push_back({p.node, m_peer[p.node][p.port], e.startS, e.endS});
            }
        }
        result.pfcPauseDepth = std::max(result.pfcPauseDepth,
                                        PauseSpread::Depth(std::move(paused), m_peer));
    }
    result.pauses.reserve(result.pauses.size() + m_ended.size() + ongoing.size());
    for (const std::vector<EndedPause>* list : lists)
    {
        for (const EndedPause& e : *list)
        {
            const Port& p = m_ports[e.port];
            result.pauses.push_back(
                {m_net.names[p.node] + "/" + std::to_string(p.port), e.priority, e.startS, e.endS});
        }
    }
}

} // namespace ns3
