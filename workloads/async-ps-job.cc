#include "async-ps-job.h"

#include "convergence-live.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

AsyncPsJob::AsyncPsJob(const AsyncPsConfig& config)
    : m_config(config),
      m_net(config.paths),
      m_aggregatorRng(config.aggregatorSeed)
{
    auto positive = [](uint64_t v, const char* what) {
        if (v == 0)
        {
            throw std::invalid_argument(std::string("AsyncPsJob: ") + what + " must be > 0");
        }
    };
    positive(config.workers, "workers");
    positive(config.servers, "servers");
    positive(config.modelBytes, "model bytes");
    positive(config.iterations, "iterations");
    if (config.modelBytes < config.servers)
    {
        throw std::invalid_argument("AsyncPsJob: " + std::to_string(config.modelBytes) +
                                    " model bytes cannot be split over " +
                                    std::to_string(config.servers) + " servers");
    }
    const uint32_t n = config.workers;
    m_version.assign(config.servers, 0);
    m_seen.assign(n, std::vector<uint64_t>(config.servers, 0));
    m_computedOn.assign(n, {});
    m_pushInFlight.assign(n, false);
    m_appliedThisRound.assign(n, false);
    m_replyPosted.assign(n, false);
    m_gotReply.assign(n, false);
    if (config.failAt >= Seconds(0) &&
        (config.replicaDivergence == 0 || config.policy != AsyncPsConfig::PushPolicy::MLFABRIC ||
         config.aggregate || config.networkScheduler))
    {
        throw std::invalid_argument("AsyncPsJob: a server failure needs MLFABRIC with a "
                                    "replica, the oracle scheduler and no aggregation");
    }
    m_iteration.assign(n, 0);
    m_finished.assign(n, 0);
    m_repliesLeft.assign(n, 0);
    m_waiting.assign(n, false);
    m_waitSince.assign(n, Seconds(0));
    m_blocked.assign(n, Seconds(0));
    m_iterationEnds.assign(n, {});
    m_pending.assign(config.servers, {});
    m_reserved.assign(config.servers, false);
    m_slots.assign(config.servers, {});
    m_workerBusy.assign(n, false);
    m_replicaVersion.assign(config.servers, 0);
    m_forwarded.assign(config.servers, 0);
    if (!config.workerRateBps.empty() && config.workerRateBps.size() != n)
    {
        throw std::invalid_argument("AsyncPsJob: " + std::to_string(config.workerRateBps.size()) +
                                    " worker rates for " + std::to_string(n) + " workers");
    }
    if (config.train && config.normPriority && config.policy == AsyncPsConfig::PushPolicy::MLFABRIC)
    {
        m_norms = MakeLiveGradientNorms(config.training, n, config.servers);
        m_normOf.assign(n, std::vector<double>(config.servers, 0.0));
    }
    const uint32_t hosts = n + config.servers * (config.replicaDivergence > 0 ? 2 : 1);
    if (!config.paths.Empty() && config.paths.hosts < hosts)
    {
        throw std::invalid_argument("AsyncPsJob: paths of " + std::to_string(config.paths.hosts) +
                                    " hosts for a job on " + std::to_string(hosts));
    }
}

double
AsyncPsJob::Rate(uint32_t w) const
{
    return m_config.workerRateBps.empty() ? 1.0 : m_config.workerRateBps[w];
}

uint64_t
AsyncPsJob::ShardBytes(uint32_t s) const
{
    const uint64_t base = m_config.modelBytes / m_config.servers;
    return base + (s < m_config.modelBytes % m_config.servers ? 1 : 0);
}

void
AsyncPsJob::Start(Time at)
{
    for (uint32_t w = 0; w < m_config.workers; ++w)
    {
        Simulator::Schedule(at, &AsyncPsJob::TryStart, this, w);
    }
    if (m_config.failAt >= Seconds(0))
    {
        Simulator::Schedule(at + m_config.failAt, &AsyncPsJob::Fail, this);
    }
}

uint32_t
AsyncPsJob::SlowestFinished() const
{
    return *std::min_element(m_finished.begin(), m_finished.end());
}

void
AsyncPsJob::TryStart(uint32_t w)
{
    const uint32_t k = m_finished[w]; // the iteration to start
    const bool bounded = m_config.stalenessBound != AsyncPsConfig::kAsp;
    if (bounded && k - SlowestFinished() > m_config.stalenessBound)
    {
        if (!m_waiting[w])
        {
            m_waiting[w] = true;
            m_waitSince[w] = Simulator::Now();
        }
        return; // released when the slowest worker finishes an iteration
    }
    if (m_waiting[w])
    {
        m_waiting[w] = false;
        m_blocked[w] += Simulator::Now() - m_waitSince[w];
    }
    m_iteration[w] = k;
    const double factor = static_cast<int64_t>(w) == m_config.straggler ? m_config.stragglerFactor
                                                                        : 1.0;
    Simulator::Schedule(
        Seconds(m_config.compute.GetSeconds() * factor), &AsyncPsJob::Push, this, w);
}

