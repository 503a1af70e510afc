#include "packet-sync-run.h"

#include "in-flight-sampler.h"
#include "network-builder.h"
#include "network-recorder.h"
#include "pfc-deadlock-detector.h"
#include "results-writer.h"
#include "roce-sync-transport.h"
#include "routed-bound.h"
#include "run-invariants.h"

#include "ns3/async-ps-job.h"
#include "ns3/boolean.h"
#include "ns3/convergence-model.h"
#include "ns3/fluid-estimator.h"
#include "ns3/forwarding-table.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-pause-storm.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-nic.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/stalled-receiver.h"
#include "ns3/string.h"
#include "ns3/sync-job.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <unistd.h>

namespace ns3
{

namespace
{

/**
 * Seconds of a transfer's end, -1 while it has not ended. The job marks an open transfer with
 * a negative Time, and ns-3's int64x64_t shifts the raw value left on conversion, which is
 * undefined for a negative value before C++20 (UBSan flags it), so convert only ended times.
 */
double
EndSecondsOrMinusOne(Time end)
{
    return end.IsNegative() ? -1.0 : end.GetSeconds();
}

/// "{h0} {h1 h2 h3}": host groups by name, each cut short after a few names.
std::string
DescribeHostGroups(const TopologyGraph& g, const std::vector<std::vector<HostRank>>& groups)
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

/**
 * One stderr line when link failures cut the hosts into groups that cannot reach each other:
 * messages between them wait for a repair, so the run slows for a reason the user should see.
 */
void
NotePartition(const TopologyGraph& g, const std::vector<bool>& down)
{
    const auto groups = ShortestPathRouting::HostGroups(g, down);
    if (groups.size() < 2)
    {
        return;
    }
    std::fprintf(stderr,
                 "[paramsync] at %.9g s link failures cut the hosts into %zu groups that cannot "
                 "reach each other: %s; their messages wait for a repair\n",
                 Simulator::Now().GetSeconds(),
                 groups.size(),
                 DescribeHostGroups(g, groups).c_str());
}

/**
 * The event queue: our QuadHeapScheduler unless NS_GLOBAL_VALUE names a SchedulerType. On the
 * bench scenarios (bench/README.md) ns-3's PriorityQueueScheduler took 12-13% less CPU time
 * than its default MapScheduler (Heap / Calendar were slower still), and the 4-ary heap 10%
 * less again on the fat-tree permutation x0.1 and the hips torus (1.88 -> 1.69 s, 2.45 ->
 * 2.19 s), 4% on the VGG-19 ring on BCube(3,1); results do not depend on it (events at the
 * same time keep their insertion order in every scheduler).
 */
void
ChooseScheduler()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env && std::strstr(env, "SchedulerType"))
    {
        return;
    }
    ObjectFactory factory;
    factory.SetTypeId("ns3::QuadHeapScheduler");
    Simulator::SetScheduler(factory);
}

/// Progress line on stderr: simulated time, transfers done, wall time, estimate.
class Progress
{
  public:
    Progress(bool enabled, std::function<std::pair<uint64_t, uint64_t>()> doneOfTotal)
        : m_enabled(enabled),
          m_doneOfTotal(std::move(doneOfTotal)),
          m_t0(std::chrono::steady_clock::now())
    {
        if (m_enabled)
        {
            Simulator::Schedule(MicroSeconds(100), &Progress::Tick, this);
        }
    }

    ~Progress()
    {
        if (m_printed)
        {
            std::fprintf(stderr, "\r%*s\r", 100, "");
        }
    }

  private:
    void
    Tick()
    {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
        // Silent for short runs: only a run past 2 s of wall time prints.
        if (wall > 2.0 && wall - m_lastPrint >= 0.5)
        {
            auto [done, total] = m_doneOfTotal();

            const double fraction = total ? static_cast<double>(done) / total : 0;
            std::fprintf(
                stderr,
                "\r[paramsync] sim %.6f s  transfers %llu/%llu  wall %.1f s  eta %s   ",
                Simulator::Now().GetSeconds(),
                static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(total),
                wall,
                fraction > 0.01
                    ? (std::to_string(static_cast<int>(wall / fraction - wall)) + " s").c_str()
                    : "?");
            m_lastPrint = wall;
            m_printed = true;
        }
        auto [done, total] = m_doneOfTotal();
        if (done < total)
        {
            m_next = Simulator::Schedule(MicroSeconds(100), &Progress::Tick, this);
        }
    }

