#include "hips-algorithm.h"

#include "ns3/spec-string.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

/// \brief A byte range [begin, end) of the gradient.
struct ByteRange
{
    uint64_t begin;
    uint64_t end;

    bool
    operator==(const ByteRange& other) const
    {
        return begin == other.begin && end == other.end;
    }
};

/// \brief Sub-chunk i of r split into g parts, the first (size mod g) one byte longer.
ByteRange
SubChunk(const ByteRange& r, uint32_t g, uint32_t i)
{
    const uint64_t size = r.end - r.begin;
    const uint64_t base = size / g;
    const uint64_t extra = size % g;
    const uint64_t begin = r.begin + i * base + std::min<uint64_t>(i, extra);
    return {begin, begin + base + (i < extra ? 1 : 0)};
}

/// \brief Whether a group exchanges as a ring (else by direct exchange).
bool
UsesRing(const HostGroup& group, GroupExchange exchange)
{
    return exchange == GroupExchange::Ring || (exchange == GroupExchange::AsGrouped && group.ring);
}

/// \brief Per-host state of one flow while its stages are laid out.
struct HostState
{
    ByteRange range;                //!< the range this host currently works on
    std::vector<ByteRange> parents; //!< range before each reduce-scatter stage (a stack)
    ContributorSet held;            //!< contributions summed in `range` (reduce-scatter)
    /// Transfers whose dependency closure covers everything this host sent and received so
    /// far: its latest sends (each waited for the previous frontier) plus the receives since.
    std::vector<TransferId> frontier;
};

/// \brief Lays out the transfers of one flow; see AddHierarchicalAllreduce.
class FlowBuilder
{
  public:
    FlowBuilder(SyncPlan& plan, uint32_t flow, ByteRange range, const std::string& who)
        : m_plan(plan),
          m_flow(flow),
          m_who(who)
    {
        for (uint32_t h = 0; h < plan.workers; ++h)
        {
            m_hosts.push_back({range, {}, ContributorSet::Single(plan.workers, h), {}});
        }
    }

    /// \brief Reduce-scatter inside every group of one dimension.
    void
    ReduceScatter(const HostDimension& dim, GroupExchange exchange, bool reverse, uint32_t phase)
    {
        for (const HostGroup& group : dim)
        {
            const ByteRange range = CommonRange(group.members, phase);
            for (HostRank h : group.members)
            {
                m_hosts[h].parents.push_back(range);
            }
            const uint32_t g = static_cast<uint32_t>(group.members.size());
            if (g < 2)
            {
                continue;
            }
            if (!UsesRing(group, exchange))
            {
                DirectReduceScatter(group.members, range, phase);
            }
            else
            {
                RingPass(Ordered(group.members, reverse), range, phase, true);
            }
        }
    }

    /// \brief All-gather inside every group of one dimension (undoes ReduceScatter).
    void
    AllGather(const HostDimension& dim, GroupExchange exchange, bool reverse, uint32_t phase)
    {
        for (const HostGroup& group : dim)
        {
            const uint32_t g = static_cast<uint32_t>(group.members.size());
            const ByteRange parent = m_hosts[group.members.front()].parents.back();
            if (g >= 2)
            {
                if (!UsesRing(group, exchange))
                {
                    DirectAllGather(group.members, parent, phase);
                }
                else
                {
                    RingPass(Ordered(group.members, reverse), parent, phase, false);
                }
            }
            for (HostRank h : group.members)
            {
                m_hosts[h].range = m_hosts[h].parents.back();
                m_hosts[h].parents.pop_back();
            }
        }
    }

  private:
    /// \brief The range every member works on. Throws unless the members hold the same range
    /// and disjoint contributions (else the groups are not a product of coordinates).
    ByteRange
    CommonRange(const std::vector<HostRank>& members, uint32_t phase) const
    {
        const ByteRange range = m_hosts[members.front()].range;
        ContributorSet seen(m_plan.workers);
        for (HostRank h : members)
        {
            if (!(m_hosts[h].range == range) || seen.Intersects(m_hosts[h].held))
            {
                throw std::invalid_argument(
                    m_who +
                    ": the topology's dimensions are not independent coordinates: at "
                    "stage " +
                    std::to_string(phase) + " hosts " + std::to_string(members.front()) + " and " +
                    std::to_string(h) +
                    " of one group hold different ranges or the same contributions");
            }
            seen.UnionWith(m_hosts[h].held);
        }
        return range;
    }

