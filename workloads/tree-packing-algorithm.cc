#include "tree-packing-algorithm.h"

#include "arborescence-packing.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr TransferId kNone = UINT32_MAX;

/// Splits [0, size) into `parts` ranges, the first (size mod parts) one byte longer.
std::vector<uint64_t>
SplitOffsets(uint64_t size, uint64_t parts)
{
    std::vector<uint64_t> offset(parts + 1, 0);
    for (uint64_t i = 0; i < parts; ++i)
    {
        offset[i + 1] = offset[i] + size / parts + (i < size % parts ? 1 : 0);
    }
    return offset;
}

} // namespace

TreePackingAlgorithm::TreePackingAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_iterations = static_cast<uint32_t>(s.GetUint("iterations", 256, 1, 100000));
    m_epsilon = s.GetDouble("epsilon", 0.1, 1e-6, 1.0);
    m_maxTrees = static_cast<uint32_t>(s.GetUint("maxtrees", 128, 1, 1024));
    m_gap = s.GetDouble("gap", 0.025, 0.0, 0.5);
    m_blocks = static_cast<uint32_t>(s.GetUint("blocks", 8, 1, 65536));
    m_streams = static_cast<uint32_t>(s.GetUint("streams", 2, 1, 1024));
    s.Finish();
}

std::string
TreePackingAlgorithm::Spec() const
{
    std::ostringstream out;
    out << "trees:iterations=" << m_iterations << ",epsilon=" << m_epsilon
        << ",maxtrees=" << m_maxTrees << ",gap=" << m_gap << ",streams=" << m_streams
        << ",blocks=" << m_blocks;
    return out.str();
}

bool
TreePackingAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    const uint32_t n = topology.Graph().HostCount();
    if (n < 1 || n > kMaxHosts)
    {
        why = "trees packs over all host pairs: needs 1 to " + std::to_string(kMaxHosts) +
              " hosts, the topology has " + std::to_string(n);
        return false;
    }
    return true;
}

TreePackingResult
TreePackingAlgorithm::Pack(const Topology& topology) const
{
    RequireApplies(topology);
    return ArborescencePacking(m_iterations, m_epsilon, m_maxTrees, m_gap).Pack(topology);
}

std::vector<std::pair<uint32_t, double>>
TreePackingAlgorithm::Streams(const TreePackingResult& packing) const
{
    std::vector<std::pair<uint32_t, double>> streams;
    for (uint32_t t = 0; t < packing.trees.size(); ++t)
    {
        const double rate = packing.trees[t].rateBps;
        const uint64_t count = std::max<int64_t>(
            1,
            std::llround(double(m_streams) * packing.trees.size() * rate / packing.aggregateBps));
        for (uint64_t i = 0; i < count; ++i)
        {
            streams.emplace_back(t, rate / count);
        }
    }
    return streams;
}

