/*
 * RankPostNotices: over MPI ranks, tells a sync transfer's destination rank what its source
 * rank posted (SyncJob::SetLocalHosts). A receiver tells which transfer a message is by the
 * order its sender posted them on a queue pair (SyncJob, workloads/message-mailbox.h), and
 * across ranks that order and the QP's number exist only on the sender's rank. Each post to
 * a host of another rank sends a notice (source, destination, stripe, transfer, stripes,
 * QP number, post time) through ns-3's MpiInterface::SendPacket to a device added to every
 * host for it; the destination's rank registers the QP with the transport
 * (RoceSyncTransport::AddRemoteQueuePair) and the post with the job (SyncJob::RemotePosted).
 *
 * Timing: the notice arrives at post time + L, L the smallest delay of the cut links of the
 * destination's rank: the engine's lookahead there (DistributedSimulatorImpl), so the
 * receiver's clock is never past it; the message itself reaches the destination later,
 * since it enters that rank through one of those cut links (delay >= L) and takes a frame
 * time to serialize.
 *
 * The same devices carry the ends of iterations (helper/rank-iteration-barrier.h): when a
 * rank delivered every transfer of an iteration that ends at its hosts, it tells every other
 * rank (a notice to that rank's first host, arriving one lookahead later) when; the rank that
 * holds every rank's end begins the next iteration as of the last one. Compiled only where
 * ns-3 has its mpi module (helper/sources.cmake).
 */
#ifndef PARAMSYNC_RANK_POST_NOTICES_H
#define PARAMSYNC_RANK_POST_NOTICES_H

#include "network-builder.h"
#include "rank-iteration-barrier.h"
#include "rank-partition.h"

#include "ns3/nstime.h"
#include "ns3/sync-plan.h"

#include <memory>
#include <vector>

namespace ns3
{

class RoceSyncTransport;
class SyncJob;

/**
 * \brief Notices of sync posts between ranks (see the file comment).
 */
class RankPostNotices
{
  public:
    /// \brief Adds the receiving device to every host of net (on every rank alike).
    RankPostNotices(const PfcNetwork& net,
                    const TopologyGraph& graph,
                    const RankPartition& partition,
                    RoceSyncTransport& transport);
    /**
     * \brief Runs job over the ranks: local hosts only, its remote posts sent as notices,
     * its iterations begun when every rank's end is known (self: this process's rank).
     */
    void Attach(SyncJob& job, const std::vector<bool>& localHosts, uint32_t self);

  private:
    /// \brief Sends the notice of one stripe posted here to a host of another rank.
    void Send(uint32_t srcHost, uint32_t dstHost, uint32_t qp, TransferId id, uint32_t parts);
    /// \brief Sends rank `to` this rank's end of an iteration.
    void SendEnd(uint32_t to, uint32_t iteration, Time end);

    const PfcNetwork& m_net;                         //!< the network
    RoceSyncTransport& m_transport;                  //!< opens and resolves queue pairs
    SyncJob* m_job{nullptr};                         //!< Attach
    uint32_t m_self{0};                              //!< Attach: this process's rank
    std::unique_ptr<RankIterationBarrier> m_barrier; //!< Attach
    std::vector<uint32_t> m_firstHostOf;             //!< by MPI rank: its lowest host rank
    std::vector<uint32_t> m_rankOf;                  //!< by host rank: its MPI rank
    std::vector<Time> m_lookahead;                   //!< by MPI rank: its smallest cut-link delay
    std::vector<uint32_t> m_ifIndex; //!< by host rank: the notice device's interface index
};

} // namespace ns3

#endif // PARAMSYNC_RANK_POST_NOTICES_H
