#include "async-ps-job.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

AsyncPsJob::AsyncPsJob(const AsyncPsConfig& config)
    : m_config(config)
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
    if (!config.workerRateBps.empty() && config.workerRateBps.size() != n)
    {
        throw std::invalid_argument("AsyncPsJob: " + std::to_string(config.workerRateBps.size()) +
                                    " worker rates for " + std::to_string(n) + " workers");
    }
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
    for (uint32_t s = 0; s < m_config.servers; ++s)
    {
        if (m_config.policy == AsyncPsConfig::PushPolicy::FAIR)
        {
            Post(w, m_config.workers + s, Message{Kind::PUSH, w, s, m_iteration[w], m_seen[w][s]});
            continue;
        }
        m_pending[s].push_back({w, m_iteration[w], m_seen[w][s], Simulator::Now()});
    }
    ScheduleAll();
}

void
AsyncPsJob::ScheduleAll()
{
    for (uint32_t s = 0; s < m_config.servers; ++s)
    {
        Schedule(s);
    }
}

void
AsyncPsJob::Schedule(uint32_t s)
{
    std::deque<Request>& batch = m_pending[s];
    while (!m_reserved[s])
    {
        // Shortest job first by network-aware completion time (the shard's bytes at the
        // pushing worker's link rate), among workers whose own link is free: a slot is
        // reserved on both ends, so a worker never pushes to two shards at once.
        auto rate = [&](uint32_t w) {
            return m_config.workerRateBps.empty() ? 1.0 : m_config.workerRateBps[w];
        };
        auto best = batch.end();
        for (auto it = batch.begin(); it != batch.end(); ++it)
        {
            if (m_workerBusy[it->worker])
            {
                continue;
            }
            if (best == batch.end())
            {
                best = it;
                continue;
            }
            const double t = 1.0 / rate(it->worker);
            const double tBest = 1.0 / rate(best->worker);
            if (t < tBest || (t == tBest && it->at < best->at))
            {
                best = it;
            }
        }
        if (best == batch.end())
        {
            return; // nothing, or only workers busy pushing elsewhere
        }
        const Request r = *best;
        batch.erase(best);
        const uint64_t delay = m_version[s] - r.version;
        const uint32_t server = m_config.workers + s;
        if (m_config.delayBound != AsyncPsConfig::kAsp && delay > m_config.delayBound)
        {
            // Too stale to be worth the link: drop it and let the worker fetch the model.
            ++m_dropped;
            Post(r.worker, server, Message{Kind::PULL_REQUEST, r.worker, s, r.iteration, 0});
            continue;
        }
        m_reserved[s] = true;
        m_workerBusy[r.worker] = true;
        m_slots[s].push_back({r.worker, Simulator::Now(), Seconds(-1)});
        Post(r.worker, server, Message{Kind::PUSH, r.worker, s, r.iteration, r.version});
    }
}

void
AsyncPsJob::Post(uint32_t srcHost, uint32_t dstHost, const Message& m)
{
    // Every message has a server at one end: the mailbox's bytes are the servers' traffic.
    m_mail.Post(srcHost,
                dstHost,
                m,
                m.kind == Kind::PULL_REQUEST ? kPullRequestBytes : ShardBytes(m.shard));
}

void
AsyncPsJob::Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp)
{
    const Message m = m_mail.Take(srcHost, dstHost, qp);
    if (m.kind == Kind::PULL_REQUEST)
    {
        Post(dstHost,
             m.worker,
             Message{Kind::REPLY, m.worker, m.shard, m.iteration, m_version[m.shard]});
        return;
    }
    if (m.kind == Kind::PUSH)
    {
        // The server applies the update now: its staleness is the number of updates the
        // shard took since the version the worker computed on.
        uint64_t& version = m_version[m.shard];
        m_updates.push_back(
            {m.worker, m.iteration, m.shard, version - m.version, Simulator::Now()});
        ++version;
        Post(dstHost, m.worker, Message{Kind::REPLY, m.worker, m.shard, m.iteration, version});
        if (m_config.policy == AsyncPsConfig::PushPolicy::MLFABRIC)
        {
            m_slots[m.shard].back().arrival = Simulator::Now();
            m_reserved[m.shard] = false;
            m_workerBusy[m.worker] = false;
            ScheduleAll();
        }
        return;
    }
    const uint32_t w = m.worker;
    m_seen[w][m.shard] = m.version;
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
