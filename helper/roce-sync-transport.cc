// Written against the RoceNic API of the model contract (DESIGN §3 and the contract block
// of the model engineers): RoceNic::AddPort, CreateQueuePair(dstHost), PostSend(qp, bytes,
// onComplete), and a receive-side message-complete notification. Adjust the marked calls
// to the RoceNic header as it lands.
#include "roce-sync-transport.h"

#include "ns3/roce-nic.h"
#include "ns3/uinteger.h"

namespace ns3
{

RoceSyncTransport::RoceSyncTransport(const PfcNetwork& net, const DriverOptions& options)
    : m_net(net)
{
    const uint32_t hosts = static_cast<uint32_t>(net.hostNode.size());
    m_nics.resize(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<RoceNic> nic = CreateObject<RoceNic>();
        nic->SetAttribute("Mtu", UintegerValue(options.mtu));
        nic->SetAttribute("CongestionControl", StringValue(options.cc));
        nic->SetAttribute("Priority", UintegerValue(options.priority));
        net.Host(h)->AggregateObject(nic);
        for (const auto& dev : net.HostPorts(h))
        {
            nic->AddPort(dev);
        }
        // Frames for this host: through the relay switch's local delivery on a multi-port
        // host, straight from the device otherwise.
        net.SetHostReceive(h, MakeCallback(&RoceNic::Receive, nic));
        // A message's last byte arrived here: tell the job which host pair / QP it was.
        nic->SetMessageReceivedCallback(
            [this, h](uint32_t srcHost, Ptr<QueuePair> qp, uint64_t bytes) {
                if (m_job && qp->GetTag() != ~0u)
                {
                    m_job->Delivered(srcHost, h, qp->GetTag());
                }
            });
        m_nics[h] = nic;
    }
}

RoceSyncTransport::~RoceSyncTransport() = default;

uint32_t
RoceSyncTransport::QueuePairs(uint32_t srcHost, uint32_t dstHost) const
{
    // One QP per port of the source host: with several ports (BCube, torus) the QPs' UDP
    // source ports hash to different equal-cost paths where there are several.
    return static_cast<uint32_t>(m_net.HostPorts(srcHost).size());
}

void
RoceSyncTransport::Send(uint32_t srcHost,
                        uint32_t dstHost,
                        uint32_t qp,
                        uint64_t bytes,
                        std::function<void()> onSent)
{
    auto key = std::make_tuple(srcHost, dstHost, qp);
    auto it = m_qps.find(key);
    if (it == m_qps.end())
    {
        Ptr<QueuePair> q = m_nics[srcHost]->CreateQueuePair(dstHost);
        q->SetTag(qp);
        it = m_qps.emplace(key, q).first;
    }
    m_nics[srcHost]->PostSend(it->second, bytes, std::move(onSent));
}

void
RoceSyncTransport::SendFlow(uint32_t srcHost,
                            uint32_t dstHost,
                            uint64_t bytes,
                            std::function<void()> delivered)
{
    Ptr<QueuePair> q = m_nics[srcHost]->CreateQueuePair(dstHost);
    q->SetTag(~0u); // not a sync QP: the job is not told
    m_nics[srcHost]->PostSend(q, bytes, std::move(delivered));
}

Ptr<RoceNic>
RoceSyncTransport::Nic(uint32_t host) const
{
    return m_nics.at(host);
}

uint64_t
RoceSyncTransport::Retransmits() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetRetransmittedPackets();
    }
    return n;
}

} // namespace ns3
