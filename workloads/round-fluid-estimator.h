/*
 * RoundFluidEstimator: the fluid GST of a RoundPlan. Each distinct round (same flows, same
 * bytes) is solved once by the FluidEstimator, as a plan of independent transfers (the same
 * max-min progressive filling with fractional ECMP, so the two agree), and its duration
 * counts `repeat` times. A ring over 11,664 workers is then one solve of 11,664 flows
 * instead of an event-driven run of 272 M transfers.
 *
 * Memory: one route (its ECMP usage vector) per distinct (source, destination) host pair of
 * the round being solved, and per directed link a running byte count.
 */
#ifndef PARAMSYNC_ROUND_FLUID_ESTIMATOR_H
#define PARAMSYNC_ROUND_FLUID_ESTIMATOR_H

#include "round-plan.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief Outcome of RoundFluidEstimator::Estimate.
 */
struct RoundFluidResult
{
    double gstS{0};             //!< sum over rounds of duration x repeat (s)
    std::vector<double> roundS; //!< per round of the plan: the duration of one repetition
    /// \brief Payload bytes per directed link (FluidResult::DirectedIndex), summed over
    /// every repetition of every round.
    std::vector<double> linkBytes;
    uint64_t solves{0}; //!< distinct rounds solved
};

/**
 * \brief Fluid (max-min, fractional ECMP) execution of a RoundPlan, round by round.
 */
class RoundFluidEstimator
{
  public:
    /**
     * \brief Runs the plan on the topology's routes.
     * \throws std::invalid_argument as FluidEstimator::Estimate does (a participant's host
     * out of range, a flow naming an unknown participant, a used link with rate 0)
     */
    RoundFluidResult Estimate(const Topology& topology, const RoundPlan& plan) const;
};

} // namespace ns3

#endif // PARAMSYNC_ROUND_FLUID_ESTIMATOR_H
