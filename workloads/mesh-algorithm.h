/*
 * MeshAlgorithm: "diffuse + collect" allreduce. Reduce-scatter by direct exchange (every
 * worker sends chunk i of its gradient straight to worker i), then all-gather (worker i
 * sends the summed chunk i straight to every other worker). Per worker 2(N-1)W/N bytes
 * each way, in two communication steps, at the price of N-1 concurrent flows per NIC.
 */
#ifndef PARAMSYNC_MESH_ALGORITHM_H
#define PARAMSYNC_MESH_ALGORITHM_H

#include "sync-algorithm.h"

namespace ns3
{

/**
 * \brief Diffuse + collect (direct reduce-scatter then direct all-gather). No options.
 *
 * Chunks: W split into N parts, the first W mod N parts one byte longer (so volumes are
 * 2(N-1)W/N exactly when N divides W, within 2(N-1) bytes otherwise).
 */
class MeshAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "mesh" (no options). \throws std::invalid_argument on any option
    explicit MeshAlgorithm(const std::string& spec);
    std::string Spec() const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;
};

} // namespace ns3

#endif // PARAMSYNC_MESH_ALGORITHM_H
