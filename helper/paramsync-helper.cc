#include "paramsync-helper.h"

#include "jobs.h"
#include "mpi-session.h"
#include "network-recorder.h"
#include "rank-partition.h"
#include "rank-results.h"
#ifdef NS3_MPI
#include "rank-crossings.h"
#endif
#include "rank-post-notices.h" // no MPI in the header: the member's type
#include "roce-sync-transport.h"
#include "run-guard.h"
#include "run-invariants.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/congestion-control-preset.h"
#include "ns3/default-simulator-impl.h"
#include "ns3/model-profile.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/sync-algorithm.h"
#include "ns3/sync-plan.h"
#include "ns3/topology.h"
#include "ns3/warmable-event.h"

#include <algorithm>

namespace ns3
{

ParamsyncHelper::ParamsyncHelper()
    : m_nic("ns3::RoceNic")
{
}

ParamsyncHelper::~ParamsyncHelper() = default;

void
ParamsyncHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetDeviceAttribute(name, value);
}

void
ParamsyncHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetChannelAttribute(name, value);
}

void
ParamsyncHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetSwitchAttribute(name, value);
}

void
ParamsyncHelper::SetTableAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetTableAttribute(name, value);
}

void
ParamsyncHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nic.Set(name, value);
}

void
ParamsyncHelper::SetTopology(const std::string& spec, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::SetTopology after Install");
    m_ownTopology = MakeTopology(spec, static_cast<double>(rate.GetBitRate()), delay.GetSeconds());
    m_topology = m_ownTopology.get();
}

void
ParamsyncHelper::SetTopology(const Topology& topology)
{
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::SetTopology after Install");
    m_ownTopology.reset();
    m_topology = &topology;
}

const Topology*
ParamsyncHelper::GetTopology() const
{
    return m_topology;
}

void
ParamsyncHelper::SetEcmpHashSalt(uint32_t salt)
{
    m_builder.SetHashSalt(salt);
}

void
ParamsyncHelper::UseHpccSwitchBuffer()
{
    m_builder.SetHpccMmu();
}

void
ParamsyncHelper::SetTransport(const RoceTransportConfig& config)
{
    RoceTransportConfig::CheckCongestionControl(config.cc);
    m_nic = config.NicFactory();
    m_cc = config.cc;
}

void
ParamsyncHelper::SetCongestionControl(const std::string& preset)
{
    RoceTransportConfig::CheckCongestionControl(preset);
    m_cc = preset;
}

const PfcNetwork&
ParamsyncHelper::Install()
{
    NS_ABORT_MSG_IF(!m_topology, "ParamsyncHelper::Install before SetTopology");
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::Install called twice, or after CheckNetwork");
    for (const auto& monitor : m_monitors)
    {
        monitor->Configure(m_builder);
    }
    std::unique_ptr<RankPartition> partition;
    const TopologyGraph& graph = m_topology->Graph();
    if (m_ranks > 1)
    {
        partition = std::make_unique<RankPartition>(graph, m_ranks);
        std::vector<uint32_t> systemIds(graph.NodeCount());
        for (NodeIndex v = 0; v < graph.NodeCount(); ++v)
        {
            systemIds[v] = partition->RankOf(v);
        }
        m_builder.SetSystemIds(std::move(systemIds));
    }
    m_net = m_builder.Build(*m_topology);
    m_recorder = std::make_unique<NetworkRecorder>(m_net);
    m_transport = std::make_unique<RoceSyncTransport>(
        m_net, m_nic, CongestionControlPreset::Find(m_cc));
    if (partition)
    {
#ifdef NS3_MPI
        InstallRankCrossings(m_net, graph, *partition, m_self);
        m_notices = std::make_unique<RankPostNotices>(m_net, graph, *partition, *m_transport);
#endif
        m_localHosts.assign(graph.HostCount(), false);
        for (HostRank h = 0; h < graph.HostCount(); ++h)
        {
            m_localHosts[h] = partition->RankOf(graph.HostNode(h)) == m_self;
        }
        m_transport->SetLocalHosts(m_localHosts);
    }
    m_context = std::make_unique<RunContext>(
        RunContext{*m_topology, m_net, *m_transport, [this]() { return Unfinished(); }});
    m_context->localHosts = m_localHosts;
#ifdef NS3_MPI
    if (m_notices)
    {
        m_context->overRanks = [this](SyncJob& job) {
            m_notices->Attach(job, m_localHosts, m_self);
        };
    }
#endif
    m_installed = true;
    return m_net;
}

