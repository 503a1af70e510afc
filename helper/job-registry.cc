#include "job-registry.h"

#include "driver-options.h"
#include "prepared-systems.h"

#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Parameter-server systems: a push and a pull per worker and iteration (what the estimate
/// holds as transfers of one round).
PlanSizeBound
PushAndPullPerWorker(const std::string& /* spec */, const PlanSizeInputs& in)
{
    return {2 * in.hosts, 2 * in.hosts};
}

/// The names of `entry` that --algorithm=all runs: none unless the entry is in "all", and
/// none the resource guard left out.
std::vector<std::string>
NamesInAll(const JobRegistry::Entry& entry, const std::vector<std::string>& leftOutOfAll)
{
    std::vector<std::string> names;
    for (const std::string& name : entry.inAll ? entry.names : std::vector<std::string>{})
    {
        if (std::find(leftOutOfAll.begin(), leftOutOfAll.end(), name) == leftOutOfAll.end())
        {
            names.push_back(name);
        }
    }
    return names;
}

} // namespace

const std::vector<JobRegistry::Entry>&
JobRegistry::Entries()
{
    // One row per kind of system: names, help, whether "all" runs it, its prepare function.
    static const std::vector<Entry> entries = {
        {{"asp", "ssp", "mlfabric"},
         "an asynchronous PS system (asp, ssp:bound=B, mlfabric:delay=D; packet only)",
         false,
         PrepareAsyncPs,
         PushAndPullPerWorker},
        {{"lapse"},
         "lapse:workload=mf|kge|wv,mode=dynamic|classic|ssp,preset=paper,nodes=N (matrix "
         "factorization, knowledge-graph embeddings or word vectors on a Lapse PS or a "
         "bounded-staleness PS on hosts 0..N-1; nodes=1 uses host 0 of any topology; packet "
         "only)",
         false,
         PrepareLapse,
         PushAndPullPerWorker},
        {{"none"},
         "none: no job, the --flows alone",
         false,
         PrepareFlowsOnly,
         [](const std::string&, const PlanSizeInputs&) { return PlanSizeBound{}; }},
        {SyncAlgorithmNames(),
         "",
         true,
         PrepareSyncPlans,
         [](const std::string& spec, const PlanSizeInputs& in) {
             return MakeSyncAlgorithm(spec)->SizeBound(in);
         }},
    };
    return entries;
}

std::string
JobRegistry::Help()
{
    const auto& entries = Entries();
    const Entry& plans = entries.back();
    std::string names;
    for (const std::string& n : plans.names)
    {
        names += (names.empty() ? "" : ", ") + n;
    }
    std::string help = "sync algorithm spec NAME[:opt=v,...] (" + names +
                       "), 'all' for every one that applies to the topology";
    for (size_t i = 0; i + 1 < entries.size(); ++i)
    {
        help += ", or " + entries[i].help;
    }
    return help;
}

PlanSizeBound
JobRegistry::SizeBound(const std::string& spec, uint64_t hosts)
{
    PlanSizeInputs in;
    in.hosts = hosts;
    return SizeBound(spec, in);
}

std::vector<std::string>
JobRegistry::AllNames()
{
    std::vector<std::string> names;
    for (const Entry& entry : Entries())
    {
        const std::vector<std::string> ofEntry = NamesInAll(entry, {});
        names.insert(names.end(), ofEntry.begin(), ofEntry.end());
    }
    return names;
}

PlanSizeBound
JobRegistry::SizeBound(const std::string& spec,
                       const PlanSizeInputs& in,
                       const std::vector<std::string>& leftOutOfAll)
{
    if (spec == "all")
    {
        PlanSizeBound sum;
        for (const Entry& entry : Entries())
        {
            for (const std::string& name : NamesInAll(entry, leftOutOfAll))
            {
                const PlanSizeBound one = entry.sizeBound(name, in);
                sum.transfers += one.transfers;
                sum.queuePairs = std::max(sum.queuePairs, one.queuePairs);
                sum.dependencies += one.dependencies;
                sum.bounds = sum.bounds && one.bounds;
            }
        }
        return sum;
    }
    return EntryOf(spec).sizeBound(spec, in);
}

const JobRegistry::Entry&
JobRegistry::EntryOf(const std::string& spec)
{
    const std::string name = spec.substr(0, spec.find(':'));
    const auto& entries = Entries();
    auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
        return std::find(e.names.begin(), e.names.end(), name) != e.names.end();
    });
    return it == entries.end() ? entries.back() : *it;
}

PreparedSystems
JobRegistry::Prepare(const PrepareContext& context)
{
    const std::string& spec = context.options.algorithm;
    PreparedSystems out;
    if (spec == "all")
    {
        for (const Entry& entry : Entries())
        {
            const std::vector<std::string> names = NamesInAll(entry, context.options.leftOutOfAll);
            if (!names.empty())
            {
                entry.prepare(names, true, context, out);
            }
        }
        return out;
    }
    EntryOf(spec).prepare({spec}, false, context, out);
    return out;
}

} // namespace ns3
