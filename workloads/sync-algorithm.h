/*
 * SyncAlgorithm: one synchronization algorithm (ring, hips, ps, ...) that compiles a
 * SyncPlan for a topology and a model. Variants are classes chosen by name through
 * MakeSyncAlgorithm(); options come from the spec ("ring:order=gray,bidir=1").
 */
#ifndef PARAMSYNC_SYNC_ALGORITHM_H
#define PARAMSYNC_SYNC_ALGORITHM_H

#include "model-profile.h"
#include "round-plan.h"
#include "sync-plan.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief Upper bounds of a plan's size by closed form, before it is compiled: what the
 * driver's resource estimate (helper/resource-estimate.h) counts.
 */
struct PlanSizeInputs
{
    uint64_t hosts{0};      //!< the topology's hosts
    uint64_t links{0};      //!< its links (0: unknown), for per-host port counts
    uint64_t modelBytes{0}; //!< the gradient's bytes (0: unknown), for chunked plans
};

struct PlanSizeBound
{
    uint64_t transfers{0};  //!< transfers of one synchronization
    uint64_t queuePairs{0}; //!< distinct (source, destination) host pairs they use
    /// Entries of the transfers' deps, all together; 0 when the algorithm gives none (then
    /// the plan's own PlanMemoryBudget charges, as it is compiled, are the check).
    uint64_t dependencies{0};
    /// The counts bound the plan. False where its size depends on what only compiling finds
    /// (a tree packing's trees, a hierarchy's groups, a model's tensors): the counts are then
    /// what the closed form knows, the plan may be larger, and its PlanMemoryBudget charges
    /// are the check.
    bool bounds{true};
};

/**
 * \brief A synchronization algorithm with its options already parsed.
 */
class SyncAlgorithm
{
  public:
    virtual ~SyncAlgorithm() = default;

    /// \brief Canonical spec with every option spelled out ("ring:order=natural,bidir=0").
    virtual std::string Spec() const = 0;

    /**
     * \brief Whether the algorithm can run on this topology.
     * \param why set to a one-line reason when it cannot (e.g. "hdrm needs a bigraph")
     */
    virtual bool AppliesTo(const Topology& topology, std::string& why) const = 0;

    /**
     * \brief Compiles the plan. Workers are the topology's hosts unless the algorithm
     * reserves some hosts (e.g. dedicated PS servers take the last S hosts).
     * \throws std::invalid_argument when the topology / model cannot be served, naming why
     */
    virtual SyncPlan Compile(const Topology& topology, const ModelProfile& model) const = 0;

    /**
     * \brief The plan in compact round form (RoundPlan), for fluid runs too large for the
     * explicit plan. Step-synchronous algorithms provide it; the default has none.
     * \return std::nullopt when this algorithm, with these options, has no round form on
     * this topology \throws std::invalid_argument as Compile()
     */
    virtual std::optional<RoundPlan> CompileRounds(const Topology& topology,
                                                   const ModelProfile& model) const;

    /**
     * \brief The plan's size by closed form, without compiling. The default bounds a plan in
     * which each worker sends to every other at most twice, each talking to at most
     * 2 ceil(log2 N) peers, with at most two dependencies a transfer (2D ring: 2 N (N - 1)
     * transfers); algorithms with other shapes override it.
     */
    virtual PlanSizeBound SizeBound(const PlanSizeInputs& in) const;

  protected:
    /// \brief 2 N ceil(log2 N): queue pairs of N workers talking to 2 log2 N peers each.
    static uint64_t PeersBound(uint64_t workers);
    /// \brief Throws std::invalid_argument "--algorithm 'SPEC' on TOPOLOGY: why" unless the
    /// algorithm applies to the topology.
    void RequireApplies(const Topology& topology) const;

    /**
     * \brief The header every plan starts with (SyncPlan or RoundPlan): this algorithm's
     * spec, W bytes, `workers` workers, and participants 0..participants-1 on the hosts of
     * the same rank.
     */
    template<typename Plan>
    void
    StartPlan(Plan& plan, uint64_t gradientBytes, uint32_t workers, uint32_t participants) const
    {
        plan.algorithm = Spec();
        plan.gradientBytes = gradientBytes;
        plan.workers = workers;
        for (uint32_t p = 0; p < participants; ++p)
        {
            plan.hostOf.push_back(p);
        }
    }
};

/**
 * \brief Creates an algorithm from a spec ("name:key=value,...").
 * \throws std::invalid_argument naming the spec and the allowed names / options
 */
std::unique_ptr<SyncAlgorithm> MakeSyncAlgorithm(const std::string& spec);

/// \brief Names of every registered algorithm, in the order `--algorithm=all` runs them.
std::vector<std::string> SyncAlgorithmNames();

} // namespace ns3

#endif // PARAMSYNC_SYNC_ALGORITHM_H