    bool m_enabled;
    std::function<std::pair<uint64_t, uint64_t>()> m_doneOfTotal;
    std::chrono::steady_clock::time_point m_t0;
    double m_lastPrint{0};
    bool m_printed{false};
    EventId m_next;
};

/**
 * Ends the run: at the stall time if something is still unfinished, or a grace period after
 * everything finished, so that the last ACKs land and the buffers drain (periodic timers,
 * e.g. congestion control's, would otherwise keep the simulation alive). Only a run that
 * ended by the grace period is "drained", and only then are the drain invariants checked.
 */
class RunGuard
{
  public:
    RunGuard(Time stallAt, uint64_t maxEvents, Time grace, std::function<bool()> unfinished)
        : m_stallAt(stallAt),
          m_maxEvents(maxEvents),
          m_grace(grace),
          m_unfinished(std::move(unfinished))
    {
        Simulator::ScheduleNow(&RunGuard::Tick, this);
    }

    bool
    Drained() const
    {
        return m_drained;
    }
    /// \brief When the guard first saw nothing unfinished (at most one look, 100 us, after
    /// the last delivery), or when it stopped the run; zero while it runs.
    Time
    EndOfWork() const
    {
        return m_endOfWork;
    }
    /// \brief Whether the event limit ended the run.
    bool
    OutOfEvents() const
    {
        return m_outOfEvents;
    }

  private:
    void
    Tick()
    {
        const Time now = Simulator::Now();
        if (!m_unfinished())
        {
            m_drained = true;
            m_endOfWork = now;
            Simulator::Stop(m_grace);
            return;
        }
        if (Simulator::GetEventCount() >= m_maxEvents)
        {
            m_outOfEvents = true;
            m_endOfWork = now;
            Simulator::Stop();
            return;
        }
        if (now >= m_stallAt)
        {
            m_endOfWork = now;
            Simulator::Stop();
            return;
        }
        // A look every 100 us of simulated time: cheap, and the grace period starts at most
        // that late after the last delivery (GST is measured at the delivery itself).
        Simulator::Schedule(std::min(MicroSeconds(100), m_stallAt - now), &RunGuard::Tick, this);
    }

    Time m_stallAt;
    uint64_t m_maxEvents;
    bool m_outOfEvents{false};
    Time m_grace;
    std::function<bool()> m_unfinished;
    bool m_drained{false};
    Time m_endOfWork;
};

} // namespace

NetworkBuilder
PacketSyncRun::MakeBuilder(const DriverOptions& o)
{
    NetworkBuilder builder;
    builder.SetDeviceAttribute("PfcEnabled", BooleanValue(o.pfc));
    builder.SetSwitchAttribute("PfcEnabled", BooleanValue(o.pfc));
    builder.SetSwitchAttribute("BufferSize", UintegerValue(o.bufferBytes));
    builder.SetSwitchAttribute("MaxFrameBytes", UintegerValue(RoceWireBytes(o.mtu, true, false)));
    builder.SetTableAttribute("BasePriority", UintegerValue(o.priority));
    builder.SetDeviceAttribute(
        "TxScheduling",
        StringValue(o.laneScheduling == "strict" ? "StrictPriority" : "DeficitRoundRobin"));
    if (o.watchdogDetectionS > 0)
    {
        builder.SetSwitchAttribute("WatchdogDetection", TimeValue(Seconds(o.watchdogDetectionS)));
        builder.SetSwitchAttribute("WatchdogRestore", TimeValue(Seconds(o.watchdogRestoreS)));
    }
    // --seed varies the ECMP choices too; --preset=hpcc seeds switch v's hash with v, as
    // HPCC's simulator seeds each switch's ECMP hash with its node id.
    builder.SetHashSalt(o.hashSeedPerSwitch ? 0 : o.seed * 7919u);
    if (o.preset == "hpcc")
    {
        builder.SetHpccMmu(); // HPCC's PFC thresholds, headroom and queue reserve
    }
    return builder;
}

