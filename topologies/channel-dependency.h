/*
 * The channel dependency graph of a topology's routing (Dally and Seitz, "Deadlock-free
 * message routing in multiprocessor interconnection networks", IEEE ToC 1987): a channel
 * is one direction of a link on one lane (one PFC priority); a packet holding a buffer of
 * channel c while it waits for channel c' is a dependency c -> c'. Lossless PFC routing is
 * deadlock-free when this graph has no cycle. Used to check the lane schemes of the
 * families, and to tell whether a topology file's shortest-path routing is safe under PFC.
 */
#ifndef PARAMSYNC_CHANNEL_DEPENDENCY_H
#define PARAMSYNC_CHANNEL_DEPENDENCY_H

#include "topology.h"

#include <vector>

namespace ns3
{

/// \brief One direction of a link on one lane.
struct Channel
{
    LinkIndex link; //!< the link
    NodeIndex from; //!< the end the packets leave from
    uint8_t lane;   //!< the lane (PFC priority offset)
};

/**
 * \brief Finds a cycle of buffer dependencies in the routing of a topology.
 *
 * Follows NextHops from every host (on lane 0) to every destination, so it sees exactly the
 * (node, lane) states packets can reach, with every ECMP choice. A dependency exists where a
 * packet arrives on one channel and leaves on another (switches and relaying hosts; the
 * destination consumes). Cost: hosts x reachable (node, lane) states x ports; meant for
 * tests and for checking topology files up to a few thousand nodes.
 *
 * \return the channels of one dependency cycle in order (each waits for the next, the last
 * for the first), or an empty vector when the routing cannot deadlock under PFC
 * \throws std::runtime_error if NextHops returns a lane >= LaneCount()
 */
std::vector<Channel> FindDependencyCycle(const Topology& topology);

} // namespace ns3

#endif // PARAMSYNC_CHANNEL_DEPENDENCY_H
