#include "bandwidth-aware-mesh-algorithm.h"

#include "ps-network-view.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace ns3
{

BandwidthAwareMeshAlgorithm::BandwidthAwareMeshAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_rounds = static_cast<uint32_t>(s.GetUint("rounds", 8, 1, 64));
    s.Finish();
}

std::string
BandwidthAwareMeshAlgorithm::Spec() const
{
    return "bwmesh:rounds=" + std::to_string(m_rounds);
}

bool
BandwidthAwareMeshAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    const uint32_t n = topology.Graph().HostCount();
    if (n < 1 || n > kMaxHosts)
    {
        why = "bwmesh needs 1.." + std::to_string(kMaxHosts) +
              " hosts (its plan has 2 K N (N-1) "
              "transfers)";
        return false;
    }
    return true;
}

std::vector<double>
BandwidthAwareMeshAlgorithm::HostRates(const Topology& topology)
{
    // The scheduler's view of the network (PsPaths): a host's rate is the total rate of
    // the distinct channels its paths leave it on.
    const PsPaths paths = PsPaths::FromTopology(topology);
    std::vector<double> rates(paths.hosts, 0.0);
    for (uint32_t i = 0; i < paths.hosts; ++i)
    {
        std::set<uint32_t> first;
        for (uint32_t j = 0; j < paths.hosts; ++j)
        {
            if (j != i && !paths.Path(i, j).empty())
            {
                first.insert(paths.Path(i, j).front());
            }
        }
        for (uint32_t c : first)
        {
            rates[i] += paths.channelRateBps[c];
        }
    }
    return rates;
}

std::vector<double>
BandwidthAwareMeshAlgorithm::Shares(const std::vector<double>& rates)
{
    const size_t n = rates.size();
    std::vector<double> shares(n, 0.0);
    const double total = std::accumulate(rates.begin(), rates.end(), 0.0);
    if (n <= 2 || total <= 0)
    {
        for (size_t i = 0; i < n; ++i)
        {
            shares[i] = total > 0 ? rates[i] / total : 1.0 / static_cast<double>(n);
        }
        return shares;
    }
    // Water-filling: with the k fastest hosts owning, sum_{k fastest} (T r_i - 1) = N - 2
    // gives T = (N - 2 + k) / (sum of their rates); the largest k whose slowest member
    // still gets a share >= 0 (T r_k >= 1) is the optimum.
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(
        order.begin(), order.end(), [&](size_t a, size_t b) { return rates[a] > rates[b]; });
    const double m = static_cast<double>(n) - 2.0;
    double sum = 0;
    double t = 0;
    for (size_t k = 1; k <= n; ++k)
    {
        sum += rates[order[k - 1]];
        const double candidate = (m + static_cast<double>(k)) / sum;
        if (candidate * rates[order[k - 1]] < 1.0)
        {
            break;
        }
        t = candidate;
    }
    for (size_t i = 0; i < n; ++i)
    {
        shares[i] = std::max(0.0, (t * rates[i] - 1.0) / m);
    }
    return shares;
}

SyncPlan
BandwidthAwareMeshAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    const uint32_t n = topology.Graph().HostCount();
    const uint64_t w = model.TotalBytes();
    SyncPlan plan;
    StartPlan(plan, w, n, n);
    const std::vector<double> shares = Shares(HostRates(topology));
    // The host with the largest share takes the rounding remainder of each round.
    const uint32_t biggest = static_cast<uint32_t>(std::max_element(shares.begin(), shares.end()) -
                                                   shares.begin());
    std::vector<std::vector<TransferId>> sentBy(n); // per sender: last round's parts
    uint64_t start = 0;
    for (uint32_t k = 0; k < m_rounds; ++k)
    {
        const uint64_t len = w / m_rounds + (k < w % m_rounds ? 1 : 0);
        std::vector<uint64_t> size(n);
        uint64_t given = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            size[i] = static_cast<uint64_t>(static_cast<double>(len) * shares[i]);
            given += size[i];
        }
        size[biggest] += len - given;
        std::vector<uint64_t> offset(n + 1, start);
        for (uint32_t i = 0; i < n; ++i)
        {
            offset[i + 1] = offset[i] + size[i];
        }
        // Reduce-scatter: sender j's parts of round k after all of its parts of round k-1.
        std::vector<std::vector<TransferId>> sent(n);
        std::vector<std::vector<TransferId>> received(n);
        for (uint32_t j = 0; j < n; ++j)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                if (i == j || size[i] == 0)
                {
                    continue;
                }
                const TransferId t = plan.Add({0,
                                               j,
                                               i,
                                               offset[i],
                                               size[i],
                                               TransferOp::Reduce,
                                               ContributorSet::Single(n, j),
                                               sentBy[j],
                                               k,
                                               2 * k});
                sent[j].push_back(t);
                received[i].push_back(t);
            }
        }
        // All-gather: owner i sends the sum as soon as it has every part of round k.
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                if (i == j || size[i] == 0)
                {
                    continue;
                }
                plan.Add({0,
                          i,
                          j,
                          offset[i],
                          size[i],
                          TransferOp::Copy,
                          ContributorSet::All(n),
                          received[i],
                          k,
                          2 * k + 1});
            }
        }
        sentBy = sent;
        start += len;
    }
    return plan;
}

PlanSizeBound
BandwidthAwareMeshAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    // Per round, a reduce-scatter and an all-gather between every ordered pair. Each
    // all-gather transfer waits on the N - 1 parts its owner received that round, and each
    // reduce-scatter transfer after the first round on its sender's N - 1 parts of the round
    // before: (2 rounds - 1) N (N - 1)^2 dependencies.
    const uint64_t pairs = SaturatingMul(n, n > 0 ? n - 1 : 0);
    const uint64_t perRound = SaturatingMul(pairs, n > 0 ? n - 1 : 0);
    return {SaturatingMul(2 * uint64_t{m_rounds}, pairs),
            pairs,
            SaturatingMul(2 * uint64_t{m_rounds} - 1, perRound)};
}

} // namespace ns3
