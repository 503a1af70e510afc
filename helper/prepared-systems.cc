#include "prepared-systems.h"

#include "backend.h"
#include "driver-options.h"
#include "jobs.h"
#include "resource-estimate.h"

#include "ns3/async-ps-spec.h"
#include "ns3/lapse-spec.h"
#include "ns3/model-profile.h"
#include "ns3/ps-network-view.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <iostream>
#include <new>
#include <optional>

namespace ns3
{

OptionError
AsOptionError(const std::string& option, const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
    {
        throw; // out of memory is not the option's fault: the driver's Main reports it
    }
    std::string msg = e.what();
    // One line: a multi-line message keeps its first line.
    msg = msg.substr(0, msg.find('\n'));
    if (msg.rfind(option, 0) == 0)
    {
        return OptionError(msg);
    }
    return OptionError(option + ": " + msg);
}

namespace
{

/// --model loaded, its errors named as --model's.
std::shared_ptr<const ModelProfile>
LoadModel(const DriverOptions& o)
{
    try
    {
        return std::make_shared<const ModelProfile>(ModelProfile::Load(o.model, o.modelsDir));
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--model", e);
    }
}

/// A sync plan (or its round form) run by a SyncPlanJob.
class PlanSystem : public PreparedSystem
{
  public:
    PlanSystem(std::string spec,
               std::shared_ptr<const ModelProfile> model,
               SyncPlan plan,
               std::optional<RoundPlan> rounds,
               const SyncJobConfig& config)
        : m_spec(std::move(spec)),
          m_model(std::move(model)),
          m_plan(std::move(plan)),
          m_rounds(std::move(rounds)),
          m_config(config)
    {
    }

    std::string
    Spec() const override
    {
        return m_spec;
    }

    std::string
    ModelName() const override
    {
        return m_model->Name();
    }

    std::unique_ptr<Job>
    MakeJob() const override
    {
        return std::make_unique<SyncPlanJob>(m_plan, m_model->Tensors(), m_config);
    }

    const SyncPlan*
    Plan() const override
    {
        return &m_plan;
    }

    const RoundPlan*
    Rounds() const override
    {
        return m_rounds ? &*m_rounds : nullptr;
    }

