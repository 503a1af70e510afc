/*
 * ParamsyncHelper: the public way to use paramsync from an ns-3 program. It builds the
 * packet-level network of a topology spec (NetworkBuilder), puts a RoceNic on every host
 * (RoceSyncTransport), installs a gradient-synchronization job (an algorithm spec on a model
 * profile) and/or single flows, runs the simulation and collects a RunResult. Every knob is
 * an ns-3 attribute of the objects it creates (PfcNetDevice, PfcChannel, PfcSwitch,
 * ForwardingTable, RoceNic); the trace sources are reachable through the Config paths below.
 * Like ns-3's PointToPointHelper it holds factories and wires: the behaviour is the model's.
 *
 * Work other than one sync job (an asynchronous PS system, a Lapse system, flow lists) is a
 * Job (helper/job.h, helper/jobs.h) given to InstallJob; faults and monitors (pause storm,
 * stalled receiver, link failures, PFC watchdog, deadlock detector, in-flight sampler) are
 * RunMonitors given to AddMonitor (helper/run-monitors.h). The paramsync driver runs its
 * packet backend through this class (helper/packet-backend.h).
 *
 * Use (examples/first-experiment.cc):
 *   ParamsyncHelper helper;
 *   helper.SetSwitchAttribute("BufferSize", UintegerValue(32 << 20));
 *   helper.SetTopology("bcube:n=3,k=1", DataRate("40Gbps"), MicroSeconds(1));
 *   helper.Install();
 *   helper.InstallSyncJob("ring", "vgg16");
 *   Config::ConnectWithoutContext(ParamsyncHelper::PauseSentPath(), MakeCallback(&OnPause));
 *   RunResult r = helper.Run(Seconds(1));
 *   Simulator::Destroy();
 */
#ifndef PARAMSYNC_PARAMSYNC_HELPER_H
#define PARAMSYNC_PARAMSYNC_HELPER_H

#include "job.h"
#include "network-builder.h"
#include "run-invariants.h"
#include "run-result.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/resolved-object-factory.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FlowsJob;
class ModelProfile;
class NetworkRecorder;
class RankPostNotices;
class RoceSyncTransport;
struct RoceTransportConfig;
class Topology;
struct SyncPlan;

/// \brief How a run ends (ParamsyncHelper::Run).
struct RunControl
{
    Time stop{Seconds(1)};          //!< absolute simulated-time limit
    uint64_t maxEvents{2000000000}; //!< event limit (a livelock guard)
    /// Simulated time the run goes on after the work finished, so the last ACKs land and
    /// the buffers drain: twice RoceNic's default RetransmitTimeout (1 ms) plus 1 ms.
    Time grace{MilliSeconds(3)};
    bool progress{false}; //!< a progress line on stderr for runs past 2 s of wall time
};

/// \brief How the last run ended, for the caller's end-of-run line.
struct RunEnd
{
    bool drained{false};     //!< ended by the grace period after the work finished
    bool outOfEvents{false}; //!< the event limit ended it
    bool explained{false};   //!< a monitor ended it and named why (a deadlock)
    std::string left;        //!< what was left ("3 of 12 transfers and 1 of 2 flows"), or ""
};

/**
 * \brief Builds a paramsync network, installs a sync job and flows, runs, and collects.
 *
 * Order: Set*Attribute and SetTopology, Install, then InstallSyncJob / AddFlow and
 * Config::Connect to the trace paths, then Run; then Simulator::Destroy(). One helper
 * serves one simulation.
 */
class ParamsyncHelper
{
  public:
    ParamsyncHelper();
    ~ParamsyncHelper();
    ParamsyncHelper(const ParamsyncHelper&) = delete;
    ParamsyncHelper& operator=(const ParamsyncHelper&) = delete;

