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
 * time to serialize. Compiled only where ns-3 has its mpi module (helper/sources.cmake).
 */
#ifndef PARAMSYNC_RANK_POST_NOTICES_H
#define PARAMSYNC_RANK_POST_NOTICES_H

#include "network-builder.h"
#include "rank-partition.h"

#include "ns3/nstime.h"
#include "ns3/sync-plan.h"

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
    /// \brief Runs job over the ranks: local hosts only, its remote posts sent as notices.
    void Attach(SyncJob& job, const std::vector<bool>& localHosts);

  private:
    /// \brief Sends the notice of one stripe posted here to a host of another rank.
    void Send(uint32_t srcHost, uint32_t dstHost, uint32_t qp, TransferId id, uint32_t parts);

    const PfcNetwork& m_net;         //!< the network
    RoceSyncTransport& m_transport;  //!< opens and resolves queue pairs
    SyncJob* m_job{nullptr};         //!< Attach
    std::vector<uint32_t> m_rankOf;  //!< by host rank: its MPI rank
    std::vector<Time> m_lookahead;   //!< by MPI rank: its smallest cut-link delay
    std::vector<uint32_t> m_ifIndex; //!< by host rank: the notice device's interface index
};

} // namespace ns3

#endif // PARAMSYNC_RANK_POST_NOTICES_H
