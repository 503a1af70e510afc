#include "rank-post-notices.h"

#include "roce-sync-transport.h"

#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/packet.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/sync-job.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

namespace
{

/// One stripe posted on another rank, as it crosses.
struct Notice
{
    uint32_t srcHost;
    uint32_t dstHost;
    uint32_t qp;
    uint32_t id;
    uint32_t parts;
    uint32_t qpNumber;
    int64_t postedNs;
};

} // namespace

RankPostNotices::RankPostNotices(const PfcNetwork& net,
                                 const TopologyGraph& graph,
                                 const RankPartition& partition,
                                 RoceSyncTransport& transport)
    : m_net(net),
      m_transport(transport)
{
    uint32_t ranks = 0;
    for (NodeIndex v = 0; v < graph.NodeCount(); ++v)
    {
        ranks = std::max(ranks, partition.RankOf(v) + 1);
    }
    m_lookahead.assign(ranks, Time::Max());
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        const TopologyLink& link = graph.Link(l);
        const uint32_t a = partition.RankOf(link.a);
        const uint32_t b = partition.RankOf(link.b);
        if (a != b)
        {
            m_lookahead[a] = std::min(m_lookahead[a], Seconds(link.delayS));
            m_lookahead[b] = std::min(m_lookahead[b], Seconds(link.delayS));
        }
    }
    for (HostRank h = 0; h < graph.HostCount(); ++h)
    {
        m_rankOf.push_back(partition.RankOf(graph.HostNode(h)));
        Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
        m_ifIndex.push_back(net.Host(h)->AddDevice(device));
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback([this](Ptr<Packet> p) {
            Notice n;
            p->CopyData(reinterpret_cast<uint8_t*>(&n), sizeof(n));
            m_transport.AddRemoteQueuePair(n.srcHost, n.qpNumber, n.qp);
            m_job->RemotePosted(n.srcHost, n.dstHost, n.qp, n.id, n.parts, NanoSeconds(n.postedNs));
        });
        device->AggregateObject(receiver);
    }
}

void
RankPostNotices::Attach(SyncJob& job, const std::vector<bool>& localHosts)
{
    m_job = &job;
    job.SetLocalHosts(
        localHosts, [this](uint32_t src, uint32_t dst, uint32_t qp, TransferId id, uint32_t parts) {
            Send(src, dst, qp, id, parts);
        });
}

void
RankPostNotices::Send(
    uint32_t srcHost, uint32_t dstHost, uint32_t qp, TransferId id, uint32_t parts)
{
    const Notice n{srcHost,
                   dstHost,
                   qp,
                   id,
                   parts,
                   m_transport.QueuePairNumber(srcHost, dstHost, qp),
                   Simulator::Now().GetNanoSeconds()};
    Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(&n), sizeof(n));
    MpiInterface::SendPacket(p,
                             Simulator::Now() + m_lookahead.at(m_rankOf[dstHost]),
                             m_net.Host(dstHost)->GetId(),
                             m_ifIndex[dstHost]);
}

} // namespace ns3