void
AsyncPsJob::Push(uint32_t w)
{
    m_repliesLeft[w] = m_config.servers;
    m_computedOn[w].push_back(m_seen[w]);
    if (m_norms)
    {
        // The gradient is computed now, on the model it pulled: the scheduler knows its
        // norm from the request on.
        m_normOf[w] = m_norms->Norms(w, m_iteration[w], m_seen[w]);
    }
    m_appliedThisRound[w] = false;
    m_replyPosted[w] = false;
    m_gotReply[w] = false;
    for (uint32_t s = 0; s < m_config.servers; ++s)
    {
        const Message m{Kind::PUSH, w, s, m_iteration[w], m_seen[w][s], kSingle};
        if (m_config.policy == AsyncPsConfig::PushPolicy::FAIR)
        {
            Post(w, ServerOf(s), m);
        }
        else if (m_config.networkScheduler)
        {
            Post(w, ServerOf(s), Message{Kind::REQUEST, w, s, m.iteration, m.version, kSingle});
        }
        else
        {
            m_pending[s].push_back({w, m.iteration, m.version, Simulator::Now(), kSingle});
        }
    }
    ScheduleAll();
}

void
AsyncPsJob::Gather(uint32_t s)
{
    // The link is now reserved by a grant: every idle request still in the batch waits at
    // least one slot. A request already beyond the delay bound is left to be dropped, not
    // moved; a busy worker's link is pushing elsewhere and cannot carry a gather.
    std::deque<Request>& batch = m_pending[s];
    const bool bounded = m_config.delayBound != AsyncPsConfig::kAsp;
    std::vector<Request> parts;
    std::deque<Request> rest;
    for (const Request& r : batch)
    {
        const bool stale = bounded && m_version[s] - r.version > m_config.delayBound;
        if (r.group == kSingle && !m_workerBusy[r.worker] && !stale)
        {
            parts.push_back(r);
        }
        else
        {
            rest.push_back(r);
        }
    }
    if (parts.size() < 2)
    {
        return;
    }
    batch = rest;
    // The aggregator pushes the combined update: the fastest link (SJF), ties the earliest;
    // or, as in the paper, a constituent at random.
    const Request* agg = &parts.front();
    if (m_config.randomAggregator)
    {
        agg = &parts[m_aggregatorRng() % parts.size()];
    }
    else
    {
        for (const Request& p : parts)
        {
            if (Rate(p.worker) > Rate(agg->worker) ||
                (Rate(p.worker) == Rate(agg->worker) && p.at < agg->at))
            {
                agg = &p;
            }
        }
    }
    const uint32_t id = static_cast<uint32_t>(m_aggregates.size());
    Time at = parts.front().at;
    for (const Request& p : parts)
    {
        at = std::min(at, p.at);
    }
    const uint32_t aggregator = agg->worker;
    std::stable_partition(
        parts.begin(), parts.end(), [&](const Request& p) { return p.worker == aggregator; });
    // The k - 1 partial sums travel up a binomial tree rooted at the aggregator (index 0):
    // part i sends to i with its lowest set bit cleared, once the parts below it arrived.
    // Each round every receiver takes one gather, so the k - 1 gathers take ceil(log2 k)
    // transfer times instead of converging on the aggregator's link at once (an incast).
    const uint32_t k = static_cast<uint32_t>(parts.size());
    std::vector<uint32_t> pending(k, 0);
    for (uint32_t i = 1; i < k; ++i)
    {
        ++pending[i & (i - 1)];
        ++pending[i];                         // and its order to take part
        m_workerBusy[parts[i].worker] = true; // its link will carry its gather
    }
    m_aggregates.push_back({s, aggregator, parts, pending, at});
    for (uint32_t i = 1; i < k; ++i)
    {
        if (m_config.networkScheduler)
        {
            const Request& p = parts[i];
            Post(ServerOf(s),
                 p.worker,
                 Message{Kind::GATHER_ORDER, p.worker, s, p.iteration, p.version, id});
        }
        else
        {
            GatherStep(id, i);
        }
    }
}

