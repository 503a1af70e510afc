/*
 * ParallelPaths: source-routed parallel paths of a family that has them (--routing=source).
 * A source spreads a flow over PathCount() paths; each path is named by a route id
 * (Route(src, dst, path)) that its packets carry, and every node on the path forwards by
 * Hop(at, dst, route) alone: no per-source state at the relays, one decision per (node,
 * destination, route), so a forwarding table holds RouteCount() next hops per destination
 * (model/forwarding-table.h, SourceRouted).
 *
 * Lanes: route ids of different paths may cross in different orders, so the lanes that keep
 * PFC deadlock-free are the paths' own (LaneCount()), not the family's ECMP lanes; each
 * family says why its lanes cannot close a cycle of buffer dependencies.
 */
#ifndef PARAMSYNC_PARALLEL_PATHS_H
#define PARAMSYNC_PARALLEL_PATHS_H

#include "topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class BcubeTopology;
class TorusTopology;

/**
 * \brief Source-routed parallel paths: route ids, per-node next hops, lanes.
 */
class ParallelPaths
{
  public:
    virtual ~ParallelPaths() = default;
    /// \brief Parallel paths a source spreads a flow over (BCube: k+1; torus: d).
    virtual uint32_t PathCount() const = 0;
    /// \brief Distinct route ids a relay tells apart (the next hops per destination).
    virtual uint32_t RouteCount() const = 0;
    /// \brief The route id of path `path` (< PathCount()) from src to dst (src != dst).
    virtual uint32_t Route(HostRank src, HostRank dst, uint32_t path) const = 0;
    /**
     * \brief The next hop at node `at` (a host or a switch on the path) towards host dst of
     * a packet carrying route id `route` (< RouteCount()); every route id gives a loop-free
     * path from any host, so a reply may reuse its request's id.
     */
    virtual RouteHop Hop(NodeIndex at, HostRank dst, uint32_t route) const = 0;
    /// \brief Lanes the paths use (1 when the family's deadlock avoidance is off).
    virtual uint8_t LaneCount() const = 0;

    /// \brief The nodes of path `path` from src to dst, both hosts included.
    /// \throws std::runtime_error if the hops loop (a broken family)
    std::vector<NodeIndex> Nodes(const TopologyGraph& graph,
                                 HostRank src,
                                 HostRank dst,
                                 uint32_t path) const;
};

/**
 * \brief BCube Source Routing (Guo et al., "BCube", SIGCOMM'09, section 4, BuildPathSet).
 *
 * Path i (i = 0..k) from A to B: when a_i != b_i, the digits are corrected in the order
 * i, i-1, ..., 0, k, ..., i+1 (DCRouting with the permutation starting at i): h(A,B) server
 * hops. When a_i == b_i, the path first moves to A's level-i neighbour C with c_i =
 * a_i + 1 mod n, then corrects in the order i-1, ..., i+1, i (digit i last): h(A,B) + 2
 * server hops (AltDCRouting). The paper proves the k+1 paths node-disjoint.
 *
 * Route ids: r < k+1 is "correct in the order starting at r"; k+1+i is "detour at level i,
 * then the order starting at i-1". A relay finds its next hop from its own address: the first
 * digit differing from B's in the route's order; on route k+1+i a server whose digit i
 * equals b_i is the source (every later server of the path has c_i != b_i until B), and a
 * level-i switch other than B's own sends a detour to digit b_i + 1 mod n.
 *
 * Lanes: a server sends on lane (k+2) - (server hops left on its path); a switch keeps the
 * lane of the server it came from. Each relay is one hop nearer, so the lane rises by one per
 * relay and never falls: within a lane a packet goes server -> switch -> server only, and the
 * buffer dependencies are acyclic (the argument of topologies/bcube-topology.h, with one
 * more lane for the detour's extra hop). LaneCount() = k+2 (1 with deadlockfree=0).
 */
class BcubeParallelPaths : public ParallelPaths
{
  public:
    /// \brief The paths of `bcube`, which must outlive this object.
    BcubeParallelPaths(const BcubeTopology& bcube, bool deadlockFree);
    uint32_t PathCount() const override;
    uint32_t RouteCount() const override;
    uint32_t Route(HostRank src, HostRank dst, uint32_t path) const override;
    RouteHop Hop(NodeIndex at, HostRank dst, uint32_t route) const override;
    uint8_t LaneCount() const override;

  private:
    /// \brief Digits of x that differ from y's.
    static uint32_t Differing(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y);
    /// \brief Lane of a server `left` server hops from the destination.
    uint8_t LaneFor(uint32_t left) const;
    /// \brief The next hop of a switch (node index `at`).
    RouteHop SwitchHop(NodeIndex at, HostRank dst, uint32_t route) const;

    const BcubeTopology& m_bcube;
    uint32_t m_levels; //!< k+1
    bool m_deadlockFree;
};

/**
 * \brief Torus dimension-order routing with rotated orders, one path per dimension.
 *
 * Path p (p = 0..d-1) corrects the dimensions in the order p, p+1, ..., p-1 (mod d), each
 * the shorter way round; where both ways tie (half an even side, or a side of 2) path p goes
 * "+" when p is even and "-" when odd, so the two first paths leave a tied ring in opposite
 * directions. Route id = path index. On a 2-D torus the two paths share no node but their
 * ends when these differ in both dimensions (X then Y against Y then X) or tie in one; when
 * they differ in one dimension without a tie the rotations take the same path. In d >= 3
 * rotations that meet the differing dimensions in the same order coincide.
 *
 * Lanes: each rotation p is its own virtual network of `per` lanes (2 when a side is >= 4,
 * else 1), lanes [p per, (p+1) per): rotations cross dimensions in different orders, so two
 * of them on shared lanes could close a cycle (X then Y against Y then X). Within a rotation
 * dimension order cannot loop, and within a ring of side >= 4 a hop is on the rotation's
 * upper lane when it crosses the dateline (the wrap link) or when the rest of its way in the
 * ring does not cross it, on the lower lane while the dateline is still ahead: the lower lane
 * never uses the wrap link and the upper lane never waits on it from inside the ring, so
 * neither closes the ring (Dally and Seitz, IEEE ToC 1987, with the virtual channel reset per
 * dimension, which the route id makes stateless). LaneCount() = d per (1 with
 * deadlockfree=0).
 */
class TorusParallelPaths : public ParallelPaths
{
  public:
    /// \brief The paths of `torus`, which must outlive this object.
    TorusParallelPaths(const TorusTopology& torus, bool deadlockFree);
    uint32_t PathCount() const override;
    uint32_t RouteCount() const override;
    uint32_t Route(HostRank src, HostRank dst, uint32_t path) const override;
    RouteHop Hop(NodeIndex at, HostRank dst, uint32_t route) const override;
    uint8_t LaneCount() const override;

  private:
    const TorusTopology& m_torus;
    uint32_t m_lanesPerRotation; //!< 2 with a side >= 4, else 1 (0: deadlock avoidance off)
};

} // namespace ns3

#endif // PARAMSYNC_PARALLEL_PATHS_H