    static std::vector<HostRank>
    Ordered(const std::vector<HostRank>& members, bool reverse)
    {
        return reverse ? std::vector<HostRank>(members.rbegin(), members.rend()) : members;
    }

    /// \brief Dependencies of a host's next stage (step): its frontier.
    std::vector<TransferId>
    Deps(HostRank h) const
    {
        return m_hosts[h].frontier;
    }

    TransferId
    Add(HostRank src,
        HostRank dst,
        ByteRange r,
        TransferOp op,
        const ContributorSet& carries,
        std::vector<TransferId> deps,
        uint32_t phase)
    {
        return m_plan.Add(
            {0, src, dst, r.begin, r.end - r.begin, op, carries, std::move(deps), m_flow, phase});
    }

    /**
     * \brief Moves the members' frontiers past one stage (step). A host that sent has a new
     * frontier (its sends waited for the old one); one that only received keeps the old
     * frontier too, else skipped empty sub-chunks would cut the chain to its earlier data.
     */
    void
    Commit(const std::vector<HostRank>& members,
           std::vector<std::vector<TransferId>>& sends,
           std::vector<std::vector<TransferId>>& recvs)
    {
        for (size_t i = 0; i < members.size(); ++i)
        {
            std::vector<TransferId>& frontier = m_hosts[members[i]].frontier;
            if (!sends[i].empty())
            {
                frontier = std::move(sends[i]);
            }
            frontier.insert(frontier.end(), recvs[i].begin(), recvs[i].end());
        }
    }

    void
    DirectReduceScatter(const std::vector<HostRank>& members, ByteRange range, uint32_t phase)
    {
        const uint32_t g = static_cast<uint32_t>(members.size());
        std::vector<std::vector<TransferId>> sends(g);
        std::vector<std::vector<TransferId>> recvs(g);
        ContributorSet sum(m_plan.workers);
        for (uint32_t j = 0; j < g; ++j)
        {
            const HostState& from = m_hosts[members[j]];
            sum.UnionWith(from.held);
            const std::vector<TransferId> deps = Deps(members[j]);
            for (uint32_t i = 0; i < g; ++i)
            {
                const ByteRange sub = SubChunk(range, g, i);
                if (i == j || sub.end == sub.begin)
                {
                    continue;
                }
                TransferId id = Add(
                    members[j], members[i], sub, TransferOp::Reduce, from.held, deps, phase);
                sends[j].push_back(id);
                recvs[i].push_back(id);
            }
        }
        Commit(members, sends, recvs);
        for (uint32_t i = 0; i < g; ++i)
        {
            m_hosts[members[i]].range = SubChunk(range, g, i);
            m_hosts[members[i]].held = sum;
        }
    }

    void
    DirectAllGather(const std::vector<HostRank>& members, ByteRange parent, uint32_t phase)
    {
        const uint32_t g = static_cast<uint32_t>(members.size());
        std::vector<std::vector<TransferId>> sends(g);
        std::vector<std::vector<TransferId>> recvs(g);
        const ContributorSet all = ContributorSet::All(m_plan.workers);
        for (uint32_t j = 0; j < g; ++j)
        {
            const ByteRange own = SubChunk(parent, g, j);
            if (own.end == own.begin)
            {
                continue;
            }
            const std::vector<TransferId> deps = Deps(members[j]);
            for (uint32_t i = 0; i < g; ++i)
            {
                if (i == j)
                {
                    continue;
                }
                TransferId id = Add(
                    members[j], members[i], own, TransferOp::Copy, all, deps, phase);
                sends[j].push_back(id);
                recvs[i].push_back(id);
            }
        }
        Commit(members, sends, recvs);
    }

