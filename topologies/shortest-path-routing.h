/*
 * ShortestPathRouting: hop distances from every node to every host over a TopologyGraph,
 * optionally with some links down, and the equal-cost next hops they imply (every port
 * whose peer is one hop closer). Topology files route this way, and so does the driver
 * after a link failure (whatever the family's own routing was).
 */
#ifndef PARAMSYNC_SHORTEST_PATH_ROUTING_H
#define PARAMSYNC_SHORTEST_PATH_ROUTING_H

#include "topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief BFS distances and ECMP next hops on a graph with optional failed links.
 */
class ShortestPathRouting
{
  public:
    /// \brief What a host that cannot reach another host means.
    enum class Unreachable
    {
        REFUSE,  //!< an error: the graph must connect every host
        NO_ROUTE //!< a partition (failed links until a repair): no next hop towards it
    };
    /**
     * \param graph the graph (must outlive this object)
     * \param down by LinkIndex, links that carry nothing (empty: none)
     * \param what names the graph in messages
     * \param unreachable whether a partition is an error
     * \throws std::invalid_argument when a host cannot reach another host (REFUSE)
     */
    ShortestPathRouting(const TopologyGraph& graph,
                        std::vector<bool> down,
                        const std::string& what,
                        Unreachable unreachable = Unreachable::REFUSE);

    /**
     * \brief The groups of hosts that can still reach each other with `down` links failed,
     * by host rank; the group of host 0 first, the others in order of their lowest rank.
     */
    static std::vector<std::vector<HostRank>> HostGroups(const TopologyGraph& graph,
                                                         const std::vector<bool>& down);

    /// \brief Hops from node to host dst.
    uint32_t Distance(NodeIndex node, HostRank dst) const;
    /// \brief The ports of `at` one hop closer to dst (lane 0).
    void NextHops(NodeIndex at, HostRank dst, std::vector<RouteHop>& out) const;

  private:
    const TopologyGraph& m_graph; //!< the graph
    std::vector<bool> m_down;     //!< failed links
    std::vector<uint16_t> m_dist; //!< [dst * nodes + node], hops
};

/**
 * \brief A topology's graph with some links down, routed by shortest paths (one lane: the
 * family's deadlock-free lanes do not survive a failure).
 */
class DegradedTopology : public Topology
{
  public:
    /// \throws std::invalid_argument when the failures disconnect a host, unless NO_ROUTE
    DegradedTopology(
        const Topology& original,
        const std::vector<bool>& down,
        ShortestPathRouting::Unreachable unreachable = ShortestPathRouting::Unreachable::REFUSE);

    std::string
    Spec() const override
    {
        return m_spec;
    }
    std::string
    Family() const override
    {
        return m_family;
    }
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;

  private:
    std::string m_spec;                             //!< original spec + " (degraded)"
    std::string m_family;                           //!< original family
    std::unique_ptr<ShortestPathRouting> m_routing; //!< over our copy of the graph
};

} // namespace ns3

#endif // PARAMSYNC_SHORTEST_PATH_ROUTING_H
