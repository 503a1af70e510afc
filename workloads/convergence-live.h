/*
 * LiveGradientNorms: the training problem of ConvergenceModel followed during the run, so
 * that the MLFabric scheduler can order updates by the norm of their real gradient
 * (GradientNorms). It keeps shard s's slice of the model after each of its versions, as
 * ConvergenceModel::Replay() does after the run, and applies each update when the job
 * applies it: the gradient of worker w's iteration k is computed once, on the model at the
 * versions w pulled before computing it (the same gradient Replay() later applies), and
 * its per-shard norms are what the scheduler sees when the push is requested.
 */
#ifndef PARAMSYNC_CONVERGENCE_LIVE_H
#define PARAMSYNC_CONVERGENCE_LIVE_H

#include "convergence-config.h"
#include "convergence-model.h"
#include "gradient-norms.h"

#include <Eigen/Dense>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief ConvergenceModel's gradients, applied as the schedule applies them.
 */
class LiveGradientNorms : public GradientNorms
{
  public:
    /// \throws std::invalid_argument as ConvergenceModel
    LiveGradientNorms(const ConvergenceConfig& config, uint32_t workers, uint32_t shards);

    std::vector<double> Norms(uint32_t w,
                              uint32_t k,
                              const std::vector<uint64_t>& versions) override;
    void Applied(uint32_t w,
                 uint32_t k,
                 uint32_t s,
                 const std::vector<uint64_t>& versions) override;
    void Rollback(uint32_t s, uint64_t version) override;

    /// \brief The model now (every shard at its newest version).
    Eigen::VectorXd Theta() const;

  private:
    /// \brief Worker w's gradient of iteration k on the model at `versions` (cached).
    const Eigen::VectorXd& GradientOf(uint32_t w,
                                      uint32_t k,
                                      const std::vector<uint64_t>& versions);

    ConvergenceModel m_model;                            //!< the problem
    double m_step;                                       //!< learningRate / N
    std::vector<std::vector<Eigen::VectorXd>> m_history; //!< [shard][version] slice
    std::map<std::pair<uint32_t, uint32_t>, Eigen::VectorXd> m_gradients; //!< (w, k)
};

/// \brief A LiveGradientNorms for the job's training problem.
std::unique_ptr<GradientNorms> MakeLiveGradientNorms(const ConvergenceConfig& config,
                                                     uint32_t workers,
                                                     uint32_t shards);

} // namespace ns3

#endif // PARAMSYNC_CONVERGENCE_LIVE_H
