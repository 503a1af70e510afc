#include "fluid-estimator.h"

#include "fluid-run.h"

#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace ns3
{

void
FluidRun::Validate() const
{
    const uint32_t hosts = m_graph.HostCount();
    for (ParticipantIndex p = 0; p < m_plan.ParticipantCount(); ++p)
    {
        if (m_plan.hostOf[p] >= hosts)
        {
            throw std::invalid_argument(
                "FluidEstimator: plan '" + m_plan.algorithm + "' puts participant " +
                std::to_string(p) + " on host " + std::to_string(m_plan.hostOf[p]) + "; topology " +
                m_topology.Spec() + " has " + std::to_string(hosts) + " hosts (ranks from 0)");
        }
    }
    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    for (TransferId t = 0; t < n; ++t)
    {
        const Transfer& tr = m_plan.transfers[t];
        for (ParticipantIndex p : {tr.src, tr.dst})
        {
            if (p >= m_plan.ParticipantCount())
            {
                throw std::invalid_argument(
                    "FluidEstimator: plan '" + m_plan.algorithm + "' transfer " +
                    std::to_string(t) + " names participant " + std::to_string(p) +
                    "; the plan has " + std::to_string(m_plan.ParticipantCount()) +
                    " participants (from 0)");
            }
        }
        for (TransferId d : tr.deps)
        {
            if (d >= n || d == t)
            {
                throw std::invalid_argument(
                    "FluidEstimator: plan '" + m_plan.algorithm + "' transfer " +
                    std::to_string(t) + " depends on transfer " + std::to_string(d) +
                    "; allowed: another of its " + std::to_string(n) + " transfers");
            }
        }
    }
}

uint32_t
FluidRun::QueuePairsOf(TransferId t, uint32_t& count)
{
    const Transfer& tr = m_plan.transfers[t];
    const HostRank src = m_plan.hostOf[tr.src];
    const HostRank dst = m_plan.hostOf[tr.dst];
    // Dense per host pair while that is at most kDensePairs entries (64 MB), a map beyond.
    const uint64_t hosts = m_graph.HostCount();
    const bool dense = hosts * hosts <= kDensePairs;
    const uint64_t key = dense ? src * hosts + dst : (uint64_t{src} << 32) | dst;
    if (dense && m_qpOfPairDense.empty())
    {
        m_qpOfPairDense.assign(hosts * hosts, {kFluidNone, 0});
    }
    if (dense && m_qpOfPairDense[key].first != kFluidNone)
    {
        count = m_qpOfPairDense[key].second;
        return m_qpOfPairDense[key].first;
    }
    auto it = dense ? m_qpOfPair.end() : m_qpOfPair.find(key);
    if (it != m_qpOfPair.end())
    {
        count = it->second.second;
        return it->second.first;
    }
    const auto first = static_cast<uint32_t>(m_rate.size());
    count = std::max<uint32_t>(1, m_paths.QueuePairs(src, dst));
    for (uint32_t i = 0; i < count; ++i)
    {
        AddQueuePair(t, src, dst, i);
    }
    m_heap.Grow(static_cast<uint32_t>(m_rate.size()));
    if (dense)
    {
        m_qpOfPairDense[key] = {first, count};
    }
    else
    {
        m_qpOfPair.emplace(key, std::make_pair(first, count));
    }
    return first;
}

void
FluidRun::AddQueuePair(TransferId t, HostRank src, HostRank dst, uint32_t i)
{
    const NodeIndex ends[2] = {m_graph.HostNode(src), m_graph.HostNode(dst)};
    std::vector<FluidLinkUse> trunk;
    for (const FluidLinkUse& use : m_paths.Uses(src, dst, i))
    {
        if (!(m_capacity[use.link] > 0) || !std::isfinite(m_capacity[use.link]))
        {
            const TopologyLink& l = m_graph.Link(use.link / 2);
            std::ostringstream rate;
            rate << l.rateBps;
            throw std::invalid_argument("FluidEstimator: topology " + m_topology.Spec() +
                                        ": link " + std::to_string(use.link / 2) + " (" +
                                        m_graph.Node(l.a).name + " - " + m_graph.Node(l.b).name +
                                        ") has rate " + rate.str() +
                                        " bit/s on the route of transfer " + std::to_string(t) +
                                        " (host " + std::to_string(src) + " -> host " +
                                        std::to_string(dst) + "); allowed: a finite rate > 0");
        }
        const TopologyLink& l = m_graph.Link(use.link / 2);
        const bool atEnd = l.a == ends[0] || l.b == ends[0] || l.a == ends[1] || l.b == ends[1];
        if (!atEnd)
        {
            trunk.push_back(use);
            continue;
        }
        m_useLink.push_back(use.link);
        m_useFraction.push_back(use.fraction);
        m_usePos.push_back(0);
    }
    m_qpBegin.push_back(static_cast<uint32_t>(m_useLink.size()));
    m_qpTrunk.push_back(InternTrunk(trunk));
    m_qpTrunkPos.push_back(0);
    m_rate.push_back(0);
    m_remaining.push_back(0);
    m_servedAtS.push_back(0);
    m_head.push_back(kFluidNone);
    m_tail.push_back(kFluidNone);
    m_qpStamp.push_back(0);
    m_busyAtFill.push_back(0);
    m_counted.push_back(0);
    m_oldRate.push_back(0);
}

uint32_t
FluidRun::InternTrunk(const std::vector<FluidLinkUse>& uses)
{
    if (uses.empty())
    {
        return kFluidNone;
    }
    // FNV-1a over the (link, fraction) pairs; equal hashes are compared entry by entry.
    uint64_t hash = 1469598103934665603ull;
    for (const FluidLinkUse& use : uses)
    {
        uint64_t bits;
        std::memcpy(&bits, &use.fraction, sizeof bits);
        for (uint64_t v : {uint64_t{use.link}, bits})
        {
            hash = (hash ^ v) * 1099511628211ull;
        }
    }
    auto [it, added] = m_trunkOfHash.emplace(hash, kFluidNone);
    for (uint32_t t = it->second; t != kFluidNone; t = m_trunkSameHash[t])
    {
        const uint32_t b = m_trunkBegin[t];
        if (m_trunkBegin[t + 1] - b != uses.size())
        {
            continue;
        }
        bool same = true;
        for (size_t k = 0; k < uses.size() && same; ++k)
        {
            same = m_trunkLink[b + k] == uses[k].link && m_trunkFraction[b + k] == uses[k].fraction;
        }
        if (same)
        {
            return t;
        }
    }
    const auto t = static_cast<uint32_t>(m_trunkQps.size());
    for (const FluidLinkUse& use : uses)
    {
        m_trunkLink.push_back(use.link);
        m_trunkFraction.push_back(use.fraction);
        m_trunkUsePos.push_back(0);
    }
    m_trunkBegin.push_back(static_cast<uint32_t>(m_trunkLink.size()));
    m_trunkSameHash.push_back(it->second);
    it->second = t;
    m_trunkQps.emplace_back();
    m_trunkCounted.push_back(0);
    m_trunkDirty.push_back(0);
    m_trunkBytes.push_back(0);
    m_trunkReached.push_back(0);
    m_trunkShareStamp.push_back(0);
    m_trunkKept.emplace_back();
    m_trunkFillStamp.push_back(0);
    m_trunkUnfrozen.push_back(0);
    m_trunkAlone.push_back(0);
    m_trunkFreezing.push_back(0);
    return t;
}

void
FluidRun::SetBusy(uint32_t qp, bool busy)
{
    // The private entries enter or leave their links' lists now; the weights, counts and
    // trunk entries follow at the next refill (CountBusy).
    for (uint32_t u = m_qpBegin[qp]; u < m_qpBegin[qp + 1]; ++u)
    {
        auto& list = m_linkUses[m_useLink[u]];
        if (busy)
        {
            m_usePos[u] = static_cast<uint32_t>(list.size());
            list.push_back({u, qp});
        }
        else
        {
            const BusyUse moved = list.back();
            list[m_usePos[u]] = moved;
            m_usePos[moved.use] = m_usePos[u];
            list.pop_back();
        }
    }
    const uint32_t t = m_qpTrunk[qp];
    if (t != kFluidNone)
    {
        auto& list = m_trunkQps[t];
        if (busy)
        {
            m_qpTrunkPos[qp] = static_cast<uint32_t>(list.size());
            list.push_back(qp);
        }
        else
        {
            const uint32_t moved = list.back();
            list[m_qpTrunkPos[qp]] = moved;
            m_qpTrunkPos[moved] = m_qpTrunkPos[qp];
            list.pop_back();
        }
        if (m_trunkDirty[t] == 0)
        {
            m_trunkDirty[t] = 1;
            m_dirtyTrunks.push_back(t);
        }
    }
    m_dirty.push_back(qp);
}

void
FluidRun::Post(uint32_t qp, TransferId t, double wireBytes, double now)
{
    uint32_t m;
    if (m_freeMessage.empty())
    {
        m = static_cast<uint32_t>(m_messageTransfer.size());
        m_messageTransfer.push_back(t);
        m_messageBytes.push_back(wireBytes);
        m_messageNext.push_back(kFluidNone);
    }
    else
    {
        m = m_freeMessage.back();
        m_freeMessage.pop_back();
        m_messageTransfer[m] = t;
        m_messageBytes[m] = wireBytes;
        m_messageNext[m] = kFluidNone;
    }
    for (uint32_t u = m_qpBegin[qp]; u < m_qpBegin[qp + 1]; ++u)
    {
        m_result.links[m_useLink[u]].bytes += wireBytes * m_useFraction[u];
    }
    if (m_qpTrunk[qp] != kFluidNone)
    {
        m_trunkBytes[m_qpTrunk[qp]] += wireBytes; // spread over its links in Summarize
    }
    if (m_head[qp] == kFluidNone)
    {
        m_head[qp] = m;
        m_tail[qp] = m;
        m_remaining[qp] = wireBytes;
        m_servedAtS[qp] = now;
        SetBusy(qp, true);
    }
    else
    {
        m_messageNext[m_tail[qp]] = m;
        m_tail[qp] = m;
    }
}

void
FluidRun::Start(TransferId first, double now)
{
    // Zero-time transfers (co-located participants) release their dependents at once, in
    // plan order (a queue, so that posting order follows the plan).
    std::vector<TransferId> work{first};
    for (size_t next = 0; next < work.size(); ++next)
    {
        const TransferId t = work[next];
        const Transfer& tr = m_plan.transfers[t];
        m_result.startS[t] = now;
        if (m_plan.hostOf[tr.src] == m_plan.hostOf[tr.dst] || tr.bytes == 0)
        {
            m_result.endS[t] = now;
            ++m_completed;
            for (uint32_t i = m_dependentsBegin[t]; i < m_dependentsBegin[t + 1]; ++i)
            {
                if (--m_pendingDeps[m_dependents[i]] == 0)
                {
                    work.push_back(m_dependents[i]);
                }
            }
            continue;
        }
        // Equal parts, the first `bytes mod parts` one byte longer (SyncJob::Post).
        uint32_t count = 0;
        const uint32_t firstQp = QueuePairsOf(t, count);
        const auto parts = static_cast<uint32_t>(std::min<uint64_t>(count, tr.bytes));
        m_partsLeft[t] = parts;
        for (uint32_t i = 0; i < parts; ++i)
        {
            const uint64_t bytes = tr.bytes / parts + (i < tr.bytes % parts ? 1 : 0);
            Post(firstQp + i, t, m_paths.WireBytes(bytes), now);
        }
    }
}

void
FluidRun::FinishHead(uint32_t qp, double now, std::vector<TransferId>& done)
{
    const uint32_t m = m_head[qp];
    const TransferId t = m_messageTransfer[m];
    if (--m_partsLeft[t] == 0)
    {
        done.push_back(t);
    }
    m_head[qp] = m_messageNext[m];
    m_freeMessage.push_back(m);
    m_servedAtS[qp] = now;
    if (m_head[qp] == kFluidNone)
    {
        m_remaining[qp] = 0;
        m_heap.Remove(qp);
        SetBusy(qp, false);
        return;
    }
    // The next message takes the head at the same rate: the busy set, and so every
    // max-min rate, is unchanged.
    m_remaining[qp] = m_messageBytes[m_head[qp]];
    m_heap.Set(qp, now + m_remaining[qp] / m_rate[qp]);
}

FluidResult
FluidRun::Run()
{
    Validate();
    InitLinks();
    InitDependencies();
    Simulate();
    Summarize();
    m_result.queuePairs = m_rate.size();
    return std::move(m_result);
}

void
FluidRun::InitLinks()
{
    const uint32_t directed = 2 * m_graph.LinkCount();
    m_capacity.resize(directed);
    for (LinkIndex l = 0; l < m_graph.LinkCount(); ++l)
    {
        m_capacity[2 * l] = m_graph.Link(l).rateBps / 8;
        m_capacity[2 * l + 1] = m_graph.Link(l).rateBps / 8;
    }
    m_linkUses.resize(directed);
    m_linkTrunks.resize(directed);
    m_busyCount.assign(directed, 0);
    m_linkStamp.assign(directed, 0);
    m_residual.assign(directed, 0);
    m_weight.assign(directed, 0);
    m_busyWeight.assign(directed, 0);
    m_unfrozen.assign(directed, 0);
    m_result.links.resize(directed);
}

void
FluidRun::InitDependencies()
{
    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    m_result.startS.assign(n, -1);
    m_result.endS.assign(n, -1);
    m_partsLeft.assign(n, 0);
    m_pendingDeps.assign(n, 0);
    m_dependentsBegin.assign(n + 1, 0);
    for (TransferId t = 0; t < n; ++t)
    {
        m_pendingDeps[t] = static_cast<uint32_t>(m_plan.transfers[t].deps.size());
        for (TransferId d : m_plan.transfers[t].deps)
        {
            ++m_dependentsBegin[d + 1];
        }
    }
    for (TransferId t = 0; t < n; ++t)
    {
        m_dependentsBegin[t + 1] += m_dependentsBegin[t];
    }
    m_dependents.resize(m_dependentsBegin[n]);
    {
        std::vector<uint32_t> fill(m_dependentsBegin.begin(), m_dependentsBegin.end() - 1);
        for (TransferId t = 0; t < n; ++t)
        {
            for (TransferId d : m_plan.transfers[t].deps)
            {
                m_dependents[fill[d]++] = t;
            }
        }
    }
}

// The event loop stays in one function: it is the hot path.
void
FluidRun::Simulate()
{
    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    double now = 0;
    for (TransferId t = 0; t < n; ++t)
    {
        if (m_pendingDeps[t] == 0)
        {
            Start(t, now);
        }
    }
    Refill(now);

    std::vector<TransferId> done;
    while (!m_heap.Empty())
    {
        now = m_heap.TopKey();
        // The earliest head message is due; so is every head that would finish within the
        // merge window (see the header), credited now.
        while (!m_heap.Empty() && m_heap.TopKey() <= now + m_batchS)
        {
            FinishHead(m_heap.Top(), now, done);
        }
        // Simultaneous completions release their dependents in plan order.
        std::sort(done.begin(), done.end());
        for (TransferId t : done)
        {
            m_result.endS[t] = now;
            ++m_completed;
        }
        for (TransferId t : done)
        {
            for (uint32_t i = m_dependentsBegin[t]; i < m_dependentsBegin[t + 1]; ++i)
            {
                if (--m_pendingDeps[m_dependents[i]] == 0)
                {
                    Start(m_dependents[i], now);
                }
            }
        }
        done.clear();
        Refill(now);
    }
}

void
FluidRun::Summarize()
{
    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    const uint32_t directed = 2 * m_graph.LinkCount();
    if (m_completed != n)
    {
        for (TransferId t = 0; t < n; ++t)
        {
            if (m_result.endS[t] < 0)
            {
                throw std::invalid_argument("FluidEstimator: plan '" + m_plan.algorithm +
                                            "': transfer " + std::to_string(t) +
                                            " never starts (its dependencies form a cycle)");
            }
        }
    }
    for (TransferId t = 0; t < n; ++t)
    {
        m_result.gstS = std::max(m_result.gstS, m_result.endS[t]);
    }
    for (uint32_t t = 0; t < m_trunkQps.size(); ++t)
    {
        for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
        {
            m_result.links[m_trunkLink[e]].bytes += m_trunkBytes[t] * m_trunkFraction[e];
        }
    }
    for (uint32_t l = 0; l < directed; ++l)
    {
        FluidLinkLoad& load = m_result.links[l];
        const double rate = m_graph.Link(l / 2).rateBps;
        load.utilization = m_result.gstS > 0 && rate > 0 ? load.bytes * 8 / (rate * m_result.gstS)
                                                         : 0;
        m_result.maxConcurrentFlows = std::max(m_result.maxConcurrentFlows, load.maxFlows);
    }
}

uint32_t
FluidResult::DirectedIndex(const TopologyGraph& graph, LinkIndex link, NodeIndex from)
{
    return 2 * link + (graph.Link(link).a == from ? 0 : 1);
}

FluidEstimator::FluidEstimator(double batchS)
    : m_batchS(batchS)
{
    if (!(batchS >= 0) || !std::isfinite(batchS))
    {
        throw std::invalid_argument("FluidEstimator: batch window " + std::to_string(batchS) +
                                    " s; allowed: a finite value >= 0");
    }
}

FluidResult
FluidEstimator::Estimate(const Topology& topology, const SyncPlan& plan) const
{
    return Estimate(topology, plan, EcmpSplitPaths(topology));
}

FluidResult
FluidEstimator::Estimate(const Topology& topology,
                         const SyncPlan& plan,
                         const FluidPaths& paths) const
{
    return FluidRun(topology, plan, paths, m_batchS).Run();
}

} // namespace ns3
