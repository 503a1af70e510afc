/*
 * RankPartition: which MPI rank (ns-3 system id) simulates each node of a topology, chosen to
 * keep links inside a rank (README "Running across MPI ranks"). Plain C++ on the
 * TopologyGraph: no ns-3, no MPI, so it is tested in every build.
 */
#ifndef PARAMSYNC_RANK_PARTITION_H
#define PARAMSYNC_RANK_PARTITION_H

#include "ns3/topology-graph.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief A placement of a graph's nodes on ranks.
 *
 * Hosts go to ranks in contiguous blocks of host ranks (host h to rank h * R / H). Every
 * family numbers its hosts group by group (topologies/README.md), so the blocks are whole
 * fat-tree pods, BCube groups of one top (level-k) digit, torus slabs of one leading
 * coordinate, or star/ring halves whenever the groups divide evenly over the ranks. Each
 * switch then joins the rank most of its links lead to, visited nearest-to-hosts first (a
 * fat-tree's edge, then aggregation switches follow their pod); a tie (a core switch, one link
 * per pod; a BCube level-k switch) goes to the rank with the fewest nodes so far, so the work
 * stays balanced.
 */
class RankPartition
{
  public:
    /**
     * \brief Places graph's nodes on `ranks` ranks.
     * \throws std::invalid_argument when ranks is 0 or more than the hosts.
     */
    RankPartition(const TopologyGraph& graph, uint32_t ranks);

    /// \brief Number of ranks.
    uint32_t
    Ranks() const
    {
        return m_ranks;
    }
    /// \brief The rank of a node.
    uint32_t
    RankOf(NodeIndex node) const
    {
        return m_rank.at(node);
    }
    /// \brief Links whose two ends are on different ranks.
    uint32_t
    CutLinks() const
    {
        return m_cut;
    }
    /// \brief Nodes placed on a rank.
    uint32_t NodesOn(uint32_t rank) const;

  private:
    /// \brief Places every switch after the hosts, nearest-to-hosts first.
    void PlaceSwitches(const TopologyGraph& graph);

    uint32_t m_ranks;             //!< ranks
    std::vector<uint32_t> m_rank; //!< rank of each node
    uint32_t m_cut{0};            //!< cut links
};

} // namespace ns3

#endif // PARAMSYNC_RANK_PARTITION_H