std::vector<PacketSyncRun::LinkFailure>
PacketSyncRun::ResolveLinkDowns(const DriverOptions& options, const Topology& topology)
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
        for (uint32_t p = 0; p < g.Ports(a).size(); ++p)
        {
            if (g.Ports(a)[p].peer == b)
            {
                failures.push_back({g.LinkAt(a, p), d.atS, d.durationS});
                foreverDown[g.LinkAt(a, p)] = foreverDown[g.LinkAt(a, p)] || d.durationS <= 0;
                found = true;
                break;
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
                          DescribeHostGroups(g, groups) +
                          "; allowed: failures that leave every host connected, or a repair "
                          "time (A-B@TIME+DURATION)");
    }
    return failures;
}

void
PacketSyncRun::CheckConfiguration(const DriverOptions& options, const Topology& topology)
{
    ResolveLinkDowns(options, topology);
    // Data lanes must stay off the ACK/NAK/CNP class (PfcNetDevice ControlPriority, 7).
    const std::string lanes = NetworkBuilder::LaneConflict(
        topology, options.priority, CreateObject<PfcNetDevice>()->GetControlPriority());
    if (!lanes.empty())
    {
        throw OptionError("--priority=" + lanes);
    }
    if (!options.pcapText.empty())
    {
        try
        {
            NetworkBuilder::PcapPorts(topology.Graph(), options.pcapText);
        }
        catch (const std::invalid_argument& e)
        {
            throw OptionError(std::string("--pcap: ") + e.what());
        }
    }
    try
    {
        MakeBuilder(options).Build(topology);
    }
    catch (const std::invalid_argument& e)
    {
        Simulator::Destroy();
        throw OptionError(std::string("--buffer: ") + e.what());
    }
    Simulator::Destroy();
}

PacketSyncRun::PacketSyncRun(const DriverOptions& options, const Topology& topology)
    : m_options(options),
      m_topology(topology)
{
}

void
PacketSyncRun::SetPlan(const SyncPlan& plan, const std::vector<GradientTensor>& tensors)
{
    m_plan = &plan;
    m_tensors = tensors;
}

void
PacketSyncRun::SetAsyncJob(const AsyncPsConfig& config)
{
    m_async = config;
}

void
PacketSyncRun::FillAsyncMetrics(const AsyncPsJob& job, RunResult& result)
{
    std::vector<uint64_t> delays;
    for (const AppliedUpdate& u : job.Updates())
    {
        result.updates.push_back({u.worker, u.iteration, u.shard, u.delay, u.applied.GetSeconds()});
        delays.push_back(u.delay);
    }
    double delayMean = 0;
    uint64_t delayP50 = 0;
    uint64_t delayP99 = 0;
    uint64_t delayMax = 0;
    if (!delays.empty())
    {
        std::sort(delays.begin(), delays.end());
        double sum = 0;
        for (uint64_t d : delays)
        {
            sum += static_cast<double>(d);
        }
        delayMean = sum / static_cast<double>(delays.size());
        // Nearest-rank percentiles: the ceil(p x n)-th smallest.
        auto percentile = [&](size_t p) {
            const size_t rank = (delays.size() * p + 99) / 100;
            return delays[std::max<size_t>(rank, 1) - 1];
        };
        delayP50 = percentile(50);
        delayP99 = percentile(99);
        delayMax = delays.back();
    }
    double makespan = 0;
    size_t iterations = 0;
    double blocked = 0;
    for (uint32_t w = 0; w < job.IterationEnds().size(); ++w)
    {
        const auto& ends = job.IterationEnds()[w];
        if (!ends.empty())
        {
            makespan = std::max(makespan, ends.back().GetSeconds());
        }
        iterations = std::max(iterations, ends.size());
        blocked += job.BlockedTime(w).GetSeconds();
    }
    auto n = [](double v) { return ResultsWriter::Number(v); };
    result.systemKind = "async";
    result.systemMetrics = {
        {"iterations", std::to_string(iterations)},
        {"updates", std::to_string(delays.size())},
        {"dropped", std::to_string(job.Dropped())},
        {"delay_mean", n(delayMean)},
        {"delay_p50", std::to_string(delayP50)},
        {"delay_p99", std::to_string(delayP99)},
        {"delay_max", std::to_string(delayMax)},
        {"server_bytes", std::to_string(job.ServerBytes())},
        {"aggregated", std::to_string(job.Aggregated())},
        {"combined_pushes", std::to_string(job.CombinedPushes())},
        {"gather_bytes", std::to_string(job.GatherBytes())},
        {"control_bytes", std::to_string(job.ControlBytes())},
        {"replica_forwards", std::to_string(job.ReplicaForwards())},
        {"replica_sync_bytes", std::to_string(job.ReplicaSyncBytes())},
        {"replica_divergence_max", std::to_string(job.MaxDivergence())},
        {"makespan_s", n(makespan)},
        {"updates_per_s", n(makespan > 0 ? static_cast<double>(delays.size()) / makespan : 0)},
        {"blocked_s", n(blocked)}};
    if (job.Config().failAt >= Seconds(0))
    {
        // Updates lost with shard 0's server, and of those the acknowledged ones (0).
        result.systemMetrics.push_back({"failover_lost", std::to_string(job.Lost())});
        result.systemMetrics.push_back(
            {"failover_lost_acknowledged", std::to_string(job.LostAcknowledged())});
    }
    if (job.Config().train)
    {
        // The training problem replayed at the versions the schedule applied its updates
        // at (ConvergenceModel): the loss after each update, and where it ended.
        ConvergenceModel model(job.Config().training, job.Config().workers, job.Config().servers);
        const std::vector<double> losses = model.Replay(job.Updates(), job.ComputedOn());
        const size_t first = result.updates.size() - losses.size();
        for (size_t i = 0; i < losses.size(); ++i)
        {
            result.updates[first + i].loss = losses[i];
        }
        const double initial = model.Loss(Eigen::VectorXd::Zero(job.Config().training.features));
        result.systemMetrics.push_back({"loss_initial", n(initial)});
        result.systemMetrics.push_back({"loss_final", n(losses.empty() ? initial : losses.back())});
    }
}

