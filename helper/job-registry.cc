#include "job-registry.h"

#include "driver-options.h"
#include "prepared-systems.h"

#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>

namespace ns3
{

const std::vector<JobRegistry::Entry>&
JobRegistry::Entries()
{
    // One row per kind of system: names, help, whether "all" runs it, its prepare function.
    static const std::vector<Entry> entries = {
        {{"asp", "ssp", "mlfabric"},
         "an asynchronous PS system (asp, ssp:bound=B, mlfabric:delay=D; packet only)",
         false,
         PrepareAsyncPs},
        {{"lapse"},
         "lapse:workload=mf|kge|wv,mode=dynamic|classic|ssp,preset=paper,nodes=N (matrix "
         "factorization, knowledge-graph embeddings or word vectors on a Lapse PS or a "
         "bounded-staleness PS on hosts 0..N-1; nodes=1 uses host 0 of any topology; packet "
         "only)",
         false,
         PrepareLapse},
        {{"none"}, "none: no job, the --flows alone", false, PrepareFlowsOnly},
        {SyncAlgorithmNames(), "", true, PrepareSyncPlans},
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

PreparedSystems
JobRegistry::Prepare(const PrepareContext& context)
{
    const std::string& spec = context.options.algorithm;
    PreparedSystems out;
    if (spec == "all")
    {
        for (const Entry& entry : Entries())
        {
            if (entry.inAll)
            {
                entry.prepare(entry.names, true, context, out);
            }
        }
        return out;
    }
    const std::string name = spec.substr(0, spec.find(':'));
    const auto& entries = Entries();
    auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
        return std::find(e.names.begin(), e.names.end(), name) != e.names.end();
    });
    const Entry& entry = it == entries.end() ? entries.back() : *it;
    entry.prepare({spec}, false, context, out);
    return out;
}

} // namespace ns3
