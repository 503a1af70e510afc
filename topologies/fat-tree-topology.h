/*
 * FatTreeTopology: the k-ary fat-tree of Al-Fares et al. ("A Scalable, Commodity Data
 * Center Network Architecture", SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 core switches, k/2 hosts per edge switch.
 */
#ifndef PARAMSYNC_FAT_TREE_TOPOLOGY_H
#define PARAMSYNC_FAT_TREE_TOPOLOGY_H

#include "topology.h"

namespace ns3
{

class SpecString;

/**
 * \brief `fattree:k=K[,oversub=O][,rate=R][,aggrate=R][,corerate=R][,delay=D]`.
 *
 * k even in [2, 128]. oversub (integer >= 1, default 1) puts O k/2 hosts on every edge
 * switch, whose k/2 uplinks stay: O:1 oversubscription at the edge, O k^3/4 hosts. rate is
 * the host link rate, aggrate the edge-aggregation rate and corerate the
 * aggregation-core rate (both default to rate): tapering the upper tiers is the other way
 * to oversubscribe. 5k^2/4 switches.
 *
 * Ranks: pod-major, rank = (pod (k/2) + edge) h + i with h = O k/2 hosts per edge switch,
 * so the natural order is the pod order (RingOrder() keeps it: consecutive ranks share an
 * edge switch, then a pod). PodOf(rank) = rank / ((k/2) h).
 *
 * Nodes and ports: hosts are nodes 0..H-1 (node == rank); then edge switch (p, e) at
 * H + p k/2 + e ("edge<p>.<e>"), aggregation (p, a) at H + k k/2 + p k/2 + a ("agg<p>.<a>"),
 * core c at H + k^2 + c ("core<c>"). Edge ports 0..h-1 go to its hosts, h + a to
 * aggregation a of its pod; aggregation ports e to edge e, k/2 + j to core a k/2 + j; core
 * port p to pod p.
 *
 * Routing: up-down ECMP. Up over every uplink until a switch above the destination is
 * reached, then the one way down: 2 switch hops under one edge switch (1 switch), 3 inside
 * a pod (edge-agg-edge; k/2 paths), 5 between pods (k^2/4 paths). Up-down routes never
 * turn from down to up, so buffer dependencies cannot form a cycle: one lane.
 */
class FatTreeTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    FatTreeTopology(SpecString& spec, double rateBps, double delayS);
    /// \brief Counts by closed form without building (topologies/topology-counts.h), after
    /// reading the spec as the constructor does: what it refuses throws the same error.
    static TopologyCounts Counts(SpecString& spec);

    std::string Spec() const override;
    std::string Family() const override;
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;
    /// \brief The runs by structure: a host's one uplink; an edge switch's own hosts one
    /// by one, the rest up; an aggregation switch's pod by edge switch, the rest up; a
    /// core's pods.
    void NextHopRuns(NodeIndex at, uint8_t lane, std::vector<RouteRun>& out) const override;
    /// \brief Hosts by edge switch (level 0) and by slot across edge switches (level 1).
    std::vector<HostDimension> SwitchLevels() const override;

    /// \brief k.
    uint32_t
    K() const
    {
        return m_k;
    }
    /// \brief Hosts per edge switch (oversub k/2).
    uint32_t
    HostsPerEdge() const
    {
        return m_hostsPerEdge;
    }
    /// \brief Pod of a host.
    uint32_t PodOf(HostRank rank) const;
    /// \brief Node of the edge switch a host hangs on.
    NodeIndex EdgeOf(HostRank rank) const;

  private:
    uint32_t m_k;
    uint32_t m_half;
    uint32_t m_hostsPerEdge;
    uint32_t m_hostsPerPod;
    uint32_t m_hosts;
    std::string m_spec;
};

} // namespace ns3

#endif // PARAMSYNC_FAT_TREE_TOPOLOGY_H
