/*
 * The prepare functions of the JobRegistry rows (helper/job-registry.h): each turns the specs
 * of its kind into PreparedSystems for the topology and backend, refusing what does not apply
 * with one OptionError naming the option and what is allowed.
 */
#ifndef PARAMSYNC_PREPARED_SYSTEMS_H
#define PARAMSYNC_PREPARED_SYSTEMS_H

#include "job-registry.h"
#include "option-values.h"

#include <exception>
#include <string>
#include <vector>

namespace ns3
{

/// \brief The message of a pure-code error as an OptionError, prefixed with the option unless
/// it names one already; one line. std::bad_alloc is rethrown (not the option's fault).
OptionError AsOptionError(const std::string& option, const std::exception& e);

/// \brief Sync plans (workloads/sync-algorithm.h): compiled, round form where the backend
/// uses it and the plan is large; with all, what does not apply is skipped.
void PrepareSyncPlans(const std::vector<std::string>& specs,
                      bool all,
                      const PrepareContext& context,
                      PreparedSystems& out);
/// \brief An asynchronous PS system (asp, ssp, mlfabric): packet backends only.
void PrepareAsyncPs(const std::vector<std::string>& specs,
                    bool all,
                    const PrepareContext& context,
                    PreparedSystems& out);
/// \brief The Lapse system with its workload: packet backends only.
void PrepareLapse(const std::vector<std::string>& specs,
                  bool all,
                  const PrepareContext& context,
                  PreparedSystems& out);
/// \brief "none": no job, the --flows alone.
void PrepareFlowsOnly(const std::vector<std::string>& specs,
                      bool all,
                      const PrepareContext& context,
                      PreparedSystems& out);

} // namespace ns3

#endif // PARAMSYNC_PREPARED_SYSTEMS_H
