/*
 * SyncJob: one training job's gradient synchronization executed on a simulated network —
 * the plan, one SyncApplication per participant, the iteration clock (compute, layer-wise
 * overlap, a straggler) and the measurements (GST and iteration time per iteration, every
 * transfer's start and end).
 *
 * Bytes move through a SyncTransport (helper/ implements it over RoceNic queue pairs), so
 * the job logic is testable with any transport. Messages between two hosts on one queue
 * pair arrive in posting order (RC semantics); the job keeps, per (src host, dst host,
 * queue pair), the FIFO of posted transfers and so tells the receiver which transfer a
 * message was — as a real receiver knows from the order of its posted receives.
 *
 * Timing model of an iteration that starts at T:
 *  - worker w finishes backprop at T + compute_w (compute_w = --compute, times the
 *    straggler factor for the straggler);
 *  - without overlap a worker's data exists once backprop is done; with overlap, byte b of
 *    the flattened gradient (backprop order) exists at T + compute_w * (f + (1 - f) * e/W),
 *    e the end offset of the tensor holding b, f = ForwardFraction (forward pass share,
 *    1/3 by default: backward costs about twice the forward pass);
 *  - a transfer from a worker starts once its deps completed AND the worker's own data of
 *    its range exists (the worker contributes its own gradient); dedicated servers only
 *    wait for deps;
 *  - GST = (last transfer delivered) - (last worker done with backprop), the definition
 *    of ARCHITECTURE.md; iteration time = last transfer delivered - T; the next iteration starts
 *    when the last transfer of this one is delivered (over MPI ranks, where no rank sees
 *    that delivery alone: as of it, once known; SetIterationBarrier).
 */
#ifndef PARAMSYNC_SYNC_JOB_H
#define PARAMSYNC_SYNC_JOB_H

#include "message-mailbox.h"
#include "model-profile.h"
#include "sync-plan.h"
#include "sync-transport.h"

#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class SyncApplication;

/// \brief What one SyncJob runs.
struct SyncJobConfig
{
    uint32_t iterations{1};          //!< synchronizations to run back to back
    Time compute{Seconds(0)};        //!< forward + backward time per iteration
    bool overlap{false};             //!< layer-wise overlap of sync with backprop
    int64_t straggler{-1};           //!< worker that computes slower, -1 none
    double stragglerFactor{1.0};     //!< its compute multiplier
    double forwardFraction{1.0 / 3}; //!< forward share of the compute time (overlap only)
};

/// \brief Start and end of one executed transfer.
struct SyncTransferTimes
{
    uint32_t iteration; //!< iteration
    TransferId id;      //!< transfer
    Time start;         //!< posted
    Time end;           //!< last byte delivered
};

/**
 * \brief Executes a SyncPlan for some iterations and records GST.
 */
class SyncJob : public MessageSink
{
  public:
    /**
     * \param plan the plan (copied)
     * \param tensors the model's tensors in backprop order (for overlap); may be empty
     * \param config iterations, compute, overlap, straggler
     */
    SyncJob(const SyncPlan& plan, std::vector<GradientTensor> tensors, SyncJobConfig config);
    ~SyncJob();

    /// \brief The transport (not owned; must outlive the run).
    void SetTransport(SyncTransport* transport);
    /**
     * \brief Creates one SyncApplication per participant on the node of its host.
     * \param nodeOfHost the ns-3 node of a host rank
     */
    void InstallApplications(const std::function<Ptr<Node>(uint32_t)>& nodeOfHost);
    /// \brief Schedules iteration 0 at `at` (call before Simulator::Run).
    void Start(Time at);

