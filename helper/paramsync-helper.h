/*
 * ParamsyncHelper: the public way to use paramsync from an ns-3 program. It builds the
 * packet-level network of a topology spec (NetworkBuilder), puts a RoceNic on every host
 * (RoceSyncTransport), installs a gradient-synchronization job (an algorithm spec on a model
 * profile) and/or single flows, runs the simulation and collects a RunResult. Every knob is
 * an ns-3 attribute of the objects it creates (PfcNetDevice, PfcChannel, PfcSwitch,
 * ForwardingTable, RoceNic); the trace sources are reachable through the Config paths below.
 * Like ns-3's PointToPointHelper it holds factories and wires: the behaviour is the model's.
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

#include "network-builder.h"
#include "run-result.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class ModelProfile;
class NetworkRecorder;
class RoceSyncTransport;
class SyncJob;
class Topology;
struct SyncPlan;

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
    /// \brief The topology set by SetTopology (null before).
    const Topology* GetTopology() const;

    /**
     * \brief Builds the network and a RoceNic per host. \throws std::invalid_argument for a
     * configuration the model rejects (e.g. PFC headroom larger than the switch buffer)
     */
    const PfcNetwork& Install();

    /**
     * \brief A gradient synchronization: algorithm spec (e.g. "ring", "hd", "dbtree"; see
     * SyncAlgorithmNames()) on a model profile ("vgg16", "bytes:10MB", a CSV path) found in
     * ModelProfile::DefaultModelsDir(); starts at time 0.
     * \throws std::invalid_argument when the algorithm, the model or the pair does not apply
     */
    void InstallSyncJob(const std::string& algorithm,
                        const std::string& model,
                        uint32_t iterations = 1);
    /// \brief One message of `bytes` from host src to host dst on its own queue pair at `start`.
    void AddFlow(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, Time start);

    /**
     * \brief Runs until every transfer and flow completed (or `stop`) and returns what was
     * measured: GST, transfers and flows with their times, PFC counters per port and
     * priority. The caller calls Simulator::Destroy() afterwards.
     */
    RunResult Run(Time stop);

    /// \brief Config path of every port's PFC pause sent: (priority, quanta) callbacks.
    static std::string PauseSentPath();
    /// \brief Config path of every port's PFC pause received: (priority, quanta).
    static std::string PauseReceivedPath();
    /// \brief Config path of every host NIC's message received: (srcHost, qp, bytes).
    static std::string MessageReceivedPath();

  private:
    NetworkBuilder m_builder;                       //!< network factories
    ObjectFactory m_nic;                            //!< RoceNic factory
    std::unique_ptr<Topology> m_topology;           //!< from SetTopology
    PfcNetwork m_net;                               //!< built by Install
    bool m_installed{false};                        //!< Install done
    std::unique_ptr<NetworkRecorder> m_recorder;    //!< PFC, drop and mark counters
    std::unique_ptr<RoceSyncTransport> m_transport; //!< NICs and queue pairs
    std::unique_ptr<ModelProfile> m_model;          //!< the job's model
    std::unique_ptr<SyncPlan> m_plan;               //!< the job's plan
    std::unique_ptr<SyncJob> m_job;                 //!< the job
    std::vector<FlowRecord> m_flows;                //!< flows and their completion
};

} // namespace ns3

#endif // PARAMSYNC_PARAMSYNC_HELPER_H
