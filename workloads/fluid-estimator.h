/*
 * FluidEstimator: the flow-level ("fluid") execution of a SyncPlan over a
 * topology's routes. It gives the ideal GST printed beside every packet-level
 * result (DESIGN §5, §6) and runs topologies too large for packets. Plain C++:
 * no ns-3 simulation objects.
 *
 * Model
 *  - Payload bytes at line rate: no headers, framing, latency, PFC or
 * congestion control.
 *  - A transfer starts the instant all its dependencies have completed; one
 * between two participants on the same host (co-located) takes zero time.
 *  - Rates are max-min fair, computed by progressive filling (water-filling,
 * Bertsekas and Gallager, "Data Networks", 2nd ed., §6.5.2) and recomputed only
 * at events (a batch of completions and the starts they release).
 *  - Fluid ECMP: at every node a transfer's traffic splits evenly over the
 * equal-cost next hops the routing gives (Topology::NextHops), so a transfer
 * uses each directed link l with a fraction a_l in (0, 1]. Progressive filling
 * with fractional usage raises all unfrozen rates r equally until a link
 * saturates (sum over its flows of a_l r = c_l) and freezes the flows crossing
 * it. This is the "ideal" ECMP: traffic spreads exactly by the split ratios, as
 * with per-packet spraying over infinitely many flowlets; no two flows ever
 * collide on one path through an unlucky hash, unlike per-flow hashing
 *    (Topology::Path), which the packet simulator uses.
 *  - Links are full duplex: the two directions of a link are independent
 * capacities.
 *
 * Efficiency
 *  - Transfers between the same two hosts share one route (its usage vector),
 * and all active transfers of a route always hold equal max-min rates, so
 * filling works on routes with multiplicities, and each route tracks the bytes
 * served per transfer since it was created (a transfer finishes when that
 * counter reaches its finish mark).
 *  - Max-min rates decompose over connected components of the graph "active
 * route - link it uses": an event refills only the components of the routes it
 * changed.
 *  - Completions closer than `batchS` (default 1 ns) form one event. Each such
 * merge moves a completion earlier by less than batchS, so the GST error is
 * below batchS times the number of dependency levels on the critical path
 * (nanoseconds against milliseconds).
 */
#ifndef PARAMSYNC_FLUID_ESTIMATOR_H
#define PARAMSYNC_FLUID_ESTIMATOR_H

#include "sync-plan.h"

#include "ns3/topology-graph.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief What one direction of a link carried during a fluid run.
 */
struct FluidLinkLoad
{
    double bytes{0};       //!< payload bytes carried (fractional under fluid ECMP)
    double utilization{0}; //!< bytes * 8 / (rate * gst); 0 when gst is 0
    uint32_t maxFlows{0};  //!< most transfers with a non-zero share of it at one time
};

/**
 * \brief Outcome of FluidEstimator::Estimate.
 */
struct FluidResult
{
    /// \brief Index into `links` of link `link` in the direction leaving node
    /// `from` (2 * link for a -> b, 2 * link + 1 for b -> a).
    static uint32_t DirectedIndex(const TopologyGraph& graph, LinkIndex link, NodeIndex from);

    double gstS{0};                   //!< completion of the last transfer (s, start at 0)
    std::vector<double> startS;       //!< per transfer id: when its dependencies were done
    std::vector<double> endS;         //!< per transfer id: when its last byte arrived
    std::vector<FluidLinkLoad> links; //!< per directed link, see DirectedIndex
    uint32_t maxConcurrentFlows{0};   //!< maximum of links[].maxFlows
    uint64_t events{0};               //!< event batches processed (rate recomputations)
};

/**
 * \brief Flow-level max-min fair execution of a plan (see the file comment for
 * the model).
 */
class FluidEstimator
{
  public:
    /// \brief Default merge window of near-simultaneous completions (s).
    static constexpr double kDefaultBatchS = 1e-9;

    /// \brief Estimator merging completions closer than kDefaultBatchS.
    FluidEstimator() = default;
    /**
     * \brief Estimator with an explicit merge window.
     * \param batchS completions within batchS of the earliest one form one event
     * (>= 0, s) \throws std::invalid_argument if batchS is negative or not finite
     */
    explicit FluidEstimator(double batchS);

    /**
     * \brief Runs the plan on the topology's routes.
     * \throws std::invalid_argument naming the input when a participant's host is
     * out of range, a transfer names an unknown participant or dependency, a used
     * link has rate 0, or the dependencies form a cycle \throws
     * std::runtime_error if the topology's routing loops
     */
    FluidResult Estimate(const Topology& topology, const SyncPlan& plan) const;

  private:
    double m_batchS{kDefaultBatchS};
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_ESTIMATOR_H
