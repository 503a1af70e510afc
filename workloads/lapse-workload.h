/*
 * LapseWorkload: what the driver needs of a workload that runs on a LapsePs (matrix
 * factorization, knowledge-graph embeddings): start it, know when it is done, and read its
 * epoch ends and barrier waits for the metrics.
 */
#ifndef PARAMSYNC_LAPSE_WORKLOAD_H
#define PARAMSYNC_LAPSE_WORKLOAD_H

#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

/// \brief A training workload driven on a LapsePs.
class LapseWorkload
{
  public:
    virtual ~LapseWorkload() = default;
    /// \brief Starts epoch 0 at `at`.
    virtual void Start(Time at) = 0;
    /// \brief Whether every epoch finished.
    virtual bool Finished() const = 0;
    /// \brief End time of each epoch.
    virtual const std::vector<Time>& EpochEnds() const = 0;
    /// \brief Time spent in barriers, summed over workers.
    virtual Time BarrierWait() const = 0;
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_WORKLOAD_H
