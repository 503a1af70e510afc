#include "roce-sync-transport.h"

#include "resolved-object-factory.h"

#include "ns3/abort.h"
#include "ns3/congestion-control-preset.h"
#include "ns3/nstime.h"
#include "ns3/parallel-paths.h"
#include "ns3/queue-pair.h"
#include "ns3/roce-nic.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Sets RoceNic's HostRank through its accessor, looked up once: SetAttribute("HostRank")
 * would find it by name on every NIC. The same checks as SetAttribute (a settable
 * attribute, a value its checker takes).
 */
class HostRankSetter
{
  public:
    HostRankSetter()
    {
        const bool found = RoceNic::GetTypeId().LookupAttributeByName("HostRank", &m_info);
        NS_ABORT_MSG_UNLESS(found && (m_info.flags & TypeId::ATTR_SET),
                            "RoceNic has no settable HostRank attribute");
    }

    /// \brief nic's HostRank is rank.
    void
    Set(RoceNic& nic, uint32_t rank) const
    {
        const Ptr<const AttributeValue> value = m_info.checker->CreateValidValue(
            UintegerValue(rank));
        NS_ABORT_MSG_UNLESS(value && m_info.accessor->Set(&nic, *value),
                            "RoceNic rejects HostRank " << rank);
    }

  private:
    TypeId::AttributeInformation m_info; //!< HostRank's accessor and checker
};

} // namespace

ResolvedObjectFactory
RoceTransportConfig::NicFactory() const
{
    ResolvedObjectFactory nic("ns3::RoceNic");
    nic.Set("Mtu", UintegerValue(mtu));
    nic.Set("Priority", UintegerValue(priority));
    nic.Set("RetransmitTimeout", TimeValue(rto));
    return nic;
}

void
RoceTransportConfig::CheckCongestionControl(const std::string& name)
{
    if (!CongestionControlPreset::Find(name))
    {
        throw std::invalid_argument("--cc: '" + name + "' is not one of " +
                                    CongestionControlPreset::Names());
    }
}

RoceSyncTransport::RoceSyncTransport(const PfcNetwork& net, const RoceTransportConfig& config)
    : m_net(net)
{
    RoceTransportConfig::CheckCongestionControl(config.cc);
    InstallNics(config.NicFactory(), CongestionControlPreset::Find(config.cc));
}

RoceSyncTransport::RoceSyncTransport(const PfcNetwork& net,
                                     const ResolvedObjectFactory& nicFactory,
                                     const CongestionControlPreset* preset)
    : m_net(net)
{
    InstallNics(nicFactory, preset);
}

void
RoceSyncTransport::InstallNics(const ResolvedObjectFactory& nicFactory,
                               const CongestionControlPreset* preset)
{
    const PfcNetwork& net = m_net;
    const uint32_t hosts = static_cast<uint32_t>(net.hostNode.size());
    m_nics.resize(hosts);
    // Every NIC gets the same attributes (the preset's NIC settings after the factory's, as
    // setting them on each NIC after construction did): resolved once, not looked up by
    // name per NIC (helper/resolved-object-factory.h; at 8,192 hosts ns-3's path was 485 M
    // instructions and the preset's by-name settings 146 M, callgrind).
    ResolvedObjectFactory nics = nicFactory;
    if (preset)
    {
        for (const auto& [name, value] : preset->NicAttributes())
        {
            nics.Set(name, *value);
        }
    }
    nics.Resolve();
    const HostRankSetter hostRank;
    // The preset's CongestionControl values parsed once per line rate (every host's, on most
    // topologies).
    bool parsed = false;
    DataRate parsedRate;
    std::vector<Ptr<const AttributeValue>> presetValues;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<RoceNic> nic = nics.Create<RoceNic>();
        hostRank.Set(*nic, h);
        net.Host(h)->AggregateObject(nic);
        for (const auto& dev : net.HostPorts(h))
        {
            nic->AddPort(dev);
        }
        if (preset)
        {
            // The preset's rates that scale with the NIC follow its (first) port.
            const DataRate lineRate = net.HostPorts(h).front()->GetDataRate();
            if (!parsed || lineRate != parsedRate)
            {
                presetValues = preset->ParseValues(lineRate);
                parsedRate = lineRate;
                parsed = true;
            }
            preset->ApplyCongestionControlTo(*nic, presetValues);
        }
        // Frames for this host: through the relay switch's local delivery on a multi-port
        // host, straight from the device otherwise; to the NIC as a direct sink, with their
        // headers (header-only frames reach it without a Packet).
        net.SetHostSink(h, PeekPointer(nic));
        // A message's last byte arrived here: the sender's QP tells which transfer it was.
        nic->SetMessageReceivedCallback([this, h](uint32_t srcHost, uint32_t qpNumber, uint64_t) {
            OnMessageReceived(srcHost, h, qpNumber);
        });
        m_nics[h] = nic;
    }
}

RoceSyncTransport::~RoceSyncTransport() = default;

