/*
 * RoceSyncTransport: installs a RoceNic on every host of a PfcNetwork and moves the
 * messages of a SyncJob (and of replayed --flows) over its queue pairs — one QP per peer
 * and port of the source host, created on first use and reused. It tells the job when a
 * message's last byte reached the receiver and the sender when its QP completed it.
 * On a source-routed network (PfcNetwork::sourceRoutes) a peer gets one QP per parallel
 * path, each pinned to its path's route id.
 */
#ifndef PARAMSYNC_ROCE_SYNC_TRANSPORT_H
#define PARAMSYNC_ROCE_SYNC_TRANSPORT_H

#include "network-builder.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/resolved-object-factory.h"
#include "ns3/sync-job.h"

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

class RoceNic;
class CongestionControlPreset;
class QueuePair;

/// \brief The NICs' settings a run chooses (the rest are RoceNic attribute defaults).
struct RoceTransportConfig
{
    uint32_t mtu{1000};        //!< RoCE payload bytes per packet (RoceNic Mtu)
    uint8_t priority{3};       //!< PFC priority of lane 0 data (RoceNic Priority)
    Time rto{MilliSeconds(1)}; //!< retransmission timeout (RoceNic RetransmitTimeout)
    std::string cc{"none"};    //!< congestion-control preset (CongestionControlPreset)

    /// \brief The RoceNic factory with mtu, priority and rto set.
    ResolvedObjectFactory NicFactory() const;
    /// \brief \throws std::invalid_argument naming --cc and the presets, for an unknown name
    static void CheckCongestionControl(const std::string& name);
};

/**
 * \brief SyncTransport over RoceNic queue pairs.
 */
class RoceSyncTransport : public SyncTransport
{
  public:
    /// \brief Installs a RoceNic (MTU, priority, timeout, congestion control) per host.
    /// \throws std::invalid_argument for an unknown congestion-control preset
    RoceSyncTransport(const PfcNetwork& net, const RoceTransportConfig& config);
    /// \brief Installs a RoceNic made by nicFactory (its attributes: Mtu, Priority, ...) per
    /// host, with a congestion-control preset applied to each (none: nullptr).
    RoceSyncTransport(const PfcNetwork& net,
                      const ResolvedObjectFactory& nicFactory,
                      const CongestionControlPreset* preset = nullptr);
    ~RoceSyncTransport() override;

    /// \brief The job told of deliveries (may be null: flows only).
    void
    SetJob(MessageSink* job)
    {
        m_job = job;
    }

    uint32_t QueuePairs(uint32_t srcHost, uint32_t dstHost) const override;
    void Send(uint32_t srcHost,
              uint32_t dstHost,
              uint32_t qp,
              uint64_t bytes,
              std::function<void()> onSent) override;

    /**
     * \brief One message of a replayed flow on its own QP; delivered at its last byte. In a
     * run over MPI ranks every rank calls it for every flow (the same QP numbers everywhere,
     * so the receiving rank knows the flow) and only the source's rank sends.
     */
    void SendFlow(uint32_t srcHost,
                  uint32_t dstHost,
                  uint64_t bytes,
                  std::function<void()> delivered);

    /**
     * \brief The hosts this process simulates, by rank (a run over MPI ranks: the rest are
     * other processes'); empty (the default): all.
     */
    void
    SetLocalHosts(std::vector<bool> local)
    {
        m_localHosts = std::move(local);
    }

    /// \brief The number of the sync QP of (srcHost, dstHost, stripe qp), opened by Send.
    uint32_t QueuePairNumber(uint32_t srcHost, uint32_t dstHost, uint32_t qp) const;
    /// \brief Over MPI ranks: srcHost's QP `number` (opened on another rank) carries stripe
    /// qp of sync messages; a message arriving on it is told to the job as from that stripe.
    void
    AddRemoteQueuePair(uint32_t srcHost, uint32_t number, uint32_t qp)
    {
        m_remoteQps[std::make_pair(srcHost, number)] = qp;
    }

    /// \brief Packets retransmitted by every NIC (go-back-N).
    uint64_t Retransmits() const;
    /// \brief Data packets every NIC sent (retransmissions included).
    uint64_t DataPacketsSent() const;
    /// \brief Data packets that reached a NIC (accepted in order or discarded).
    uint64_t DataPacketsArrived() const;
    /// \brief PFC priority of the NICs' ACK/NACK/CNP frames.
    uint8_t AckPriority() const;

    /// \brief The NIC of a host.
    Ptr<RoceNic> Nic(uint32_t host) const;
    /// \brief Calls fn(src host, dst host, QP index, QP) for every sync QP opened so far.
    void ForEachSyncQueuePair(
        const std::function<void(uint32_t, uint32_t, uint32_t, const QueuePair&)>& fn) const;

  private:
    /// \brief Tag of the QPs of replayed flows (not sync QPs).
    static constexpr uint32_t kFlowTag = ~0u;
    /// \brief One NIC per host from nicFactory and the --cc preset's NIC settings (resolved
    /// once for all), the preset's congestion-control values (or none: nullptr) on each.
    void InstallNics(const ResolvedObjectFactory& nicFactory,
                     const CongestionControlPreset* preset);
    /// \brief A counter summed over every host's NIC.
    uint64_t SumOverNics(const std::function<uint64_t(const RoceNic&)>& count) const;
    /// \brief A message of srcHost's QP `qpNumber` arrived at dstHost.
    void OnMessageReceived(uint32_t srcHost, uint32_t dstHost, uint32_t qpNumber);

    const PfcNetwork& m_net;          //!< the network
    std::vector<Ptr<RoceNic>> m_nics; //!< by host rank
    MessageSink* m_job{nullptr};      //!< told of deliveries
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Ptr<QueuePair>> m_qps; //!< sync QPs
    std::map<std::pair<uint32_t, uint32_t>, std::function<void()>>
        m_flowDelivered;            //!< (src host, QP number) of a flow -> its delivery callback
    std::vector<bool> m_localHosts; //!< SetLocalHosts
    std::map<std::pair<uint32_t, uint32_t>, uint32_t>
        m_remoteQps; //!< (src host, QP number) opened on another rank -> stripe QP
};

} // namespace ns3

#endif // PARAMSYNC_ROCE_SYNC_TRANSPORT_H
