#include "forwarding-table.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ForwardingTable);

TypeId
ForwardingTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ForwardingTable")
                            .SetParent<Object>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<ForwardingTable>()
                            .AddAttribute(
                                "HashSeed",
                                "Salt of the ECMP 5-tuple hash (give each node its own to avoid "
                                "hash polarization).",
                                UintegerValue(0),
                                MakeUintegerAccessor(&ForwardingTable::m_hashSeed),
                                MakeUintegerChecker<uint32_t>())
                            .AddAttribute("BasePriority",
                                          "PFC priority of lane 0; lane L uses BasePriority + L.",
                                          UintegerValue(3),
                                          MakeUintegerAccessor(&ForwardingTable::m_basePriority),
                                          MakeUintegerChecker<uint8_t>(0, 7));
    return tid;
}

ForwardingTable::ForwardingTable() = default;

void
ForwardingTable::Clear()
{
    // The lane count stays: frames already in flight on a higher lane keep being lanes.
    for (auto& byDst : m_routes)
    {
        byDst.clear();
    }
}

void
ForwardingTable::AddRoute(uint32_t dstHost, uint32_t port, uint8_t lane)
{
    AddRoute(dstHost, 0, port, lane);
}

void
ForwardingTable::AddRoute(uint32_t dstHost, uint8_t inLane, uint32_t port, uint8_t lane)
{
    NS_ABORT_MSG_IF(inLane >= kMaxLanes || lane >= kMaxLanes,
                    "ForwardingTable: lane " << int(inLane) << "/" << int(lane) << " >= 8");
    auto& byDst = m_routes[inLane];
    if (byDst.size() <= dstHost)
    {
        byDst.resize(static_cast<std::size_t>(dstHost) + 1);
    }
    byDst[dstHost].push_back({port, lane});
    uint8_t used = static_cast<uint8_t>((inLane > lane ? inLane : lane) + 1);
    m_lanes = used > m_lanes ? used : m_lanes;
}

const std::vector<ForwardingRoute>&
ForwardingTable::Routes(uint32_t dstHost, uint8_t inLane) const
{
    static const std::vector<ForwardingRoute> kNone;
    if (inLane >= kMaxLanes)
    {
        return kNone;
    }
    const auto& byDst = m_routes[inLane];
    return dstHost < byDst.size() ? byDst[dstHost] : kNone;
}

uint32_t
ForwardingTable::FlowHash(uint32_t srcHost, uint32_t dstHost, uint16_t udpSrcPort) const
{
    // 64-bit mix (SplitMix64 finalizer) of the tuple; protocol (UDP) and dst port (4791) are
    // the same for every RoCEv2 flow.
    uint64_t x = (uint64_t(srcHost) << 40) ^ (uint64_t(dstHost) << 16) ^ udpSrcPort ^
                 (uint64_t(m_hashSeed) * 0x9e3779b97f4a7c15ull);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return static_cast<uint32_t>(x);
}

const ForwardingRoute*
ForwardingTable::Lookup(uint32_t dstHost,
                        uint8_t inLane,
                        uint32_t srcHost,
                        uint16_t udpSrcPort) const
{
    const std::vector<ForwardingRoute>& r = Routes(dstHost, inLane);
    if (r.empty())
    {
        return nullptr;
    }
    if (r.size() == 1)
    {
        return &r[0];
    }
    return &r[FlowHash(srcHost, dstHost, udpSrcPort) % r.size()];
}

} // namespace ns3