void
PacketSyncRun::SetLapse(const LapseSpec& spec)
{
    m_lapse = spec;
}

void
PacketSyncRun::FillLapseMetrics(const LapsePs& ps, const LapseWorkload& w, RunResult& result)
{
    const auto& ends = w.EpochEnds();
    const double last = ends.empty() ? 0 : ends.back().GetSeconds();
    const uint64_t accesses = ps.LocalAccesses() + ps.RemoteAccesses();
    auto n = [](double v) { return ResultsWriter::Number(v); };
    result.systemKind = "lapse";
    result.systemMetrics = {
        {"epochs", std::to_string(ends.size())},
        {"epoch_s", n(ends.empty() ? 0 : last / static_cast<double>(ends.size()))},
        {"local_accesses", std::to_string(ps.LocalAccesses())},
        {"remote_accesses", std::to_string(ps.RemoteAccesses())},
        {"remote_fraction",
         n(accesses ? static_cast<double>(ps.RemoteAccesses()) / static_cast<double>(accesses)
                    : 0)},
        {"localizes", std::to_string(ps.Localizes())},
        {"messages", std::to_string(ps.Messages())},
        {"ps_bytes", std::to_string(ps.Bytes())},
        {"barrier_wait_s", n(w.BarrierWait().GetSeconds())}};
}

void
PacketSyncRun::SetFlows(const std::vector<FlowSpec>& flows,
                        const std::vector<uint32_t>& srcRank,
                        const std::vector<uint32_t>& dstRank)
{
    m_flows = flows;
    m_flowSrc = srcRank;
    m_flowDst = dstRank;
}

