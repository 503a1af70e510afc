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
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief A system that is a job alone (asynchronous PS, Lapse, flows only): its spec, its
 * model column and the function that makes its Job (none: nullptr).
 */
class JobSystem : public PreparedSystem
{
  public:
    /// \brief make may be empty: no job.
    JobSystem(std::string spec, std::string model, std::function<std::unique_ptr<Job>()> make)
        : m_spec(std::move(spec)),
          m_model(std::move(model)),
          m_make(std::move(make))
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
        return m_model;
    }

    std::unique_ptr<Job>
    MakeJob() const override
    {
        return m_make ? m_make() : nullptr;
    }

  private:
    std::string m_spec;                           //!< canonical spec
    std::string m_model;                          //!< model column
    std::function<std::unique_ptr<Job>()> m_make; //!< the job, or none
};

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
