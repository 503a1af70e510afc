#include "packet-backend.h"

#include "driver-options.h"
#include "fluid-backend.h"
#include "job-registry.h"
#include "jobs.h"
#include "mpi-session.h"
#include "paramsync-helper.h"
#include "roce-sync-transport.h"

#include "ns3/boolean.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frame.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/**
 * The event queue: our RadixHeapScheduler unless NS_GLOBAL_VALUE names a SchedulerType
 * (SchedulerType=ns3::QuadHeapScheduler for the previous default). On the bench scenarios
 * (bench/README.md) ns-3's PriorityQueueScheduler took 12-13% less CPU time than its default
 * MapScheduler (Heap / Calendar were slower still), and the 4-ary heap 10% less again on the
 * fat-tree permutation x0.1 and the hips torus (1.88 -> 1.69 s, 2.45 -> 2.19 s), 4% on the
 * VGG-19 ring on BCube(3,1); the radix heap's gain grows with the pending events (model/
 * radix-heap-scheduler.h). Results do not depend on it (events at the same time keep their
 * insertion order in every scheduler).
 *
 * Its WarmAhead (prefetching the next events' memory, model/warmable-event.h) is on from
 * kWarmAheadMinDevices ports: a port's per-frame state (its device's lines, the switch's
 * egress lines and ingress accounts: ~1.7 KB) times 4,096 is ~7 MB, more than this 2-core
 * VM's share of its L3 keeps. Paired runs (bench/README.md, Scaling): fattree:k=8 (768
 * ports, cached) 1.20 -> 1.33 s with it, so off there; k=16 (6,144) and k=32 (49,152) gain.
 */
constexpr uint64_t kWarmAheadMinDevices = 4096;

void
ChooseScheduler(const DriverOptions& o)
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env && std::strstr(env, "SchedulerType"))
    {
        return;
    }
    ObjectFactory factory;
    factory.SetTypeId("ns3::RadixHeapScheduler");
    const char* defaults = std::getenv("NS_ATTRIBUTE_DEFAULT");
    if (!defaults || !std::strstr(defaults, "RadixHeapScheduler::WarmAhead"))
    {
        // Unless the user set it (NS_ATTRIBUTE_DEFAULT): by the network's size.
        const std::optional<TopologyCounts> counts = CountTopology(o.topology);
        const bool large = counts && 2 * counts->links >= kWarmAheadMinDevices;
        factory.Set("WarmAhead", BooleanValue(large));
    }
    Simulator::SetScheduler(factory);
}

double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// A host fault of the options as a typed config.
HostFault
ToHostFault(const DriverOptions::HostEvent& e)
{
    return {static_cast<uint32_t>(e.host), Seconds(e.startS), Seconds(e.durationS)};
}

} // namespace

PacketBackend::PacketBackend(const DriverOptions& options,
                             const Topology& topology,
                             const FlowInput& flows)
    : m_options(options),
      m_topology(topology),
      m_flows(flows)
{
}

std::string
PacketBackend::Name() const
{
    return "packet";
}

bool
PacketBackend::SimulatesPackets() const
{
    return true;
}

