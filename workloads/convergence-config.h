/*
 * ConvergenceConfig: the training problem an asynchronous PS run replays its schedule on
 * (ConvergenceModel, convergence-model.h): binary logistic regression on a synthetic data
 * set fixed by a seed. Apart from the model so that AsyncPsConfig can carry it without
 * pulling in Eigen.
 */
#ifndef PARAMSYNC_CONVERGENCE_CONFIG_H
#define PARAMSYNC_CONVERGENCE_CONFIG_H

#include <cstdint>

namespace ns3
{

/// \brief The training problem: what ConvergenceModel trains.
struct ConvergenceConfig
{
    uint32_t samples{4096};   //!< n
    uint32_t features{32};    //!< d
    uint32_t batch{64};       //!< b, samples per worker per iteration
    double learningRate{1.0}; //!< step of N fresh updates (dimensionless)
    double labelNoise{0.05};  //!< probability a label is flipped
    uint64_t seed{1};         //!< of std::mt19937_64
};

} // namespace ns3

#endif // PARAMSYNC_CONVERGENCE_CONFIG_H
