/*
 * FluidBackend: runs sync plans on the fluid estimator only (workloads/fluid-estimator.h;
 * RoundFluidEstimator for a plan's round form): the GST, and for explicit plans every
 * transfer's times and every link's load (transfers.csv, links.csv). No packets, so no
 * pauses, buffers, failures, flows or asynchronous systems.
 */
#ifndef PARAMSYNC_FLUID_BACKEND_H
#define PARAMSYNC_FLUID_BACKEND_H

#include "backend.h"

namespace ns3
{

struct SyncPlan;

/**
 * \brief The fluid (flow-level) backend.
 */
class FluidBackend : public Backend
{
  public:
    /// \brief options (validated) and topology outlive the backend.
    FluidBackend(const DriverOptions& options, const Topology& topology, const FlowInput& flows);
    std::string Name() const override;
    bool SimulatesPackets() const override;
    bool UsesRoundForms() const override;
    void Check() const override;
    RunResult Run(const PreparedSystem& system) override;

    /**
     * \brief ideal_gst_s: the relaxation (workloads/gst-lower-bound.h) of a system's plan on
     * the perfect split of the routing's paths, payload at line rate (its round form's
     * bound if it has one). `sourceRouted`: the family's parallel path set split equally
     * (workloads/parallel-split-paths.h), as source-routed queue pairs carry a transfer;
     * else the equal-cost shortest paths (EcmpSplitPaths).
     */
    static double IdealGst(const Topology& topology,
                           const PreparedSystem& system,
                           bool sourceRouted = false);

  private:
    /// \brief An explicit plan's estimate into r: GST, transfers, link loads.
    void EstimateExplicit(const SyncPlan& plan, RunResult& r) const;

    const DriverOptions& m_options; //!< options
    const Topology& m_topology;     //!< topology
    const FlowInput& m_flows;       //!< --flows (refused)
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_BACKEND_H
