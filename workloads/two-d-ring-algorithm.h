/*
 * TwoDRingAlgorithm: the hierarchical ("2-D") ring of BlueConnect (Cho, Finkler, Kung,
 * Hunter, "BlueConnect: Decomposing All-Reduce for Deep Learning on Heterogeneous Network
 * Hierarchy", SysML 2019): the allreduce is decomposed into a ring reduce-scatter inside
 * the groups of the first level, a ring reduce-scatter across the second level on the part
 * each worker now owns, then the two all-gathers in reverse order.
 */
#ifndef PARAMSYNC_TWO_D_RING_ALGORITHM_H
#define PARAMSYNC_TWO_D_RING_ALGORITHM_H

#include "sync-algorithm.h"

#include "ns3/topology.h"

#include <vector>

namespace ns3
{

/**
 * \brief Hierarchical ring allreduce, "2d-ring". No options.
 *
 * The two levels:
 *  - a topology whose Dimensions() has exactly two: BCube(n,1) (level 0 = the n servers of
 *    a level-0 switch, level 1 = those of a level-1 switch) and 2-D tori (rows, then
 *    columns). Rings follow the members' order (digit / coordinate), one direction.
 *  - fat-tree and bigraph (our extension; BlueConnect's levels are a node's GPUs and the
 *    nodes): level 0 = the hosts of one edge switch (bigraph: one switch), level 1 = the
 *    hosts with the same slot under every edge switch. Fat-tree: in rank (pod) order, so
 *    consecutive ring members are one pod apart at most. Bigraph: alternating parts, slot i
 *    going from upper switch w to lower switch (w + i) mod S and on to upper w + 1, so
 *    every hop is one inter-part link and, with M <= S, no two slot rings share one (in
 *    rank order the same-part hops would cross the other part on shared links).
 * Other topologies (BCube k >= 2, 3-D tori, ring, star, file) are not served: AppliesTo()
 * says why (it would be a 3-level or 1-level ring, i.e. another algorithm).
 *
 * Laid out by AddHierarchicalAllreduce (see hips-algorithm.h) with one flow, levels 0 then
 * 1, every group a ring (GroupExchange::Ring). Per worker 2(N-1)W/N each way (W divisible by N).
 * Ideal GST with no shared link: 2[(g0-1)/g0 + (g1-1)/(g0 g1)] W / B = 2(N-1)W/(NB), the
 * single-ring term, with rings of g0 and g1 hops instead of N (fewer, larger steps: latency, not
 * bandwidth).
 */
class TwoDRingAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "2d-ring" (no options). \throws std::invalid_argument on any option
    explicit TwoDRingAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;
    /// \brief Round form (AddHierarchicalRounds, one flow); std::nullopt when the groups of
    /// a level differ in size or a sub-chunk would be empty.
    std::optional<RoundPlan> CompileRounds(const Topology& topology,
                                           const ModelProfile& model) const override;

    /// \brief The two levels of groups 2d-ring uses on a topology (empty with `why` set when
    /// it does not apply).
    static std::vector<HostDimension> Levels(const Topology& topology, std::string& why);

  private:
    /// \brief Levels(), \throws std::invalid_argument naming why when it does not apply
    std::vector<HostDimension> CheckedLevels(const Topology& topology) const;
};

} // namespace ns3

#endif // PARAMSYNC_TWO_D_RING_ALGORITHM_H