uint32_t
AsyncPsJob::PartIndex(const Aggregate& g, uint32_t worker)
{
    for (uint32_t i = 0; i < g.parts.size(); ++i)
    {
        if (g.parts[i].worker == worker)
        {
            return i;
        }
    }
    NS_ABORT_MSG("AsyncPsJob: worker " << worker << " is no part of a combined update");
    return 0;
}

void
AsyncPsJob::GatherStep(uint32_t id, uint32_t i)
{
    Aggregate& g = m_aggregates[id];
    if (--g.pending[i] > 0)
    {
        return;
    }
    if (i > 0)
    {
        const Request& p = g.parts[i];
        Post(p.worker,
             g.parts[i & (i - 1)].worker,
             Message{Kind::GATHER, p.worker, g.shard, p.iteration, p.version, id});
        return;
    }
    // Every part summed at the aggregator: the combined update asks for its slot.
    if (m_config.networkScheduler)
    {
        Post(
            g.aggregator, ServerOf(g.shard), Message{Kind::READY, g.aggregator, g.shard, 0, 0, id});
    }
    else
    {
        m_pending[g.shard].push_back({g.aggregator, 0, 0, g.at, id});
    }
}

void
AsyncPsJob::ServeModel(uint32_t s, uint32_t w, uint32_t iteration)
{
    if (m_config.replicaDivergence == 0 || Promoted(s))
    {
        Post(ServerOf(s), w, Message{Kind::REPLY, w, s, iteration, m_version[s], kSingle});
        return;
    }
    // The model leaves from the replica: the server's link carries a 64 B order instead of
    // W/S bytes. Orders and forwards share the server -> replica queue pair (FIFO), so the
    // replica serves at least the version forwarded before this order.
    Post(ServerOf(s), ModelHost(s), Message{Kind::SERVE, w, s, iteration, 0, kSingle});
}

void
AsyncPsJob::Replicate(uint32_t s)
{
    if (m_config.replicaDivergence == 0 || Promoted(s))
    {
        return;
    }
    // Forward one combined delta (W/S bytes, whatever the number of updates it sums) only
    // when the replica fell D versions behind: floor(U / D) forwards for U single updates.
    // With ackFromReplica every update goes to the replica before its model is served.
    const uint64_t divergence = m_version[s] - m_forwarded[s];
    m_maxDivergence = std::max(m_maxDivergence, divergence);
    if (divergence < m_config.replicaDivergence && !m_config.ackFromReplica)
    {
        return;
    }
    m_forwarded[s] = m_version[s];
    ++m_forwards;
    m_replicaSyncBytes += ShardBytes(s);
    Post(ServerOf(s), ModelHost(s), Message{Kind::FORWARD, 0, s, 0, m_version[s], kSingle});
}

uint64_t
AsyncPsJob::MessageBytes(const Message& m) const
{
    switch (m.kind)
    {
    case Kind::PULL_REQUEST:
    case Kind::SERVE:
        return kPullRequestBytes;
    case Kind::REQUEST:
    case Kind::GRANT:
    case Kind::GATHER_ORDER:
    case Kind::READY:
        return kControlBytes;
    default:
        return ShardBytes(m.shard);
    }
}

void
AsyncPsJob::Post(uint32_t srcHost, uint32_t dstHost, const Message& m)
{
    const uint64_t bytes = MessageBytes(m);
    if (m.kind == Kind::REQUEST || m.kind == Kind::GRANT || m.kind == Kind::GATHER_ORDER ||
        m.kind == Kind::READY)
    {
        m_controlBytes += bytes;
    }
    auto isServer = [&](uint32_t h) {
        return h >= m_config.workers && h < m_config.workers + m_config.servers;
    };
    if (isServer(srcHost) || isServer(dstHost))
    {
        m_serverBytes += bytes;
    }
    else if (srcHost < m_config.workers && dstHost < m_config.workers)
    {
        m_gatherBytes += bytes;
    }
    if (m.kind == Kind::REPLY && m.shard == 0)
    {
        m_replyPosted[m.worker] = true;
    }
    m_net.Posted(srcHost, dstHost, bytes);
    m_mail.Post(srcHost, dstHost, m, bytes);
}

