/*
 * StarTopology: n hosts on one switch. The smallest network with a shared switch buffer:
 * unit tests, incast and PFC studies.
 */
#ifndef PARAMSYNC_STAR_TOPOLOGY_H
#define PARAMSYNC_STAR_TOPOLOGY_H

#include "topology.h"

namespace ns3
{

class SpecString;

/**
 * \brief `star:n=N[,rate=R][,delay=D]`: hosts h0..h{n-1} each on port i of switch sw0.
 *
 * Host rank i is host hi; the switch's port i leads to rank i. n in [2, 65535].
 * Routing is trivial and uses one lane (a star has no cycle of buffer dependencies).
 */
class StarTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    StarTopology(SpecString& spec, double rateBps, double delayS);
    /// \brief Counts by closed form without building (topologies/topology-counts.h), after
    /// reading the spec as the constructor does: what it refuses throws the same error.
    static TopologyCounts Counts(SpecString& spec);

    std::string Spec() const override;
    std::string Family() const override;
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;
    /// \brief One group: every host, all one switch hop apart.
    std::vector<HostDimension> Dimensions() const override;

  private:
    uint32_t m_n;
    std::string m_spec;
};

} // namespace ns3

#endif // PARAMSYNC_STAR_TOPOLOGY_H
