/*
 * SyncApplication: the part of a SyncPlan that one participant (worker or dedicated server)
 * executes. It posts each of its outgoing transfers when every dependency completed as
 * seen locally (a dependency this participant sent: its queue pair reported completion; a
 * dependency it received: its last byte arrived) and, for a worker, when backprop has
 * produced the data of the transfer's range. The SyncJob owns the plan and the clock.
 */
#ifndef PARAMSYNC_SYNC_APPLICATION_H
#define PARAMSYNC_SYNC_APPLICATION_H

#include "sync-plan.h"

#include "ns3/application.h"
#include "ns3/event-id.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class SyncJob;

/**
 * \brief One participant's share of a plan, as an ns-3 Application.
 */
class SyncApplication : public Application
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    SyncApplication();
    ~SyncApplication() override;

    /**
     * \brief Binds the application to its job and participant.
     * \param job the job (outlives the application's run)
     * \param me this participant
     * \param outgoing the ids of the transfers me sends, in id order (the job sorts the
     *        plan by source once: each application scanning the whole plan cost
     *        participants x transfers, 2 G steps for a 1,024-host ring)
     */
    void Setup(SyncJob* job, ParticipantIndex me, std::vector<TransferId> outgoing);
    /// \brief This participant.
    ParticipantIndex
    Participant() const
    {
        return m_me;
    }
    /// \brief Resets the dependency counters and posts what is ready (job calls it).
    void BeginIteration();
    /// \brief Transfer dep completed as seen by this participant (job calls it).
    void DependencyDone(TransferId dep);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// \brief All deps of transfer t are done: post it once its data exists.
    void Ready(TransferId t);

    SyncJob* m_job{nullptr};                              //!< owner
    ParticipantIndex m_me{0};                             //!< participant
    std::vector<TransferId> m_outgoing;                   //!< transfers this participant sends
    std::unordered_map<TransferId, uint32_t> m_remaining; //!< outgoing -> deps not yet done
    std::unordered_map<TransferId, std::vector<TransferId>> m_waiters; //!< dep -> outgoing
    std::vector<EventId> m_pending; //!< posts waiting for backprop
};

} // namespace ns3

#endif // PARAMSYNC_SYNC_APPLICATION_H
