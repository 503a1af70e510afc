#include "fluid-run.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

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
    CountBusy();
    m_keepBelow = std::numeric_limits<double>::infinity();
    ++m_stamp;
    for (uint32_t q : m_dirty)
    {
        const bool busy = m_head[q] != kFluidNone;
        if (busy == (m_busyAtFill[q] != 0))
        {
            continue;
        }
        if (!busy)
        {
            m_keepBelow = std::min(m_keepBelow, m_rate[q]);
            continue;
        }
        KeepBelowNewShare(q);
    }
    // Above T the kept QPs are fixed loads, and what remains (the QPs that are not kept, on
    // the links' residual capacities) is again a max-min problem, which decomposes over the
    // connected components of the graph "QP that is not kept - link it uses". The old rates
    // solve every component that holds no QP that became busy and no link of one that went
    // idle (the same problem as before), so only those components are refilled: a
    // breadth-first search from the changed QPs that stops at kept QPs, whose loads it sums
    // into the residual capacities of the links it reaches.
    m_componentQps.clear();
    m_componentLinks.clear();
    for (uint32_t q : m_dirty)
    {
        if (m_head[q] == kFluidNone)
        {
            for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
            {
                Reach(m_useLink[u]);
            }
            ReachTrunk(m_qpTrunk[q]);
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
        ReachTrunk(m_qpTrunk[q]);
    }
    if (!m_componentQps.empty())
    {
        Fill(now);
    }
    for (uint32_t q : m_dirty)
    {
        m_busyAtFill[q] = m_head[q] != kFluidNone ? 1 : 0;
    }
    m_dirty.clear();
}

inline void
FluidRun::Join(uint32_t q)
{
    if (m_qpStamp[q] != m_stamp)
    {
        m_qpStamp[q] = m_stamp;
        m_componentQps.push_back(q);
    }
}

inline void
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
    for (const BusyTrunk& v : m_linkTrunks[l])
    {
        residual -= v.fraction * TrunkKept(v.trunk);
    }
    m_residual[l] = residual;
}

inline void
FluidRun::ReachTrunk(uint32_t t)
{
    if (t == kFluidNone || m_trunkReached[t] == m_stamp)
    {
        return;
    }
    m_trunkReached[t] = m_stamp;
    for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
    {
        Reach(m_trunkLink[e]);
    }
}

inline double
FluidRun::TrunkKept(uint32_t t)
{
    TrunkKeptSum& sum = m_trunkKept[t];
    if (sum.stamp == m_stamp)
    {
        return sum.kept;
    }
    sum.stamp = m_stamp;
    double kept = 0;
    for (uint32_t q : m_trunkQps[t])
    {
        if (m_busyAtFill[q] != 0 && m_rate[q] < m_keepBelow)
        {
            kept += m_rate[q];
        }
        else
        {
            Join(q);
        }
    }
    sum.kept = kept;
    return kept;
}

inline void
FluidRun::CountPrivate(uint32_t q, int delta)
{
    for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
    {
        const uint32_t l = m_useLink[u];
        m_busyWeight[l] += delta * m_useFraction[u];
        m_busyCount[l] += delta;
    }
}

void
FluidRun::CountTrunk(uint32_t t)
{
    m_trunkDirty[t] = 0;
    const auto now = static_cast<uint32_t>(m_trunkQps[t].size());
    const uint32_t was = m_trunkCounted[t];
    if (now == was)
    {
        return;
    }
    m_trunkCounted[t] = now;
    const double delta = static_cast<double>(now) - was;
    for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
    {
        const uint32_t l = m_trunkLink[e];
        m_busyWeight[l] += delta * m_trunkFraction[e];
        m_busyCount[l] = m_busyCount[l] + now - was;
        auto& list = m_linkTrunks[l];
        if (was == 0)
        {
            m_trunkUsePos[e] = static_cast<uint32_t>(list.size());
            list.push_back({m_trunkFraction[e], e, t});
        }
        else if (now == 0)
        {
            const BusyTrunk moved = list.back();
            list[m_trunkUsePos[e]] = moved;
            m_trunkUsePos[moved.entry] = m_trunkUsePos[e];
            list.pop_back();
        }
    }
}

void
FluidRun::CountBusy()
{
    // Decreases and increases of one event are applied together before the counts are
    // read: within an event QPs go idle first and busy after (FluidRun::Simulate), so the
    // count after it is the most the event saw.
    for (uint32_t q : m_dirty)
    {
        const uint8_t busy = m_head[q] != kFluidNone ? 1 : 0;
        if (busy != m_counted[q])
        {
            m_counted[q] = busy;
            CountPrivate(q, busy != 0 ? 1 : -1);
        }
    }
    for (uint32_t t : m_dirtyTrunks)
    {
        CountTrunk(t);
    }
    auto record = [this](uint32_t l) {
        m_result.links[l].maxFlows = std::max(m_result.links[l].maxFlows, m_busyCount[l]);
    };
    for (uint32_t q : m_dirty)
    {
        for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1] && m_counted[q] != 0; ++u)
        {
            record(m_useLink[u]);
        }
    }
    for (uint32_t t : m_dirtyTrunks)
    {
        for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1] && m_trunkCounted[t] != 0; ++e)
        {
            record(m_trunkLink[e]);
        }
    }
    m_dirtyTrunks.clear();
}