void
PacketBackend::Configure(ParamsyncHelper& helper) const
{
    const DriverOptions& o = m_options;
    helper.SetTopology(m_topology);
    helper.SetDeviceAttribute("PfcEnabled", BooleanValue(o.pfc));
    helper.SetSwitchAttribute("PfcEnabled", BooleanValue(o.pfc));
    helper.SetSwitchAttribute("BufferSize", UintegerValue(o.bufferBytes));
    helper.SetSwitchAttribute("MaxFrameBytes", UintegerValue(RoceWireBytes(o.mtu, true, false)));
    helper.SetTableAttribute("BasePriority", UintegerValue(o.priority));
    helper.SetDeviceAttribute(
        "TxScheduling",
        StringValue(o.laneScheduling == "strict" ? "StrictPriority" : "DeficitRoundRobin"));
    // --seed varies the ECMP choices too; --preset=hpcc seeds switch v's hash with v, as
    // HPCC's simulator seeds each switch's ECMP hash with its node id.
    helper.SetEcmpHashSalt(o.hashSeedPerSwitch ? 0 : o.seed * 7919u);
    if (o.preset == "hpcc")
    {
        helper.UseHpccSwitchBuffer(); // HPCC's PFC thresholds, headroom and queue reserve
    }
    RoceTransportConfig nic;
    nic.mtu = o.mtu;
    nic.priority = o.priority;
    nic.rto = Seconds(o.rtoS);
    nic.cc = o.cc;
    helper.SetTransport(nic);
    if (o.watchdogDetectionS > 0)
    {
        helper.AddMonitor(std::make_unique<PfcWatchdogMonitor>(Seconds(o.watchdogDetectionS),
                                                               Seconds(o.watchdogRestoreS)));
    }
}

void
PacketBackend::AddMonitors(ParamsyncHelper& helper) const
{
    const DriverOptions& o = m_options;
    if (o.deadlockCheckS > 0)
    {
        helper.AddMonitor(std::make_unique<DeadlockMonitor>(Seconds(o.deadlockCheckS)));
    }
    if (o.inFlightSampleS > 0)
    {
        helper.AddMonitor(std::make_unique<InFlightMonitor>(Seconds(o.inFlightSampleS)));
    }
    if (!o.linkDowns.empty())
    {
        helper.AddMonitor(std::make_unique<LinkFailures>(ResolveLinkDowns(o, m_topology)));
    }
    if (o.stopDraining.host >= 0)
    {
        helper.AddMonitor(std::make_unique<StalledReceiverFault>(ToHostFault(o.stopDraining)));
    }
    if (o.pauseStorm.host >= 0)
    {
        helper.AddMonitor(std::make_unique<PauseStormFault>(ToHostFault(o.pauseStorm)));
    }
}

std::vector<LinkFailure>
PacketBackend::ResolveLinkDowns(const DriverOptions& options, const Topology& topology)
{
    const TopologyGraph& g = topology.Graph();
    auto nodeNamed = [&](const std::string& name) {
        for (NodeIndex v = 0; v < g.NodeCount(); ++v)
        {
            if (g.Node(v).name == name)
            {
                return v;
            }
        }
        throw OptionError("--link-down: no node '" + name + "' in " + topology.Spec() +
                          "; allowed: node names as in pfc.csv (e.g. h0, sw0.0)");
    };
    std::vector<LinkFailure> failures;
    std::vector<bool> foreverDown(g.LinkCount(), false);
    for (const auto& d : options.linkDowns)
    {
        const NodeIndex a = nodeNamed(d.a);
        const NodeIndex b = nodeNamed(d.b);
        bool found = false;
        for (uint32_t p = 0; p < g.Ports(a).size() && !found; ++p)
        {
            if (g.Ports(a)[p].peer == b)
            {
                failures.push_back({g.LinkAt(a, p), d.atS, d.durationS});
                foreverDown[g.LinkAt(a, p)] = foreverDown[g.LinkAt(a, p)] || d.durationS <= 0;
                found = true;
            }
        }
        if (!found)
        {
            throw OptionError("--link-down: no link between " + d.a + " and " + d.b + " in " +
                              topology.Spec() + "; allowed: two nodes cabled together");
        }
    }
    // A failure with a repair may cut hosts off for its duration (their messages wait, and
    // their queue pairs resend after the repair); failures without one must leave every host
    // connected, or the run could never finish.
    const auto groups = ShortestPathRouting::HostGroups(g, foreverDown);
    if (groups.size() > 1)
    {
        throw OptionError("--link-down: the failures without a repair cut the hosts for good "
                          "into " +
                          std::to_string(groups.size()) + " groups " +
                          LinkFailures::DescribeHostGroups(g, groups) +
                          "; allowed: failures that leave every host connected, or a repair "
                          "time (A-B@TIME+DURATION)");
    }
    return failures;
}

