#include "network-recorder.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/pfc-switch.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace ns3
{

namespace
{

/**
 * Connects trace sources by name, looking each (type, name) up once: TypeId::
 * LookupTraceSourceByName walks a type's sources and its parents' by string compare, which
 * for the 3 sources of each of a fat-tree's 57,344 ports (k=32) was most of the recorder's
 * set-up. What ObjectBase::TraceConnectWithoutContext does, with the lookups kept.
 */
class TraceConnector
{
  public:
    void
    Connect(ObjectBase& object, const std::string& name, const CallbackBase& cb)
    {
        const TypeId tid = object.GetInstanceTypeId();
        Ptr<const TraceSourceAccessor>& accessor = m_accessors[{tid.GetUid(), name}];
        if (!accessor)
        {
            accessor = tid.LookupTraceSourceByName(name);
        }
        NS_ABORT_MSG_UNLESS(accessor && accessor->ConnectWithoutContext(&object, cb),
                            "NetworkRecorder: no trace source " << name << " on " << tid.GetName());
    }

  private:
    std::map<std::pair<uint16_t, std::string>, Ptr<const TraceSourceAccessor>> m_accessors;
};

} // namespace

NetworkRecorder::NetworkRecorder(const PfcNetwork& net)
    : m_net(net),
      m_peer(net.PeerNodes())
{
    TraceConnector traces;
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
    for (const auto& channel : net.channels)
    {
        traces.Connect(*channel, "LinkDrop", lostToFailure);
    }
    for (uint32_t v = 0; v < net.ports.size(); ++v)
    {
        const auto firstPort = static_cast<uint32_t>(m_ports.size());
        for (uint32_t p = 0; p < net.ports[v].size(); ++p)
        {
            const uint32_t index = static_cast<uint32_t>(m_ports.size());
            m_ports.push_back(Port{v, p, {}, {}});
            Ptr<PfcNetDevice> dev = net.ports[v][p];
            // Lambdas, not MakeBoundCallback: binding builds a Callback of the function and a
            // second one around it (about twice the allocations), for 3 sources of each of a
            // k=32 fat-tree's 57,344 ports.
            traces.Connect(
                *dev,
                "PauseSent",
                Callback<void, uint8_t, uint16_t>([this, index](uint8_t priority, uint16_t quanta) {
                    OnPauseSent(this, index, priority, quanta);
                }));
            traces.Connect(
                *dev,
                "PauseReceived",
                Callback<void, uint8_t, uint16_t>([this, index](uint8_t priority, uint16_t quanta) {
                    OnPauseReceived(this, index, priority, quanta);
                }));
            traces.Connect(
                *dev,
                "Resume",
                Callback<void, uint8_t, Time>([this, index](uint8_t priority, Time paused) {
                    OnResume(this, index, priority, paused);
                }));
        }
        if (net.switches[v])
        {
            traces.Connect(*net.switches[v], "Drop", MakeBoundCallback(&OnDrop, this, firstPort));
            traces.Connect(*net.switches[v],
                           "WatchdogDrop",
                           Callback<void, Ptr<const Packet>, uint32_t, uint8_t>(
                               [this](Ptr<const Packet>, uint32_t, uint8_t priority) {
                                   ++m_watchdogDrops[priority & 7];
                               }));
            traces.Connect(
                *net.switches[v],
                "NoRouteDrop",
                Callback<void, Ptr<const Packet>, uint32_t>(
                    [lostToFailure](Ptr<const Packet> frame, uint32_t) { lostToFailure(frame); }));
            traces.Connect(*net.switches[v], "EcnMark", MakeBoundCallback(&OnMark, this));
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
NetworkRecorder::OnPauseReceived(NetworkRecorder* self,
                                 uint32_t port,
                                 uint8_t priority,
                                 uint16_t quanta)
{
    if (quanta > 0 && priority < 8)
    {
        ++self->m_ports[port].pausesReceived[priority];
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
            result.pfcPausedS += paused;
            if (p.pausesSent[prio] || p.pausesReceived[prio] || paused > 0 || p.drops[prio])
            {
                result.pfc.push_back({m_net.names[p.node],
                                      p.port,
                                      prio,
                                      p.pausesSent[prio],
                                      p.pausesReceived[prio],
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