void
FluidRun::KeepBelowNewShare(uint32_t q)
{
    // Rounded down: the sums are kept by additions and subtractions.
    for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
    {
        const uint32_t l = m_useLink[u];
        m_keepBelow = std::min(m_keepBelow, m_capacity[l] / m_busyWeight[l] * (1 - 1e-9));
    }
    const uint32_t t = m_qpTrunk[q];
    if (t == kFluidNone || m_trunkShareStamp[t] == m_stamp)
    {
        return; // (the trunk's links were taken already in this refill)
    }
    m_trunkShareStamp[t] = m_stamp;
    for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
    {
        const uint32_t l = m_trunkLink[e];
        m_keepBelow = std::min(m_keepBelow, m_capacity[l] / m_busyWeight[l] * (1 - 1e-9));
    }
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
        const uint32_t t = m_qpTrunk[q];
        for (uint32_t e = t == kFluidNone ? 0 : m_trunkBegin[t];
             t != kFluidNone && e < m_trunkBegin[t + 1];
             ++e)
        {
            rate = std::min(rate, std::max(m_residual[m_trunkLink[e]], 0.0) / m_trunkFraction[e]);
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

double
FluidRun::WeighComponent()
{
    for (uint32_t l : m_componentLinks)
    {
        m_weight[l] = 0;
        m_unfrozen[l] = 0;
    }
    ++m_fillStamp;
    m_fillTrunks.clear();
    // Every QP freezes at most at its rate alone on the residuals (that rate is feasible).
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
        const uint32_t t = m_qpTrunk[q];
        if (t != kFluidNone)
        {
            if (m_trunkFillStamp[t] != m_fillStamp)
            {
                // Its QPs' tightest trunk link, taken once for all of them (a minimum: the
                // same value in any order).
                m_trunkFillStamp[t] = m_fillStamp;
                m_trunkUnfrozen[t] = 0;
                m_fillTrunks.push_back(t);
                double trunkAlone = std::numeric_limits<double>::infinity();
                for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
                {
                    trunkAlone = std::min(
                        trunkAlone, std::max(m_residual[m_trunkLink[e]], 0.0) / m_trunkFraction[e]);
                }
                m_trunkAlone[t] = trunkAlone;
            }
            ++m_trunkUnfrozen[t];
            alone = std::min(alone, m_trunkAlone[t]);
        }
        highest = std::max(highest, alone);
    }
    // A trunk's QPs in the fill weigh on its links all at once.
    for (uint32_t t : m_fillTrunks)
    {
        for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
        {
            m_weight[m_trunkLink[e]] += m_trunkFraction[e] * m_trunkUnfrozen[t];
            m_unfrozen[m_trunkLink[e]] += m_trunkUnfrozen[t];
        }
    }
    return highest;
}

inline void
FluidRun::Freeze(uint32_t q, double level, size_t& unfrozen)
{
    m_rate[q] = level;
    --unfrozen;
    for (uint32_t u = m_qpBegin[q]; u < m_qpBegin[q + 1]; ++u)
    {
        const uint32_t l2 = m_useLink[u];
        m_residual[l2] -= m_useFraction[u] * level;
        m_weight[l2] -= m_useFraction[u];
        --m_unfrozen[l2];
    }
    const uint32_t t = m_qpTrunk[q];
    if (t != kFluidNone)
    {
        if (m_trunkFreezing[t]++ == 0)
        {
            m_freezingTrunks.push_back(t);
        }
        --m_trunkUnfrozen[t];
    }
}

inline void
FluidRun::FreezeAt(uint32_t l, double level, size_t& unfrozen)
{
    for (const BusyUse& v : m_linkUses[l])
    {
        if (m_rate[v.qp] < 0)
        {
            Freeze(v.qp, level, unfrozen);
        }
    }
    for (const BusyTrunk& v : m_linkTrunks[l])
    {
        const uint32_t t = v.trunk;
        if (m_trunkFillStamp[t] != m_fillStamp || m_trunkUnfrozen[t] == 0)
        {
            continue;
        }
        for (uint32_t q : m_trunkQps[t])
        {
            if (m_rate[q] < 0)
            {
                Freeze(q, level, unfrozen);
            }
        }
    }
    // The QPs frozen at this level leave their trunks' links together: k QPs of a trunk at
    // level x take k a_l x of link l's residual (one update per trunk link, not per QP).
    for (uint32_t t : m_freezingTrunks)
    {
        const uint32_t k = m_trunkFreezing[t];
        m_trunkFreezing[t] = 0;
        for (uint32_t e = m_trunkBegin[t]; e < m_trunkBegin[t + 1]; ++e)
        {
            const uint32_t l2 = m_trunkLink[e];
            m_residual[l2] -= m_trunkFraction[e] * level * k;
            m_weight[l2] -= m_trunkFraction[e] * k;
            m_unfrozen[l2] -= k;
        }
    }
    m_freezingTrunks.clear();
}

void
FluidRun::FillShared()
{
    // Progressive filling: every unfrozen QP's rate rises together to `level`; link l
    // saturates at (residual capacity) / (sum of a_ql over its unfrozen QPs); its QPs
    // freeze there. Residual capacities are the kept loads' (Reach). No link whose level
    // starts above the highest rate a QP could get alone is the first to saturate for any
    // QP: it stays out of the heap.
    const double highest = WeighComponent();
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
        FreezeAt(l, level, unfrozen);
    }
}

} // namespace ns3
