#include "jobs.h"

#include "mpi-session.h"
#include "network-builder.h"
#include "rank-results.h"
#include "results-writer.h"
#include "roce-sync-transport.h"
#include "routed-bound.h"

#include "ns3/boolean.h"
#include "ns3/convergence-model.h"
#include "ns3/fluid-estimator.h"
#include "ns3/gst-lower-bound.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>

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

std::string
Number(double v)
{
    return ResultsWriter::Number(v);
}

} // namespace

SyncPlanJob::SyncPlanJob(const SyncPlan& plan,
                         const std::vector<GradientTensor>& tensors,
                         const SyncJobConfig& config)
    : m_plan(plan),
      m_tensors(tensors),
      m_config(config)
{
}

SyncPlanJob::~SyncPlanJob() = default;

void
SyncPlanJob::Install(const RunContext& run)
{
    m_job = std::make_unique<SyncJob>(m_plan, m_tensors, m_config);
    m_job->SetTransport(&run.transport);
    run.transport.SetJob(m_job.get());
    if (run.overRanks)
    {
        run.overRanks(*m_job);
    }
    const PfcNetwork& net = run.net;
    m_job->InstallApplications([&net](uint32_t host) { return net.Host(host); });
    m_job->Start(Seconds(0));
}

bool
SyncPlanJob::Finished() const
{
    return m_job && m_job->Finished();
}

void
SyncPlanJob::RoutedFigures(const RunContext& run,
                           const RoutedBound::OrderedPaths& ordered,
                           RunResult& result) const
{
    // On the paths these QPs took, framed (helper/routed-bound.h): the relaxation with each
    // message's least time alone on its path (bound_gst_s; the backend raises it to the
    // ideal), and the max-min fluid run (fair_gst_s). Their time counts in fluid_wall_s,
    // not the simulation's.
    const auto fluidStart = std::chrono::steady_clock::now();
    BooleanValue vlanValue;
    run.transport.Nic(0)->GetAttribute("Vlan", vlanValue);
    UintegerValue mtuValue;
    run.transport.Nic(0)->GetAttribute("Mtu", mtuValue);
    const auto mtu = static_cast<uint32_t>(mtuValue.Get());
    const bool vlan = vlanValue.Get();
    const PinnedPaths paths = RoutedBound::Pin(ordered, run.transport, mtu, vlan);
    const TopologyGraph& graph = run.topology.Graph();
    const GstLowerBound::PathTime pathTime =
        [&](HostRank src, HostRank dst, uint32_t qp, uint64_t payload) {
            const auto it = ordered.find({src, dst, qp});
            return it == ordered.end()
                       ? 0.0
                       : RoutedBound::SoloTime(graph, it->second, payload, mtu, vlan);
        };
    result.boundGstS = GstLowerBound()
                           .Compute(
                               run.topology, m_plan, paths, pathTime, RoutedBound::AckTimes(graph))
                           .gstS;
    result.fairGstS = FluidEstimator().Estimate(run.topology, m_plan, paths).gstS;
    result.fluidWallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - fluidStart).count();
}

void
SyncPlanJob::Collect(const RunContext& run, RunResult& result) const
{
    result.workers = m_plan.workers;
    result.gradientBytes = m_plan.gradientBytes;
    if (run.localHosts.empty())
    {
        if (m_job->Finished())
        {
            RoutedFigures(run, RoutedBound::Trace(run.net, run.topology, run.transport), result);
        }
    }
    else
    {
        // Over ranks a QP is opened on its source's rank alone (its UDP source port, which
        // ECMP hashes, counts the QPs its NIC opened before), and every rank has every
        // forwarding table: each rank traces its own QPs and rank 0 joins them. Every rank
        // gathers here, in job order, before the helper's own gathers.
        const std::vector<std::string> ranks = MpiSession::GatherOnRankZero(RankResults::PackPaths(
            m_job->Finished(), RoutedBound::Trace(run.net, run.topology, run.transport)));
        if (!ranks.empty())
        {
            if (const auto joined = RankResults::JoinPaths(ranks))
            {
                RoutedFigures(run, *joined, result);
            }
        }
    }
    double sum = 0;
    for (const Time& g : m_job->Gst())
    {
        result.gstPerIterationS.push_back(g.GetSeconds());
        sum += g.GetSeconds();
    }
    if (!m_job->Gst().empty())
    {
        result.gstS = sum / m_job->Gst().size();
        double it = 0;
        for (const Time& t : m_job->IterationTime())
        {
            it += t.GetSeconds();
        }
        result.iterationS = it / m_job->IterationTime().size();
    }
    result.completed = result.completed && m_job->Finished();
    for (const auto& t : m_job->Transfers())
    {
        const Transfer& tr = m_plan.transfers[t.id];
        result.transfers.push_back({t.iteration,
                                    t.id,
                                    m_plan.hostOf[tr.src],
                                    m_plan.hostOf[tr.dst],
                                    tr.bytes,
                                    t.start.GetSeconds(),
                                    EndSecondsOrMinusOne(t.end),
                                    tr.chunk,
                                    tr.phase});
    }
}

