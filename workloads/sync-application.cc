#include "sync-application.h"

#include "sync-job.h"

#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SyncApplication);

TypeId
SyncApplication::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SyncApplication")
                            .SetParent<Application>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<SyncApplication>();
    return tid;
}

SyncApplication::SyncApplication() = default;
SyncApplication::~SyncApplication() = default;

void
SyncApplication::Setup(SyncJob* job, ParticipantIndex me, std::vector<TransferId> outgoing)
{
    m_job = job;
    m_me = me;
    m_outgoing = std::move(outgoing);
    m_waiters.clear();
    const auto& transfers = job->Plan().transfers;
    for (TransferId t : m_outgoing)
    {
        for (TransferId dep : transfers[t].deps)
        {
            m_waiters[dep].push_back(t);
        }
    }
}

void
SyncApplication::BeginIteration()
{
    for (auto& e : m_pending)
    {
        e.Cancel();
    }
    m_pending.clear();
    m_remaining.clear();
    const auto& transfers = m_job->Plan().transfers;
    for (TransferId t : m_outgoing)
    {
        m_remaining[t] = static_cast<uint32_t>(transfers[t].deps.size());
    }
    for (TransferId t : m_outgoing)
    {
        if (transfers[t].deps.empty())
        {
            Ready(t);
        }
    }
}

void
SyncApplication::DependencyDone(TransferId dep)
{
    auto it = m_waiters.find(dep);
    if (it == m_waiters.end())
    {
        return;
    }
    for (TransferId t : it->second)
    {
        uint32_t& left = m_remaining[t];
        NS_ABORT_MSG_IF(left == 0, "transfer " << t << " dependency " << dep << " done twice");
        if (--left == 0)
        {
            Ready(t);
        }
    }
}

void
SyncApplication::Ready(TransferId t)
{
    const Transfer& tr = m_job->Plan().transfers[t];
    Time ready = m_job->DataReady(m_me, tr.offset, tr.bytes);
    if (ready > Simulator::Now())
    {
        m_pending.push_back(
            Simulator::Schedule(ready - Simulator::Now(), &SyncJob::Post, m_job, t));
    }
    else
    {
        m_job->Post(t);
    }
}

void
SyncApplication::StartApplication()
{
}

void
SyncApplication::StopApplication()
{
    for (auto& e : m_pending)
    {
        e.Cancel();
    }
    m_pending.clear();
}

void
SyncApplication::DoDispose()
{
    m_job = nullptr;
    Application::DoDispose();
}

} // namespace ns3
