#include "run-monitors.h"

#include "network-builder.h"
#include "roce-sync-transport.h"

#include "ns3/forwarding-table.h"
#include "ns3/roce-nic.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

DeadlockMonitor::DeadlockMonitor(Time interval)
    : m_interval(interval)
{
}

DeadlockMonitor::~DeadlockMonitor() = default;

void
DeadlockMonitor::Install(const RunContext& run)
{
    m_detector = std::make_unique<PfcDeadlockDetector>(run.net, m_interval, run.unfinished);
    m_detector->Start();
}

void
DeadlockMonitor::Collect(RunResult& /* result */, std::vector<std::string>& broken) const
{
    if (EndedRun())
    {
        broken.push_back("PFC deadlock found at " +
                         std::to_string(m_detector->FoundAt().GetSeconds()) +
                         " s, a cycle of paused ports: " + m_detector->Cycle());
    }
}

bool
DeadlockMonitor::EndedRun() const
{
    return m_detector && m_detector->Found();
}

InFlightMonitor::InFlightMonitor(Time interval)
    : m_interval(interval)
{
}

InFlightMonitor::~InFlightMonitor() = default;

void
InFlightMonitor::Install(const RunContext& run)
{
    m_sampler = std::make_unique<InFlightSampler>(run.net, m_interval, run.unfinished);
    // From the first traffic on (HPCC's flow lists start at 2 s: no idle samples).
    Simulator::Schedule(Seconds(run.firstTrafficS), &InFlightSampler::Start, m_sampler.get());
}

void
InFlightMonitor::Collect(RunResult& result, std::vector<std::string>& /* broken */) const
{
    result.framesInFlightPeak = static_cast<int64_t>(m_sampler->Peak());
}

LinkFailures::LinkFailures(std::vector<LinkFailure> failures)
    : m_failures(std::move(failures))
{
}

std::string
LinkFailures::DescribeHostGroups(const TopologyGraph& g,
                                 const std::vector<std::vector<HostRank>>& groups)
{
    std::string text;
    for (const auto& group : groups)
    {
        text += text.empty() ? "{" : " {";
        for (size_t i = 0; i < group.size(); ++i)
        {
            if (i == 6 && group.size() > 8)
            {
                text += " ... (" + std::to_string(group.size()) + " hosts)";
                break;
            }
            text += (i ? " " : "") + g.Node(g.HostNode(group[i])).name;
        }
        text += "}";
    }
    return text;
}

void
LinkFailures::Install(const RunContext& run)
{
    m_run = &run;
    m_down.assign(run.topology.Graph().LinkCount(), false);
    for (const LinkFailure& f : m_failures)
    {
        Simulator::Schedule(Seconds(f.atS), [this, f]() {
            m_run->net.channels[f.link]->SetUp(false);
            m_down[f.link] = true;
            Reroute();
        });
        if (f.durationS > 0)
        {
            Simulator::Schedule(Seconds(f.atS + f.durationS), [this, f]() {
                m_run->net.channels[f.link]->SetUp(true);
                m_down[f.link] = false;
                Reroute();
            });
        }
    }
}

void
LinkFailures::Reroute() const
{
    const Topology& topology = m_run->topology;
    const TopologyGraph& g = topology.Graph();
    if (std::find(m_down.begin(), m_down.end(), true) == m_down.end())
    {
        NetworkBuilder::Reroute(m_run->net, topology);
    }
    else
    {
        NetworkBuilder::Reroute(
            m_run->net,
            DegradedTopology(topology, m_down, ShortestPathRouting::Unreachable::NO_ROUTE));
        // One stderr line when the failures cut the hosts into groups that cannot reach each
        // other: messages between them wait for a repair, so the run slows for a reason the
        // user should see.
        const auto groups = ShortestPathRouting::HostGroups(g, m_down);
        if (groups.size() >= 2)
        {
            std::fprintf(stderr,
                         "[paramsync] at %.9g s link failures cut the hosts into %zu groups that "
                         "cannot reach each other: %s; their messages wait for a repair\n",
                         Simulator::Now().GetSeconds(),
                         groups.size(),
                         DescribeHostGroups(g, groups).c_str());
        }
    }
    for (uint32_t h = 0; h < g.HostCount(); ++h)
    {
        m_run->transport.Nic(h)->Reroute();
    }
}

StalledReceiverFault::StalledReceiverFault(const HostFault& fault)
    : m_fault(fault)
{
}

void
StalledReceiverFault::Install(const RunContext& run)
{
    Ptr<RoceNic> nic = run.transport.Nic(m_fault.host);
    m_stalled = CreateObject<StalledReceiver>();
    m_stalled->SetAttribute("Start", TimeValue(m_fault.start));
    m_stalled->SetAttribute("Duration", TimeValue(m_fault.duration));
    m_stalled->SetKeepGoing(run.unfinished);
    run.net.SetHostReceive(m_fault.host,
                           m_stalled->Wrap(PfcNetDevice::FrameReceiveCallback(
                               [nic](Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t p) {
                                   nic->Receive(dev, frame, p);
                               })));
}

PauseStormFault::PauseStormFault(const HostFault& fault)
    : m_fault(fault)
{
}

void
PauseStormFault::Install(const RunContext& run)
{
    // Every data lane's priority (lane L travels on BasePriority + L).
    const Ptr<ForwardingTable> table = run.net.tables[run.net.hostNode[m_fault.host]];
    std::vector<uint8_t> priorities;
    for (uint8_t lane = 0; lane < table->GetLaneCount(); ++lane)
    {
        priorities.push_back(table->LanePriority(lane));
    }
    m_storm = CreateObject<PfcPauseStorm>();
    m_storm->SetAttribute("Start", TimeValue(m_fault.start));
    m_storm->SetAttribute("Duration", TimeValue(m_fault.duration));
    m_storm->SetKeepGoing(run.unfinished);
    m_storm->Install(run.net.HostPorts(m_fault.host), priorities);
}

PfcWatchdogMonitor::PfcWatchdogMonitor(Time detection, Time restore)
    : m_detection(detection),
      m_restore(restore)
{
}

void
PfcWatchdogMonitor::Configure(NetworkBuilder& builder)
{
    builder.SetSwitchAttribute("WatchdogDetection", TimeValue(m_detection));
    builder.SetSwitchAttribute("WatchdogRestore", TimeValue(m_restore));
}

} // namespace ns3
