/*
 * TorusTopology: the server-centric k-ary d-cube. Servers are cabled directly to their 2d
 * neighbours with wrap-around; there are no switches, servers relay.
 */
#ifndef PARAMSYNC_TORUS_TOPOLOGY_H
#define PARAMSYNC_TORUS_TOPOLOGY_H

#include "topology.h"

namespace ns3
{

class SpecString;

/**
 * \brief `torus:dims=AxB[xC...][,deadlockfree=1][,rate=R][,delay=D]`.
 *
 * Sides are >= 2, any number of dimensions (at most 8, at most 2^24 servers).
 *
 * Ranks: row-major coordinates, the last dimension varies fastest:
 * rank = ((c0 * s1 + c1) * s2 + c2) ... (Coordinates() inverts it).
 *
 * Links: each server links to its + neighbour in every dimension, so every server has
 * 2d ports. A side of 2 gives a **double link** between the two servers of that ring (the
 * "+" link of each end): every server keeps 2d ports and the full injection bandwidth of a
 * d-cube, and routing spreads over both cables since both directions tie.
 *
 * Routing: minimal and dimension-ordered (dimension 0 first); in the current dimension the
 * packet goes the shorter way round, ECMP over both directions when they tie (a side of 2,
 * or a distance of exactly half an even side).
 *
 * Lanes (deadlock freedom under PFC): every dimension with a side >= 4 has a dateline, the
 * wrap-around link between coordinates side-1 and 0 (both directions). A packet's lane is
 * the number of datelines it has crossed: it moves up one lane on the link that crosses one.
 * Why it breaks cycles: across dimensions the dependencies follow dimension order and
 * cannot loop; inside one ring a cycle of waiting buffers would have to go all the way
 * round, i.e. through the dateline, but crossing it changes the lane, so within a lane the
 * dependencies of a ring form a chain cut at the dateline (Dally and Seitz, "Deadlock-free
 * message routing in multiprocessor interconnection networks", IEEE ToC 1987). Minimal
 * paths are shorter than a side, so each dateline is crossed at most once: lanes never
 * decrease, and LaneCount() = 1 + the number of sides >= 4. Sides 2 and 3 need no dateline:
 * a minimal path makes at most one hop in them, so no buffer waits on a buffer of the same
 * ring. The rule needs no state beyond the lane a packet arrives on, and switching lanes
 * never lowers one (unlike resetting per dimension, which a node could not tell from the
 * arrival lane alone). deadlockfree=0 keeps every packet on lane 0 to study deadlocks.
 */
class TorusTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    TorusTopology(SpecString& spec, double rateBps, double delayS);
    /// \brief Counts by closed form without building (topologies/topology-counts.h), after
    /// reading the spec as the constructor does: what it refuses throws the same error.
    static TopologyCounts Counts(SpecString& spec);

    std::string Spec() const override;
    std::string Family() const override;
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;
    uint8_t LaneCount() const override;
    /// \brief Dimension order rotated once per dimension (the torus family only: a ring has one
    /// path) (topologies/parallel-paths.h).
    std::unique_ptr<ParallelPaths> SourceRoutes() const override;
    /// \brief Per dimension, every ring along it (members by coordinate, ring == true).
    std::vector<HostDimension> Dimensions() const override;
    /// \brief Snake order (reflected mixed-radix Gray code): consecutive ranks are
    /// neighbours. The last wraps to the first when the first side is even (or d == 1).
    std::vector<HostRank> RingOrder() const override;
    /// \brief The sides, last dimension first (it has stride 1: the fastest digit).
    std::vector<uint32_t> RankRadices() const override;
    /// \brief Reflect: consecutive servers differ by one in one coordinate (cabled).
    DigitWalk
    NeighbourWalk() const override
    {
        return DigitWalk::Reflect;
    }
    /// \brief RankOf of the digits reversed (dimension 0 first).
    HostRank RankOfDigits(const std::vector<uint32_t>& digits) const override;

    /// \brief Sides of the dimensions.
    const std::vector<uint32_t>&
    Sides() const
    {
        return m_sides;
    }
    /// \brief Coordinates of a rank, dimension 0 first.
    std::vector<uint32_t> Coordinates(HostRank rank) const;
    /// \brief Rank of coordinates (inverse of Coordinates()).
    HostRank RankOf(const std::vector<uint32_t>& coordinates) const;
    /// \brief Rank of the + (or -) neighbour of a server in a dimension.
    HostRank Neighbour(HostRank rank, uint32_t dim, bool plus) const;
    /// \brief Port of a server towards its + (or -) neighbour in a dimension.
    uint32_t NeighbourPort(HostRank rank, uint32_t dim, bool plus) const;

  protected:
    /// \brief For RingTopology: a torus of the given sides and an already-built spec name.
    TorusTopology(const std::vector<uint32_t>& sides,
                  bool deadlockFree,
                  double rateBps,
                  double delayS,
                  const std::string& spec);

  private:
    void Build(double rateBps, double delayS);

    std::vector<uint32_t> m_sides;
    std::vector<uint32_t> m_strides;   //!< rank distance of one step in each dimension
    std::vector<uint32_t> m_plusPort;  //!< [rank * d + dim]
    std::vector<uint32_t> m_minusPort; //!< [rank * d + dim]
    bool m_deadlockFree;
    uint8_t m_laneCount;
    std::string m_spec;
};

} // namespace ns3

#endif // PARAMSYNC_TORUS_TOPOLOGY_H
