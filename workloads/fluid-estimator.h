/*
 * FluidEstimator: the flow-level ("fluid") execution of a SyncPlan over a
 * topology's routes. It gives the ideal GST printed beside every packet-level
 * result (ARCHITECTURE.md, Workloads and Outputs) and runs topologies too large for packets. Plain
 * C++: no ns-3 simulation objects.
 *
 * Model
 *  - Transfers travel on queue pairs (FluidPaths, fluid-paths.h): a transfer is striped
 * in equal parts over the queue pairs of its host pair, and a queue pair serves its
 * messages one at a time in the order they were posted (RC queue pairs are FIFOs, as
 * RoceNic sends them, model/roce-nic.h), so the transfers queued behind the head of a
 * queue pair wait rather than share it. A transfer ends when its last part does.
 *  - The ideal (EcmpSplitPaths, the default): one queue pair per host pair, whose traffic
 * splits evenly over the equal-cost next hops at every node (Topology::NextHops), so it
 * uses each directed link l with a fraction a_l in (0, 1] ("perfect split", as with
 * per-packet spraying); payload bytes at line rate: no headers, framing, latency, PFC or
 * congestion control. The routed bound (PinnedPaths): the packet run's queue pairs on the
 * one path each takes, with framed messages.
 *  - A transfer is posted the instant all its dependencies have completed; one between
 * two participants on the same host (co-located) takes zero time.
 *  - The rates of the busy queue pairs are max-min fair, computed by progressive filling
 * (water-filling, Bertsekas and Gallager, "Data Networks", 2nd ed., §6.5.2) with
 * fractional usage: all unfrozen rates rise equally until a link saturates (sum over its
 * queue pairs of a_l r = c_l), freezing the queue pairs crossing it.
 *  - Links are full duplex: the two directions of a link are independent capacities.
 *
 * Efficiency
 *  - Max-min rates depend only on which queue pairs are busy: when a queue pair moves on
 * to its next message nothing else changes, and only a queue pair becoming busy or idle
 * triggers a refill. The queue pairs whose rate is below the lowest rate that changed keep
 * theirs (progressive filling runs identically below that level; the proof is at
 * FluidRun::Refill) and are fixed loads for the rest, whose max-min problem decomposes over
 * the connected components of the graph "queue pair not kept - link it uses": only the
 * components that hold a changed queue pair are refilled, found by a search that stops at
 * kept queue pairs, and the filling stops once its last queue pair froze. A queue pair
 * refilled to the rate it had keeps its pending completion.
 *  - Shared trunks: a queue pair's uses of the links at its own two hosts are its own; the
 * rest (its "trunk") is stored once for every queue pair with exactly the same uses (in a
 * fat-tree, all host pairs between the same two edge switches: 64 on fattree:k=16). The
 * links list their busy trunks and a trunk its busy queue pairs, so memory follows the
 * distinct trunks, not queue pairs x path length; a refill sums a trunk's kept rates once
 * for all its links, and the queue pairs of a trunk frozen at one level leave its links in
 * one update. The max-min problem is the same; sums are taken in another order, so rates
 * may differ in the last bits (bench/fluid-bench.cc: GSTs identical to 17 digits).
 *  - One pending completion per busy queue pair, in a heap indexed by queue pair (updated
 * in place, no outdated entries); message slots are reused, so memory follows the
 * messages in flight, not the plan.
 *  - Completions closer than `batchS` (default 1 ns) form one event. Each such merge
 * moves a completion earlier by less than batchS, so the GST error is below batchS times
 * the number of messages on the critical path (nanoseconds against milliseconds).
 */
#ifndef PARAMSYNC_FLUID_ESTIMATOR_H
#define PARAMSYNC_FLUID_ESTIMATOR_H

#include "fluid-paths.h"
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
    uint32_t maxFlows{0};  //!< most busy queue pairs with a non-zero share of it at one time
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
    uint64_t events{0};               //!< rate recomputations (a queue pair became busy or idle)
    uint64_t queuePairs{0};           //!< queue pairs used
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
    /// \brief As Estimate(topology, plan), on the given queue pairs and paths (e.g. the
    /// routed bound's PinnedPaths) instead of the ideal's EcmpSplitPaths.
    FluidResult Estimate(const Topology& topology,
                         const SyncPlan& plan,
                         const FluidPaths& paths) const;

  private:
    double m_batchS{kDefaultBatchS};
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_ESTIMATOR_H
