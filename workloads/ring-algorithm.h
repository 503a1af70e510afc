/*
 * RingAlgorithm: ring allreduce (Patarasuk & Yuan, JPDC 2009; Baidu's ring allreduce):
 * N-1 reduce-scatter steps then N-1 all-gather steps around a ring of workers, each worker
 * sending one 1/N chunk per step to its successor.
 */
#ifndef PARAMSYNC_RING_ALGORITHM_H
#define PARAMSYNC_RING_ALGORITHM_H

#include "sync-algorithm.h"

namespace ns3
{

/**
 * \brief Ring allreduce. Options: order=natural|topo (topo follows Topology::RingOrder()).
 *
 * Chunks: W split into N parts, the first W mod N one byte longer. Step k of a worker
 * starts once it received step k-1 and sent its own step k-1 (both local).
 * Not yet done: bidir, nics=all, segments (see the issue).
 */
class RingAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "ring[:order=natural|topo]". \throws std::invalid_argument
    explicit RingAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

  private:
    std::string m_order;
};

} // namespace ns3

#endif // PARAMSYNC_RING_ALGORITHM_H
