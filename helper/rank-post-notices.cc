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

/// What a notice says.
enum class NoticeKind : uint32_t
{
    Post,         //!< a stripe posted on another rank
    IterationEnd, //!< another rank's end of an iteration
};

/// One notice, as it crosses: a stripe posted on another rank (srcHost .. qpNumber,
/// iteration, the post time), or a rank's end of an iteration (srcHost: that rank,
/// iteration, the end).
struct Notice
{
    NoticeKind kind;
    uint32_t srcHost;
    uint32_t dstHost;
    uint32_t qp;
    uint32_t id;
    uint32_t parts;
    uint32_t qpNumber;
    uint32_t iteration;
    int64_t timeNs;
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
    m_firstHostOf.assign(ranks, ~0u);
    for (HostRank h = 0; h < graph.HostCount(); ++h)
    {
        m_rankOf.push_back(partition.RankOf(graph.HostNode(h)));
        m_firstHostOf[m_rankOf.back()] = std::min(m_firstHostOf[m_rankOf.back()], h);
        Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
        m_ifIndex.push_back(net.Host(h)->AddDevice(device));
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback([this](Ptr<Packet> p) {
            Notice n;
            p->CopyData(reinterpret_cast<uint8_t*>(&n), sizeof(n));
            if (n.kind == NoticeKind::IterationEnd)
            {
                m_barrier->RemoteEnd(n.srcHost, n.iteration, NanoSeconds(n.timeNs));
                return;
            }
            m_transport.AddRemoteQueuePair(n.srcHost, n.qpNumber, n.qp);
            m_job->RemotePosted(
                n.srcHost, n.dstHost, n.qp, n.id, n.parts, n.iteration, NanoSeconds(n.timeNs));
        });
        device->AggregateObject(receiver);
    }
}

void
RankPostNotices::Attach(SyncJob& job, const std::vector<bool>& localHosts, uint32_t self)
{
    m_job = &job;
    m_self = self;
    job.SetLocalHosts(
        localHosts, [this](uint32_t src, uint32_t dst, uint32_t qp, TransferId id, uint32_t parts) {
            Send(src, dst, qp, id, parts);
        });
    m_barrier = std::make_unique<RankIterationBarrier>(
        static_cast<uint32_t>(m_firstHostOf.size()),
        self,
        [this](uint32_t to, uint32_t iteration, Time end) { SendEnd(to, iteration, end); },
        [&job](uint32_t /* iteration */, Time end) { job.BeginNextIteration(end); });
    job.SetIterationBarrier(
        [this](uint32_t iteration, Time end) { m_barrier->LocalEnd(iteration, end); });
}

void
RankPostNotices::Send(
    uint32_t srcHost, uint32_t dstHost, uint32_t qp, TransferId id, uint32_t parts)
{
    const Notice n{NoticeKind::Post,
                   srcHost,
                   dstHost,
                   qp,
                   id,
                   parts,
                   m_transport.QueuePairNumber(srcHost, dstHost, qp),
                   m_job->Iteration(),
                   Simulator::Now().GetNanoSeconds()};
    Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(&n), sizeof(n));
    MpiInterface::SendPacket(p,
                             Simulator::Now() + m_lookahead.at(m_rankOf[dstHost]),
                             m_net.Host(dstHost)->GetId(),
                             m_ifIndex[dstHost]);
}

void
RankPostNotices::SendEnd(uint32_t to, uint32_t iteration, Time end)
{
    const uint32_t host = m_firstHostOf.at(to);
    const Notice n{
        NoticeKind::IterationEnd, m_self, host, 0, 0, 0, 0, iteration, end.GetNanoSeconds()};
    Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(&n), sizeof(n));
    MpiInterface::SendPacket(
        p, Simulator::Now() + m_lookahead.at(to), m_net.Host(host)->GetId(), m_ifIndex[host]);
}

} // namespace ns3
