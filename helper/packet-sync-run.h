/*
 * PacketSyncRun: one packet-level run of the driver — builds the network of a topology
 * (NetworkBuilder), a RoceNic per host, the sync job of a plan (SyncJob + SyncApplications
 * over RoceNic queue pairs) and/or replayed --flows, the recorders; runs the simulation up
 * to --stop; returns the measurements. Wiring only: the behaviour is the model's.
 */
#ifndef PARAMSYNC_PACKET_SYNC_RUN_H
#define PARAMSYNC_PACKET_SYNC_RUN_H

#include "driver-options.h"
#include "flow-list.h"
#include "network-builder.h"
#include "run-result.h"

#include "ns3/async-ps-job.h"
#include "ns3/lapse-spec.h"
#include "ns3/model-profile.h"
#include "ns3/sync-plan.h"

#include <optional>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief One packet-level simulation of a plan and/or a flow list.
 */
class PacketSyncRun
{
  public:
    /// \brief options (validated) and topology must outlive the run.
    PacketSyncRun(const DriverOptions& options, const Topology& topology);
    /// \brief The sync job to run (optional when flows are set).
    void SetPlan(const SyncPlan& plan, const std::vector<GradientTensor>& tensors);
    /// \brief An asynchronous PS job to run instead of a plan (asp / ssp / mlfabric).
    void SetAsyncJob(const AsyncPsConfig& config);
    /// \brief A Lapse parameter server with its workload (mf, kge) instead.
    void SetLapse(const LapseSpec& spec);
    /// \brief Flows to replay; srcRank/dstRank are the host ranks of each flow's ends.
    void SetFlows(const std::vector<FlowSpec>& flows,
                  const std::vector<uint32_t>& srcRank,
                  const std::vector<uint32_t>& dstRank);
    /// \brief Where --pcap captures go (the --out staging directory, which becomes --out
    /// when the run's files are complete).
    void
    SetCaptureDirectory(const std::string& dir)
    {
        m_captureDir = dir;
    }
    /**
     * \brief Builds the network once to surface configuration errors (e.g. PFC headroom
     * that does not fit --buffer) before anything runs. \throws OptionError
     */
    static void CheckConfiguration(const DriverOptions& options, const Topology& topology);
    /// \brief Runs the simulation (and destroys it afterwards); returns the measurements.
    RunResult Run();

    /// \brief A --link-down event resolved to a link of the topology.
    struct LinkFailure
    {
        LinkIndex link;   //!< the link
        double atS;       //!< failure time
        double durationS; //!< until repair (0: never)
    };
    /**
     * \brief The --link-down events on this topology. \throws OptionError for an unknown
     * node, nodes not cabled together, or failures that disconnect a host.
     */
    static std::vector<LinkFailure> ResolveLinkDowns(const DriverOptions& options,
                                                     const Topology& topology);

  private:
    /// \brief The end-of-run line of a run --stop ended: how many transfers (of the plan's
    /// per iteration times --iterations) and flows did not finish, and that the deadlock
    /// detector found no cycle (a found one is named instead of this line).
    std::string StallMessage(const RunResult& r, bool detectorOn) const;
    /// \brief The builder configured from the options.
    static NetworkBuilder MakeBuilder(const DriverOptions& options);
    /// \brief An asynchronous job's delays, drops, bytes and makespan into result.
    static void FillAsyncMetrics(const AsyncPsJob& job, RunResult& result);
    /// \brief A Lapse run's epochs, accesses and traffic into result.
    static void FillLapseMetrics(const LapsePs& ps, const LapseWorkload& w, RunResult& result);

    const DriverOptions& m_options;        //!< options
    const Topology& m_topology;            //!< topology
    const SyncPlan* m_plan{nullptr};       //!< plan, if any
    std::optional<AsyncPsConfig> m_async;  //!< asynchronous PS job, if any
    std::optional<LapseSpec> m_lapse;      //!< Lapse system, if any
    std::vector<GradientTensor> m_tensors; //!< its model's tensors
    std::vector<FlowSpec> m_flows;         //!< flows, if any
    std::string m_captureDir;              //!< --pcap files go here
    std::vector<uint32_t> m_flowSrc;       //!< their source ranks
    std::vector<uint32_t> m_flowDst;       //!< their destination ranks
};

} // namespace ns3

#endif // PARAMSYNC_PACKET_SYNC_RUN_H