    /**
     * Ring reduce-scatter (reduce == true) or all-gather over `order` on `range`, as in
     * RingAlgorithm: reduce-scatter step k, position i sends sub-chunk (i-k) mod g summing
     * positions i-k..i; position i ends owning sub-chunk (i+1) mod g. All-gather step k,
     * position i forwards sub-chunk (i+1-k) mod g.
     */
    void
    RingPass(const std::vector<HostRank>& order, ByteRange range, uint32_t phase, bool reduce)
    {
        const uint32_t g = static_cast<uint32_t>(order.size());
        const ContributorSet all = ContributorSet::All(m_plan.workers);
        // acc[i]: what position i sends at the current reduce-scatter step, the held sets of
        // positions i-k..i; step k+1 extends position i-1's by held[i] (O(g) unions a step,
        // not O(g k): a 1,024-host ring would otherwise take seconds).
        std::vector<ContributorSet> acc;
        if (reduce)
        {
            for (HostRank h : order)
            {
                acc.push_back(m_hosts[h].held);
            }
        }
        for (uint32_t k = 0; k + 1 < g; ++k)
        {
            if (reduce && k > 0)
            {
                std::vector<ContributorSet> next(g);
                for (uint32_t i = 0; i < g; ++i)
                {
                    next[i] = acc[(i + g - 1) % g];
                    next[i].UnionWith(m_hosts[order[i]].held);
                }
                acc = std::move(next);
            }
            std::vector<std::vector<TransferId>> sends(g);
            std::vector<std::vector<TransferId>> recvs(g);
            for (uint32_t i = 0; i < g; ++i)
            {
                const uint32_t next = (i + 1) % g;
                const uint32_t chunk = reduce ? (i + g - k) % g : (i + 1 + g - k) % g;
                const ByteRange sub = SubChunk(range, g, chunk);
                if (sub.end == sub.begin)
                {
                    continue;
                }
                TransferId id = Add(order[i],
                                    order[next],
                                    sub,
                                    reduce ? TransferOp::Reduce : TransferOp::Copy,
                                    reduce ? acc[i] : all,
                                    Deps(order[i]),
                                    phase);
                sends[i].push_back(id);
                recvs[next].push_back(id);
            }
            Commit(order, sends, recvs);
        }
        if (reduce)
        {
            ContributorSet sum(m_plan.workers);
            for (HostRank h : order)
            {
                sum.UnionWith(m_hosts[h].held);
            }
            for (uint32_t i = 0; i < g; ++i)
            {
                m_hosts[order[i]].range = SubChunk(range, g, (i + 1) % g);
                m_hosts[order[i]].held = sum;
            }
        }
    }

    SyncPlan& m_plan;
    uint32_t m_flow;
    const std::string& m_who;
    std::vector<HostState> m_hosts;
};

/// \brief Throws unless every dimension partitions the workers 0..n-1 into non-empty
/// groups and there are flows to lay out.
void
ValidateDimensions(uint32_t n,
                   const std::vector<HostDimension>& dims,
                   const std::vector<HierarchicalFlow>& flows,
                   const std::string& who)
{
    for (size_t d = 0; d < dims.size(); ++d)
    {
        std::vector<uint32_t> seen(n, 0);
        for (const HostGroup& group : dims[d])
        {
            if (group.members.empty())
            {
                throw std::invalid_argument(who + ": dimension " + std::to_string(d) +
                                            " has an empty group");
            }
            for (HostRank h : group.members)
            {
                if (h >= n || seen[h]++ != 0)
                {
                    throw std::invalid_argument(who + ": dimension " + std::to_string(d) +
                                                " lists host " + std::to_string(h) +
                                                " twice or out of range (hosts 0.." +
                                                std::to_string(n - 1) + ")");
                }
            }
        }
        for (uint32_t h = 0; h < n; ++h)
        {
            if (seen[h] == 0)
            {
                throw std::invalid_argument(who + ": dimension " + std::to_string(d) +
                                            " leaves host " + std::to_string(h) +
                                            " out of every group");
            }
        }
    }
    if (flows.empty())
    {
        throw std::invalid_argument(who + ": no flows to lay out");
    }
    for (size_t i = 0; i < flows.size(); ++i)
    {
        std::vector<bool> used(dims.size(), false);
        for (uint32_t d : flows[i].dimOrder)
        {
            if (d >= dims.size() || used[d])
            {
                throw std::invalid_argument(who + ": flow " + std::to_string(i) +
                                            " visits dimension " + std::to_string(d) +
                                            " twice or out of range");
            }
            used[d] = true;
        }
    }
}

} // namespace