void
PacketBackend::CheckStartsBeforeStop() const
{
    const DriverOptions& o = m_options;
    const auto refuse = [&](const std::string& option, const std::string& what, double atS) {
        if (atS >= o.stopS)
        {
            std::ostringstream at;
            at << atS;
            throw OptionError(option + ": " + what + " starts at " + at.str() +
                              " s, not before --stop=" + o.stopText +
                              " (the simulated-time limit); allowed: a start before --stop, "
                              "or a later --stop");
        }
    };
    for (size_t i = 0; i < m_flows.flows.size(); ++i)
    {
        refuse("--flows", "flow " + std::to_string(i), m_flows.flows[i].startS);
    }
    for (const auto& d : o.linkDowns)
    {
        refuse("--link-down", "the failure of " + d.a + "-" + d.b, d.atS);
    }
    if (o.pauseStorm.host >= 0)
    {
        refuse("--pause-storm", "the storm", o.pauseStorm.startS);
    }
    if (o.stopDraining.host >= 0)
    {
        refuse("--stop-draining", "the stall", o.stopDraining.startS);
    }
    // The first synchronization starts when the slowest worker's compute ends.
    refuse("--compute",
           "the first synchronization",
           o.computeS * (o.straggler >= 0 ? o.stragglerFactor : 1));
}

void
PacketBackend::Check() const
{
    const DriverOptions& o = m_options;
    CheckStartsBeforeStop();
    ResolveLinkDowns(o, m_topology);
    if (o.routing == "source")
    {
        try
        {
            NetworkBuilder::SourceRoutes(m_topology);
        }
        catch (const std::invalid_argument& e)
        {
            throw OptionError("--routing=source: " + std::string(e.what()));
        }
        if (!o.linkDowns.empty())
        {
            throw OptionError("--link-down: source routes do not avoid failed links; allowed: "
                              "--link-down with --routing=ecmp");
        }
    }
    // Data lanes must stay off the ACK/NAK/CNP class (PfcNetDevice ControlPriority, 7).
    const std::string lanes = NetworkBuilder::LaneConflict(
        m_topology, o.priority, CreateObject<PfcNetDevice>()->GetControlPriority());
    if (!lanes.empty())
    {
        throw OptionError("--priority=" + lanes);
    }
    if (!o.pcapText.empty())
    {
        try
        {
            NetworkBuilder::PcapPorts(m_topology.Graph(), o.pcapText);
        }
        catch (const std::invalid_argument& e)
        {
            throw OptionError(std::string("--pcap: ") + e.what());
        }
    }
    // Only the network can refuse the configuration (the NICs and jobs on top take what it
    // carries), and the check runs before --mpi starts the distributed simulator: the
    // sequential one with nothing scheduled ends ns-3's Time bookkeeping for the process.
    ParamsyncHelper::EndTimeMarking();
    try
    {
        ParamsyncHelper helper;
        Configure(helper);
        helper.CheckNetwork();
    }
    catch (const std::invalid_argument& e)
    {
        Simulator::Destroy();
        throw OptionError(std::string("--buffer: ") + e.what());
    }
    Simulator::Destroy();
}

std::string
PacketBackend::EndLine(const ParamsyncHelper& helper, const RunResult& r) const
{
    const DriverOptions& o = m_options;
    const RunEnd& end = helper.LastRunEnd();
    if (end.explained)
    {
        return ""; // a monitor named why (a deadlock)
    }
    if (end.outOfEvents)
    {
        return "event limit: not finished after --max-events=" + o.maxEventsText + " events (at " +
               std::to_string(Simulator::Now().GetSeconds()) + " s simulated; a livelock?)";
    }
    if (r.completed || end.drained)
    {
        return "";
    }
    return "stalled: " + (end.left.empty() ? std::string("the job") : end.left) +
           " not finished by --stop=" + o.stopText + " of simulated time; " +
           (o.deadlockCheckS > 0
                ? "the PFC deadlock detector found no cycle of paused ports (a slow "
                  "link, a long compute time, a pause storm or too short a --stop?)"
                : "the PFC deadlock detector was off (--deadlock-check=0)");
}

