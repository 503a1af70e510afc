#include "fluid-estimator.h"

#include "fluid-heaps.h"

#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace ns3
{

namespace
{

constexpr uint32_t kNone = ~0u;

/**
 * One fluid execution. A queue pair (QP) is busy while it holds posted messages; only its
 * head message is served, at the QP's max-min rate. A message is one part of a transfer.
 */
class FluidRun
{
  public:
    FluidRun(const Topology& topology, const SyncPlan& plan, const FluidPaths& paths, double batchS)
        : m_topology(topology),
          m_graph(topology.Graph()),
          m_plan(plan),
          m_paths(paths),
          m_batchS(batchS)
    {
    }

    FluidResult Run();

  private:
    void Validate() const;
    uint32_t QueuePairsOf(TransferId t, uint32_t& count);
    void Start(TransferId t, double now);
    void Post(uint32_t qp, TransferId t, double wireBytes, double now);
    void FinishHead(uint32_t qp, double now, std::vector<TransferId>& done);
    void SetBusy(uint32_t qp, bool busy);
    void Refill(double now);
    /// \brief Adds busy QP q to the QPs to refill (once per refill).
    void Join(uint32_t q);
    /// \brief Adds link l to the refill (once): its residual capacity after the kept QPs,
    /// and its QPs that are not kept join.
    void Reach(uint32_t l);
    void Fill(double now);
    void FillShared();

    const Topology& m_topology;
    const TopologyGraph& m_graph;
    const SyncPlan& m_plan;
    const FluidPaths& m_paths;
    double m_batchS;
    FluidResult m_result;

    // Static per directed link.
    std::vector<double> m_capacity; //!< bytes/s

    // QPs: those of a host pair are consecutive, from m_qpOfPair; usage entries of QP q are
    // [m_qpBegin[q], m_qpBegin[q + 1]).
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> m_qpOfPair; //!< first, count
    std::vector<uint32_t> m_qpBegin{0};
    std::vector<uint32_t> m_useLink;
    std::vector<double> m_useFraction;
    std::vector<uint32_t> m_usePos; //!< position of the entry in its link's busy list

    // Dynamic per QP.
    std::vector<double> m_rate;      //!< bytes/s of its head message
    std::vector<double> m_remaining; //!< wire bytes of the head message still to send
    std::vector<double> m_servedAtS; //!< when m_remaining was last brought up to date
    std::vector<uint32_t> m_head;    //!< first queued message or kNone (idle)
    std::vector<uint32_t> m_tail;    //!< last queued message
    std::vector<uint32_t> m_qpStamp;
    std::vector<uint8_t> m_busyAtFill; //!< busy when its rate was last computed
    std::vector<double> m_oldRate;     //!< its rate before the current fill
    FluidCompletionHeap m_heap;

    // Messages in flight (slots reused through m_freeMessage).
    std::vector<TransferId> m_messageTransfer;
    std::vector<double> m_messageBytes;
    std::vector<uint32_t> m_messageNext;
    std::vector<uint32_t> m_freeMessage;

    // Dynamic per directed link.
    /// \brief A busy QP's usage entry in its link's list.
    struct BusyUse
    {
        uint32_t use; //!< usage entry
        uint32_t qp;  //!< its QP
    };

    std::vector<std::vector<BusyUse>> m_linkUses; //!< usage entries of its busy QPs
    std::vector<uint32_t> m_linkStamp;
    std::vector<double> m_residual;
    std::vector<double> m_weight;
    std::vector<double> m_busyWeight; //!< sum of a_l over its busy QPs
    std::vector<uint32_t> m_unfrozen;

    // Transfers.
    std::vector<uint32_t> m_partsLeft;
    std::vector<uint32_t> m_pendingDeps;
    std::vector<uint32_t> m_dependentsBegin;
    std::vector<TransferId> m_dependents;
    uint64_t m_completed{0};

    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_componentQps;
    std::vector<uint32_t> m_componentLinks;
    FluidLevelHeap m_levels; //!< filling heap
    uint32_t m_stamp{0};
    double m_keepBelow{0}; //!< QPs that stay busy with a rate below this keep it (Refill)
};

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
    const uint64_t key = (uint64_t{src} << 32) | dst;
    auto it = m_qpOfPair.find(key);
    if (it != m_qpOfPair.end())
    {
        count = it->second.second;
        return it->second.first;
    }
    const auto first = static_cast<uint32_t>(m_rate.size());
    count = std::max<uint32_t>(1, m_paths.QueuePairs(src, dst));
    for (uint32_t i = 0; i < count; ++i)
    {
        for (const FluidLinkUse& use : m_paths.Uses(src, dst, i))
        {
            if (!(m_capacity[use.link] > 0) || !std::isfinite(m_capacity[use.link]))
            {
                const TopologyLink& l = m_graph.Link(use.link / 2);
                std::ostringstream rate;
                rate << l.rateBps;
                throw std::invalid_argument("FluidEstimator: topology " + m_topology.Spec() +
                                            ": link " + std::to_string(use.link / 2) + " (" +
                                            m_graph.Node(l.a).name + " - " +
                                            m_graph.Node(l.b).name + ") has rate " + rate.str() +
                                            " bit/s on the route of transfer " + std::to_string(t) +
                                            " (host " + std::to_string(src) + " -> host " +
                                            std::to_string(dst) + "); allowed: a finite rate > 0");
            }
            m_useLink.push_back(use.link);
            m_useFraction.push_back(use.fraction);
            m_usePos.push_back(0);
        }
        m_qpBegin.push_back(static_cast<uint32_t>(m_useLink.size()));
        m_rate.push_back(0);
        m_remaining.push_back(0);
        m_servedAtS.push_back(0);
        m_head.push_back(kNone);
        m_tail.push_back(kNone);
        m_qpStamp.push_back(0);
        m_busyAtFill.push_back(0);
        m_oldRate.push_back(0);
    }
    m_heap.Grow(static_cast<uint32_t>(m_rate.size()));
    m_qpOfPair.emplace(key, std::make_pair(first, count));
    return first;
}

void
FluidRun::SetBusy(uint32_t qp, bool busy)
{
    for (uint32_t u = m_qpBegin[qp]; u < m_qpBegin[qp + 1]; ++u)
    {
        const uint32_t l = m_useLink[u];
        auto& list = m_linkUses[l];
        m_busyWeight[l] += busy ? m_useFraction[u] : -m_useFraction[u];
        if (busy)
        {
            m_usePos[u] = static_cast<uint32_t>(list.size());
            list.push_back({u, qp});
            m_result.links[l].maxFlows = std::max(m_result.links[l].maxFlows,
                                                  static_cast<uint32_t>(list.size()));
        }
        else
        {
            const BusyUse moved = list.back();
            list[m_usePos[u]] = moved;
            m_usePos[moved.use] = m_usePos[u];
            list.pop_back();
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
        m_messageNext.push_back(kNone);
    }
    else
    {
        m = m_freeMessage.back();
        m_freeMessage.pop_back();
        m_messageTransfer[m] = t;
        m_messageBytes[m] = wireBytes;
        m_messageNext[m] = kNone;
    }
    for (uint32_t u = m_qpBegin[qp]; u < m_qpBegin[qp + 1]; ++u)
    {
        m_result.links[m_useLink[u]].bytes += wireBytes * m_useFraction[u];
    }
    if (m_head[qp] == kNone)
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
    if (m_head[qp] == kNone)
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

void
FluidRun::Refill(double now)
{
    if (m_dirty.empty())
    {
        return;
    }
    ++m_result.events;
    // Which rates can change. Progressive filling on the old and on the new busy set runs
    // identically below level T when T is at most the old rate of every QP that went idle
    // and at most the new rate of every QP that became busy: no link such a QP crosses
    // saturates below its own rate in the filling that holds it, nor (with less load) in
    // the other, and every other link sees the same load. So a QP that stays busy with a
    // rate below T keeps it (it is "kept"), and only the others can change. A new QP's rate
    // is at least min over its links of c_l / (sum of a_l over the link's busy QPs): below
    // that level none of its links can be full.
    m_keepBelow = std::numeric_limits<double>::infinity();
    for (uint32_t q : m_dirty)
    {
        const bool busy = m_head[q] != kNone;
        if (busy == (m_busyAtFill[q] != 0))
        {
            continue;
        }
        if (!busy)
        {
            m_keepBelow = std::min(m_keepBelow, m_rate[q]);
            continue;
        }
        for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
        {
            const uint32_t l = m_useLink[u];
            // Rounded down: the sum is kept by additions and subtractions.
            m_keepBelow = std::min(m_keepBelow, m_capacity[l] / m_busyWeight[l] * (1 - 1e-9));
        }
    }
    // Above T the kept QPs are fixed loads, and what remains (the QPs that are not kept, on
    // the links' residual capacities) is again a max-min problem, which decomposes over the
    // connected components of the graph "QP that is not kept - link it uses". The old rates
    // solve every component that holds no QP that became busy and no link of one that went
    // idle (the same problem as before), so only those components are refilled: a
    // breadth-first search from the changed QPs that stops at kept QPs, whose loads it sums
    // into the residual capacities of the links it reaches.
    ++m_stamp;
    m_componentQps.clear();
    m_componentLinks.clear();
    for (uint32_t q : m_dirty)
    {
        if (m_head[q] == kNone)
        {
            for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
            {
                Reach(m_useLink[u]);
            }
        }
        else if (m_busyAtFill[q] == 0)
        {
            Join(q);
        }
        else if (!m_heap.Contains(q))
        {
            // Idle and busy again at one instant: the busy set, and so its rate, is
            // unchanged; its new head message needs its completion.
            m_heap.Set(q, now + m_remaining[q] / m_rate[q]);
        }
    }
    for (size_t i = 0; i < m_componentQps.size(); ++i)
    {
        const uint32_t q = m_componentQps[i];
        for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
        {
            Reach(m_useLink[u]);
        }
    }
    if (!m_componentQps.empty())
    {
        Fill(now);
    }
    for (uint32_t q : m_dirty)
    {
        m_busyAtFill[q] = m_head[q] != kNone ? 1 : 0;
    }
    m_dirty.clear();
}

void
FluidRun::Join(uint32_t q)
{
    if (m_qpStamp[q] != m_stamp)
    {
        m_qpStamp[q] = m_stamp;
        m_componentQps.push_back(q);
    }
}

void
FluidRun::Reach(uint32_t l)
{
    if (m_linkStamp[l] == m_stamp)
    {
        return;
    }
    m_linkStamp[l] = m_stamp;
    m_componentLinks.push_back(l);
    double residual = m_capacity[l];
    for (const BusyUse& v : m_linkUses[l])
    {
        const uint32_t q = v.qp;
        if (m_busyAtFill[q] != 0 && m_rate[q] < m_keepBelow)
        {
            residual -= m_useFraction[v.use] * m_rate[q];
        }
        else
        {
            Join(q);
        }
    }
    m_residual[l] = residual;
}

void
FluidRun::Fill(double now)
{
    for (uint32_t q : m_componentQps)
    {
        m_oldRate[q] = m_rate[q];
    }
    if (m_componentQps.size() == 1)
    {
        // Alone above the kept loads: its tightest link's residual / a_l.
        const uint32_t q = m_componentQps[0];
        double rate = std::numeric_limits<double>::infinity();
        for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
        {
            rate = std::min(rate, std::max(m_residual[m_useLink[u]], 0.0) / m_useFraction[u]);
        }
        m_rate[q] = rate;
    }
    else
    {
        FillShared();
    }
    for (uint32_t q : m_componentQps)
    {
        // A QP refilled to the rate it had keeps its pending completion (most of them:
        // equal shares come back equal).
        if (m_rate[q] == m_oldRate[q] && m_heap.Contains(q))
        {
            continue;
        }
        if (m_servedAtS[q] != now) // (a QP that just became busy was served at now)
        {
            m_remaining[q] -= m_oldRate[q] * (now - m_servedAtS[q]);
            m_servedAtS[q] = now;
        }
        m_heap.Set(q, now + std::max(m_remaining[q], 0.0) / m_rate[q]);
    }
}

void
FluidRun::FillShared()
{
    // Progressive filling: every unfrozen QP's rate rises together to `level`; link l
    // saturates at (residual capacity) / (sum of a_ql over its unfrozen QPs); its QPs
    // freeze there. Residual capacities are the kept loads' (Reach).
    for (uint32_t l : m_componentLinks)
    {
        m_weight[l] = 0;
        m_unfrozen[l] = 0;
    }
    // Every QP freezes at most at its rate alone on the residuals (that rate is feasible),
    // so no link whose level starts above the largest of those is the first to saturate
    // for any QP: it stays out of the heap.
    double highest = 0;
    for (uint32_t q : m_componentQps)
    {
        m_rate[q] = -1; // unfrozen
        double alone = std::numeric_limits<double>::infinity();
        for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
        {
            const uint32_t l = m_useLink[u];
            m_weight[l] += m_useFraction[u];
            ++m_unfrozen[l];
            alone = std::min(alone, std::max(m_residual[l], 0.0) / m_useFraction[u]);
        }
        highest = std::max(highest, alone);
    }
    // A link's saturation level only rises as QPs freeze: freezing a QP at level x on link
    // l2 with R / W >= x gives (R - a x) / (W - a) >= R / W. So heap keys are lower bounds,
    // each link sits in the heap once, and a link at the top whose level has risen takes
    // its new level there (and sinks) instead of being updated at every freeze.
    FluidLevelHeap& heap = m_levels;
    heap.Clear();
    for (uint32_t l : m_componentLinks)
    {
        if (m_unfrozen[l] > 0 && m_residual[l] / m_weight[l] <= highest)
        {
            heap.Add(m_residual[l] / m_weight[l], l);
        }
    }
    heap.Build();
    double level = 0;
    size_t unfrozen = m_componentQps.size();
    while (unfrozen > 0 && !heap.Empty())
    {
        const auto [x, l] = heap.Top();
        if (m_unfrozen[l] == 0)
        {
            heap.Pop();
            continue;
        }
        const double current = std::max(m_residual[l], 0.0) / m_weight[l];
        if (current > x)
        {
            heap.RaiseTop(current);
            continue;
        }
        heap.Pop();
        // Rounding can leave a residual a hair below what the current level needs; levels
        // never fall in progressive filling.
        level = std::max(level, current);
        for (const BusyUse& v : m_linkUses[l])
        {
            const uint32_t q = v.qp;
            if (m_rate[q] >= 0)
            {
                continue;
            }
            m_rate[q] = level;
            --unfrozen;
            for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
            {
                const uint32_t l2 = m_useLink[u];
                m_residual[l2] -= m_useFraction[u] * level;
                m_weight[l2] -= m_useFraction[u];
                --m_unfrozen[l2];
            }
        }
    }
}

FluidResult
FluidRun::Run()
{
    Validate();
    const uint32_t directed = 2 * m_graph.LinkCount();
    m_capacity.resize(directed);
    for (LinkIndex l = 0; l < m_graph.LinkCount(); ++l)
    {
        m_capacity[2 * l] = m_graph.Link(l).rateBps / 8;
        m_capacity[2 * l + 1] = m_graph.Link(l).rateBps / 8;
    }
    m_linkUses.resize(directed);
    m_linkStamp.assign(directed, 0);
    m_residual.assign(directed, 0);
    m_weight.assign(directed, 0);
    m_busyWeight.assign(directed, 0);
    m_unfrozen.assign(directed, 0);
    m_result.links.resize(directed);

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
    for (uint32_t l = 0; l < directed; ++l)
    {
        FluidLinkLoad& load = m_result.links[l];
        const double rate = m_graph.Link(l / 2).rateBps;
        load.utilization = m_result.gstS > 0 && rate > 0 ? load.bytes * 8 / (rate * m_result.gstS)
                                                         : 0;
        m_result.maxConcurrentFlows = std::max(m_result.maxConcurrentFlows, load.maxFlows);
    }
    m_result.queuePairs = m_rate.size();
    return std::move(m_result);
}

} // namespace

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
