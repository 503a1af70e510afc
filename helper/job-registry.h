/*
 * JobRegistry: everything --algorithm accepts, in one table (ARCHITECTURE.md, The run seam):
 * sync plans (the algorithms of workloads/sync-algorithm.h), asynchronous PS systems (asp,
 * ssp, mlfabric), the Lapse system, and "none" (--flows alone). Each row names its systems,
 * says them for --help, and prepares what a spec names for the chosen topology and backend:
 * PreparedSystems, one per row of the results table, each of which makes its Job
 * (helper/job.h). "all" runs the rows marked for it. The driver, the --algorithm help text
 * and "all" read this table; adding a kind of system is one file plus one row here
 * (CONTRIBUTING.md).
 */
#ifndef PARAMSYNC_JOB_REGISTRY_H
#define PARAMSYNC_JOB_REGISTRY_H

#include "job.h"

#include "ns3/round-plan.h"
#include "ns3/sync-algorithm.h"
#include "ns3/sync-plan.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Backend;
class DriverOptions;
class Topology;

/**
 * \brief What --algorithm named, prepared for one topology: one row of the results.
 */
class PreparedSystem
{
  public:
    virtual ~PreparedSystem() = default;
    /// \brief Its canonical spec (the algorithm column).
    virtual std::string Spec() const = 0;
    /// \brief Its model's name (the model column); "none" without one.
    virtual std::string ModelName() const = 0;
    /// \brief The job that runs it on a packet network; null: no job (flows alone).
    virtual std::unique_ptr<Job> MakeJob() const = 0;
    /// \brief Its explicit plan (sync plans; a round-form plan holds only its name, sizes
    /// and hosts); null for systems that are no plan.
    virtual const SyncPlan*
    Plan() const
    {
        return nullptr;
    }
    /// \brief Its round form when the fluid backend runs that instead of the plan.
    virtual const RoundPlan*
    Rounds() const
    {
        return nullptr;
    }
};

/// \brief What a registry row prepares from.
struct PrepareContext
{
    const DriverOptions& options; //!< the validated options
    const Topology& topology;     //!< the topology as run (slowed links included)
    const Backend& backend;       //!< the backend that will run it
    bool hasFlows;                //!< --flows given
};

/// \brief The systems one registry row prepared.
using PreparedSystems = std::vector<std::unique_ptr<PreparedSystem>>;

/**
 * \brief The registry of --algorithm.
 */
class JobRegistry
{
  public:
    /// \brief One row: a kind of system.
    struct Entry
    {
        std::vector<std::string> names; //!< spec names it takes (before ':')
        std::string help;               //!< its part of the --algorithm help
        bool inAll;                     //!< --algorithm=all runs each of its names
        /// Prepares specs (each NAME[:opt=v,...]); all: skip what does not apply.
        /// \throws OptionError naming the option and what is allowed
        std::function<void(const std::vector<std::string>& specs,
                           bool all,
                           const PrepareContext& context,
                           PreparedSystems& out)>
            prepare;
        /// Its size by closed form, before anything is prepared (the resource estimate); the
        /// spec is one of `names` with its options.
        /// \throws std::invalid_argument for a spec it cannot read
        std::function<PlanSizeBound(const std::string& spec, const PlanSizeInputs& in)> sizeBound;
    };

    /// \brief The rows, in help order; the last (sync plans) takes every name no other row
    /// takes, so that an unknown name is refused with the sync algorithms' list.
    static const std::vector<Entry>& Entries();
    /// \brief Prepares what --algorithm (context.options.algorithm) names. \throws OptionError
    static PreparedSystems Prepare(const PrepareContext& context);
    /// \brief The --algorithm help text, from the rows.
    static std::string Help();
    /**
     * \brief The size of what --algorithm `spec` runs, by the closed forms of its rows
     * ("all": the rows it runs, transfers and dependencies summed, queue pairs the most of
     * any one, a bound only if each is). \throws std::invalid_argument for a spec its row
     * cannot read
     */
    static PlanSizeBound SizeBound(const std::string& spec,
                                   const PlanSizeInputs& in,
                                   const std::vector<std::string>& leftOutOfAll = {});
    /// \brief The names --algorithm=all runs, in its order.
    static std::vector<std::string> AllNames();
    /// \brief SizeBound over `hosts` hosts, links and model unknown.
    static PlanSizeBound SizeBound(const std::string& spec, uint64_t hosts);

    /// \brief Fluid runs use a plan's round form when its transfers times its workers exceed
    /// this: each transfer holds an N-bit contributor set, which the compiler and the checker
    /// build and combine, so this bounds the explicit plan's 16 MiB of sets and its seconds
    /// of checking (ring over 1,024 hosts: 2.1 M transfers, 6 s and 0.9 GB measured; hips on
    /// a 32x32 torus: 0.5 M transfers, 13 s).
    static constexpr uint64_t kRoundFormAbove = uint64_t{1} << 27;
    /// \brief --algorithm=all above this many hosts runs only the algorithms with a round
    /// form (explicit plans of the others grow as N^2: minutes and gigabytes).
    static constexpr uint32_t kAllExplicitHostLimit = 4096;

  private:
    /// \brief The row that takes spec's name (the sync plans' row for an unknown name).
    static const Entry& EntryOf(const std::string& spec);
};

} // namespace ns3

#endif // PARAMSYNC_JOB_REGISTRY_H
