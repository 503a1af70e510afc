/*
 * The jobs a run installs (helper/job.h): a sync plan (SyncJob), an asynchronous PS system
 * (AsyncPsJob: ASP / SSP / MLFabric), a Lapse system with its workload, and replayed flows.
 * Each takes its own typed configuration, never the driver's options.
 */
#ifndef PARAMSYNC_JOBS_H
#define PARAMSYNC_JOBS_H

#include "job.h"
#include "routed-bound.h"

#include "ns3/async-ps-job.h"
#include "ns3/lapse-spec.h"
#include "ns3/model-profile.h"
#include "ns3/sync-job.h"
#include "ns3/sync-plan.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \brief A gradient synchronization plan run by a SyncJob (one SyncApplication per
 * participant). Collects GST per iteration, the transfers, and the routed bound and fair
 * figure (helper/routed-bound.h) when it finished.
 */
class SyncPlanJob : public Job
{
  public:
    /// \brief plan must outlive the job.
    SyncPlanJob(const SyncPlan& plan,
                const std::vector<GradientTensor>& tensors,
                const SyncJobConfig& config);
    ~SyncPlanJob() override;
    void Install(const RunContext& run) override;
    bool Finished() const override;
    void Collect(const RunContext& run, RunResult& result) const override;
    std::pair<uint64_t, uint64_t> Progress() const override;
    std::string Left() const override;

  private:
    /// \brief bound_gst_s (the relaxation) and fair_gst_s (the max-min fluid run) on the
    /// paths the run's queue pairs took (traced, over ranks by every rank), and the time
    /// they took (fluid_wall_s).
    void RoutedFigures(const RunContext& run,
                       const RoutedBound::OrderedPaths& ordered,
                       RunResult& result) const;

    const SyncPlan& m_plan;                //!< the plan
    std::vector<GradientTensor> m_tensors; //!< its model's tensors
    SyncJobConfig m_config;                //!< iterations, compute, overlap, straggler
    std::unique_ptr<SyncJob> m_job;        //!< made by Install
};

/**
 * \brief Messages of given sizes between host pairs at given times, each on its own queue
 * pair (HPCC-format flow lists, ParamsyncHelper::AddFlow).
 */
class FlowsJob : public Job
{
  public:
    /// \brief One flow: its record (ids as the caller numbers them) and its hosts' ranks.
    void Add(const FlowRecord& record, uint32_t srcRank, uint32_t dstRank);
    void Install(const RunContext& run) override;
    bool Finished() const override;
    void Collect(const RunContext& run, RunResult& result) const override;
    double FirstStartS() const override;
    std::pair<uint64_t, uint64_t> Progress() const override;
    std::string Left() const override;

  private:
    /// \brief Schedules flow i on the transport.
    void Schedule(size_t i);

    std::vector<FlowRecord> m_flows;                    //!< the flows; endS < 0 until delivered
    std::vector<std::pair<uint32_t, uint32_t>> m_ranks; //!< (src, dst) host ranks
    RoceSyncTransport* m_transport{nullptr};            //!< set by Install
    uint64_t m_done{0};                                 //!< flows delivered
    std::vector<bool> m_localHosts;                     //!< RunContext::localHosts
};

/**
 * \brief An asynchronous parameter-server training loop (ASP, SSP, MLFabric): staleness of
 * the applied updates, bytes, makespan, and the loss when trained.
 */
class AsyncPsSystemJob : public Job
{
  public:
    explicit AsyncPsSystemJob(const AsyncPsConfig& config);
    ~AsyncPsSystemJob() override;
    void Install(const RunContext& run) override;
    bool Finished() const override;
    void Collect(const RunContext& run, RunResult& result) const override;
    std::vector<std::pair<std::string, std::string>> Metrics() const override;
    std::string
    MetricsKind() const override
    {
        return "async";
    }

  private:
    /// \brief The training loss after each applied update (ConvergenceModel), replayed once.
    const std::vector<double>& Losses() const;

    AsyncPsConfig m_config;               //!< the system
    std::unique_ptr<AsyncPsJob> m_job;    //!< made by Install
    mutable std::vector<double> m_losses; //!< Losses(), once replayed
    mutable bool m_replayed{false};       //!< m_losses is filled
};

/**
 * \brief A Lapse parameter server (hosts 0..nodes-1) driven by its workload (mf, kge).
 */
class LapseSystemJob : public Job
{
  public:
    explicit LapseSystemJob(const LapseSpec& spec);
    ~LapseSystemJob() override;
    void Install(const RunContext& run) override;
    bool Finished() const override;
    void Collect(const RunContext& run, RunResult& result) const override;
    std::vector<std::pair<std::string, std::string>> Metrics() const override;
    std::string
    MetricsKind() const override
    {
        return "lapse";
    }

  private:
    LapseSpec m_spec;                      //!< the system and its workload
    std::unique_ptr<LapsePs> m_ps;         //!< made by Install
    std::unique_ptr<LapseWorkload> m_work; //!< made by Install
};

} // namespace ns3

#endif // PARAMSYNC_JOBS_H
