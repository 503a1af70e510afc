/*
 * ParallelSplitPaths: the ideal's paths under --routing=source. A source-routed transfer is
 * striped over one queue pair per path of the family's parallel set (topologies/parallel-
 * paths.h: BCube's BuildPathSet, a torus's rotated dimension orders), in equal parts, as
 * the packet run's queue pairs carry it; each queue pair uses every link of its path whole.
 * Payload at line rate (no framing): the relaxation on these paths (GstLowerBound) is then
 * what no source-routed run can beat, detours included, where the shortest-path split
 * (EcmpSplitPaths) is not.
 */
#ifndef PARAMSYNC_PARALLEL_SPLIT_PATHS_H
#define PARAMSYNC_PARALLEL_SPLIT_PATHS_H

#include "fluid-paths.h"

#include "ns3/parallel-paths.h"

#include <memory>

namespace ns3
{

/**
 * \brief One queue pair per source-routed parallel path, payload at line rate.
 */
class ParallelSplitPaths : public FluidPaths
{
  public:
    /// \brief Paths of `routes` on the topology's graph (both must outlive this).
    ParallelSplitPaths(const Topology& topology, std::shared_ptr<const ParallelPaths> routes);

    uint32_t QueuePairs(HostRank src, HostRank dst) const override;
    /// \throws std::runtime_error naming the pair if the path loops
    std::vector<FluidLinkUse> Uses(HostRank src, HostRank dst, uint32_t qp) const override;
    double WireBytes(uint64_t payload) const override;

  private:
    const Topology& m_topology;
    std::shared_ptr<const ParallelPaths> m_routes;
};

} // namespace ns3

#endif // PARAMSYNC_PARALLEL_SPLIT_PATHS_H
