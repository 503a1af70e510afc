#include "sync-job.h"

#include "sync-application.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

SyncJob::SyncJob(const SyncPlan& plan, std::vector<GradientTensor> tensors, SyncJobConfig config)
    : m_plan(plan),
      m_tensors(std::move(tensors)),
      m_config(config)
{
    NS_ABORT_MSG_IF(m_config.iterations == 0, "SyncJob needs at least one iteration");
    m_timeIndex.assign(m_plan.transfers.size(), 0);
    m_expected = static_cast<uint32_t>(m_plan.transfers.size());
    m_partsUndelivered.assign(m_plan.transfers.size(), 0);
    m_partsUnsent.assign(m_plan.transfers.size(), 0);
}

SyncJob::~SyncJob() = default;

void
SyncJob::SetTransport(SyncTransport* transport)
{
    m_transport = transport;
    m_mail.SetTransport(transport);
}

void
SyncJob::SetLocalHosts(std::vector<bool> local, RemotePost onRemotePost)
{
    m_localHosts = std::move(local);
    m_onRemotePost = std::move(onRemotePost);
    m_expected = 0;
    for (const Transfer& t : m_plan.transfers)
    {
        m_expected += m_localHosts[m_plan.hostOf[t.dst]] ? 1 : 0;
    }
}

void
SyncJob::RemotePosted(uint32_t srcHost,
                      uint32_t dstHost,
                      uint32_t qp,
                      TransferId id,
                      uint32_t parts,
                      uint32_t iteration,
                      Time start)
{
    // A notice of the next iteration may arrive before this rank learned that the current
    // one ended everywhere; every transfer of the current one was delivered by then, so its
    // counters are free.
    if (qp == 0)
    {
        m_timeIndex[id] = m_times.size();
        m_times.push_back({iteration, id, start, Seconds(-1)});
        m_partsUndelivered[id] = parts;
    }
    m_remote[std::make_tuple(srcHost, dstHost, qp)].push_back(id);
}

void
SyncJob::SetIterationBarrier(IterationEnd onLocalEnd)
{
    m_onLocalEnd = std::move(onLocalEnd);
}

void
SyncJob::BeginNextIteration(Time start)
{
    NS_ABORT_MSG_IF(start > Simulator::Now(), "SyncJob: an iteration begun in the future");
    NS_ABORT_MSG_IF(m_finishedIterations != m_iteration + 1 ||
                        m_finishedIterations >= m_config.iterations,
                    "SyncJob: next iteration begun before this rank ended the current one");
    ++m_iteration;
    BeginIteration(start);
}

void
SyncJob::InstallApplications(const std::function<Ptr<Node>(uint32_t)>& nodeOfHost)
{
    m_apps.clear();
    std::vector<std::vector<TransferId>> outgoing(m_plan.ParticipantCount());
    for (const Transfer& t : m_plan.transfers)
    {
        if (t.src < outgoing.size()) // a plan is checked first; a bad one sends nothing
        {
            outgoing[t.src].push_back(t.id);
        }
    }
    for (ParticipantIndex p = 0; p < m_plan.ParticipantCount(); ++p)
    {
        Ptr<SyncApplication> app = CreateObject<SyncApplication>();
        app->Setup(this, p, std::move(outgoing[p]));
        nodeOfHost(m_plan.hostOf[p])->AddApplication(app);
        m_apps.push_back(app);
    }
}

void
SyncJob::Start(Time at)
{
    NS_ABORT_MSG_IF(m_apps.size() != m_plan.ParticipantCount(),
                    "SyncJob::InstallApplications must come before Start");
    NS_ABORT_MSG_IF(!m_localHosts.empty() && m_config.iterations > 1 && !m_onLocalEnd,
                    "SyncJob over ranks: more than one iteration needs SetIterationBarrier");
    Simulator::Schedule(at, [this]() { BeginIteration(Simulator::Now()); });
}

void
SyncJob::BeginIteration(Time start)
{
    m_iterationStart = start;
    m_doneInIteration = 0;
    for (auto& app : m_apps)
    {
        app->BeginIteration();
    }
    if (m_expected == 0 && !m_plan.transfers.empty())
    {
        // Over ranks, no transfer ends at this rank's hosts: its share is done (its end, the
        // iteration's start, is no later than any other rank's).
        m_gst.push_back(Seconds(0));
        m_iterationTime.push_back(Seconds(0));
        ++m_finishedIterations;
        if (m_finishedIterations < m_config.iterations)
        {
            m_onLocalEnd(m_iteration, m_iterationStart);
        }
        return;
    }
    if (m_plan.transfers.empty())
    {
        // Nothing to synchronize (one worker): the iteration is its compute.
        Time end = Seconds(0);
        for (ParticipantIndex w = 0; w < m_plan.workers; ++w)
        {
            end = std::max(end, DataReady(w, 0, m_plan.gradientBytes));
        }
        Simulator::Schedule(end - Simulator::Now(), [this]() {
            m_gst.push_back(Seconds(0));
            m_iterationTime.push_back(Simulator::Now() - m_iterationStart);
            if (++m_finishedIterations < m_config.iterations)
            {
                BeginIteration(Simulator::Now());
            }
        });
    }
}