    /// \brief A message's last byte reached dstHost (called by the transport).
    void Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp) override;

    /**
     * \brief Over MPI ranks: the hosts this process simulates (by host rank). The job then
     * runs for them only: it posts the transfers whose source is local and counts the
     * transfers whose destination is local; every dependency a participant waits on is seen
     * at its own host (its sends' completions, its receives' deliveries), so no other rank's
     * state is needed, except which transfer a message from another rank is: the sender's
     * rank reports every post to a remote destination (onRemotePost, one call per stripe)
     * and the destination's rank calls RemotePosted before the message can arrive. GST is
     * then this rank's (last local delivery - last backprop); the whole run's is the max
     * over the ranks. More than one iteration also needs SetIterationBarrier: the next
     * iteration starts at the last delivery on any rank, which no rank sees alone.
     */
    using RemotePost = std::function<void(
        uint32_t srcHost, uint32_t dstHost, uint32_t qp, TransferId id, uint32_t parts)>;
    void SetLocalHosts(std::vector<bool> local, RemotePost onRemotePost);
    /// \brief Over ranks: stripe qp of transfer id of `iteration`, posted at `start` on
    /// another rank, will arrive here on queue pair qp from srcHost (parts: the transfer's
    /// stripes).
    void RemotePosted(uint32_t srcHost,
                      uint32_t dstHost,
                      uint32_t qp,
                      TransferId id,
                      uint32_t parts,
                      uint32_t iteration,
                      Time start);
    /**
     * \brief Over ranks: when every transfer of an iteration that ends at a local host was
     * delivered (or at the iteration's start, when none ends here), the job records this
     * rank's GST and iteration time and calls onLocalEnd(iteration, its last local delivery)
     * instead of beginning the next iteration; whoever learns every rank's end calls
     * BeginNextIteration (helper/rank-iteration-barrier.h). Not called after the last one.
     */
    using IterationEnd = std::function<void(uint32_t iteration, Time localEnd)>;
    void SetIterationBarrier(IterationEnd onLocalEnd);
    /**
     * \brief Over ranks: begins the next iteration as if it had started at `start` (<= now,
     * the last delivery of the previous one on any rank): every time of the timing model is
     * computed from `start`, and a post whose time is already past is made now.
     */
    void BeginNextIteration(Time start);

    /// \brief True when every iteration finished.
    bool
    Finished() const
    {
        return m_finishedIterations == m_config.iterations;
    }
    /// \brief The iteration running (or, over ranks, ended here and not yet begun again).
    uint32_t
    Iteration() const
    {
        return m_iteration;
    }
    /// \brief Iterations finished.
    uint32_t
    FinishedIterations() const
    {
        return m_finishedIterations;
    }
    /// \brief GST of each finished iteration.
    const std::vector<Time>&
    Gst() const
    {
        return m_gst;
    }
    /// \brief Iteration time of each finished iteration.
    const std::vector<Time>&
    IterationTime() const
    {
        return m_iterationTime;
    }
    /// \brief Every executed transfer (completed ones have end >= start).
    const std::vector<SyncTransferTimes>&
    Transfers() const
    {
        return m_times;
    }
    /// \brief Transfers completed in the current iteration (for progress lines).
    uint32_t
    DoneInIteration() const
    {
        return m_doneInIteration;
    }
    /// \brief The plan.
    const SyncPlan&
    Plan() const
    {
        return m_plan;
    }

    // Used by SyncApplication.
    /// \brief Time the data of [offset, offset+bytes) exists at participant p this iteration.
    Time DataReady(ParticipantIndex p, uint64_t offset, uint64_t bytes) const;
    /// \brief Posts transfer id (called by its source's application).
    void Post(TransferId id);

  private:
    /// \brief Begins the current iteration, its clock starting at `start` (<= now).
    void BeginIteration(Time start);
    /// \brief Every transfer of the iteration ending here was delivered: GST, and the next.
    void EndIterationHere();
    /// \brief Transfer id completed at the receiver.
    void Complete(TransferId id);

    SyncPlan m_plan;                                   //!< the plan
    std::vector<GradientTensor> m_tensors;             //!< backprop order
    SyncJobConfig m_config;                            //!< options
    SyncTransport* m_transport{nullptr};               //!< moves bytes
    std::vector<Ptr<SyncApplication>> m_apps;          //!< by participant
    std::vector<std::vector<TransferId>> m_dependents; //!< by transfer: transfers waiting on it
    MessageMailbox<TransferId> m_mail;                 //!< posted stripes, FIFO per queue pair
    std::vector<uint32_t> m_partsUndelivered;          //!< by transfer: stripes not yet delivered
    std::vector<uint32_t> m_partsUnsent;    //!< by transfer: stripes not yet acknowledged
    uint32_t m_iteration{0};                //!< current iteration
    Time m_iterationStart;                  //!< its start
    uint32_t m_doneInIteration{0};          //!< transfers delivered in it
    uint32_t m_finishedIterations{0};       //!< iterations finished
    std::vector<size_t> m_timeIndex;        //!< by transfer: index in m_times (this iteration)
    std::vector<SyncTransferTimes> m_times; //!< every transfer executed
    std::vector<Time> m_gst;                //!< per iteration
    std::vector<Time> m_iterationTime;      //!< per iteration
    std::vector<bool> m_localHosts;         //!< SetLocalHosts; empty: every host
    RemotePost m_onRemotePost;              //!< SetLocalHosts
    IterationEnd m_onLocalEnd;              //!< SetIterationBarrier
    uint32_t m_expected{0};                 //!< transfers ending here per iteration
    /// Over ranks: transfers posted on another rank, by (src host, dst host, stripe QP), in
    /// posting order (the mailbox's counterpart for messages this rank did not post).
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::deque<TransferId>> m_remote;
};

} // namespace ns3

#endif // PARAMSYNC_SYNC_JOB_H