std::pair<uint64_t, uint64_t>
SyncPlanJob::Progress() const
{
    const uint64_t perIteration = m_plan.transfers.size();
    return {m_job->FinishedIterations() * perIteration + m_job->DoneInIteration(),
            perIteration * m_config.iterations};
}

std::string
SyncPlanJob::Left() const
{
    // Transfers that never started have no row: count the finished ones.
    const size_t total = m_plan.transfers.size() * m_config.iterations;
    if (total == 0)
    {
        return "";
    }
    size_t done = 0;
    for (const auto& t : m_job->Transfers())
    {
        done += t.end.IsNegative() ? 0 : 1;
    }
    return std::to_string(total - std::min(done, total)) + " of " + std::to_string(total) +
           " transfers";
}

void
FlowsJob::Add(const FlowRecord& record, uint32_t srcRank, uint32_t dstRank)
{
    m_flows.push_back(record);
    m_flows.back().endS = -1;
    m_ranks.emplace_back(srcRank, dstRank);
    if (m_transport)
    {
        Schedule(m_flows.size() - 1);
    }
}

void
FlowsJob::Install(const RunContext& run)
{
    m_transport = &run.transport;
    m_localHosts = run.localHosts;
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        Schedule(i);
    }
}

void
FlowsJob::Schedule(size_t i)
{
    Simulator::Schedule(Seconds(m_flows[i].startS), [this, i]() {
        m_transport->SendFlow(m_ranks[i].first, m_ranks[i].second, m_flows[i].bytes, [this, i]() {
            m_flows[i].endS = Simulator::Now().GetSeconds();
            ++m_done;
        });
    });
}

bool
FlowsJob::Finished() const
{
    if (m_localHosts.empty())
    {
        return m_done == m_flows.size();
    }
    // Over MPI ranks: the flows delivered here (ParamsyncHelper merges the ranks' views).
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        if (m_localHosts[m_ranks[i].second] && m_flows[i].endS < 0)
        {
            return false;
        }
    }
    return true;
}

void
FlowsJob::Collect(const RunContext& /* run */, RunResult& result) const
{
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        result.flows.push_back(m_flows[i]);
        const bool mine = m_localHosts.empty() || m_localHosts[m_ranks[i].second];
        result.completed = result.completed && (!mine || m_flows[i].endS >= 0);
    }
}

double
FlowsJob::FirstStartS() const
{
    double first = m_flows.empty() ? 0 : m_flows.front().startS;
    for (const FlowRecord& f : m_flows)
    {
        first = std::min(first, f.startS);
    }
    return first;
}

std::pair<uint64_t, uint64_t>
FlowsJob::Progress() const
{
    return {m_done, m_flows.size()};
}

std::string
FlowsJob::Left() const
{
    if (m_flows.empty())
    {
        return "";
    }
    return std::to_string(m_flows.size() - m_done) + " of " + std::to_string(m_flows.size()) +
           " flows";
}

AsyncPsSystemJob::AsyncPsSystemJob(const AsyncPsConfig& config)
    : m_config(config)
{
}

AsyncPsSystemJob::~AsyncPsSystemJob() = default;

void
AsyncPsSystemJob::Install(const RunContext& run)
{
    m_job = std::make_unique<AsyncPsJob>(m_config);
    m_job->SetTransport(&run.transport);
    run.transport.SetJob(m_job.get());
    m_job->Start(Seconds(0));
}

bool
AsyncPsSystemJob::Finished() const
{
    return m_job && m_job->Finished();
}

const std::vector<double>&
AsyncPsSystemJob::Losses() const
{
    if (!m_replayed && m_job->Config().train)
    {
        // The training problem replayed at the versions the schedule applied its updates
        // at (ConvergenceModel): the loss after each update.
        const AsyncPsConfig& c = m_job->Config();
        ConvergenceModel model(c.training, c.workers, c.servers);
        m_losses = model.Replay(m_job->Updates(), m_job->ComputedOn());
    }
    m_replayed = true;
    return m_losses;
}

