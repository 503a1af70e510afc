// The MLFABRIC push scheduler of AsyncPsJob (see the class comment in async-ps-job.h): per
// shard, which pending push goes next (Pick: the delay tiers, then the shortest completion
// time), its grant, and requests dropped beyond the delay bound.
#include "async-ps-job.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

void
AsyncPsJob::ScheduleAll()
{
    if (m_config.policy == AsyncPsConfig::PushPolicy::FAIR)
    {
        return;
    }
    for (uint32_t s = 0; s < m_config.servers; ++s)
    {
        Schedule(s);
    }
}

void
AsyncPsJob::Schedule(uint32_t s)
{
    std::deque<Request>& batch = m_pending[s];
    const bool bounded = m_config.delayBound != AsyncPsConfig::kAsp;
    while (!m_reserved[s])
    {
        auto best = Pick(s);
        if (best == batch.end())
        {
            return; // nothing, or only workers busy pushing elsewhere
        }
        const Request r = *best;
        batch.erase(best);

        if (r.group == kSingle)
        {
            const uint64_t delay = m_version[s] - r.version;
            if (bounded && delay > m_config.delayBound)
            {
                // Too stale to be worth the link: drop it, the worker gets the model.
                Drop(r.worker, s, r.iteration);
                continue;
            }
            Grant(s, r.worker, Message{Kind::PUSH, r.worker, s, r.iteration, r.version, kSingle});
        }
        else
        {
            // The aggregator still holds the constituents apart until it sends: it leaves
            // out those the delay bound drops now, as the scheduler would drop them singly.
            Aggregate& g = m_aggregates[r.group];
            std::vector<Request> kept;
            for (const Request& p : g.parts)
            {
                if (bounded && m_version[s] - p.version > m_config.delayBound)
                {
                    Drop(p.worker, s, p.iteration);
                }
                else
                {
                    kept.push_back(p);
                }
            }
            g.parts = kept;
            if (g.parts.empty())
            {
                continue;
            }
            Grant(s, g.aggregator, Message{Kind::PUSH, g.aggregator, s, 0, 0, r.group});
        }
        if (m_config.aggregate)
        {
            Gather(s);
        }
    }
}

uint64_t
AsyncPsJob::Oldest(const Request& r) const
{
    if (r.group == kSingle)
    {
        return r.version;
    }
    uint64_t oldest = std::numeric_limits<uint64_t>::max();
    for (const Request& p : m_aggregates[r.group].parts)
    {
        oldest = std::min(oldest, p.version);
    }
    return oldest;
}

int64_t
AsyncPsJob::Slack(uint32_t s, const Request& r) const
{
    return static_cast<int64_t>(m_config.delayBound) -
           static_cast<int64_t>(m_version[s] - Oldest(r));
}

double
AsyncPsJob::NormOf(uint32_t s, const Request& r) const
{
    if (r.group == kSingle)
    {
        return m_normOf[r.worker][s];
    }
    double sum = 0;
    for (const Request& p : m_aggregates[r.group].parts)
    {
        sum += m_normOf[p.worker][s];
    }
    return sum;
}

double
AsyncPsJob::Cost(uint32_t s, const Request& r) const
{
    // Network-aware completion time: with paths, the push's time over the live backlog of
    // every channel of its path (PsNetworkView); without, the shard's bytes at the pushing
    // worker's link rate. A combined update of k carries k updates in one slot: its time
    // per update, 1/k of the push's, is what SJF compares (so it takes the next slot, as
    // the deferred updates it sums were scheduled for, instead of aging past the bound).
    // With norms the slot's time is divided by the gradient norm it carries instead (the
    // sum of its constituents'): the most norm per second of link goes first, so a small
    // update waits until the delay tiers of Pick() take it, a large one overtakes.
    const double time = m_net.Known() ? m_net.CompletionS(r.worker, ServerOf(s), ShardBytes(s))
                                      : 1.0 / Rate(r.worker);
    if (m_norms)
    {
        return time / std::max(NormOf(s, r), 1e-300);
    }
    const double k = r.group == kSingle ? 1.0 : m_aggregates[r.group].parts.size();
    return time / k;
}

std::deque<AsyncPsJob::Request>::iterator
AsyncPsJob::Pick(uint32_t s)
{
    // Among requests of idle workers (a slot is reserved on both ends, so a worker never
    // pushes to two shards at once), in order of precedence:
    //  1. with a delay bound B, a request already beyond it (dropped at once, it takes no
    //     slot), then one with slack 0 (its delay is B now; after one more slot it would
    //     be dropped), earliest first: the bound is held by ordering before dropping, for
    //     a network straggler (slow push, SJF puts it last) as for a compute straggler
    //     (stale on arrival);
    //  2. a request whose delay reached N - 1, the delay of every update when N workers
    //     push in turn (FIFO), earliest first: shortest-job-first alone starves a slow link
    //     while the fast ones keep requesting (MLFabric bounds delay for that reason),
    //     so without a bound SJF may overtake a request only until it is as stale as FIFO
    //     would have made it;
    //  3. shortest job first by Cost(), ties the earliest request.
    std::deque<Request>& batch = m_pending[s];
    const bool bounded = m_config.delayBound != AsyncPsConfig::kAsp;
    const uint64_t fifoDelay = m_config.workers - 1;
    auto tier = [&](const Request& r) {
        const int64_t slack = bounded ? Slack(s, r) : 1;
        if (slack <= 0)
        {
            return slack < 0 ? 0 : 1;
        }
        const uint64_t delay = m_version[s] - (r.group == kSingle ? r.version : Oldest(r));
        return delay >= fifoDelay ? 2 : 3;
    };
    auto best = batch.end();
    int bestTier = 4;
    double bestCost = 0;
    for (auto it = batch.begin(); it != batch.end(); ++it)
    {
        if (m_workerBusy[it->worker])
        {
            continue;
        }
        const int t = tier(*it);
        const double c = t == 3 ? Cost(s, *it) : 0.0;
        const bool better = t < bestTier ||
                            (t == bestTier &&
                             (c < bestCost || (c == bestCost && it->at < best->at)));
        if (better)
        {
            best = it;
            bestTier = t;
            bestCost = c;
        }
    }
    return best;
}

void
AsyncPsJob::Grant(uint32_t s, uint32_t w, const Message& push)
{
    m_reserved[s] = true;
    m_workerBusy[w] = true;
    m_slots[s].push_back({w, Simulator::Now(), Seconds(-1)});
    if (s == 0)
    {
        m_pushInFlight[w] = true;
    }
    if (m_config.networkScheduler)
    {
        Message grant = push;
        grant.kind = Kind::GRANT;
        Post(ServerOf(s), w, grant);
        return;
    }
    Post(w, ServerOf(s), push);
}

void
AsyncPsJob::Drop(uint32_t w, uint32_t s, uint32_t iteration)
{
    ++m_dropped;
    if (m_config.networkScheduler)
    {
        // The request is at the server already: it has the model sent.
        ServeModel(s, w, iteration);
        return;
    }
    Post(w, ModelHost(s), Message{Kind::PULL_REQUEST, w, s, iteration, 0, kSingle});
}

} // namespace ns3
