/*
 * PacketBackend: runs a prepared system packet by packet through ParamsyncHelper
 * (helper/paramsync-helper.h), the same public API users' programs use: the options become
 * the helper's factory attributes and typed configs, the system's Job and the --flows are
 * installed as jobs, and the faults and monitors the options ask for (pause storm, stalled
 * receiver, link failures, PFC watchdog, deadlock detector, in-flight sampler) as
 * RunMonitors (helper/run-monitors.h). It adds the driver's end-of-run lines (event limit,
 * stall) and the fluid ideal beside a plan's GST.
 */
#ifndef PARAMSYNC_PACKET_BACKEND_H
#define PARAMSYNC_PACKET_BACKEND_H

#include "backend.h"
#include "run-monitors.h"

#include <vector>

namespace ns3
{

class ParamsyncHelper;

/**
 * \brief The packet-level backend.
 */
class PacketBackend : public Backend
{
  public:
    /// \brief options (validated), topology and flows outlive the backend.
    PacketBackend(const DriverOptions& options, const Topology& topology, const FlowInput& flows);
    std::string Name() const override;
    bool SimulatesPackets() const override;
    /// \brief Refuses inputs that start at or after --stop, unknown --link-down or --pcap
    /// nodes, lanes on the control priority, and a network the model rejects (e.g. PFC
    /// headroom that does not fit --buffer), by building it once. \throws OptionError
    void Check() const override;
    RunResult Run(const PreparedSystem& system) override;
    void
    SetCaptureDirectory(const std::string& dir) override
    {
        m_captureDir = dir;
    }

    /**
     * \brief The --link-down events on this topology. \throws OptionError for an unknown
     * node, nodes not cabled together, or failures that disconnect a host for good.
     */
    static std::vector<LinkFailure> ResolveLinkDowns(const DriverOptions& options,
                                                     const Topology& topology);

  private:
    /// \brief The helper's factories, NIC config and topology from the options.
    void Configure(ParamsyncHelper& helper) const;
    /// \brief The faults and monitors the options ask for, in installation order.
    void AddMonitors(ParamsyncHelper& helper) const;
    /// \brief Refuses packet-run inputs that start at or after --stop. \throws OptionError
    void CheckStartsBeforeStop() const;
    /// \brief The end-of-run line of a run that the event limit or --stop ended.
    std::string EndLine(const ParamsyncHelper& helper, const RunResult& r) const;

    const DriverOptions& m_options; //!< options
    const Topology& m_topology;     //!< topology
    const FlowInput& m_flows;       //!< --flows
    std::string m_captureDir;       //!< --pcap files go here
};

} // namespace ns3

#endif // PARAMSYNC_PACKET_BACKEND_H
