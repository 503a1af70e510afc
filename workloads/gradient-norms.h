/*
 * GradientNorms: what an AsyncPsJob asks of a live training problem when the MLFabric
 * scheduler orders updates by their gradient norm (MLFabric, SoCC'20 / arXiv:1907.00434:
 * updates with a large norm matter more to convergence, small ones may wait or be dropped
 * within the delay bound). Apart from the model so that the job's header does not pull in
 * Eigen; LiveGradientNorms (convergence-live.h) answers it with ConvergenceModel's real
 * gradients.
 */
#ifndef PARAMSYNC_GRADIENT_NORMS_H
#define PARAMSYNC_GRADIENT_NORMS_H

#include <cstdint>
#include <vector>

namespace ns3
{

/// \brief Gradient norms of a training problem followed as the schedule applies updates.
class GradientNorms
{
  public:
    virtual ~GradientNorms() = default;
    /**
     * \brief Per shard, the L2 norm of the shard's slice of worker w's gradient of its
     * iteration k, computed on the model at `versions` (one per shard, each reached).
     */
    virtual std::vector<double> Norms(uint32_t w,
                                      uint32_t k,
                                      const std::vector<uint64_t>& versions) = 0;
    /// \brief Worker w's update of iteration k, computed on `versions`, was applied to
    /// shard s (its version advances by one).
    virtual void Applied(uint32_t w,
                         uint32_t k,
                         uint32_t s,
                         const std::vector<uint64_t>& versions) = 0;
    /// \brief Shard s rolls back to `version` (its server failed; the replica's state).
    virtual void Rollback(uint32_t s, uint64_t version) = 0;
};

} // namespace ns3

#endif // PARAMSYNC_GRADIENT_NORMS_H