namespace
{

/// A packed tree's children, breadth-first order from the root, and subtree contributor sets.
struct TreeShape
{
    std::vector<std::vector<HostRank>> children;
    std::vector<HostRank> order;
    std::vector<ContributorSet> subtree;
};

/// The shape of `tree` over n hosts.
TreeShape
ShapeOf(const PackedTree& tree, uint32_t n)
{
    TreeShape shape;
    std::vector<std::vector<HostRank>>& children = shape.children;
    children.resize(n);
    for (HostRank h = 0; h < n; ++h)
    {
        if (tree.parent[h] != kNoIndex)
        {
            children[tree.parent[h]].push_back(h);
        }
    }
    std::vector<HostRank>& order = shape.order;
    order.push_back(tree.root);
    for (size_t q = 0; q < order.size(); ++q)
    {
        for (HostRank c : children[order[q]])
        {
            order.push_back(c);
        }
    }
    std::vector<ContributorSet>& subtree = shape.subtree;
    subtree.assign(n, ContributorSet(n));
    for (auto it = order.rbegin(); it != order.rend(); ++it)
    {
        subtree[*it].Add(*it);
        if (tree.parent[*it] != kNoIndex)
        {
            subtree[tree.parent[*it]].UnionWith(subtree[*it]);
        }
    }
    return shape;
}

/// Adds stream st over [base, end): `blocks` pipelined blocks, each reduced up the tree and
/// broadcast back down.
void
AddTreeStream(SyncPlan& plan,
              const PackedTree& tree,
              uint32_t n,
              uint64_t base,
              uint64_t end,
              uint32_t blocks,
              size_t st)
{
    const TreeShape shape = ShapeOf(tree, n);
    const std::vector<std::vector<HostRank>>& children = shape.children;
    const std::vector<HostRank>& order = shape.order;
    const std::vector<ContributorSet>& subtree = shape.subtree;

    std::vector<uint64_t> block = SplitOffsets(end - base, blocks);
    std::vector<TransferId> lastUp(n, kNone);   // host's previous send to its parent
    std::vector<TransferId> lastDown(n, kNone); // previous send from the parent to host
    for (uint32_t b = 0; b < blocks; ++b)
    {
        const uint64_t offset = base + block[b];
        const uint64_t bytes = block[b + 1] - block[b];
        if (bytes == 0)
        {
            continue;
        }
        const uint32_t chunk = static_cast<uint32_t>(st) * blocks + b;
        std::vector<std::vector<TransferId>> fromChildren(n);
        for (auto it = order.rbegin(); it != order.rend(); ++it)
        {
            const HostRank h = *it;
            if (h == tree.root)
            {
                continue;
            }
            std::vector<TransferId> deps = fromChildren[h];
            if (lastUp[h] != kNone)
            {
                deps.push_back(lastUp[h]);
            }
            TransferId id = plan.Add({0,
                                      h,
                                      tree.parent[h],
                                      offset,
                                      bytes,
                                      TransferOp::Reduce,
                                      subtree[h],
                                      deps,
                                      chunk,
                                      0});
            lastUp[h] = id;
            fromChildren[tree.parent[h]].push_back(id);
        }
        std::vector<TransferId> fromParent(n, kNone);
        for (HostRank h : order)
        {
            for (HostRank c : children[h])
            {
                std::vector<TransferId> deps = h == tree.root
                                                   ? fromChildren[h]
                                                   : std::vector<TransferId>{fromParent[h]};
                if (lastDown[c] != kNone)
                {
                    deps.push_back(lastDown[c]);
                }
                TransferId id = plan.Add({0,
                                          h,
                                          c,
                                          offset,
                                          bytes,
                                          TransferOp::Copy,
                                          ContributorSet::All(n),
                                          deps,
                                          chunk,
                                          1});
                lastDown[c] = id;
                fromParent[c] = id;
            }
        }
    }
}

} // namespace

SyncPlan
TreePackingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    TreePackingResult packing = Pack(topology);
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    const uint64_t w = plan.gradientBytes;
    const std::vector<std::pair<uint32_t, double>> streams = Streams(packing);
    long double cumulative = 0;
    uint64_t begin = 0;
    for (size_t st = 0; st < streams.size(); ++st)
    {
        const PackedTree& tree = packing.trees[streams[st].first];
        cumulative += streams[st].second;
        // min: rounding may carry the running share a hair above 1 before the last stream.
        const uint64_t end = st + 1 == streams.size()
                                 ? w
                                 : std::min<uint64_t>(w,
                                                      static_cast<uint64_t>(
                                                          w * (cumulative / packing.aggregateBps)));
        const uint64_t base = begin;
        begin = end;
        if (end <= base)
        {
            continue; // a stream too slow to get a byte of a tiny gradient
        }

        AddTreeStream(plan, tree, n, base, end, m_blocks, st);
    }
    return plan;
}

PlanSizeBound
TreePackingAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    // The packing keeps at most maxtrees trees (ArborescencePacking) and gives tree t
    // max(1, round(streams x trees x its share)) streams: at most (streams + 1) x maxtrees
    // in all. Each stream sends every block up and down the tree's N - 1 edges: 2 (N - 1)
    // transfers a block, on at most 2 (N - 1) ordered pairs a tree. Its dependencies grow
    // with the root's children (each of its sends down waits on all of them): no closed
    // form here, the plan's PlanMemoryBudget charges count them.
    const uint64_t n = in.hosts;
    const uint64_t edges = n > 0 ? n - 1 : 0;
    const uint64_t blockStreams = SaturatingMul(SaturatingMul(uint64_t{m_streams} + 1, m_maxTrees),
                                                m_blocks);
    return {SaturatingMul(blockStreams, 2 * edges),
            std::min(SaturatingMul(n, edges), SaturatingMul(2 * edges, m_maxTrees)),
            0};
}

} // namespace ns3