void
AsyncPsJob::Apply(const Message& m)
{
    // The server applies the update now: its staleness is the number of updates the shard
    // took since the version the worker computed on.
    uint64_t& version = m_version[m.shard];
    if (m.shard == 0)
    {
        m_pushInFlight[m.worker] = false;
        m_appliedThisRound[m.worker] = true;
    }
    if (m.group == kSingle)
    {
        m_updates.push_back(
            {m.worker, m.iteration, m.shard, version - m.version, Simulator::Now()});
        ++version;
        Follow(m.worker, m.iteration, m.shard);
        Replicate(m.shard);
        ServeModel(m.shard, m.worker, m.iteration);
        return;
    }
    // A combined update of k constituents is k gradients added to the model at once:
    // each has the staleness it would have had alone at this instant (updates applied
    // since the version it was computed on), and the version advances by k, not 1, since
    // staleness counts gradients the model took, not messages — the next update's delay
    // must not depend on whether the k arrived summed or one by one. Version = updates
    // applied stays an invariant, so every constituent is visibly applied exactly once.
    const Aggregate& g = m_aggregates[m.group];
    const uint64_t before = version;
    for (const Request& p : g.parts)
    {
        m_updates.push_back({p.worker, p.iteration, m.shard, before - p.version, Simulator::Now()});
        ++version;
        Follow(p.worker, p.iteration, m.shard);
    }
    m_aggregated += g.parts.size();
    ++m_combinedPushes;
    Replicate(m.shard);
    for (const Request& p : g.parts)
    {
        ServeModel(m.shard, p.worker, p.iteration);
    }
}

void
AsyncPsJob::Follow(uint32_t w, uint32_t k, uint32_t s)
{
    if (m_norms)
    {
        m_norms->Applied(w, k, s, m_computedOn[w][k]);
    }
    if (m_config.replicaDivergence > 0 && !Promoted(s))
    {
        m_maxReplicaLag = std::max(m_maxReplicaLag, m_version[s] - m_replicaVersion[s]);
    }
}

void
AsyncPsJob::Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp)
{
    Message m = m_mail.Take(srcHost, dstHost, qp);
    m_net.Delivered(srcHost, dstHost, MessageBytes(m));
    const uint32_t dead = m_config.workers; // shard 0's first server host
    if (m_failed && (srcHost == dead || dstHost == dead))
    {
        return; // died with the host (Fail() resumed whoever waited for it)
    }
    switch (m.kind)
    {
    case Kind::PULL_REQUEST:
    case Kind::SERVE:
    {
        // The host holding the model answers with its copy: the server's version, or the
        // replica's, which lags by the updates not forwarded yet.
        const uint64_t v = ModelHost(m.shard) != ServerOf(m.shard) ? m_replicaVersion[m.shard]
                                                                   : m_version[m.shard];
        Post(dstHost, m.worker, Message{Kind::REPLY, m.worker, m.shard, m.iteration, v, kSingle});
        return;
    }
    case Kind::FORWARD:
        m_replicaVersion[m.shard] = m.version;
        return;
    case Kind::PUSH:
        Apply(m);
        if (m_config.policy == AsyncPsConfig::PushPolicy::MLFABRIC)
        {
            m_slots[m.shard].back().arrival = Simulator::Now();
            m_reserved[m.shard] = false;
            m_workerBusy[m.worker] = false;
            ScheduleAll();
        }
        return;
    case Kind::REQUEST:
        m_pending[m.shard].push_back({m.worker, m.iteration, m.version, Simulator::Now(), kSingle});
        ScheduleAll();
        return;
    case Kind::GRANT:
        m.kind = Kind::PUSH;
        Post(dstHost, ServerOf(m.shard), m);
        return;
    case Kind::GATHER_ORDER:
        GatherStep(m.group, PartIndex(m_aggregates[m.group], dstHost));
        return;
    case Kind::GATHER:
        m_workerBusy[srcHost] = false;
        GatherStep(m.group, PartIndex(m_aggregates[m.group], dstHost));
        ScheduleAll();
        return;
    case Kind::READY:
        m_pending[m.shard].push_back({m.worker, 0, 0, m_aggregates[m.group].at, m.group});
        ScheduleAll();
        return;
    case Kind::REPLY:
        break;
    }
    const uint32_t w = m.worker;
    m_seen[w][m.shard] = m.version;
    if (m.shard == 0)
    {
        m_gotReply[w] = true;
    }
    if (--m_repliesLeft[w] > 0)
    {
        return;
    }
    m_iterationEnds[w].push_back(Simulator::Now());
    const uint32_t slowestBefore = SlowestFinished();
    ++m_finished[w];
    if (m_finished[w] == m_config.iterations)
    {
        ++m_finishedWorkers;
    }
    else
    {
        TryStart(w);
    }
    if (SlowestFinished() > slowestBefore)
    {
        // The slowest moved on: workers held by the staleness bound may go.
        for (uint32_t v = 0; v < m_config.workers; ++v)
        {
            if (m_waiting[v])
            {
                TryStart(v);
            }
        }
    }
}

} // namespace ns3