void
AddHierarchicalAllreduce(SyncPlan& plan,
                         const std::vector<HostDimension>& dims,
                         const std::vector<HierarchicalFlow>& flows,
                         GroupExchange exchange,
                         const std::string& who)
{
    ValidateDimensions(plan.workers, dims, flows, who);
    // Laid out on a copy so that a throw (groups not a product) leaves `plan` untouched.
    SyncPlan work = plan;
    const ByteRange whole{0, plan.gradientBytes};
    const uint32_t f = static_cast<uint32_t>(flows.size());
    for (uint32_t i = 0; i < f; ++i)
    {
        const HierarchicalFlow& flow = flows[i];
        const ByteRange part = SubChunk(whole, f, i);
        if (part.end == part.begin)
        {
            continue;
        }
        FlowBuilder builder(work, i, part, who);
        const uint32_t stages = static_cast<uint32_t>(flow.dimOrder.size());
        for (uint32_t s = 0; s < stages; ++s)
        {
            builder.ReduceScatter(dims[flow.dimOrder[s]], exchange, flow.reverse, s);
        }
        for (uint32_t s = stages; s-- > 0;)
        {
            builder.AllGather(dims[flow.dimOrder[s]], exchange, flow.reverse, 2 * stages - 1 - s);
        }
    }
    plan = std::move(work);
}

bool
AddHierarchicalRounds(RoundPlan& plan,
                      const std::vector<HostDimension>& dims,
                      const std::vector<HierarchicalFlow>& flows,
                      GroupExchange exchange,
                      const std::string& who)
{
    ValidateDimensions(plan.workers, dims, flows, who);
    const size_t stages = flows.front().dimOrder.size();
    // Stage s: the size and exchange of every group any flow works in (they must agree).
    std::vector<uint32_t> size(stages, 0);
    std::vector<bool> ring(stages, false);
    for (const HierarchicalFlow& flow : flows)
    {
        if (flow.dimOrder.size() != stages)
        {
            return false;
        }
        for (size_t s = 0; s < stages; ++s)
        {
            for (const HostGroup& group : dims[flow.dimOrder[s]])
            {
                const auto g = static_cast<uint32_t>(group.members.size());
                if (size[s] == 0)
                {
                    size[s] = g;
                    ring[s] = UsesRing(group, exchange);
                }
                if (g != size[s] || UsesRing(group, exchange) != ring[s])
                {
                    return false;
                }
            }
        }
    }
    // Range sizes: parts of W, then sub-chunks stage by stage (SubChunk's first pieces are
    // one byte longer: the largest is the ceiling, the smallest the floor).
    const uint64_t parts = flows.size();
    uint64_t smallest = plan.gradientBytes / parts;
    uint64_t largest = (plan.gradientBytes + parts - 1) / parts;
    std::vector<uint64_t> bytes(stages);
    for (size_t s = 0; s < stages; ++s)
    {
        smallest /= size[s];
        largest = (largest + size[s] - 1) / size[s];
        bytes[s] = largest;
    }
    if (smallest == 0)
    {
        return false;
    }
    // The flows of one step of stage s, every part at once: ring successors, or every
    // ordered pair of a group.
    auto stepFlows = [&](size_t s) {
        std::vector<RoundFlow> out;
        for (const HierarchicalFlow& flow : flows)
        {
            for (const HostGroup& group : dims[flow.dimOrder[s]])
            {
                const std::vector<HostRank>& m = group.members;
                const size_t g = m.size();
                for (size_t i = 0; i < g && g > 1; ++i)
                {
                    if (ring[s])
                    {
                        out.emplace_back(flow.reverse ? m[g - 1 - i] : m[i],
                                         flow.reverse ? m[(2 * g - 2 - i) % g] : m[(i + 1) % g]);
                        continue;
                    }
                    for (size_t j = 0; j < g; ++j)
                    {
                        if (j != i)
                        {
                            out.emplace_back(m[i], m[j]);
                        }
                    }
                }
            }
        }
        return out;
    };
    RoundPlan work = plan;
    // Phases as the explicit plan labels its stages: reduce-scatter s, all-gather 2S-1-s.
    for (size_t s = 0; s < stages; ++s)
    {
        const uint64_t steps = ring[s] ? size[s] - 1 : 1;
        work.Append({stepFlows(s), bytes[s], steps, static_cast<uint32_t>(s)});
    }
    for (size_t s = stages; s-- > 0;)
    {
        const uint64_t steps = ring[s] ? size[s] - 1 : 1;
        work.Append({stepFlows(s), bytes[s], steps, static_cast<uint32_t>(2 * stages - 1 - s)});
    }
    plan = std::move(work);
    return true;
}

