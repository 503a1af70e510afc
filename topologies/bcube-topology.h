/*
 * BcubeTopology: BCube(n,k) (Guo et al., "BCube: A High Performance, Server-centric
 * Network Architecture for Modular Data Centers", SIGCOMM 2009). Servers have k+1 ports,
 * one per level; switches of n ports; servers relay.
 */
#ifndef PARAMSYNC_BCUBE_TOPOLOGY_H
#define PARAMSYNC_BCUBE_TOPOLOGY_H

#include "topology.h"

namespace ns3
{

class SpecString;

/**
 * \brief `bcube:n=N,k=K[,deadlockfree=1][,rate=R][,delay=D]`: BCube(n,k).
 *
 * n in [2, 255], k in [0, 15], at most 2^24 servers. n^(k+1) servers and (k+1) n^k
 * switches of n ports.
 *
 * Ranks: a server's address is its digits a_k..a_0 (base n); its rank is that base-n
 * number, rank = sum a_l n^l. Digits(rank)[l] = a_l.
 *
 * Nodes and ports: servers are nodes 0..n^(k+1)-1 (node == rank); the level-l switch with
 * index s (s = the address with digit l removed, read base n) is node n^(k+1) + l n^k + s,
 * named "sw<l>.<s>". Server port l goes to its level-l switch; switch port j goes to the
 * server whose digit l is j.
 *
 * Routing: digit correction. At a server, every level whose digit differs from the
 * destination's is an equal-cost next hop (ECMP over correction orders: all (number of
 * differing digits)! shortest paths are reachable); the level-l switch then forwards to the
 * server with digit l corrected, which relays. Switch hops = differing digits.
 *
 * Lanes: a server sends on lane (k+1) - (digits still differing), a switch keeps the
 * lane. Each relay corrects one digit, so the lane rises by one per relay and never falls;
 * LaneCount() = k+1. Why it breaks cycles: within one lane a packet only goes
 * server -> switch -> server and then leaves on a higher lane, so no chain of buffer
 * dependencies can return to a lower (or the same) lane: the dependency graph is acyclic.
 * The lane follows from (node, destination) alone, no per-packet state. deadlockfree=0 puts
 * every packet on lane 0.
 */
class BcubeTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    BcubeTopology(SpecString& spec, double rateBps, double delayS);
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
    /// \brief BCube source routing over k+1 node-disjoint paths (topologies/parallel-paths.h).
    std::unique_ptr<ParallelPaths> SourceRoutes() const override;
    /// \brief Per level l, the groups of n servers under one level-l switch (switch order,
    /// members by digit l; ring == false: all one switch hop apart).
    std::vector<HostDimension> Dimensions() const override;
    /// \brief Modular n-ary Gray code: consecutive ranks (and the last and the first)
    /// differ in exactly one digit, so they share a switch.
    std::vector<HostRank> RingOrder() const override;
    /// \brief k+1 digits of radix n, level 0 (a_0) fastest.
    std::vector<uint32_t> RankRadices() const override;
    /// \brief ModGray: consecutive servers differ in one digit, so they share a switch.
    DigitWalk
    NeighbourWalk() const override
    {
        return DigitWalk::ModGray;
    }
    /// \brief RankOf(digits): index l = a_l.
    HostRank RankOfDigits(const std::vector<uint32_t>& digits) const override;

    /// \brief n, ports per switch.
    uint32_t
    N() const
    {
        return m_n;
    }
    /// \brief k, the highest level.
    uint32_t
    K() const
    {
        return m_k;
    }
    /// \brief Digits of a rank, index l = a_l (k+1 entries).
    std::vector<uint32_t> Digits(HostRank rank) const;
    /// \brief Rank of digits (index l = a_l).
    HostRank RankOf(const std::vector<uint32_t>& digits) const;
    /// \brief The n servers on the level-l switch of rank (rank included), by digit l.
    std::vector<HostRank> LevelPeers(HostRank rank, uint32_t level) const;
    /// \brief Node of the level-l switch a server hangs on.
    NodeIndex SwitchOf(HostRank rank, uint32_t level) const;

  private:
    uint32_t
    Digit(uint32_t rank, uint32_t level) const
    {
        return (rank / m_pow[level]) % m_n;
    }

    uint32_t m_n;
    uint32_t m_k;
    std::vector<uint32_t> m_pow; //!< n^0 .. n^(k+1)
    bool m_deadlockFree;
    std::string m_spec;
};

} // namespace ns3

#endif // PARAMSYNC_BCUBE_TOPOLOGY_H
