/*
 * SyncPlan: one synchronization of a gradient, compiled by an algorithm into a DAG of
 * point-to-point transfers (the htsim/ASTRA-sim idea: a collective is a dependency graph).
 * The plan checker proves a plan correct symbolically; the fluid estimator and the packet
 * simulator both execute the same plan.
 */
#ifndef PARAMSYNC_SYNC_PLAN_H
#define PARAMSYNC_SYNC_PLAN_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/// \brief Index of a participant of a plan: workers first (0..W-1), then dedicated servers.
using ParticipantIndex = uint32_t;
/// \brief Index of a transfer in SyncPlan::transfers (equal to its id).
using TransferId = uint32_t;

/**
 * \brief A set of workers whose gradient contributions are summed in some data.
 *
 * A bitset over worker indices. Small API so the representation can change.
 */
class ContributorSet
{
  public:
    ContributorSet() = default;
    /// \brief Empty set over `workers` workers.
    explicit ContributorSet(uint32_t workers);
    /// \brief The set {worker} over `workers` workers.
    static ContributorSet Single(uint32_t workers, uint32_t worker);
    /// \brief The set of all `workers` workers.
    static ContributorSet All(uint32_t workers);

    /// \brief Adds one worker.
    void Add(uint32_t worker);
    /// \brief True if worker is in the set.
    bool Contains(uint32_t worker) const;
    /// \brief Number of workers in the set.
    uint32_t Count() const;
    /// \brief True if the set holds every worker.
    bool IsFull() const;
    /// \brief True if the two sets share a worker (summing them would double count).
    bool Intersects(const ContributorSet& other) const;
    /// \brief True if every worker of this set is in other.
    bool IsSubsetOf(const ContributorSet& other) const;
    /// \brief Adds every worker of other.
    void UnionWith(const ContributorSet& other);
    /// \brief Equality.
    bool operator==(const ContributorSet& other) const;
    /// \brief "{0,1,5-9}" for dumps and error messages.
    std::string ToString() const;

  private:
    uint32_t m_workers{0};
    std::vector<uint64_t> m_bits;
};

/// \brief What the receiver does with the bytes of a transfer.
enum class TransferOp : uint8_t
{
    Reduce, //!< add the carried partial sum into the receiver's copy of the range
    Copy,   //!< replace the receiver's copy of the range with the carried data
};

/**
 * \brief One point-to-point message of a plan.
 *
 * It starts at src once every transfer in deps has completed (as seen by src: each
 * dependency must have src as its source or its destination, so src knows locally).
 * It carries the byte range [offset, offset + bytes) of the flattened gradient, holding
 * the sum of the contributions of `carries`.
 */
struct Transfer
{
    TransferId id;
    ParticipantIndex src;
    ParticipantIndex dst;
    uint64_t offset;              //!< first byte of the range in the flattened gradient
    uint64_t bytes;               //!< length of the range, > 0
    TransferOp op;                //!< what dst does with it
    ContributorSet carries;       //!< workers whose contributions the data sums
    std::vector<TransferId> deps; //!< must complete before this starts
    uint32_t chunk;               //!< algorithm's chunk / segment label (for traces)
    uint32_t phase;               //!< algorithm's phase / step label (for traces)
};

/**
 * \brief A compiled synchronization: participants, where they run, and the transfers.
 */
struct SyncPlan
{
    std::string algorithm;     //!< name with options, e.g. "ring:bidir=1"
    uint64_t gradientBytes{0}; //!< W: bytes of the flattened gradient of one worker
    uint32_t workers{0};       //!< participants 0..workers-1 contribute a gradient
    /// \brief Host rank in the topology of each participant (workers, then dedicated
    /// servers); this is where rank mapping (e.g. EFLOPS hdrm) is expressed.
    std::vector<uint32_t> hostOf;
    std::vector<Transfer> transfers; //!< transfers[i].id == i; deps point backwards

    /// \brief Number of participants (workers and dedicated servers).
    uint32_t
    ParticipantCount() const
    {
        return static_cast<uint32_t>(hostOf.size());
    }
    /// \brief Appends a transfer, assigning its id; returns the id.
    TransferId Add(Transfer transfer);
    /// \brief Readable multi-line dump: one transfer a line with its range, op, carries, deps.
    std::string Dump() const;
};

/// \brief Thrown by SyncPlan::Add past the memory a PlanMemoryBudget allows.
class PlanTooLarge : public std::length_error
{
  public:
    using std::length_error::length_error;
};

/**
 * \brief While one lives, every SyncPlan::Add (on the driver's thread) charges the transfer's
 * memory to it, and the Add that would take the charges past the budget throws PlanTooLarge
 * naming how far the plan got.
 *
 * Why: a run's memory is checked before anything is built (helper/resource-estimate.h)
 * from each algorithm's closed-form size, and a closed form can only count what is known
 * before compiling; a plan whose size is the topology's (HiPS's levels and groups) or whose
 * dependencies have no closed form (tree packing: the root's sends down wait on all of its
 * children) would otherwise take the machine's memory while it is compiled, as mesh did
 * before its 10^9 dependencies at 1,024 hosts were counted. The charge per transfer and per
 * dependency is what the run will hold for it (the plan, the application state, the result row:
 * resource-estimate.cc measures them), so the plan stops once its run would not fit, having
 * allocated less than that.
 */
class PlanMemoryBudget
{
  public:
    /// \param bytes what the plans compiled in this scope may take
    /// \param perTransfer bytes a run holds per transfer
    /// \param perDependency bytes a run holds per entry of a transfer's deps
    PlanMemoryBudget(uint64_t bytes, double perTransfer, double perDependency);
    ~PlanMemoryBudget();
    PlanMemoryBudget(const PlanMemoryBudget&) = delete;
    PlanMemoryBudget& operator=(const PlanMemoryBudget&) = delete;

    /// \brief Bytes charged so far.
    double Charged() const;
    /// \brief The innermost live budget, or nullptr.
    static PlanMemoryBudget* Active();
    /// \brief Charge one transfer with `deps` dependencies; throws PlanTooLarge past the
    /// budget (transfers: the plan's count before it).
    void Charge(std::size_t transfers, std::size_t deps);

  private:
    double m_budget;            //!< bytes the plans of this scope may take
    double m_perTransfer;       //!< charge per transfer
    double m_perDependency;     //!< charge per dependency
    double m_charged{0};        //!< bytes charged so far
    uint64_t m_dependencies{0}; //!< dependencies charged (for the message)
    PlanMemoryBudget* m_outer;  //!< the scope this one replaced
};

} // namespace ns3

#endif // PARAMSYNC_SYNC_PLAN_H