RunResult
PacketSyncRun::Run()
{
    const DriverOptions& o = m_options;
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(o.rngRun); // --RngRun, 1 unless given
    ChooseScheduler();

    RunResult result;
    PfcNetwork net = MakeBuilder(o).Build(m_topology);
    if (!o.pcapText.empty())
    {
        NetworkBuilder::EnablePcap(net,
                                   NetworkBuilder::PcapPorts(m_topology.Graph(), o.pcapText),
                                   m_captureDir.empty() ? o.out : m_captureDir);
    }
    NetworkRecorder recorder(net);
    RoceSyncTransport transport(net, o);

    std::unique_ptr<SyncJob> job;
    if (m_plan)
    {
        SyncJobConfig config;
        config.iterations = o.iterations;
        config.compute = Seconds(o.computeS);
        config.overlap = o.overlap;
        config.straggler = o.straggler;
        config.stragglerFactor = o.stragglerFactor;
        job = std::make_unique<SyncJob>(*m_plan, m_tensors, config);
        job->SetTransport(&transport);
        transport.SetJob(job.get());
        job->InstallApplications([&net](uint32_t host) { return net.Host(host); });
        job->Start(Seconds(0));
    }
    std::unique_ptr<LapsePs> lapse;
    std::unique_ptr<LapseWorkload> lapseWork;
    if (m_lapse)
    {
        // The PS nodes are hosts 0..nodes-1 (nodes=1: host 0 alone, no message).
        lapse = std::make_unique<LapsePs>(m_lapse->ps);
        lapse->SetTransport(&transport);
        transport.SetJob(lapse.get());
        lapseWork = m_lapse->MakeWorkload(*lapse);
        lapseWork->Start(Seconds(0));
    }
    std::unique_ptr<AsyncPsJob> asyncJob;
    if (m_async)
    {
        asyncJob = std::make_unique<AsyncPsJob>(*m_async);
        asyncJob->SetTransport(&transport);
        transport.SetJob(asyncJob.get());
        asyncJob->Start(Seconds(0));
    }
    std::vector<double> flowEnd(m_flows.size(), -1);
    uint64_t flowsDone = 0;
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        const FlowSpec& f = m_flows[i];
        Simulator::Schedule(Seconds(f.startS), [&, i]() {
            transport.SendFlow(m_flowSrc[i], m_flowDst[i], m_flows[i].bytes, [&, i]() {
                flowEnd[i] = Simulator::Now().GetSeconds();
                ++flowsDone;
            });
        });
    }

    auto unfinished = [&]() {
        return (job && !job->Finished()) || (asyncJob && !asyncJob->Finished()) ||
               (lapseWork && !lapseWork->Finished()) || flowsDone < m_flows.size();
    };
    std::unique_ptr<PfcDeadlockDetector> deadlock;
    if (o.deadlockCheckS > 0)
    {
        deadlock = std::make_unique<PfcDeadlockDetector>(
            net, Seconds(o.deadlockCheckS), unfinished);
        deadlock->Start();
    }

    std::unique_ptr<InFlightSampler> inFlight;
    if (o.inFlightSampleS > 0)
    {
        inFlight = std::make_unique<InFlightSampler>(net, Seconds(o.inFlightSampleS), unfinished);
        // From the first traffic on (HPCC's flow lists start at 2 s: no idle samples).
        double firstStart = 0;
        if (!job && !asyncJob && !lapseWork && !m_flows.empty())
        {
            firstStart = m_flows.front().startS;
            for (const FlowSpec& f : m_flows)
            {
                firstStart = std::min(firstStart, f.startS);
            }
        }
        Simulator::Schedule(Seconds(firstStart), &InFlightSampler::Start, inFlight.get());
    }

    // Link failures: the channel stops carrying frames, every table is refilled with
    // shortest paths around the failed links (the original routing once all are back),
    // and every NIC moves its queue pairs to their new routes.
    std::vector<bool> down(m_topology.Graph().LinkCount(), false);
    auto reroute = [&]() {
        if (std::find(down.begin(), down.end(), true) == down.end())
        {
            NetworkBuilder::Reroute(net, m_topology);
        }
        else
        {
            NetworkBuilder::Reroute(
                net,
                DegradedTopology(m_topology, down, ShortestPathRouting::Unreachable::NO_ROUTE));
            NotePartition(m_topology.Graph(), down);
        }
        for (uint32_t h = 0; h < m_topology.Graph().HostCount(); ++h)
        {
            transport.Nic(h)->Reroute();
        }
    };
    for (const LinkFailure& f : ResolveLinkDowns(o, m_topology))
    {
        Simulator::Schedule(Seconds(f.atS), [&, f]() {
            net.channels[f.link]->SetUp(false);
            down[f.link] = true;
            reroute();
        });
        if (f.durationS > 0)
        {
            Simulator::Schedule(Seconds(f.atS + f.durationS), [&, f]() {
                net.channels[f.link]->SetUp(true);
                down[f.link] = false;
                reroute();
            });
        }
    }

    Ptr<StalledReceiver> stalled;
    if (o.stopDraining.host >= 0)
    {
        const auto host = static_cast<uint32_t>(o.stopDraining.host);
        Ptr<RoceNic> nic = transport.Nic(host);
        stalled = CreateObject<StalledReceiver>();
        stalled->SetAttribute("Start", TimeValue(Seconds(o.stopDraining.startS)));
        stalled->SetAttribute("Duration", TimeValue(Seconds(o.stopDraining.durationS)));
        stalled->SetKeepGoing(unfinished);
        net.SetHostReceive(host,
                           stalled->Wrap(PfcNetDevice::FrameReceiveCallback(
                               [nic](Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t p) {
                                   nic->Receive(dev, frame, p);
                               })));
    }

    Ptr<PfcPauseStorm> storm;
    if (o.pauseStorm.host >= 0)
    {
        // Every data lane's priority (lane L travels on BasePriority + L).
        const Ptr<ForwardingTable> table = net.tables[net.hostNode[o.pauseStorm.host]];
        std::vector<uint8_t> priorities;
        for (uint8_t lane = 0; lane < table->GetLaneCount(); ++lane)
        {
            priorities.push_back(table->LanePriority(lane));
        }
        storm = CreateObject<PfcPauseStorm>();
        storm->SetAttribute("Start", TimeValue(Seconds(o.pauseStorm.startS)));
        storm->SetAttribute("Duration", TimeValue(Seconds(o.pauseStorm.durationS)));
        storm->SetKeepGoing(unfinished);
        storm->Install(net.HostPorts(o.pauseStorm.host), priorities);
    }

    const bool showProgress = o.progress == 1 || (o.progress == -1 && isatty(2));
    const uint64_t transfersPerIteration = m_plan ? m_plan->transfers.size() : 0;
    std::unique_ptr<RunGuard> guard;
    {
        Progress progress(showProgress, [&]() -> std::pair<uint64_t, uint64_t> {
            uint64_t done = flowsDone;
            if (job)
            {
                done += job->FinishedIterations() * transfersPerIteration + job->DoneInIteration();
            }
            return {done, transfersPerIteration * o.iterations + m_flows.size()};
        });
        // The run ends a grace period after everything finished, or at --stop, an absolute
        // simulated time (the driver refuses inputs that start after it).
        guard = std::make_unique<RunGuard>(
            Seconds(o.stopS), o.maxEvents, Seconds(2 * o.rtoS) + MilliSeconds(1), unfinished);
        Simulator::Run();
    }

    result.workers = m_plan ? m_plan->workers : 0;
    result.gradientBytes = m_plan ? m_plan->gradientBytes : 0;
    if (job && job->Finished())
    {
        // The routed bound: the ideal's fluid model on the paths these QPs took, framed
        // (helper/routed-bound.h); its time counts in fluid_wall_s, not the simulation's.
        const auto fluidStart = std::chrono::steady_clock::now();
        BooleanValue vlan;
        transport.Nic(0)->GetAttribute("Vlan", vlan);
        result.boundGstS = FluidEstimator()
                               .Estimate(m_topology,
                                         *m_plan,
                                         RoutedBound::Paths(
                                             net, m_topology, transport, o.mtu, vlan.Get()))
                               .gstS;
        result.fluidWallS =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - fluidStart).count();
    }
    if (job)
    {
        double sum = 0;
        for (const Time& g : job->Gst())
        {
            result.gstPerIterationS.push_back(g.GetSeconds());
            sum += g.GetSeconds();
        }
        if (!job->Gst().empty())
        {
            result.gstS = sum / job->Gst().size();
            double it = 0;
            for (const Time& t : job->IterationTime())
            {
                it += t.GetSeconds();
            }
            result.iterationS = it / job->IterationTime().size();
        }
        result.completed = job->Finished();
        for (const auto& t : job->Transfers())
        {
            const Transfer& tr = m_plan->transfers[t.id];
            result.transfers.push_back({t.iteration,
                                        t.id,
                                        m_plan->hostOf[tr.src],
                                        m_plan->hostOf[tr.dst],
                                        tr.bytes,
                                        t.start.GetSeconds(),
                                        EndSecondsOrMinusOne(t.end),
                                        tr.chunk,
                                        tr.phase});
        }
    }
    if (lapseWork)
    {
        result.workers = m_lapse->Workers();
        result.completed = lapseWork->Finished() && lapse->Outstanding() == 0;
        FillLapseMetrics(*lapse, *lapseWork, result);
    }
    if (asyncJob)
    {
        result.workers = m_async->workers;
        result.gradientBytes = m_async->modelBytes;
        result.completed = asyncJob->Finished();
        FillAsyncMetrics(*asyncJob, result);
    }
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        const FlowSpec& f = m_flows[i];
        result.flows.push_back(
            {static_cast<uint32_t>(i), f.src, f.dst, f.bytes, f.startS, flowEnd[i]});
        if (flowEnd[i] < 0)
        {
            result.completed = false;
        }
    }
    recorder.Fill(result);
    if (inFlight)
    {
        result.framesInFlightPeak = static_cast<int64_t>(inFlight->Peak());
    }
    result.retransmits = transport.Retransmits();
    result.events = Simulator::GetEventCount();
    // The last transfer or flow end when every one ended (exact); otherwise (asynchronous
    // systems, unfinished runs) when the guard saw the work done or stopped the run.
    result.simS =
        (guard->EndOfWork().IsZero() ? Simulator::Now() : guard->EndOfWork()).GetSeconds();
    if (result.completed && (!result.transfers.empty() || !result.flows.empty()))
    {
        double last = 0;
        for (const auto& t : result.transfers)
        {
            last = std::max(last, t.endS);
        }
        for (const auto& f : result.flows)
        {
            last = std::max(last, f.endS);
        }
        result.simS = last;
    }
    RunCounters counters;
    counters.pfc = o.pfc;
    counters.drained = guard->Drained();
    counters.completed = result.completed;
    counters.drops = recorder.Drops();
    // Watchdog drops are deliberate (a stormed queue), not a lossless failure, but they are
    // lost packets all the same for conservation.
    const uint8_t ack = transport.AckPriority();
    counters.dataDrops = recorder.Drops() - recorder.DropsOfPriority(ack) +
                         recorder.WatchdogDrops() - recorder.WatchdogDropsOfPriority(ack) +
                         recorder.DataLinkDrops();
    counters.dataSent = transport.DataPacketsSent();
    counters.dataArrived = transport.DataPacketsArrived();
    std::vector<std::string> broken = RunInvariants::Check(net, counters);
    if (deadlock && deadlock->Found())
    {
        broken.push_back("PFC deadlock found at " +
                         std::to_string(deadlock->FoundAt().GetSeconds()) +
                         " s, a cycle of paused ports: " + deadlock->Cycle());
    }
    else if (guard->OutOfEvents())
    {
        broken.push_back("event limit: not finished after --max-events=" + o.maxEventsText +
                         " events (at " + std::to_string(Simulator::Now().GetSeconds()) +
                         " s simulated; a livelock?)");
    }
    else if (!result.completed && !counters.drained)
    {
        broken.push_back(StallMessage(result, deadlock != nullptr));
    }
    for (const std::string& b : broken)
    {
        result.invariant += (result.invariant.empty() ? "" : "; ") + b;
    }
    Simulator::Destroy();
    return result;
}

