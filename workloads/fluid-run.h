/*
 * FluidRun: one execution of the fluid estimator (workloads/fluid-estimator.cc), shared by
 * its two source files: fluid-estimator.cc (set-up, queue pairs, messages, the event loop)
 * and fluid-refill.cc (the max-min rate refill). Internal: use FluidEstimator.
 */
#ifndef PARAMSYNC_FLUID_RUN_H
#define PARAMSYNC_FLUID_RUN_H

#include "fluid-estimator.h"
#include "fluid-heaps.h"

#include "ns3/topology.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/// No message / no queue pair.
constexpr uint32_t kFluidNone = ~0u;

/**
 * One fluid execution. A queue pair (QP) is busy while it holds posted messages; only its
 * head message is served, at the QP's max-min rate. A message is one part of a transfer.
 */
class FluidRun
{
  public:
    FluidRun(const Topology& topology, const SyncPlan& plan, const FluidPaths& paths, double batchS)
        : m_topology(topology),
          m_graph(topology.Graph()),
          m_plan(plan),
          m_paths(paths),
          m_batchS(batchS)
    {
    }

    FluidResult Run();

  private:
    void Validate() const;
    /// \brief Sizes the per-directed-link arrays (capacity in bytes/s).
    void InitLinks();
    /// \brief Counts each transfer's dependencies and lists its dependents (CSR).
    void InitDependencies();
    /// \brief Runs the event loop until no message is left (fills startS and endS).
    void Simulate();
    /// \brief Checks every transfer ran; fills gstS, utilization and flow counts.
    void Summarize();
    uint32_t QueuePairsOf(TransferId t, uint32_t& count);
    void Start(TransferId t, double now);
    void Post(uint32_t qp, TransferId t, double wireBytes, double now);
    void FinishHead(uint32_t qp, double now, std::vector<TransferId>& done);
    void SetBusy(uint32_t qp, bool busy);
    void Refill(double now);
    /// \brief Adds busy QP q to the QPs to refill (once per refill).
    void Join(uint32_t q);
    /// \brief Adds link l to the refill (once): its residual capacity after the kept QPs,
    /// and its QPs that are not kept join.
    void Reach(uint32_t l);
    void Fill(double now);
    void FillShared();

    const Topology& m_topology;
    const TopologyGraph& m_graph;
    const SyncPlan& m_plan;
    const FluidPaths& m_paths;
    double m_batchS;
    FluidResult m_result;

    // Static per directed link.
    std::vector<double> m_capacity; //!< bytes/s

    // QPs: those of a host pair are consecutive, from m_qpOfPair; usage entries of QP q are
    // [m_qpBegin[q], m_qpBegin[q + 1]).
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> m_qpOfPair; //!< first, count
    std::vector<uint32_t> m_qpBegin{0};
    std::vector<uint32_t> m_useLink;
    std::vector<double> m_useFraction;
    std::vector<uint32_t> m_usePos; //!< position of the entry in its link's busy list

    // Dynamic per QP.
    std::vector<double> m_rate;      //!< bytes/s of its head message
    std::vector<double> m_remaining; //!< wire bytes of the head message still to send
    std::vector<double> m_servedAtS; //!< when m_remaining was last brought up to date
    std::vector<uint32_t> m_head;    //!< first queued message or kFluidNone (idle)
    std::vector<uint32_t> m_tail;    //!< last queued message
    std::vector<uint32_t> m_qpStamp;
    std::vector<uint8_t> m_busyAtFill; //!< busy when its rate was last computed
    std::vector<double> m_oldRate;     //!< its rate before the current fill
    FluidCompletionHeap m_heap;

    // Messages in flight (slots reused through m_freeMessage).
    std::vector<TransferId> m_messageTransfer;
    std::vector<double> m_messageBytes;
    std::vector<uint32_t> m_messageNext;
    std::vector<uint32_t> m_freeMessage;

    // Dynamic per directed link.
    /// \brief A busy QP's usage entry in its link's list.
    struct BusyUse
    {
        uint32_t use; //!< usage entry
        uint32_t qp;  //!< its QP
    };

    std::vector<std::vector<BusyUse>> m_linkUses; //!< usage entries of its busy QPs
    std::vector<uint32_t> m_linkStamp;
    std::vector<double> m_residual;
    std::vector<double> m_weight;
    std::vector<double> m_busyWeight; //!< sum of a_l over its busy QPs
    std::vector<uint32_t> m_unfrozen;

    // Transfers.
    std::vector<uint32_t> m_partsLeft;
    std::vector<uint32_t> m_pendingDeps;
    std::vector<uint32_t> m_dependentsBegin;
    std::vector<TransferId> m_dependents;
    uint64_t m_completed{0};

    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_componentQps;
    std::vector<uint32_t> m_componentLinks;
    FluidLevelHeap m_levels; //!< filling heap
    uint32_t m_stamp{0};
    double m_keepBelow{0}; //!< QPs that stay busy with a rate below this keep it (Refill)
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_RUN_H