uint32_t
RoceSyncTransport::QueuePairs(uint32_t srcHost, uint32_t dstHost) const
{
    // One QP per equal-cost first hop from src to dst (a BCube server reaches a peer that
    // differs in two digits by two correction orders, one starting on each port): the job
    // stripes a transfer over them, as the fluid estimator splits it over the ECMP routes.
    // Source-routed: one QP per parallel path (BCube's k+1, as BCube source routing spreads a
    // flow), pinned to it by its route id.
    if (m_net.sourceRoutes)
    {
        return m_net.sourceRoutes->PathCount();
    }
    return std::max<uint32_t>(1, static_cast<uint32_t>(m_nics[srcHost]->GetRouteCount(dstHost)));
}

void
RoceSyncTransport::Send(
    uint32_t srcHost, uint32_t dstHost, uint32_t qp, uint64_t bytes, std::function<void()> onSent)
{
    auto key = std::make_tuple(srcHost, dstHost, qp);
    auto it = m_qps.find(key);
    if (it == m_qps.end())
    {
        const uint32_t route = m_net.sourceRoutes ? m_net.sourceRoutes->Route(srcHost, dstHost, qp)
                                                  : qp;
        Ptr<QueuePair> q = m_nics[srcHost]->CreateQueuePair(dstHost, route);
        q->SetTag(qp);
        it = m_qps.emplace(key, q).first;
    }
    m_nics[srcHost]->PostSend(it->second, bytes, std::move(onSent));
}

uint32_t
RoceSyncTransport::QueuePairNumber(uint32_t srcHost, uint32_t dstHost, uint32_t qp) const
{
    return m_qps.at(std::make_tuple(srcHost, dstHost, qp))->GetNumber();
}

void
RoceSyncTransport::OnMessageReceived(uint32_t srcHost, uint32_t dstHost, uint32_t qpNumber)
{
    Ptr<QueuePair> qp = m_nics[srcHost]->GetQueuePair(qpNumber);
    if (!qp)
    {
        // Over MPI ranks, a sync QP another rank opened.
        auto remote = m_remoteQps.find(std::make_pair(srcHost, qpNumber));
        if (remote != m_remoteQps.end() && m_job)
        {
            m_job->Delivered(srcHost, dstHost, remote->second);
        }
        return;
    }
    if (qp->GetTag() != kFlowTag)
    {
        if (m_job)
        {
            m_job->Delivered(srcHost, dstHost, qp->GetTag());
        }
        return;
    }
    auto it = m_flowDelivered.find(std::make_pair(srcHost, qpNumber));
    if (it != m_flowDelivered.end())
    {
        std::function<void()> delivered = std::move(it->second);
        m_flowDelivered.erase(it);
        if (delivered)
        {
            delivered();
        }
    }
}

void
RoceSyncTransport::SendFlow(uint32_t srcHost,
                            uint32_t dstHost,
                            uint64_t bytes,
                            std::function<void()> delivered)
{
    Ptr<QueuePair> q = m_nics[srcHost]->CreateQueuePair(dstHost);
    q->SetTag(kFlowTag); // not a sync QP: the job is not told
    // One message per flow QP: `delivered` fires at the receiver, at its last byte.
    m_flowDelivered.emplace(std::make_pair(srcHost, q->GetNumber()), std::move(delivered));
    if (m_localHosts.empty() || m_localHosts[srcHost])
    {
        m_nics[srcHost]->PostSend(q, bytes, nullptr);
    }
}

uint64_t
RoceSyncTransport::DataPacketsSent() const
{
    return SumOverNics([](const RoceNic& nic) { return nic.GetDataPacketsSent(); });
}

uint64_t
RoceSyncTransport::DataPacketsArrived() const
{
    return SumOverNics([](const RoceNic& nic) {
        return nic.GetDataPacketsReceived() + nic.GetDataPacketsDiscarded();
    });
}

uint8_t
RoceSyncTransport::AckPriority() const
{
    UintegerValue v;
    m_nics.front()->GetAttribute("AckPriority", v);
    return static_cast<uint8_t>(v.Get());
}

Ptr<RoceNic>
RoceSyncTransport::Nic(uint32_t host) const
{
    return m_nics.at(host);
}

void
RoceSyncTransport::ForEachSyncQueuePair(
    const std::function<void(uint32_t, uint32_t, uint32_t, const QueuePair&)>& fn) const
{
    for (const auto& [key, qp] : m_qps)
    {
        fn(std::get<0>(key), std::get<1>(key), std::get<2>(key), *qp);
    }
}

uint64_t
RoceSyncTransport::Retransmits() const
{
    return SumOverNics([](const RoceNic& nic) { return nic.GetRetransmittedPackets(); });
}

uint64_t
RoceSyncTransport::SumOverNics(const std::function<uint64_t(const RoceNic&)>& count) const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += count(*nic);
    }
    return n;
}

} // namespace ns3
