/*
 * ConvergenceModel: a small real training problem replayed at the versions an AsyncPsJob
 * applied its updates at, so that staleness and dropped updates show as loss, not only as
 * delay counts (MLFabric, SoCC'20, argues from convergence: bounded delay helps, stragglers
 * slow it; Ho et al., NIPS'13, bound staleness for the same reason).
 *
 * The problem: binary logistic regression, d features, n samples, synthetic and fixed by a
 * seed. Random numbers come from std::mt19937_64 (its output sequence is fixed by the C++
 * standard): a uniform u = (draw >> 11) x 2^-53 in [0, 1), a normal from two uniforms by
 * Box-Muller, z = sqrt(-2 ln(1 - u1)) cos(2 pi u2). In this order: the true weights w* (d
 * normals); then per sample i the features x_i (d normals) and one uniform f_i; the label
 * y_i = 1 if x_i . w* > 0, flipped when f_i < labelNoise.
 *
 * Worker w owns the samples i with i mod N = w (in order); its iteration k uses the
 * minibatch of its samples at positions (k b + j) mod (its count), j = 0..b-1, and the
 * gradient g = (1/b) sum x_i (sigmoid(x_i . theta) - y_i) at the model theta it computed
 * on. The parameters are split over the S shards as AsyncPsJob splits the bytes (equal
 * ranges, the first d mod S one longer); shard s's slice of theta after v updates is kept
 * for every v, so the model a worker computed on is, for each shard, the slice at the
 * version it pulled before that iteration (AsyncPsJob::ComputedOn()). Each applied update
 * subtracts (learningRate / N) g restricted to its shard's slice: N fresh updates make one
 * gradient step of learningRate on the mean of the N minibatch gradients, as synchronous
 * data-parallel SGD does. A dropped update is never applied. The loss after each update is
 * the mean logistic loss over all n samples, log(1 + e^z) - y z with z = x . theta.
 */
#ifndef PARAMSYNC_CONVERGENCE_MODEL_H
#define PARAMSYNC_CONVERGENCE_MODEL_H

#include "async-ps-job.h"
#include "convergence-config.h"

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Logistic regression trained at the versions of an asynchronous PS schedule.
 */
class ConvergenceModel
{
  public:
    /// \throws std::invalid_argument for zero samples/features/batch/workers/shards, more
    /// shards than features, or fewer samples than workers
    ConvergenceModel(const ConvergenceConfig& config, uint32_t workers, uint32_t shards);

    /// \brief The features, one sample a row (n x d).
    const Eigen::MatrixXd&
    Features() const
    {
        return m_x;
    }
    /// \brief The labels, 0 or 1 (n).
    const Eigen::VectorXd&
    Labels() const
    {
        return m_y;
    }
    /// \brief Mean logistic loss of theta over all samples.
    double Loss(const Eigen::VectorXd& theta) const;
    /// \brief Worker w's minibatch gradient of its iteration k at theta.
    Eigen::VectorXd Gradient(uint32_t w, uint32_t k, const Eigen::VectorXd& theta) const;
    /**
     * \brief Applies the updates in order from theta = 0 and returns the loss after each.
     * \param computedOn [worker][iteration][shard]: the version the worker computed on
     * \throws std::invalid_argument when an update names a worker, iteration or shard with
     * no versions, or a version its shard has not reached when it is first applied
     */
    std::vector<double> Replay(const std::vector<AppliedUpdate>& updates,
                               const std::vector<std::vector<std::vector<uint64_t>>>& computedOn);
    /// \brief The model after the last Replay().
    const Eigen::VectorXd&
    Theta() const
    {
        return m_theta;
    }
    /// \brief The first parameter of shard s and the number it holds.
    std::pair<uint32_t, uint32_t> Slice(uint32_t s) const;

  private:
    ConvergenceConfig m_config;                 //!< the problem
    uint32_t m_workers;                         //!< N
    uint32_t m_shards;                          //!< S
    Eigen::MatrixXd m_x;                        //!< features
    Eigen::VectorXd m_y;                        //!< labels
    std::vector<std::vector<uint32_t>> m_owned; //!< per worker, its samples
    Eigen::VectorXd m_theta;                    //!< the model
};

} // namespace ns3

#endif // PARAMSYNC_CONVERGENCE_MODEL_H