  private:
    std::string m_spec;                          //!< canonical algorithm spec
    std::shared_ptr<const ModelProfile> m_model; //!< shared by the plans of one run
    SyncPlan m_plan;                             //!< the plan (sizes only with rounds)
    std::optional<RoundPlan> m_rounds;           //!< round form, fluid runs of large plans
    SyncJobConfig m_config;                      //!< iterations, compute, overlap, straggler
};

/// The SyncJob settings of the options.
SyncJobConfig
JobConfig(const DriverOptions& o)
{
    SyncJobConfig config;
    config.iterations = o.iterations;
    config.compute = Seconds(o.computeS);
    config.overlap = o.overlap;
    config.straggler = o.straggler;
    config.stragglerFactor = o.stragglerFactor;
    return config;
}

/// Refuses a --straggler that is not one of `workers` workers.
void
CheckStraggler(const DriverOptions& o, uint64_t workers)
{
    if (o.straggler >= 0 && static_cast<uint64_t>(o.straggler) >= workers)
    {
        throw OptionError("--straggler: " + std::to_string(o.straggler) +
                          " is not a worker; allowed: 0.." + std::to_string(workers - 1) +
                          " or -1");
    }
}

/**
 * One algorithm's plan, or its round form when the backend uses round forms and the plan is
 * large; false when "all" skips it (skipped names it when only its size is the reason).
 */
bool
CompilePlan(const SyncAlgorithm& algorithm,
            bool all,
            const PrepareContext& c,
            const ModelProfile& model,
            SyncPlan& plan,
            std::optional<RoundPlan>& rounds,
            std::string& skipped)
{
    const Topology& topology = c.topology;
    if (c.backend.UsesRoundForms())
    {
        rounds = algorithm.CompileRounds(topology, model);
        if (rounds && rounds->TransferCount() * rounds->workers <= JobRegistry::kRoundFormAbove)
        {
            rounds.reset(); // small enough to build and check explicitly
        }
    }
    if (!rounds && all && topology.Graph().HostCount() > JobRegistry::kAllExplicitHostLimit)
    {
        // "all" at this size runs what has the compact round form; an explicit plan
        // (mesh alone has 2 N (N - 1) transfers) would take minutes and gigabytes.
        skipped += (skipped.empty() ? "" : ", ") + algorithm.Spec();
        return false;
    }
    if (rounds)
    {
        plan.algorithm = rounds->algorithm;
        plan.gradientBytes = rounds->gradientBytes;
        plan.workers = rounds->workers;
        plan.hostOf = rounds->hostOf;
    }
    else
    {
        plan = algorithm.Compile(topology, model);
    }
    return true;
}

} // namespace

void
PrepareSyncPlans(const std::vector<std::string>& specs,
                 bool all,
                 const PrepareContext& c,
                 PreparedSystems& out)
{
    const auto model = LoadModel(c.options);
    const size_t first = out.size();
    std::string skipped;  // "all" at a size only compact forms serve
    std::string tooLarge; // "all": the algorithms whose plans would not fit the memory limit
    // Every plan is compiled under what the memory limit leaves the plans (a closed form may
    // under-count one: workloads/sync-plan.h, PlanMemoryBudget); the plans kept share it.
    const ResourceEstimate::PlanAllowance allowance = ResourceEstimate::PlanAllowanceOf(c.options);
    double planBytesKept = 0;
    for (const auto& spec : specs)
    {
        std::unique_ptr<SyncAlgorithm> algorithm;
        try
        {
            algorithm = MakeSyncAlgorithm(spec);
        }
        catch (const std::exception& e)
        {
            throw AsOptionError("--algorithm", e);
        }
        std::string why;
        if (!algorithm->AppliesTo(c.topology, why))
        {
            if (all)
            {
                continue;
            }
            throw OptionError("--algorithm: " + algorithm->Spec() + " does not apply to " +
                              c.topology.Spec() + ": " + why);
        }
        SyncPlan plan;
        std::optional<RoundPlan> rounds;
        try
        {
            std::optional<PlanMemoryBudget> budget;
            if (allowance.bytes > 0)
            {
                budget.emplace(static_cast<uint64_t>(std::max(
                                   1.0, static_cast<double>(allowance.bytes) - planBytesKept)),
                               allowance.perTransfer,
                               allowance.perDependency);
            }
            if (!CompilePlan(*algorithm, all, c, *model, plan, rounds, skipped))
            {
                continue;
            }
            planBytesKept += budget ? budget->Charged() : 0;
        }
        catch (const PlanTooLarge& e)
        {
            std::string source;
            const std::string why =
                "--algorithm: " + algorithm->Spec() + " on " + c.topology.Spec() + ": " + e.what() +
                " (limit " +
                ResourceEstimate::Size(
                    static_cast<double>(ResourceEstimate::MemoryLimit(c.options, source))) +
                ", " + source +
                "); allowed: a smaller topology, model or option count (segments, blocks, "
                "chunk), or --max-memory=SIZE";
            if (!all)
            {
                throw OptionError(why);
            }
            tooLarge += (tooLarge.empty() ? "" : ", ") + algorithm->Spec();
            continue;
        }
        catch (const std::exception& e)
        {
            if (all)
            {
                // "all" runs what applies; an algorithm that cannot serve this size does not.
                continue;
            }
            throw AsOptionError("--algorithm", e);
        }
        out.push_back(std::make_unique<PlanSystem>(
            algorithm->Spec(), model, std::move(plan), std::move(rounds), JobConfig(c.options)));
    }
    if (!tooLarge.empty())
    {
        std::cerr << "paramsync: --algorithm=all skips the algorithms whose plans would not fit "
                     "the memory limit ("
                  << tooLarge << "); name one to see how far it got" << std::endl;
    }
    if (!skipped.empty())
    {
        std::cerr << "paramsync: --algorithm=all at " << c.topology.Graph().HostCount()
                  << " hosts skips the algorithms without a compact form (" << skipped
                  << "); name one to run it anyway" << std::endl;
    }
    if (out.size() == first)
    {
        throw OptionError("--algorithm: no algorithm applies to " + c.topology.Spec() +
                          "; allowed: a topology some algorithm serves");
    }
    CheckStraggler(c.options, out[first]->Plan()->workers);
}

void
PrepareAsyncPs(const std::vector<std::string>& specs,
               bool /* all */,
               const PrepareContext& c,
               PreparedSystems& out)
{
    const DriverOptions& o = c.options;
    const TopologyGraph& graph = c.topology.Graph();
    AsyncPsSpec spec;
    try
    {
        spec = AsyncPsSpec::Parse(specs.front(), graph.HostCount());
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--algorithm", e);
    }
    if (!c.backend.SimulatesPackets())
    {
        throw OptionError("--backend: " + spec.canonical +
                          " is an asynchronous training loop, simulated packet by packet only; "
                          "allowed: --backend=packet");
    }
    const auto model = LoadModel(o);
    AsyncPsConfig config;
    spec.ApplyTo(config, graph.HostCount());
    config.modelBytes = model->TotalBytes();
    config.iterations = o.iterations;
    config.compute = Seconds(o.computeS);
    config.straggler = o.straggler;
    config.stragglerFactor = o.stragglerFactor;
    if (config.modelBytes < config.servers)
    {
        throw OptionError("--model: " + std::to_string(config.modelBytes) +
                          " bytes cannot be sharded over " + std::to_string(config.servers) +
                          " servers; allowed: at least one byte per server");
    }
    CheckStraggler(o, config.workers);
    // The scheduler's network-aware completion time uses each worker's fastest port (a
    // --slow-link on a worker's cable makes it a network straggler).
    for (uint32_t w = 0; w < config.workers; ++w)
    {
        const NodeIndex v = graph.HostNode(w);
        double rate = 0;
        for (uint32_t p = 0; p < graph.Ports(v).size(); ++p)
        {
            rate = std::max(rate, graph.Link(graph.LinkAt(v, p)).rateBps);
        }
        config.workerRateBps.push_back(rate);
    }
    // MLFabric's SJF estimates completion times over the live backlog of each push's path.
    config.paths = PsPaths::FromTopology(c.topology);
    out.push_back(std::make_unique<JobSystem>(spec.canonical, model->Name(), [config]() {
        return std::make_unique<AsyncPsSystemJob>(config);
    }));
}

void
PrepareLapse(const std::vector<std::string>& specs,
             bool /* all */,
             const PrepareContext& c,
             PreparedSystems& out)
{
    LapseSpec spec;
    try
    {
        spec = LapseSpec::Parse(specs.front(), c.topology.Graph().HostCount());
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--algorithm", e);
    }
    if (!c.backend.SimulatesPackets())
    {
        throw OptionError("--backend: " + spec.canonical +
                          " is a parameter-server protocol, simulated packet by packet only; "
                          "allowed: --backend=packet");
    }
    spec.SetEpochs(c.options.iterations);
    out.push_back(std::make_unique<JobSystem>(spec.canonical, spec.workload, [spec]() {
        return std::make_unique<LapseSystemJob>(spec);
    }));
}

void
PrepareFlowsOnly(const std::vector<std::string>& /* specs */,
                 bool /* all */,
                 const PrepareContext& c,
                 PreparedSystems& out)
{
    if (!c.hasFlows)
    {
        throw OptionError("--algorithm: 'none' runs no sync job; allowed only with --flows");
    }
    out.push_back(std::make_unique<JobSystem>("none", "none", nullptr));
}

} // namespace ns3