void
AsyncPsSystemJob::Collect(const RunContext& /* run */, RunResult& result) const
{
    result.workers = m_config.workers;
    result.gradientBytes = m_config.modelBytes;
    result.completed = result.completed && m_job->Finished();
    const size_t first = result.updates.size();
    for (const AppliedUpdate& u : m_job->Updates())
    {
        result.updates.push_back({u.worker, u.iteration, u.shard, u.delay, u.applied.GetSeconds()});
    }
    const std::vector<double>& losses = Losses();
    const size_t trained = result.updates.size() - first - losses.size();
    for (size_t i = 0; i < losses.size(); ++i)
    {
        result.updates[first + trained + i].loss = losses[i];
    }
}

std::vector<std::pair<std::string, std::string>>
AsyncPsSystemJob::Metrics() const
{
    const AsyncPsJob& job = *m_job;
    std::vector<uint64_t> delays;
    for (const AppliedUpdate& u : job.Updates())
    {
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
    std::vector<std::pair<std::string, std::string>> m = {
        {"iterations", std::to_string(iterations)},
        {"updates", std::to_string(delays.size())},
        {"dropped", std::to_string(job.Dropped())},
        {"delay_mean", Number(delayMean)},
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
        {"replica_lag_max", std::to_string(job.MaxReplicaLag())},
        {"makespan_s", Number(makespan)},
        {"updates_per_s", Number(makespan > 0 ? static_cast<double>(delays.size()) / makespan : 0)},
        {"blocked_s", Number(blocked)}};
    if (job.Config().failAt >= Seconds(0))
    {
        // Updates lost with shard 0's server, and of those the acknowledged ones: lost for
        // good (the others are pushed again).
        m.push_back({"failover_lost", std::to_string(job.Lost())});
        m.push_back({"failover_lost_acknowledged", std::to_string(job.LostAcknowledged())});
    }
    if (job.Config().train)
    {
        const ConvergenceConfig& training = job.Config().training;
        ConvergenceModel model(training, job.Config().workers, job.Config().servers);
        const double initial = model.Loss(Eigen::VectorXd::Zero(training.features));
        const std::vector<double>& losses = Losses();
        m.push_back({"loss_initial", Number(initial)});
        m.push_back({"loss_final", Number(losses.empty() ? initial : losses.back())});
    }
    return m;
}

LapseSystemJob::LapseSystemJob(const LapseSpec& spec)
    : m_spec(spec)
{
}

LapseSystemJob::~LapseSystemJob() = default;

void
LapseSystemJob::Install(const RunContext& run)
{
    // The PS nodes are hosts 0..nodes-1 (nodes=1: host 0 alone, no message).
    m_ps = std::make_unique<LapsePs>(m_spec.ps);
    m_ps->SetTransport(&run.transport);
    run.transport.SetJob(m_ps.get());
    m_work = m_spec.MakeWorkload(*m_ps);
    m_work->Start(Seconds(0));
}

bool
LapseSystemJob::Finished() const
{
    return m_work && m_work->Finished();
}

void
LapseSystemJob::Collect(const RunContext& /* run */, RunResult& result) const
{
    result.workers = m_spec.Workers();
    result.completed = result.completed && m_work->Finished() && m_ps->Outstanding() == 0;
}

std::vector<std::pair<std::string, std::string>>
LapseSystemJob::Metrics() const
{
    const LapsePs& ps = *m_ps;
    const auto& ends = m_work->EpochEnds();
    const double last = ends.empty() ? 0 : ends.back().GetSeconds();
    const uint64_t accesses = ps.LocalAccesses() + ps.RemoteAccesses();
    return {
        {"epochs", std::to_string(ends.size())},
        {"epoch_s", Number(ends.empty() ? 0 : last / static_cast<double>(ends.size()))},
        {"local_accesses", std::to_string(ps.LocalAccesses())},
        {"remote_accesses", std::to_string(ps.RemoteAccesses())},
        {"remote_fraction",
         Number(accesses ? static_cast<double>(ps.RemoteAccesses()) / static_cast<double>(accesses)
                         : 0)},
        {"localizes", std::to_string(ps.Localizes())},
        {"messages", std::to_string(ps.Messages())},
        {"ps_bytes", std::to_string(ps.Bytes())},
        {"barrier_wait_s", Number(m_work->BarrierWait().GetSeconds())}};
}

} // namespace ns3