void
ParamsyncHelper::CheckNetwork()
{
    NS_ABORT_MSG_IF(!m_topology, "ParamsyncHelper::CheckNetwork before SetTopology");
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::CheckNetwork after Install or CheckNetwork");
    for (const auto& monitor : m_monitors)
    {
        monitor->Configure(m_builder);
    }
    m_installed = true; // the monitors configured the factories once; no Install after
    m_builder.CheckBuild(*m_topology);
}

bool
ParamsyncHelper::EndTimeMarking()
{
    // ns-3.37 (src/core/model/time.cc): Time::Mark inserts every Time constructed before the
    // first Simulator::Run into a std::set<Time*> and ~Time erases it; Simulator::Run calls
    // the private Time::ClearMarkedTimes, which ends that for the rest of the process. An
    // empty Run of the sequential simulator does nothing else (no event, no time advance).
    // Simulator::Stop before any Run leaves IsFinished true with events pending: that case
    // is the caller's (nothing scheduled, as documented).
    const Ptr<SimulatorImpl> impl = Simulator::GetImplementation();
    if (impl->GetInstanceTypeId() != DefaultSimulatorImpl::GetTypeId() ||
        !Simulator::IsFinished() || Simulator::GetEventCount() != 0 || !Simulator::Now().IsZero())
    {
        return false;
    }
    Simulator::Run();
    return true;
}

void
ParamsyncHelper::SetRanks(uint32_t ranks, uint32_t self)
{
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::SetRanks after Install");
#ifndef NS3_MPI
    if (ranks > 1)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) +
                                    " needs ns-3 built with MPI (an ns-3 tree configured with "
                                    "--enable-mpi); this one has none: allowed 1");
    }
#endif
    NS_ABORT_MSG_IF(ranks == 0 || self >= ranks, "ParamsyncHelper::SetRanks: rank out of range");
    m_ranks = ranks;
    m_self = self;
}

bool
ParamsyncHelper::IsLocalHost(uint32_t host) const
{
    return m_localHosts.empty() || m_localHosts.at(host);
}

void
ParamsyncHelper::EnablePcap(const std::string& ports, const std::string& dir)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::EnablePcap before Install");
    NetworkBuilder::EnablePcap(m_net, NetworkBuilder::PcapPorts(m_topology->Graph(), ports), dir);
}

RoceSyncTransport&
ParamsyncHelper::Transport()
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::Transport before Install");
    return *m_transport;
}

void
ParamsyncHelper::InstallJob(std::unique_ptr<Job> job)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::InstallJob before Install");
    if (m_ranks > 1)
    {
        CheckRunsOverRanks(*job);
    }
    job->Install(*m_context);
    m_jobs.push_back(std::move(job));
}

void
ParamsyncHelper::CheckRunsOverRanks(const Job& job) const
{
    const std::string over = " over " + std::to_string(m_ranks) + " MPI ranks";
    if (dynamic_cast<const AsyncPsSystemJob*>(&job) || dynamic_cast<const LapseSystemJob*>(&job))
    {
        throw std::invalid_argument("InstallJob" + over +
                                    ": a parameter server's workers and servers share state "
                                    "that no rank has whole; allowed: sync plans and flows");
    }
    // A sync message from another rank is told by its QP number (helper/rank-post-notices.h),
    // which the flows' QPs, opened on every rank, would share.
    const auto isSync = [](const Job& j) { return dynamic_cast<const SyncPlanJob*>(&j); };
    const auto isFlows = [](const Job& j) { return dynamic_cast<const FlowsJob*>(&j); };
    for (const auto& installed : m_jobs)
    {
        if ((isSync(job) && isFlows(*installed)) || (isFlows(job) && isSync(*installed)))
        {
            throw std::invalid_argument("InstallJob" + over +
                                        ": a sync plan beside flows; allowed: one or the other");
        }
    }
}

void
ParamsyncHelper::AddMonitor(std::unique_ptr<RunMonitor> monitor)
{
    m_monitors.push_back(std::move(monitor));
}

void
ParamsyncHelper::InstallSyncJob(const std::string& algorithm,
                                const std::string& model,
                                uint32_t iterations)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::InstallSyncJob before Install");
    NS_ABORT_MSG_IF(m_plan, "ParamsyncHelper::InstallSyncJob called twice");
    if (iterations == 0)
    {
        throw std::invalid_argument("InstallSyncJob: iterations 0; allowed: 1 or more");
    }
    std::unique_ptr<SyncAlgorithm> algo = MakeSyncAlgorithm(algorithm);
    std::string why;
    if (!algo->AppliesTo(*m_topology, why))
    {
        throw std::invalid_argument("algorithm " + algo->Spec() + " does not apply to " +
                                    m_topology->Spec() + ": " + why);
    }
    auto profile = std::make_unique<ModelProfile>(ModelProfile::Load(model, ""));
    auto plan = std::make_unique<SyncPlan>(algo->Compile(*m_topology, *profile));
    SyncJobConfig config;
    config.iterations = iterations;
    // Kept only once installed (the job refers to the plan): a refused job leaves none.
    InstallJob(std::make_unique<SyncPlanJob>(*plan, profile->Tensors(), config));
    m_model = std::move(profile);
    m_plan = std::move(plan);
}