Time
SyncJob::DataReady(ParticipantIndex p, uint64_t offset, uint64_t bytes) const
{
    if (p >= m_plan.workers)
    {
        return m_iterationStart; // a dedicated server has no gradient of its own
    }
    double compute = m_config.compute.GetSeconds();
    if (static_cast<int64_t>(p) == m_config.straggler)
    {
        compute *= m_config.stragglerFactor;
    }
    if (!m_config.overlap || m_plan.gradientBytes == 0)
    {
        return m_iterationStart + Seconds(compute);
    }
    // End offset of the last tensor the range touches: backprop emits whole tensors.
    const uint64_t end = offset + bytes;
    uint64_t tensorEnd = m_plan.gradientBytes;
    for (const auto& t : m_tensors)
    {
        if (t.offset + t.bytes >= end)
        {
            tensorEnd = t.offset + t.bytes;
            break;
        }
    }
    const double f = m_config.forwardFraction;
    const double share = f + (1 - f) * static_cast<double>(tensorEnd) / m_plan.gradientBytes;
    return m_iterationStart + Seconds(compute * std::min(1.0, share));
}

void
SyncJob::Post(TransferId id)
{
    NS_ABORT_MSG_IF(!m_transport, "SyncJob has no transport");
    const Transfer& t = m_plan.transfers[id];
    if (!m_localHosts.empty() && !m_localHosts[m_plan.hostOf[t.src]])
    {
        return; // another rank's host posts it
    }
    m_timeIndex[id] = m_times.size();
    m_times.push_back({m_iteration, id, Simulator::Now(), Seconds(-1)});
    const uint32_t srcHost = m_plan.hostOf[t.src];
    const uint32_t dstHost = m_plan.hostOf[t.dst];
    const uint32_t iteration = m_iteration;
    if (srcHost == dstHost)
    {
        // Co-located participants (e.g. a PS shard on a worker's host): a memory copy.
        Simulator::ScheduleNow([this, id, iteration]() {
            if (iteration == m_iteration)
            {
                m_apps[m_plan.transfers[id].src]->DependencyDone(id);
                Complete(id);
            }
        });
        return;
    }
    // Stripe the transfer over the queue pairs to the peer, one per equal-cost path, in
    // equal parts (the first `bytes mod n` parts one byte longer): the fluid estimator
    // splits a transfer equally over the ECMP routes, and a whole transfer on one hashed
    // path would collide where the fluid ideal assumes the split.
    const uint32_t qps = std::max(1u, m_transport->QueuePairs(srcHost, dstHost));
    const uint64_t parts = std::max<uint64_t>(1, std::min<uint64_t>(qps, t.bytes));
    m_partsUndelivered[id] = static_cast<uint32_t>(parts);
    m_partsUnsent[id] = static_cast<uint32_t>(parts);
    for (uint32_t qp = 0; qp < parts; ++qp)
    {
        const uint64_t bytes = t.bytes / parts + (qp < t.bytes % parts ? 1 : 0);
        m_mail.Post(srcHost, dstHost, id, bytes, qp, [this, id, iteration]() {
            // A sender completion of an earlier iteration must not count in this one.
            if (iteration == m_iteration && --m_partsUnsent[id] == 0)
            {
                m_apps[m_plan.transfers[id].src]->DependencyDone(id);
            }
        });
        if (!m_localHosts.empty() && !m_localHosts[dstHost])
        {
            m_onRemotePost(srcHost, dstHost, qp, id, static_cast<uint32_t>(parts));
        }
    }
}

void
SyncJob::Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp)
{
    TransferId id;
    if (!m_localHosts.empty() && !m_localHosts[srcHost])
    {
        std::deque<TransferId>& posted = m_remote[std::make_tuple(srcHost, dstHost, qp)];
        NS_ABORT_MSG_IF(posted.empty(), "SyncJob: a message from another rank with no notice");
        id = posted.front();
        posted.pop_front();
    }
    else
    {
        id = m_mail.Take(srcHost, dstHost, qp);
    }
    if (--m_partsUndelivered[id] == 0)
    {
        Complete(id);
    }
}

void
SyncJob::Complete(TransferId id)
{
    m_times[m_timeIndex[id]].end = Simulator::Now();
    ++m_doneInIteration;
    m_apps[m_plan.transfers[id].dst]->DependencyDone(id);
    if (m_doneInIteration == m_expected)
    {
        EndIterationHere();
    }
}

void
SyncJob::EndIterationHere()
{
    Time lastBackprop = m_iterationStart;
    for (ParticipantIndex w = 0; w < m_plan.workers; ++w)
    {
        lastBackprop = std::max(lastBackprop, DataReady(w, 0, m_plan.gradientBytes));
    }
    m_gst.push_back(Simulator::Now() - lastBackprop);
    m_iterationTime.push_back(Simulator::Now() - m_iterationStart);
    ++m_finishedIterations;
    if (m_finishedIterations == m_config.iterations)
    {
        return;
    }
    if (m_onLocalEnd)
    {
        // Over ranks: the next iteration begins when every rank's end is known.
        m_onLocalEnd(m_iteration, Simulator::Now());
        return;
    }
    ++m_iteration;
    BeginIteration(Simulator::Now());
}

} // namespace ns3
