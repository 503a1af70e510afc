/*
 * Backend: how a prepared system runs (ARCHITECTURE.md, The run seam) — packet by packet on
 * an ns-3 network (PacketBackend, helper/packet-backend.h) or as flows on the fluid estimator
 * (FluidBackend, helper/fluid-backend.h). The driver makes one from --backend and asks it,
 * never the option's text, what it can serve.
 */
#ifndef PARAMSYNC_BACKEND_H
#define PARAMSYNC_BACKEND_H

#include "flow-list.h"
#include "run-result.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class DriverOptions;
class PreparedSystem;
class Topology;

/// \brief --flows with the host ranks of each flow's ends.
struct FlowInput
{
    std::vector<FlowSpec> flows;   //!< node ids as in the file
    std::vector<uint32_t> srcRank; //!< host rank of each flow's src
    std::vector<uint32_t> dstRank; //!< host rank of each flow's dst
};

/**
 * \brief Runs prepared systems on one topology.
 */
class Backend
{
  public:
    virtual ~Backend() = default;
    /// \brief Its name (the backend column): "packet" or "fluid".
    virtual std::string Name() const = 0;
    /// \brief Whether it simulates packets (asynchronous systems and Lapse need it).
    virtual bool SimulatesPackets() const = 0;
    /// \brief Whether a large plan may run in its compact round form (RoundPlan).
    virtual bool
    UsesRoundForms() const
    {
        return false;
    }
    /// \brief Refuses options it cannot serve, before anything runs. \throws OptionError
    virtual void Check() const = 0;
    /// \brief Runs one system; the result carries topology, algorithm, model and backend.
    virtual RunResult Run(const PreparedSystem& system) = 0;
    /// \brief Where files the run itself writes (--pcap) go: the --out staging directory.
    virtual void
    SetCaptureDirectory(const std::string& /* dir */)
    {
    }

    /**
     * \brief The backend --backend names, over a topology (and flows) that outlive it.
     * \param options validated options
     * \param topology the topology as run
     * \param flows --flows with the host ranks of their ends (empty: none)
     */
    static std::unique_ptr<Backend> Make(const DriverOptions& options,
                                         const Topology& topology,
                                         const FlowInput& flows);
};

} // namespace ns3

#endif // PARAMSYNC_BACKEND_H
