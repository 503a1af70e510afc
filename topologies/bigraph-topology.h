/*
 * BigraphTopology: the BiGraph of EFLOPS (Dong et al., "EFLOPS: Algorithm and System
 * Co-design for a High Performance Distributed Training Platform", HPCA 2020): two parts of
 * s switches, every switch of one part linked to every switch of the other, m hosts per
 * switch.
 */
#ifndef PARAMSYNC_BIGRAPH_TOPOLOGY_H
#define PARAMSYNC_BIGRAPH_TOPOLOGY_H

#include "topology.h"

namespace ns3
{

class SpecString;

/**
 * \brief `bigraph:s=S,m=M[,deadlockfree=1][,rate=R][,delay=D]`, S and M in [1, 255].
 *
 * 2S switches (part 0 "up<w>", part 1 "low<w>"), 2SM hosts, S^2 switch-switch links and
 * 2SM host links; each switch has M + S ports.
 *
 * Ranks: rank = (part S + w) M + i for host i of switch w of part `part`; Part(rank) =
 * rank / (S M). Hosts are nodes 0..2SM-1 (node == rank), switch (part, w) is node
 * 2SM + part S + w. Switch ports 0..M-1 go to its hosts, port M + x to switch x of the other
 * part.
 *
 * Routing: same switch: down. Other part: the one direct link to the destination's switch
 * (2 switch hops). Same part, other switch: ECMP over all S switches of the other part
 * (3 switch hops).
 *
 * Lanes: a packet travels on lane Part(destination). Why it breaks cycles: the cycle
 * up0 -> low0 -> up1 -> low1 -> up0 of same-part paths (each link waiting for the next)
 * needs packets to both parts; within one lane every inter-switch path ends at a switch of
 * the destination's part, and a link into that part never waits on a link out of it, so
 * the dependencies of a lane are chains of length <= 2. LaneCount() = 2 (1 with
 * deadlockfree=0).
 */
class BigraphTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    BigraphTopology(SpecString& spec, double rateBps, double delayS);
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
    /// \brief Level 0: the hosts of one switch; level 1: slot i of every switch, each hop
    /// crossing the parts, no two slots sharing an inter-part link when M <= S.
    std::vector<HostDimension> SwitchLevels() const override;
    /// \brief {S, M}.
    std::optional<BipartiteShape> Bipartite() const override;

    /// \brief Switches per part.
    uint32_t
    S() const
    {
        return m_s;
    }
    /// \brief Hosts per switch.
    uint32_t
    M() const
    {
        return m_m;
    }
    /// \brief Part of a host: 0 (upper) or 1 (lower).
    uint32_t Part(HostRank rank) const;
    /// \brief Node of the switch a host hangs on.
    NodeIndex SwitchOf(HostRank rank) const;

  private:
    uint32_t m_s;
    uint32_t m_m;
    uint32_t m_hosts;
    bool m_deadlockFree;
    std::string m_spec;
};

} // namespace ns3

#endif // PARAMSYNC_BIGRAPH_TOPOLOGY_H