    /// \brief Attribute of every PfcNetDevice (its DataRate comes from the topology's link).
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every PfcChannel (its Delay comes from the topology's link).
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every PfcSwitch (switches and relaying multi-port hosts).
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every ForwardingTable (e.g. BasePriority).
    void SetTableAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every host's RoceNic (Mtu, CongestionControl, RetransmitTimeout...).
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief The topology: a spec such as "bcube:n=3,k=1", "star:n=4" or "file:PATH"
     * (topologies/README.md); rate and delay are those of every link the spec does not set.
     * \throws std::invalid_argument naming the spec and what is allowed
     */
    void SetTopology(const std::string& spec, DataRate rate, Time delay);
    /// \brief A topology built by the caller (it must outlive the helper).
    void SetTopology(const Topology& topology);
    /// \brief The topology set by SetTopology (null before).
    const Topology* GetTopology() const;
    /// \brief The salt of every switch's ECMP hash (0: each switch salted with its node id,
    /// as HPCC's simulator does).
    void SetEcmpHashSalt(uint32_t salt);
    /// \brief The switch buffer of HPCC's simulator (NetworkBuilder::SetHpccMmu: per-queue
    /// reserve, 3 x BDP headroom, free-buffer shift by port rate, immediate pause reaction).
    void UseHpccSwitchBuffer();
    /**
     * \brief A congestion-control preset applied to every NIC (model/congestion-control-preset.h:
     * none, dcqcn, dcqcn-hpcc); none by default. \throws std::invalid_argument for another name
     */
    void SetCongestionControl(const std::string& preset);
    /// \brief The NICs' MTU, priority, timeout and congestion control at once (replaces the
    /// NIC attributes set before). \throws std::invalid_argument for an unknown preset
    void SetTransport(const RoceTransportConfig& config);

    /**
     * \brief Simulate this process's share of the network: the nodes RankPartition places on
     * rank `self` of `ranks` (MPI_COMM_WORLD under ns-3's distributed engine, enabled
     * before: MpiSession; README "Running across MPI ranks"). Install then builds every
     * node, wires the cut links through MPI and lets only local hosts send.
     *
     * Run then works over the ranks: its guard decides on the whole run (RunGuard::
     * SetGlobalView: every look combines every rank's work left and events in one
     * all-reduce, so all ranks stop at the same simulated time), and the results are
     * gathered on rank 0 (RankResults: counters summed, flows and transfers put together,
     * the invariants on the summed counters); the other ranks' RunResult is their own
     * share. Jobs that run across ranks: replayed flows (AddFlow, FlowsJob: each rank
     * counts the flows delivered to its hosts) and sync plans (InstallSyncJob, SyncPlanJob:
     * SyncJob::SetLocalHosts, each post to another rank's host announced there by
     * RankPostNotices; the next iteration begun when every rank's end is known,
     * RankIterationBarrier; GST the max over the ranks; the routed bound on every rank's
     * traced QPs, on rank 0). Not with flows in the same run (their QPs, opened on every
     * rank, would share numbers with the announced ones) and not PS or Lapse systems:
     * InstallJob throws std::invalid_argument for those. Monitors that run
     * across ranks: those that act per port (the PFC watchdog); the deadlock detector, the
     * in-flight sampler and the faults need every node in one process.
     * Default: one rank, everything local.
     * \throws std::invalid_argument for ranks > 1 when this ns-3 has no MPI
     */
    void SetRanks(uint32_t ranks, uint32_t self);
    /// \brief Whether a host is simulated by this process (SetRanks); always true on one rank.
    bool IsLocalHost(uint32_t host) const;

    /**
     * \brief Builds the network and a RoceNic per host. \throws std::invalid_argument for a
     * configuration the model rejects (e.g. PFC headroom larger than the switch buffer)
     */
    const PfcNetwork& Install();

    /**
     * \brief Builds the network as Install would (the monitors' settings applied) and
     * nothing on top: no NICs, recorder or jobs. A configuration check before a run: it
     * throws where Install would for the network (PFC headroom larger than the switch
     * buffer, lanes on the control priority). The helper cannot Install or Run afterwards;
     * the caller calls Simulator::Destroy().
     * \throws std::invalid_argument for a network the model rejects
     */
    void CheckNetwork();

    /**
     * \brief Stops ns-3's bookkeeping of Time objects now rather than at the first
     * Simulator::Run, making the network's construction cheaper (a fat-tree of 8,192 hosts
     * spent about a fifth of its set-up CPU in it). Until the first Run, ns-3 records every
     * Time constructed in a set and erases it again at its destruction, so that
     * Time::SetResolution can convert them; paramsync never changes the resolution. Call it
     * before Install with nothing scheduled: it runs the empty simulation (Simulator::Run
     * ends the bookkeeping first). It does nothing, and returns false, where that Run could
     * do more than that: a simulator other than ns-3's sequential one (the distributed one
     * of --mpi synchronizes the ranks in Run), events pending, or events already run.
     * Simulated results do not change either way.
     * \return whether the simulation was empty and ran
     */
    static bool EndTimeMarking();

    /**
     * \brief A gradient synchronization: algorithm spec (e.g. "ring", "hd", "dbtree"; see
     * SyncAlgorithmNames()) on a model profile ("vgg16", "bytes:10MB", a CSV path) found in
     * ModelProfile::DefaultModelsDir(); starts at time 0.
     * \throws std::invalid_argument when the algorithm, the model or the pair does not apply,
     * for 0 iterations, and over ranks beside flows (InstallJob)
     */
    void InstallSyncJob(const std::string& algorithm,
                        const std::string& model,
                        uint32_t iterations = 1);
    /// \brief One message of `bytes` from host src to host dst on its own queue pair at `start`.
    /// \throws std::invalid_argument for hosts out of range, 0 bytes, or over ranks beside a
    /// sync plan (InstallJob)
    void AddFlow(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, Time start);
    /// \brief Any job (helper/jobs.h), installed now (after Install).
    /// \throws std::invalid_argument over ranks for a job that does not run across them
    void InstallJob(std::unique_ptr<Job> job);
    /// \brief A fault or monitor: configures the factories if added before Install, and
    /// installs itself when Run starts.
    void AddMonitor(std::unique_ptr<RunMonitor> monitor);
    /// \brief PCAP capture of ports ("h0,sw1.2": NetworkBuilder::PcapPorts) into dir.
    /// \throws std::invalid_argument for a port not in the topology
    void EnablePcap(const std::string& ports, const std::string& dir);
    /// \brief The NICs and queue pairs (after Install).
    RoceSyncTransport& Transport();

    /**
     * \brief Runs until every transfer and flow completed (or `stop`) and returns what was
     * measured: GST, transfers and flows with their times, PFC counters per port and
     * priority. The caller calls Simulator::Destroy() afterwards.
     */
    RunResult Run(Time stop);
    /**
     * \brief Runs until the work finished and a grace period passed, or control.stop, or
     * the event limit; returns what was measured, with result.invariant naming what failed
     * (RunInvariants: drops with PFC on, conservation; a monitor's finding such as a PFC
     * deadlock). LastRunEnd() then says how it ended.
     */
    RunResult Run(const RunControl& control);
    /// \brief How the last Run ended.
    const RunEnd&
    LastRunEnd() const
    {
        return m_end;
    }

    /// \brief Config path of every port's PFC pause sent: (priority, quanta) callbacks.
    static std::string PauseSentPath();
    /// \brief Config path of every port's PFC pause received: (priority, quanta).
    static std::string PauseReceivedPath();
    /// \brief Config path of every host NIC's message received: (srcHost, qp, bytes).
    static std::string MessageReceivedPath();

  private:
    /// \brief Whether some job has work left.
    bool Unfinished() const;
    /// \brief Over ranks: \throws std::invalid_argument for a job that does not run across
    /// ranks (a PS or Lapse system) or a sync plan beside flows.
    void CheckRunsOverRanks(const Job& job) const;
    /// \brief The jobs' and monitors' measurements and the invariants, after the run.
    void Collect(RunResult& result, const RunEnd& end, Time endOfWork);
    /// \brief What the end-of-run invariants check, from the recorder and the NICs (summed
    /// over the ranks).
    RunCounters Counters(const RunResult& result, const RunEnd& end) const;
    /// \brief Over ranks: every rank's measurements merged into result on rank 0; the
    /// whole run's completed flag on every rank.
    void MergeRanks(RunResult& result);
    /// \brief Over ranks: the distinct broken invariants of every rank (on rank 0).
    std::vector<std::string> MergeBroken(const std::vector<std::string>& broken) const;

    NetworkBuilder m_builder;                            //!< network factories
    ResolvedObjectFactory m_nic;                         //!< RoceNic factory
    std::string m_cc{"none"};                            //!< congestion-control preset
    std::unique_ptr<Topology> m_ownTopology;             //!< from SetTopology(spec)
    const Topology* m_topology{nullptr};                 //!< the topology
    PfcNetwork m_net;                                    //!< built by Install
    bool m_installed{false};                             //!< Install done
    uint32_t m_ranks{1};                                 //!< SetRanks
    uint32_t m_self{0};                                  //!< this process's rank
    std::vector<bool> m_localHosts;                      //!< by host; empty: all local
    std::unique_ptr<RankPostNotices> m_notices;          //!< over ranks: sync posts told
    std::unique_ptr<NetworkRecorder> m_recorder;         //!< PFC, drop and mark counters
    std::unique_ptr<RoceSyncTransport> m_transport;      //!< NICs and queue pairs
    std::unique_ptr<RunContext> m_context;               //!< what jobs and monitors see
    std::unique_ptr<ModelProfile> m_model;               //!< InstallSyncJob's model
    std::unique_ptr<SyncPlan> m_plan;                    //!< InstallSyncJob's plan
    std::vector<std::unique_ptr<Job>> m_jobs;            //!< installed jobs, in order
    FlowsJob* m_flows{nullptr};                          //!< AddFlow's job (in m_jobs)
    std::vector<std::unique_ptr<RunMonitor>> m_monitors; //!< faults and monitors, in order
    RunEnd m_end;                                        //!< how the last run ended
};

} // namespace ns3

#endif // PARAMSYNC_PARAMSYNC_HELPER_H