RunResult
PacketBackend::Run(const PreparedSystem& system)
{
    const auto t0 = std::chrono::steady_clock::now();
    const DriverOptions& o = m_options;
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(o.rngRun); // --RngRun, 1 unless given
    ChooseScheduler(o);
    // Nothing is scheduled yet (the last run or check ended with Simulator::Destroy): a
    // no-op when Check ran in this process already, or under --mpi (distributed simulator).
    ParamsyncHelper::EndTimeMarking();

    RunResult r;
    {
        ParamsyncHelper helper;
        Configure(helper);
        // --mpi=1: this rank's share of the nodes; the helper gathers on rank 0.
        helper.SetRanks(MpiSession::Size(), MpiSession::Rank());
        helper.Install();
        if (!o.pcapText.empty())
        {
            helper.EnablePcap(o.pcapText, m_captureDir.empty() ? o.out : m_captureDir);
        }
        if (std::unique_ptr<Job> job = system.MakeJob())
        {
            helper.InstallJob(std::move(job));
        }
        if (!m_flows.flows.empty())
        {
            auto flows = std::make_unique<FlowsJob>();
            for (size_t i = 0; i < m_flows.flows.size(); ++i)
            {
                const FlowSpec& f = m_flows.flows[i];
                flows->Add({static_cast<uint32_t>(i), f.src, f.dst, f.bytes, f.startS, -1},
                           m_flows.srcRank[i],
                           m_flows.dstRank[i]);
            }
            helper.InstallJob(std::move(flows));
        }
        AddMonitors(helper);
        RunControl control;
        control.stop = Seconds(o.stopS);
        control.maxEvents = o.maxEvents;
        control.grace = Seconds(2 * o.rtoS) + MilliSeconds(1);
        control.progress = o.progress == 1 || (o.progress == -1 && isatty(2));
        r = helper.Run(control);
        const std::string line = EndLine(helper, r);
        if (!line.empty())
        {
            r.invariant += (r.invariant.empty() ? "" : "; ") + line;
        }
        Simulator::Destroy();
    }
    r.topology = m_topology.Spec();
    r.algorithm = system.Spec();
    r.model = system.ModelName();
    r.backend = Name();
    if (system.Plan())
    {
        const auto fluidStart = std::chrono::steady_clock::now();
        r.idealGstS = FluidBackend::IdealGst(m_topology, system, o.routing == "source");
        // The bound is the relaxation on the run's own paths raised to the ideal: both are
        // lower bounds, so their max is one, and ideal <= bound by construction.
        if (r.boundGstS >= 0)
        {
            r.boundGstS = std::max(r.boundGstS, r.idealGstS);
        }
        r.fluidWallS += WallSince(fluidStart); // the run added the bound's and fair figure's
    }
    r.wallS = WallSince(t0);
    return r;
}

std::unique_ptr<Backend>
Backend::Make(const DriverOptions& options, const Topology& topology, const FlowInput& flows)
{
    // The backends --backend names (its validator lists the same two).
    using Factory = std::unique_ptr<Backend> (*)(
        const DriverOptions&, const Topology&, const FlowInput&);
    static const std::pair<const char*, Factory> backends[] = {
        {"packet",
         [](const DriverOptions& o, const Topology& t, const FlowInput& f)
             -> std::unique_ptr<Backend> { return std::make_unique<PacketBackend>(o, t, f); }},
        {"fluid",
         [](const DriverOptions& o, const Topology& t, const FlowInput& f)
             -> std::unique_ptr<Backend> { return std::make_unique<FluidBackend>(o, t, f); }},
    };
    for (const auto& [name, make] : backends)
    {
        if (options.backend == name)
        {
            return make(options, topology, flows);
        }
    }
    throw OptionError("--backend: '" + options.backend + "'; allowed: packet, fluid");
}

} // namespace ns3
