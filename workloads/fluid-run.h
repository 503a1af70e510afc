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
    /// \brief Adds queue pair `i` of (src, dst): its private link uses, and its trunk.
    void AddQueuePair(TransferId t, HostRank src, HostRank dst, uint32_t i);
    /// \brief The trunk holding exactly these uses, created if new (kFluidNone if empty).
    uint32_t InternTrunk(const std::vector<FluidLinkUse>& uses);
    void Start(TransferId t, double now);
    void Post(uint32_t qp, TransferId t, double wireBytes, double now);
    void FinishHead(uint32_t qp, double now, std::vector<TransferId>& done);
    void SetBusy(uint32_t qp, bool busy);
    void Refill(double now);
    /// \brief Brings the links' busy weights, counts and trunk lists up to the busy set.
    void CountBusy();
    /// \brief Adds (busy) or removes the busy count of QP q on its private links.
    void CountPrivate(uint32_t q, int delta);
    /// \brief Brings trunk t's entries in its links up to its busy QP count.
    void CountTrunk(uint32_t t);
    /// \brief Lowers m_keepBelow to a QP's share when it became busy (see Refill).
    void KeepBelowNewShare(uint32_t q);
    /// \brief Adds busy QP q to the QPs to refill (once per refill).
    void Join(uint32_t q);
    /// \brief Adds link l to the refill (once): its residual capacity after the kept QPs,
    /// and its QPs that are not kept join.
    void Reach(uint32_t l);
    /// \brief Reaches every link of trunk t (once per refill).
    void ReachTrunk(uint32_t t);
    /// \brief Sum of the rates of trunk t's kept QPs (once per refill); its other QPs join.
    double TrunkKept(uint32_t t);
    void Fill(double now);
    void FillShared();
    /// \brief Adds the component's QPs to the link weights; returns the highest rate a QP
    /// could get alone on the residuals.
    double WeighComponent();
    /// \brief Freezes the unfrozen QPs crossing link l at `level`.
    void FreezeAt(uint32_t l, double level, size_t& unfrozen);
    void Freeze(uint32_t q, double level, size_t& unfrozen);

    const Topology& m_topology;
    const TopologyGraph& m_graph;
    const SyncPlan& m_plan;
    const FluidPaths& m_paths;
    double m_batchS;
    FluidResult m_result;

    // Static per directed link.
    std::vector<double> m_capacity; //!< bytes/s

    // QPs: those of a host pair are consecutive, from m_qpOfPairDense or m_qpOfPair. A QP's link
    // uses are its private ones (links at its source or destination host), entries [m_qpBegin[q],
    // m_qpBegin[q + 1]), and those of its trunk m_qpTrunk[q]: the rest of its uses, stored once for
    // every QP with the same ones (in a fat-tree, every host pair between the same two edge
    // switches). Per busy (QP, link) entry the run would otherwise hold ~150 M entries for a
    // 1,024-host mesh; with trunks the links list the busy trunks, and a trunk its busy QPs.
    static constexpr uint64_t kDensePairs = uint64_t{1} << 23;
    std::vector<std::pair<uint32_t, uint32_t>> m_qpOfPairDense; //!< first, count per src, dst
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> m_qpOfPair; //!< beyond that
    std::vector<uint32_t> m_qpBegin{0};
    std::vector<uint32_t> m_useLink;
    std::vector<double> m_useFraction;
    std::vector<uint32_t> m_usePos;     //!< position of the entry in its link's busy list
    std::vector<uint32_t> m_qpTrunk;    //!< per QP: its trunk or kFluidNone
    std::vector<uint32_t> m_qpTrunkPos; //!< per busy QP: position in its trunk's busy list

    // Trunks: entries [m_trunkBegin[t], m_trunkBegin[t + 1]).
    std::vector<uint32_t> m_trunkBegin{0};
    std::vector<uint32_t> m_trunkLink;
    std::vector<double> m_trunkFraction;
    std::vector<uint32_t> m_trunkUsePos; //!< position of the entry in its link's trunk list
    std::unordered_map<uint64_t, uint32_t> m_trunkOfHash; //!< first trunk with that hash
    std::vector<uint32_t> m_trunkSameHash;                //!< next trunk with its hash
    std::vector<std::vector<uint32_t>> m_trunkQps;        //!< its busy QPs
    std::vector<uint32_t> m_trunkCounted; //!< busy QPs counted in its links (CountTrunk)
    std::vector<uint8_t> m_trunkDirty;
    std::vector<uint32_t> m_dirtyTrunks;
    std::vector<double> m_trunkBytes;        //!< wire bytes posted on it
    std::vector<uint32_t> m_trunkReached;    //!< refill that reached its links
    std::vector<uint32_t> m_trunkShareStamp; //!< refill that took its shares (m_keepBelow)
    /// \brief Sum of a trunk's kept QPs' rates, and the refill that computed it (one cache
    /// line for the two: Reach reads it for every busy trunk of every link it reaches).
    struct TrunkKeptSum
    {
        double kept{0};
        uint32_t stamp{0};
    };

    std::vector<TrunkKeptSum> m_trunkKept;
    std::vector<uint32_t> m_trunkFillStamp; //!< fill that counted m_trunkUnfrozen
    std::vector<uint32_t> m_trunkUnfrozen;  //!< its unfrozen QPs in this fill
    std::vector<double> m_trunkAlone;       //!< its links' lowest residual / a_l in this fill
    std::vector<uint32_t> m_trunkFreezing;  //!< its QPs frozen at the current level
    std::vector<uint32_t> m_fillTrunks;     //!< trunks of this fill's QPs
    std::vector<uint32_t> m_freezingTrunks; //!< trunks with QPs frozen at the current level
    uint32_t m_fillStamp{0};

    // Dynamic per QP.
    std::vector<double> m_rate;      //!< bytes/s of its head message
    std::vector<double> m_remaining; //!< wire bytes of the head message still to send
    std::vector<double> m_servedAtS; //!< when m_remaining was last brought up to date
    std::vector<uint32_t> m_head;    //!< first queued message or kFluidNone (idle)
    std::vector<uint32_t> m_tail;    //!< last queued message
    std::vector<uint32_t> m_qpStamp;
    std::vector<uint8_t> m_busyAtFill; //!< busy when its rate was last computed
    std::vector<uint8_t> m_counted;    //!< busy in the links' weights and counts (CountBusy)
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

    /// \brief A busy trunk's entry in its link's list.
    struct BusyTrunk
    {
        double fraction; //!< the entry's a_l (a copy of m_trunkFraction: read in every Reach)
        uint32_t entry;  //!< trunk entry
        uint32_t trunk;  //!< its trunk
    };

    std::vector<std::vector<BusyUse>> m_linkUses;     //!< private entries of its busy QPs
    std::vector<std::vector<BusyTrunk>> m_linkTrunks; //!< entries of its busy trunks
    std::vector<uint32_t> m_busyCount;                //!< busy QPs crossing it
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
