/*
 * BandwidthAwareMeshAlgorithm ("bwmesh"): MLFabric's bandwidth-aware allreduce (MLFabric,
 * SoCC'20 / arXiv:1907.00434: aggregation placed by the network's state so that it routes
 * around stragglers), as a direct reduce-scatter + all-gather whose chunk ownership and
 * order follow the link rates of the same network view the MLFabric scheduler uses
 * (PsPaths, ps-network-view.h).
 *
 * The gradient is cut into K rounds (W/K each, the first W mod K one byte longer). In a
 * round, host i owns a share s_i of the round's bytes: every other host sends it its part
 * of that share (reduce-scatter), then i sends the sum to every other host (all-gather).
 * Host i so sends and receives (1 - s_i) + (N - 1) s_i = 1 + (N - 2) s_i of the round's
 * bytes on its own link, at rate r_i (the slower direction of its access link). The shares
 * minimise the slowest host's time max_i (1 + (N - 2) s_i) / r_i with sum s_i = 1
 * (water-filling): s_i = max(0, (T r_i - 1) / (N - 2)); a host whose link is too slow to
 * own anything (T r_i <= 1) only sends its gradient and receives the sum, once each, the
 * least any allreduce can ask of it. Each host sends its rounds' reduce-scatter parts one
 * round after the other (round k + 1 after round k), and a round's all-gather starts as
 * soon as its owner has every part, so a slow host's uplink (reduce-scatter of round
 * k + 1) and downlink (all-gather of round k) work at the same time.
 *
 * The plan is compiled before the run: the rates are those of the topology (slow hosts and
 * links included), the network view's backlog is empty then; a live backlog is what the
 * asynchronous MLFabric scheduler (AsyncPsJob) uses, not a static plan.
 */
#ifndef PARAMSYNC_BANDWIDTH_AWARE_MESH_ALGORITHM_H
#define PARAMSYNC_BANDWIDTH_AWARE_MESH_ALGORITHM_H

#include "sync-algorithm.h"

#include <vector>

namespace ns3
{

/**
 * \brief "bwmesh[:rounds=8]": reduce-scatter + all-gather with rate-proportional ownership.
 */
class BandwidthAwareMeshAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "bwmesh[:rounds=K]" (K in 1..64, default 8).
    /// \throws std::invalid_argument on a bad option
    explicit BandwidthAwareMeshAlgorithm(const std::string& spec);
    std::string Spec() const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /**
     * \brief The shares s_i of each round's bytes that minimise max_i (1 + (N - 2) s_i) /
     * r_i with sum s_i = 1 (N = rates.size() >= 3); for N <= 2 every host moves the whole
     * round whatever it owns, and the shares are proportional to the rates.
     */
    static std::vector<double> Shares(const std::vector<double>& rates);
    /// \brief Each host's rate: the slower direction of its first link (its access link).
    static std::vector<double> HostRates(const Topology& topology);

    /// \brief Largest topology served: the plan has 2 K N (N - 1) transfers.
    static constexpr uint32_t kMaxHosts = 256;

  private:
    uint32_t m_rounds{8}; //!< K
};

} // namespace ns3

#endif // PARAMSYNC_BANDWIDTH_AWARE_MESH_ALGORITHM_H