void
ParamsyncHelper::AddFlow(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, Time start)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::AddFlow before Install");
    const uint32_t hosts = m_topology->Graph().HostCount();
    if (srcHost >= hosts || dstHost >= hosts || srcHost == dstHost || bytes == 0)
    {
        throw std::invalid_argument("flow " + std::to_string(srcHost) + " -> " +
                                    std::to_string(dstHost) + " of " + std::to_string(bytes) +
                                    " B: allowed two different hosts 0.." +
                                    std::to_string(hosts - 1) + " and bytes > 0");
    }
    if (!m_flows)
    {
        auto flows = std::make_unique<FlowsJob>();
        FlowsJob* job = flows.get();
        InstallJob(std::move(flows));
        m_flows = job;
    }
    const auto index = static_cast<uint32_t>(m_flows->Progress().second);
    m_flows->Add({index, srcHost, dstHost, bytes, start.GetSeconds(), -1}, srcHost, dstHost);
}

bool
ParamsyncHelper::Unfinished() const
{
    return std::any_of(
        m_jobs.begin(), m_jobs.end(), [](const auto& job) { return !job->Finished(); });
}

RunResult
ParamsyncHelper::Run(Time stop)
{
    RunControl control;
    control.stop = stop;
    return Run(control);
}

RunResult
ParamsyncHelper::Run(const RunControl& control)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::Run before Install");
    m_context->firstTrafficS = 0;
    for (size_t i = 0; i < m_jobs.size(); ++i)
    {
        const double first = m_jobs[i]->FirstStartS();
        m_context->firstTrafficS = i == 0 ? first : std::min(m_context->firstTrafficS, first);
    }
    for (const auto& monitor : m_monitors)
    {
        monitor->Install(*m_context);
    }
    std::unique_ptr<RunGuard> guard;
    {
        // Over ranks a rank's progress is its own hosts' share: no line.
        RunProgress progress(control.progress && m_ranks == 1, [this]() {
            std::pair<uint64_t, uint64_t> sum{0, 0};
            for (const auto& job : m_jobs)
            {
                const auto [done, total] = job->Progress();
                sum.first += done;
                sum.second += total;
            }
            return sum;
        });
        // The run ends a grace period after everything finished, or at control.stop, an
        // absolute simulated time.
        guard = std::make_unique<RunGuard>(
            control.stop, control.maxEvents, control.grace, [this]() { return Unfinished(); });
        if (m_ranks > 1)
        {
            guard->SetGlobalView(&MpiSession::CombineLook);
        }
        // The network's objects live through the run: its events may be warmed
        // (model/warmable-event.h), and only here.
        const WarmableEvent::WarmingScope warming;
        Simulator::Run();
    }
    m_end = RunEnd{};
    m_end.drained = guard->Drained();
    m_end.outOfEvents = guard->OutOfEvents();
    RunResult result;
    Collect(result, m_end, guard->EndOfWork());
    return result;
}

void
ParamsyncHelper::Collect(RunResult& result, const RunEnd& end, Time endOfWork)
{
    result.topology = m_topology->Spec();
    result.backend = "packet";
    result.algorithm = m_plan ? m_plan->algorithm : "none";
    result.model = m_model ? m_model->Name() : "none";
    for (const auto& job : m_jobs)
    {
        job->Collect(*m_context, result);
        if (!job->MetricsKind().empty())
        {
            result.systemKind = job->MetricsKind();
            result.systemMetrics = job->Metrics();
        }
        const std::string left = job->Left();
        if (!left.empty())
        {
            m_end.left += (m_end.left.empty() ? "" : " and ") + left;
        }
    }
    m_recorder->Fill(result);
    result.retransmits = m_transport->Retransmits();
    result.events = Simulator::GetEventCount();
    if (m_ranks > 1)
    {
        MergeRanks(result);
    }
    // The last transfer or flow end when every one ended (exact); otherwise (asynchronous
    // systems, unfinished runs) when the guard saw the work done or stopped the run.
    result.simS = (endOfWork.IsZero() ? Simulator::Now() : endOfWork).GetSeconds();
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
    std::vector<std::string> broken = RunInvariants::Check(m_net, Counters(result, end));
    for (const auto& monitor : m_monitors)
    {
        monitor->Collect(result, broken);
        m_end.explained = m_end.explained || monitor->EndedRun();
    }
    if (m_ranks > 1)
    {
        broken = MergeBroken(broken);
    }
    for (const std::string& b : broken)
    {
        result.invariant += (result.invariant.empty() ? "" : "; ") + b;
    }
}

