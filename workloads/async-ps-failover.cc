// AsyncPsJob's failover (see Fail() in async-ps-job.h): shard 0's server dies, its replica
// takes over with the state it holds, and every worker cut off resumes with it.
#include "async-ps-job.h"

#include "ns3/simulator.h"

namespace ns3
{

bool
AsyncPsJob::Acknowledged(uint32_t w, uint32_t k) const
{
    // A finished iteration had all its models back; the current one has its acknowledgment
    // once shard 0's model is at the worker or on its way from a live host (the replica).
    return k < m_finished[w] || m_gotReply[w] || m_replyPosted[w];
}

void
AsyncPsJob::Repush(uint32_t w)
{
    m_pushInFlight[w] = false;
    m_workerBusy[w] = false;
    m_pending[0].push_back(
        {w, m_iteration[w], m_computedOn[w][m_iteration[w]][0], Simulator::Now(), kSingle});
}

void
AsyncPsJob::Fail()
{
    const uint64_t durable = m_replicaVersion[0];
    m_failed = true;
    m_lost = m_version[0] - durable;
    // The lost updates: shard 0's, applied at version durable or later (version before
    // apply = version computed on + delay). An acknowledged one is lost for good (its
    // worker dropped the gradient); the others' workers still hold theirs and push again.
    std::vector<AppliedUpdate> kept;
    std::vector<bool> repush(m_config.workers, false);
    for (const AppliedUpdate& u : m_updates)
    {
        if (u.shard != 0 || m_computedOn[u.worker][u.iteration][0] + u.delay < durable)
        {
            kept.push_back(u);
        }
        else if (Acknowledged(u.worker, u.iteration))
        {
            ++m_lostAcknowledged;
        }
        else
        {
            repush[u.worker] = true;
        }
    }
    m_updates = kept;
    m_version[0] = durable;
    m_forwarded[0] = durable;
    if (m_norms)
    {
        m_norms->Rollback(0, durable);
    }
    // The slot's push, if any, died on the way: the link is free again.
    m_reserved[0] = false;
    for (uint32_t w = 0; w < m_config.workers; ++w)
    {
        if (m_gotReply[w] || m_repliesLeft[w] == 0)
        {
            continue; // not waiting for shard 0
        }
        if (m_pushInFlight[w] || repush[w])
        {
            Repush(w); // its push died on the way, or its applied update with the server
        }
        else if (m_appliedThisRound[w] && !m_replyPosted[w])
        {
            ServeModel(0, w, m_iteration[w]); // its update survived, the serve order died
        }
        // Otherwise its request waits in the batch, or its model (or a dropped update's
        // pull request) is on its way from or to the replica host, which lives on.
    }
    ScheduleAll();
}

} // namespace ns3