HipsAlgorithm::HipsAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_rotate = s.GetBool("rotate", true);
    m_bidir = s.GetBool("bidir", true);
    m_stage = s.GetChoice("stage", "auto", {"auto", "mesh", "ring"});
    s.Finish();
}

std::string
HipsAlgorithm::Spec() const
{
    return std::string("hips:rotate=") + (m_rotate ? "1" : "0") +
           ",bidir=" + (m_bidir ? "1" : "0") + ",stage=" + m_stage;
}

bool
HipsAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Dimensions().empty())
    {
        why = "hips needs a hierarchy of host groups (bcube, torus, ring, star); " +
              topology.Family() + " has none";
        return false;
    }
    return true;
}

std::vector<HierarchicalFlow>
HipsAlgorithm::Flows(const std::vector<HostDimension>& dims) const
{
    const uint32_t d = static_cast<uint32_t>(dims.size());
    const GroupExchange exchange = Exchange();
    // Directions matter only where a stage runs as a ring.
    bool anyRing = exchange == GroupExchange::Ring;
    for (const HostDimension& dim : dims)
    {
        for (const HostGroup& group : dim)
        {
            anyRing = anyRing || (exchange == GroupExchange::AsGrouped && group.ring);
        }
    }
    std::vector<HierarchicalFlow> flows;
    for (uint32_t p = 0; p < (m_rotate ? d : 1); ++p)
    {
        HierarchicalFlow flow{{}, false};
        for (uint32_t s = 0; s < d; ++s)
        {
            flow.dimOrder.push_back((p + s) % d);
        }
        flows.push_back(flow);
        if (m_bidir && anyRing)
        {
            flow.reverse = true;
            flows.push_back(flow);
        }
    }
    return flows;
}

GroupExchange
HipsAlgorithm::Exchange() const
{
    return m_stage == "mesh"   ? GroupExchange::Direct
           : m_stage == "ring" ? GroupExchange::Ring
                               : GroupExchange::AsGrouped;
}

SyncPlan
HipsAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    const std::vector<HostDimension> dims = topology.Dimensions();
    const uint32_t n = topology.Graph().HostCount();
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    AddHierarchicalAllreduce(plan, dims, Flows(dims), Exchange(), "--algorithm '" + Spec() + "'");
    return plan;
}

std::optional<RoundPlan>
HipsAlgorithm::CompileRounds(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    const std::vector<HostDimension> dims = topology.Dimensions();
    const uint32_t n = topology.Graph().HostCount();
    RoundPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    if (!AddHierarchicalRounds(plan, dims, Flows(dims), Exchange(), "--algorithm '" + Spec() + "'"))
    {
        return std::nullopt;
    }
    return plan;
}

PlanSizeBound
HipsAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    // One pipeline per rotation and direction, each a reduce-scatter and an all-gather per
    // level of the topology's hierarchy, by ring or direct exchange within its groups: the
    // levels and group sizes are the topology's, so the counts are the default's, not a
    // bound, and the plan's PlanMemoryBudget charges are the check.
    PlanSizeBound b = SyncAlgorithm::SizeBound(in);
    b.dependencies = 0;
    b.bounds = false;
    return b;
}

} // namespace ns3