void
ParamsyncHelper::MergeRanks(RunResult& result)
{
    // Every rank sends its view; rank 0 merges (RankResults) and tells the others whether
    // the whole run completed, which the invariants below need on every rank.
    const std::vector<std::string> packed = MpiSession::GatherOnRankZero(RankResults::Pack(result));
    if (m_self == 0)
    {
        std::vector<RunResult> ranks;
        for (const std::string& bytes : packed)
        {
            ranks.push_back(RankResults::Unpack(bytes));
        }
        RunResult merged = RankResults::Merge(ranks, m_net.names, m_net.PeerNodes());
        std::swap(merged.transfers, result.transfers);
        std::swap(merged.flows, result.flows);
        std::swap(merged.pfc, result.pfc);
        std::swap(merged.pauses, result.pauses);
        result.pfcPauseFrames = merged.pfcPauseFrames;
        result.pfcPausedS = merged.pfcPausedS;
        result.pfcPauseDepth = merged.pfcPauseDepth;
        result.drops = merged.drops;
        result.watchdogDrops = merged.watchdogDrops;
        result.linkDrops = merged.linkDrops;
        result.ecnMarks = merged.ecnMarks;
        result.retransmits = merged.retransmits;
        result.events = merged.events;
        result.pktHops = merged.pktHops;
        result.fluidWallS = merged.fluidWallS;
        result.completed = merged.completed;
        result.gstS = merged.gstS;
        result.iterationS = merged.iterationS;
        result.gstPerIterationS = merged.gstPerIterationS;
        result.invariant = merged.invariant;
    }
    result.completed = MpiSession::FromRankZero(result.completed);
}

std::vector<std::string>
ParamsyncHelper::MergeBroken(const std::vector<std::string>& broken) const
{
    // The counter invariants are the same on every rank (the counters are summed); a
    // buffer left undrained is seen by the rank that owns the node.
    std::string lines;
    for (const std::string& b : broken)
    {
        lines += b + "\n";
    }
    std::vector<std::string> merged;
    for (const std::string& rank : MpiSession::GatherOnRankZero(lines))
    {
        size_t from = 0;
        for (size_t to = rank.find('\n'); to != std::string::npos; to = rank.find('\n', from))
        {
            const std::string line = rank.substr(from, to - from);
            if (std::find(merged.begin(), merged.end(), line) == merged.end())
            {
                merged.push_back(line);
            }
            from = to + 1;
        }
    }
    return merged;
}

RunCounters
ParamsyncHelper::Counters(const RunResult& result, const RunEnd& end) const
{
    RunCounters counters;
    BooleanValue pfc;
    m_net.HostPorts(0).front()->GetAttribute("PfcEnabled", pfc);
    counters.pfc = pfc.Get();
    counters.drained = end.drained;
    counters.completed = result.completed;
    counters.drops = m_recorder->Drops();
    // Watchdog drops are deliberate (a stormed queue), not a lossless failure, but they are
    // lost packets all the same for conservation.
    const uint8_t ack = m_transport->AckPriority();
    counters.dataDrops = m_recorder->Drops() - m_recorder->DropsOfPriority(ack) +
                         m_recorder->WatchdogDrops() - m_recorder->WatchdogDropsOfPriority(ack) +
                         m_recorder->DataLinkDrops();
    counters.dataSent = m_transport->DataPacketsSent();
    counters.dataArrived = m_transport->DataPacketsArrived();
    if (m_ranks > 1)
    {
        // A packet is sent on one rank and arrives on another: conservation holds for the
        // sums (every rank takes part in these all-reduces, in this order).
        counters.drops = MpiSession::Sum(counters.drops);
        counters.dataDrops = MpiSession::Sum(counters.dataDrops);
        counters.dataSent = MpiSession::Sum(counters.dataSent);
        counters.dataArrived = MpiSession::Sum(counters.dataArrived);
    }
    return counters;
}

std::string
ParamsyncHelper::PauseSentPath()
{
    return "/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/PauseSent";
}

std::string
ParamsyncHelper::PauseReceivedPath()
{
    return "/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/PauseReceived";
}

std::string
ParamsyncHelper::MessageReceivedPath()
{
    return "/NodeList/*/$ns3::RoceNic/MessageReceived";
}

} // namespace ns3
