/*
 * Lookup(dst, inLane, srcHost, udpSrcPort) returns the chosen
 * ForwardingRoute {port, lane} or nullptr; a NIC sending its own traffic uses inLane 0 and
 * sends on LanePriority(route->lane) for data (BasePriority attribute, default 3).
 *
 * Destination host -> equal-cost egress (port, lane) set, with ECMP by a hash of the flow
 * 5-tuple (src host, dst host, UDP source port; protocol and dst port are constant for
 * RoCEv2). Used by switches and by multi-port hosts (server-centric BCube/Torus).
 *
 * Lanes (topologies/README.md): the next hop may depend on the lane a packet arrived on;
 * routes are stored per (dst, arrival lane). Lane L travels on PFC priority
 * BasePriority + L. Storage is a flat vector indexed by dst * lanes + lane: no map.
 */
#ifndef PARAMSYNC_FORWARDING_TABLE_H
#define PARAMSYNC_FORWARDING_TABLE_H

#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/// \brief One equal-cost next hop.
struct ForwardingRoute
{
    uint32_t port; //!< egress port index (PfcSwitch/RoceNic port order)
    uint8_t lane;  //!< lane on the next link
};

/// \brief Per-node forwarding: destination -> ECMP set of (port, lane).
class ForwardingTable : public Object
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    ForwardingTable();

    /// \brief Removes every route (before refilling after a link failure or repair).
    void Clear();
    /// \brief Add an equal-cost route for packets arriving on lane 0 (or sent from here).
    void AddRoute(uint32_t dstHost, uint32_t port, uint8_t lane);
    /// \brief Add an equal-cost route for packets that arrived on `inLane`.
    void AddRoute(uint32_t dstHost, uint8_t inLane, uint32_t port, uint8_t lane);
    /**
     * \brief The route of a flow: ECMP member chosen by the 5-tuple hash.
     * \return nullptr when there is no route.
     */
    const ForwardingRoute* Lookup(uint32_t dstHost,
                                  uint8_t inLane,
                                  uint32_t srcHost,
                                  uint16_t udpSrcPort) const;
    /// \brief Equal-cost routes of (dst, inLane) (empty if none).
    const std::vector<ForwardingRoute>& Routes(uint32_t dstHost, uint8_t inLane = 0) const;
    /// \brief The 5-tuple hash (salted by the HashSeed attribute).
    uint32_t FlowHash(uint32_t srcHost, uint32_t dstHost, uint16_t udpSrcPort) const;
    /// \brief Priority of lane L: BasePriority + L.
    uint8_t
    LanePriority(uint8_t lane) const
    {
        return m_basePriority + lane;
    }
    /// \brief BasePriority attribute.
    uint8_t
    GetBasePriority() const
    {
        return m_basePriority;
    }
    /// \brief Lanes seen in routes (1 + highest lane used).
    uint8_t
    GetLaneCount() const
    {
        return m_lanes;
    }

  private:
    static constexpr uint8_t kMaxLanes = 8; //!< lanes map to the 8 priorities
    /// Routes by lane, then by destination host. Lanes apart, so that a table sizes only the
    /// lanes it uses (one vector per destination, not eight: 320 hosts x 400 nodes of a
    /// fat-tree held 25 MB of empty lane slots).
    std::array<std::vector<std::vector<ForwardingRoute>>, kMaxLanes> m_routes;
    uint32_t m_hashSeed{0};    //!< per-node salt against polarization
    uint8_t m_basePriority{0}; //!< priority of lane 0
    uint8_t m_lanes{1};        //!< lanes used
};

} // namespace ns3

#endif // PARAMSYNC_FORWARDING_TABLE_H
