#include "ps-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace ns3
{

PsAlgorithm::PsAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_servers = static_cast<uint32_t>(s.GetUint("servers", 1, 1, 1u << 20));
    m_placement = s.GetChoice("placement", "dedicated", {"dedicated", "colocated"});
    m_shard = s.GetChoice("shard", "bytes", {"bytes", "tensor", "greedy"});
    // 0 means "no chunking"; ParseBytes rejects 0, so it is spelled out here.
    const std::string chunk = s.GetString("chunk", "0");
    m_chunk = chunk == "0" ? 0 : ParseBytes(chunk, s.Where() + "option chunk (0 or a size)");
    s.Finish();
}

std::string
PsAlgorithm::Spec() const
{
    return "ps:servers=" + std::to_string(m_servers) + ",placement=" + m_placement +
           ",shard=" + m_shard + ",chunk=" + std::to_string(m_chunk);
}

bool
PsAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    const uint32_t hosts = topology.Graph().HostCount();
    if (m_placement == "dedicated" && hosts <= m_servers)
    {
        why = "ps with " + std::to_string(m_servers) + " dedicated servers needs more than " +
              std::to_string(m_servers) + " hosts (at least one worker); the topology has " +
              std::to_string(hosts);
        return false;
    }
    if (m_placement == "colocated" && hosts < m_servers)
    {
        why = "ps with " + std::to_string(m_servers) + " co-located servers needs at least " +
              std::to_string(m_servers) + " hosts; the topology has " + std::to_string(hosts);
        return false;
    }
    return true;
}

std::vector<PsAlgorithm::ShardRange>
PsAlgorithm::Shards(const ModelProfile& model) const
{
    const uint64_t w = model.TotalBytes();
    std::vector<ShardRange> ranges;
    if (m_shard == "bytes")
    {
        uint64_t offset = 0;
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            const uint64_t bytes = w / m_servers + (s < w % m_servers ? 1 : 0);
            if (bytes > 0)
            {
                ranges.push_back({s, offset, bytes});
            }
            offset += bytes;
        }
        return ranges;
    }
    const std::vector<GradientTensor>& tensors = model.Tensors();
    std::vector<uint32_t> serverOf(tensors.size(), 0);
    if (m_shard == "tensor")
    {
        for (size_t t = 0; t < tensors.size(); ++t)
        {
            serverOf[t] = static_cast<uint32_t>(t % m_servers);
        }
    }
    else
    {
        // Largest first, each to the least loaded server: within 4/3 of the optimal maximum
        // load (Graham, SIAM J. Appl. Math. 1969). Stable sort: equal tensors keep backprop
        // order, equal loads go to the lowest server index, so the result is deterministic.
        std::vector<size_t> order(tensors.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return tensors[a].bytes > tensors[b].bytes;
        });
        std::vector<uint64_t> load(m_servers, 0);
        for (size_t t : order)
        {
            const auto least = std::min_element(load.begin(), load.end());
            serverOf[t] = static_cast<uint32_t>(least - load.begin());
            *least += tensors[t].bytes;
        }
    }
    for (size_t t = 0; t < tensors.size(); ++t)
    {
        if (tensors[t].bytes == 0)
        {
            continue;
        }
        if (!ranges.empty() && ranges.back().server == serverOf[t] &&
            ranges.back().offset + ranges.back().bytes == tensors[t].offset)
        {
            ranges.back().bytes += tensors[t].bytes;
        }
        else
        {
            ranges.push_back({serverOf[t], tensors[t].offset, tensors[t].bytes});
        }
    }
    return ranges;
}

SyncPlan
PsAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    const uint32_t hosts = topology.Graph().HostCount();
    const bool dedicated = m_placement == "dedicated";
    const uint32_t n = dedicated ? hosts - m_servers : hosts;
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, (dedicated ? hosts : n));
    auto participantOf = [&](uint32_t server) { return dedicated ? n + server : server; };

    constexpr TransferId kNone = UINT32_MAX;
    // lastPush[s][i]: worker i's latest push to server s. The next one waits for it, so a
    // server's chunks arrive in order and early chunks are pulled while later ones are
    // still pushed; pushes to different servers stay parallel (they use different links).
    std::vector<std::vector<TransferId>> lastPush(m_servers, std::vector<TransferId>(n, kNone));
    uint32_t chunk = 0;
    std::vector<TransferId> pushes;
    for (const ShardRange& range : Shards(model))
    {
        const ParticipantIndex server = participantOf(range.server);
        std::vector<TransferId>& last = lastPush[range.server];
        const uint64_t step = m_chunk == 0 ? range.bytes : m_chunk;
        for (uint64_t at = range.offset; at < range.offset + range.bytes; at += step, ++chunk)
        {
            const uint64_t bytes = std::min(step, range.offset + range.bytes - at);
            pushes.clear();
            for (uint32_t i = 0; i < n; ++i)
            {
                // A co-located server already holds its own worker's contribution.
                if (i != server)
                {
                    std::vector<TransferId> deps;
                    if (last[i] != kNone)
                    {
                        deps.push_back(last[i]);
                    }
                    last[i] = plan.Add({0,
                                        i,
                                        server,
                                        at,
                                        bytes,
                                        TransferOp::Reduce,
                                        ContributorSet::Single(n, i),
                                        deps,
                                        chunk,
                                        0});
                    pushes.push_back(last[i]);
                }
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                if (i != server)
                {
                    plan.Add({0,
                              server,
                              i,
                              at,
                              bytes,
                              TransferOp::Copy,
                              ContributorSet::All(n),
                              pushes,
                              chunk,
                              1});
                }
            }
        }
    }
    return plan;
}

PlanSizeBound
PsAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    // A push and a pull per worker and chunk; each pull waits on the pushes of its chunk,
    // one per worker, and each push on the worker's push before: at most N (N + 1)
    // dependencies a chunk. Sharded by bytes, a server holds one range: one chunk, or with
    // chunk=C at most ceil(range / C) <= range / C + 1, so at most S + W / C in all. Sharded
    // by tensor, the ranges depend on the model's tensors: not bounded here.
    uint64_t chunks = m_servers;
    bool bounds = m_shard == "bytes";
    if (m_chunk > 0)
    {
        bounds = bounds && in.modelBytes > 0;
        chunks += in.modelBytes / m_chunk;
    }
    PlanSizeBound b{SaturatingMul(2 * n, chunks),
                    SaturatingMul(2 * n, m_servers),
                    SaturatingMul(SaturatingMul(n, n + 1), chunks)};
    b.bounds = bounds;
    return b;
}

} // namespace ns3
