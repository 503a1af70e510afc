/*
 * Job and RunMonitor: the two things installed on a built packet network
 * (ARCHITECTURE.md, The run seam). A Job is the work of a run — a sync plan, an asynchronous
 * PS system, a Lapse system, replayed flows — with one small interface: install, finished,
 * and its measurements (the row's figures plus named metrics). A RunMonitor is a fault or an
 * observer (pause storm, stalled receiver, link failures, PFC watchdog, deadlock detector,
 * in-flight sampler) that installs itself and fills its part of the result.
 * ParamsyncHelper (helper/paramsync-helper.h) runs both.
 */
#ifndef PARAMSYNC_JOB_H
#define PARAMSYNC_JOB_H

#include "run-result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class NetworkBuilder;
class RoceSyncTransport;
class SyncJob;
class Topology;
struct PfcNetwork;

/// \brief The built network of one run, as jobs and monitors see it.
struct RunContext
{
    const Topology& topology;         //!< the topology the network was built from
    PfcNetwork& net;                  //!< its ns-3 nodes, devices, channels, tables
    RoceSyncTransport& transport;     //!< a RoceNic per host
    std::function<bool()> unfinished; //!< true while some job has work left
    double firstTrafficS{0};          //!< when the first job starts sending (set by Run)
    /// Over MPI ranks (ParamsyncHelper::SetRanks): the hosts this process simulates, by
    /// host rank; a job counts as its own work what ends at these (a flow or transfer ends
    /// where it is delivered). Empty: one process, every host.
    std::vector<bool> localHosts{};
    /// Over MPI ranks: runs a sync job for the local hosts, its posts to other ranks'
    /// hosts announced there, its next iteration begun when every rank's end is known
    /// (helper/rank-post-notices.h); null: one process.
    std::function<void(SyncJob&)> overRanks{};
};

/**
 * \brief The work of a run.
 */
class Job
{
  public:
    virtual ~Job() = default;
    /// \brief Installs itself on the run's hosts and schedules its start.
    virtual void Install(const RunContext& run) = 0;
    /// \brief Whether all its work is done.
    virtual bool Finished() const = 0;
    /// \brief Its measurements into result: workers, GST, transfers, flows, completed
    /// (and-ed with what is there), and detail rows.
    virtual void Collect(const RunContext& run, RunResult& result) const = 0;
    /// \brief Its metrics as (name, number) pairs, for systems that are not allreduce plans
    /// (result.systemMetrics, under the table named by MetricsKind()).
    virtual std::vector<std::pair<std::string, std::string>>
    Metrics() const
    {
        return {};
    }
    /// \brief The name of the table its Metrics() go to ("async", "lapse"); empty: none.
    virtual std::string
    MetricsKind() const
    {
        return "";
    }
    /// \brief When its first message may leave, s (the in-flight sampler starts then).
    virtual double
    FirstStartS() const
    {
        return 0;
    }
    /// \brief (done, total) units of work, for the progress line.
    virtual std::pair<uint64_t, uint64_t>
    Progress() const
    {
        return {0, 0};
    }
    /// \brief What is left, for the stall line ("3 of 12 transfers"); empty: not countable.
    virtual std::string
    Left() const
    {
        return "";
    }
};

/**
 * \brief A fault or an observer of a run.
 */
class RunMonitor
{
  public:
    virtual ~RunMonitor() = default;
    /// \brief Sets what it needs on the network's factories, before the network is built.
    virtual void
    Configure(NetworkBuilder& /* builder */)
    {
    }
    /// \brief Installs itself on the built network (after the jobs).
    virtual void Install(const RunContext& run) = 0;
    /// \brief Its part of the result; a broken invariant it found goes to broken.
    virtual void
    Collect(RunResult& /* result */, std::vector<std::string>& /* broken */) const
    {
    }
    /// \brief Whether it ended the run for a reason it named in Collect (a deadlock).
    virtual bool
    EndedRun() const
    {
        return false;
    }
};

} // namespace ns3

#endif // PARAMSYNC_JOB_H
