#include "fluid-backend.h"

#include "driver-options.h"
#include "job-registry.h"
#include "network-builder.h"

#include "ns3/fluid-estimator.h"
#include "ns3/gst-lower-bound.h"
#include "ns3/parallel-split-paths.h"
#include "ns3/round-fluid-estimator.h"
#include "ns3/topology.h"

#include <chrono>

namespace ns3
{

namespace
{

double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

FluidBackend::FluidBackend(const DriverOptions& options,
                           const Topology& topology,
                           const FlowInput& flows)
    : m_options(options),
      m_topology(topology),
      m_flows(flows)
{
}

std::string
FluidBackend::Name() const
{
    return "fluid";
}

bool
FluidBackend::SimulatesPackets() const
{
    return false;
}

bool
FluidBackend::UsesRoundForms() const
{
    return true;
}

void
FluidBackend::Check() const
{
    const DriverOptions& o = m_options;
    if (!o.pcapText.empty())
    {
        throw OptionError("--pcap: '" + o.pcapText +
                          "' needs --out=DIR (the captures go there) and --backend=packet");
    }
    if (!m_flows.flows.empty())
    {
        throw OptionError("--flows: needs --backend=packet; allowed: --backend=packet");
    }
    // Packet-level events: the fluid estimator has no pauses, buffers or failures.
    const std::pair<bool, const char*> packetOnly[] = {
        {!o.linkDowns.empty(), "--link-down"},
        {o.pauseStorm.host >= 0, "--pause-storm"},
        {o.stopDraining.host >= 0, "--stop-draining"},
        {o.watchdogDetectionS > 0, "--pfc-watchdog"}};
    for (const auto& [given, option] : packetOnly)
    {
        if (given)
        {
            throw OptionError(std::string(option) +
                              ": a packet-level event; allowed: --backend=packet");
        }
    }
}

double
FluidBackend::IdealGst(const Topology& topology, const PreparedSystem& system, bool sourceRouted)
{
    if (system.Rounds())
    {
        return GstLowerBound().ComputeRounds(topology, *system.Rounds());
    }
    if (sourceRouted)
    {
        const ParallelSplitPaths paths(topology, NetworkBuilder::SourceRoutes(topology));
        return GstLowerBound().Compute(topology, *system.Plan(), paths).gstS;
    }
    return GstLowerBound().Compute(topology, *system.Plan(), EcmpSplitPaths(topology)).gstS;
}

void
FluidBackend::EstimateExplicit(const SyncPlan& plan, RunResult& r) const
{
    // The explicit plan's estimate also gives every transfer's times and every link's
    // load: transfers.csv and links.csv of a fluid run.
    // gst_s is the max-min run (one feasible schedule), ideal_gst_s the relaxation on the
    // same paths: the run can only be slower.
    const FluidResult f = FluidEstimator().Estimate(m_topology, plan);
    r.gstS = f.gstS;
    r.idealGstS = GstLowerBound().Compute(m_topology, plan, EcmpSplitPaths(m_topology)).gstS;
    for (const Transfer& t : plan.transfers)
    {
        r.transfers.push_back({0,
                               t.id,
                               plan.hostOf[t.src],
                               plan.hostOf[t.dst],
                               t.bytes,
                               f.startS[t.id],
                               f.endS[t.id],
                               t.chunk,
                               t.phase});
    }
    const TopologyGraph& g = m_topology.Graph();
    for (LinkIndex l = 0; l < g.LinkCount(); ++l)
    {
        const TopologyLink& link = g.Link(l);
        for (const auto& [from, to] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}})
        {
            const FluidLinkLoad& load = f.links[FluidResult::DirectedIndex(g, l, from)];
            if (load.bytes > 0)
            {
                r.links.push_back({g.Node(from).name,
                                   g.Node(to).name,
                                   load.bytes,
                                   load.utilization,
                                   load.maxFlows});
            }
        }
    }
}

RunResult
FluidBackend::Run(const PreparedSystem& system)
{
    const auto t0 = std::chrono::steady_clock::now();
    const SyncPlan& plan = *system.Plan();
    RunResult r;
    r.topology = m_topology.Spec();
    r.algorithm = system.Spec();
    r.model = system.ModelName();
    r.backend = Name();
    r.workers = plan.workers;
    r.gradientBytes = plan.gradientBytes;
    const auto fluidStart = std::chrono::steady_clock::now();
    if (system.Rounds())
    {
        r.gstS = RoundFluidEstimator().Estimate(m_topology, *system.Rounds()).gstS;
        r.idealGstS = IdealGst(m_topology, system);
    }
    else
    {
        EstimateExplicit(plan, r);
    }
    r.fluidWallS = WallSince(fluidStart);
    // No network state carries over between iterations in the fluid model: every
    // iteration takes the same time (compute, then the sync; overlap is a packet feature).
    r.gstPerIterationS.assign(m_options.iterations, r.gstS);
    const double slowest = m_options.computeS *
                           (m_options.straggler >= 0 ? m_options.stragglerFactor : 1);
    r.iterationS = slowest + r.gstS;
    r.wallS = WallSince(t0);
    return r;
}

} // namespace ns3