std::string
PacketSyncRun::StallMessage(const RunResult& r, bool detectorOn) const
{
    const DriverOptions& o = m_options;
    // Transfers that never started have no row: count the finished ones.
    const size_t transfersTotal = m_plan ? m_plan->transfers.size() * o.iterations : 0;
    size_t transfersDone = 0;
    for (const auto& t : r.transfers)
    {
        transfersDone += t.endS >= 0 ? 1 : 0;
    }
    const size_t transfersLeft = transfersTotal - std::min(transfersDone, transfersTotal);
    size_t flowsLeft = 0;
    for (const auto& f : r.flows)
    {
        flowsLeft += f.endS < 0 ? 1 : 0;
    }
    std::string what;
    if (transfersTotal > 0)
    {
        what = std::to_string(transfersLeft) + " of " + std::to_string(transfersTotal) +
               " transfers";
    }
    if (!r.flows.empty())
    {
        what += (what.empty() ? "" : " and ") + std::to_string(flowsLeft) + " of " +
                std::to_string(r.flows.size()) + " flows";
    }
    if (what.empty())
    {
        what = "the job";
    }
    return "stalled: " + what + " not finished by --stop=" + o.stopText + " of simulated time; " +
           (detectorOn ? "the PFC deadlock detector found no cycle of paused ports (a slow "
                         "link, a long compute time, a pause storm or too short a --stop?)"
                       : "the PFC deadlock detector was off (--deadlock-check=0)");
}

} // namespace ns3
