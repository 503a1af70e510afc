/*
 * FindDirectedCycle: one cycle of a directed graph given as successor lists, found by
 * Boost.Graph's depth-first search (a back edge closes a cycle). The one cycle finder of
 * paramsync: the channel dependency graph of a routing (channel-dependency.h, Dally and
 * Seitz's deadlock-freedom condition) and the stuck-port graph of a running network
 * (helper/pfc-deadlock-detector.h) both ask it.
 */
#ifndef PARAMSYNC_DIRECTED_CYCLE_H
#define PARAMSYNC_DIRECTED_CYCLE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief A cycle of the directed graph whose vertex v has the out-edges successors[v].
 *
 * The search visits roots 0, 1, ... and each vertex's successors in the given order, so the
 * cycle found is deterministic: the first back edge (u, v) of that depth-first search.
 * \return the cycle's vertices in edge order, starting at v (each has an edge to the next,
 * the last to the first); empty when the graph is acyclic
 */
std::vector<uint32_t> FindDirectedCycle(const std::vector<std::vector<uint32_t>>& successors);

} // namespace ns3

#endif // PARAMSYNC_DIRECTED_CYCLE_H
