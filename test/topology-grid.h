// The topology grid the plan checkers are run over: every family, small and large radices,
// a 3-D torus, a non-square torus (3x5) and sizes that are not powers of two, so chunking,
// rank mapping and routing meet unequal blocks.
#ifndef PARAMSYNC_TEST_TOPOLOGY_GRID_H
#define PARAMSYNC_TEST_TOPOLOGY_GRID_H

#include <string>
#include <vector>

namespace ns3
{

/// Topology specs every algorithm's plan checker test runs over.
inline const std::vector<std::string>&
CheckerTopologyGrid()
{
    static const std::vector<std::string> kGrid = {"bcube:n=2,k=1",
                                                   "bcube:n=3,k=1",
                                                   "bcube:n=4,k=1",
                                                   "bcube:n=2,k=2",
                                                   "bcube:n=3,k=2",
                                                   "torus:dims=2x2",
                                                   "torus:dims=3x5",
                                                   "torus:dims=5x5",
                                                   "torus:dims=3x3x3",
                                                   "fattree:k=4",
                                                   "fattree:k=6",
                                                   "bigraph:s=4,m=4",
                                                   "ring:n=9",
                                                   "star:n=8"};
    return kGrid;
}

} // namespace ns3

#endif
