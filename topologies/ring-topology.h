/*
 * RingTopology: servers with two ports cabled in a ring, the ring baseline of the HiPS
 * testbed. A one-dimensional torus with its own name.
 */
#ifndef PARAMSYNC_RING_TOPOLOGY_H
#define PARAMSYNC_RING_TOPOLOGY_H

#include "torus-topology.h"

namespace ns3
{

/**
 * \brief `ring:n=N[,deadlockfree=1][,rate=R][,delay=D]`, N in [2, 2^24].
 *
 * Rank i is linked to ranks i+1 and i-1 (mod N); n = 2 gives a double link, as a torus
 * side of 2 does. Routing takes the shorter direction (ECMP over both when they tie).
 * Lanes as TorusTopology: for N >= 4 the link N-1 -- 0 is a dateline and crossing it moves
 * a packet to lane 1, so LaneCount() is 2 (1 for N < 4 or deadlockfree=0). RingOrder() is
 * 0..N-1; Dimensions() is one ring of every rank.
 */
class RingTopology : public TorusTopology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS are the defaults for rate=/delay=.
    RingTopology(SpecString& spec, double rateBps, double delayS);
    /// \brief Counts by closed form without building (topologies/topology-counts.h), after
    /// reading the spec as the constructor does: what it refuses throws the same error.
    static TopologyCounts Counts(SpecString& spec);

    std::string Family() const override;

  private:
    struct Args; // the parsed spec: a base is built before a derived body could parse

    static Args Parse(SpecString& spec, double rateBps, double delayS);
    explicit RingTopology(const Args& args);
};

} // namespace ns3

#endif // PARAMSYNC_RING_TOPOLOGY_H
