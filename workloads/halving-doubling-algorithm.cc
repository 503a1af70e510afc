#include "halving-doubling-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

HalvingDoublingAlgorithm::HalvingDoublingAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    s.Finish();
}

std::string
HalvingDoublingAlgorithm::Spec() const
{
    return "hd";
}

bool
HalvingDoublingAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Graph().HostCount() < 1)
    {
        why = "hd needs at least one host";
        return false;
    }
    return true;
}

namespace
{

/// State of one halving-doubling compile over p' = p2 positions.
class HdBuilder
{
  public:
    HdBuilder(SyncPlan& plan, uint32_t n, uint64_t w);

    /// Fold-in: worker 2v reduces its whole gradient into 2v+1 (v < extra).
    void FoldIn();
    /// Recursive halving: afterwards position v holds the full sum of block v.
    void Halving();
    /// Recursive doubling: each sends its whole range, ranges double.
    void Doubling();
    /// Fold-out: 2v+1 sends the whole result back to 2v (v < extra).
    void FoldOut();

  private:
    /// One exchange step: v sends blocks [sendLo[v], sendHi[v]) to v ^ mask.
    void Exchange(uint32_t mask, TransferOp op);

    SyncPlan& m_plan;
    const uint32_t m_n;
    const uint64_t m_w;
    uint32_t m_p2{1};
    uint32_t m_extra{0};
    std::vector<uint32_t> m_rankOf; //!< the worker playing position v of the exchange
    std::vector<uint64_t> m_offset; //!< block b is [offset[b], offset[b+1])
    // frontier[v]: what position v's next send waits for: its last send and the receives
    // since. A skipped (empty) send leaves it in place, so the chain is never broken.
    std::vector<std::vector<TransferId>> m_frontier;
    std::vector<ContributorSet> m_held;
    uint32_t m_phase{0};
    std::vector<uint32_t> m_lo;
    std::vector<uint32_t> m_hi;
    std::vector<uint32_t> m_sendLo;
    std::vector<uint32_t> m_sendHi;
};

HdBuilder::HdBuilder(SyncPlan& plan, uint32_t n, uint64_t w)
    : m_plan(plan),
      m_n(n),
      m_w(w)
{
    while (m_p2 * 2 <= n)
    {
        m_p2 *= 2;
    }
    m_extra = n - m_p2;
    m_rankOf.resize(m_p2);
    for (uint32_t v = 0; v < m_p2; ++v)
    {
        m_rankOf[v] = v < m_extra ? 2 * v + 1 : v + m_extra;
    }
    m_offset.assign(m_p2 + 1, 0);
    for (uint32_t b = 0; b < m_p2; ++b)
    {
        m_offset[b + 1] = m_offset[b] + w / m_p2 + (b < w % m_p2 ? 1 : 0);
    }
    m_frontier.resize(m_p2);
    m_held.resize(m_p2);
    for (uint32_t v = 0; v < m_p2; ++v)
    {
        m_held[v] = ContributorSet::Single(n, m_rankOf[v]);
    }
    m_lo.assign(m_p2, 0);
    m_hi.assign(m_p2, m_p2);
    m_sendLo.resize(m_p2);
    m_sendHi.resize(m_p2);
}

void
HdBuilder::FoldIn()
{
    if (m_extra == 0)
    {
        return;
    }
    for (uint32_t v = 0; v < m_extra; ++v)
    {
        m_frontier[v].push_back(m_plan.Add({0,
                                            2 * v,
                                            m_rankOf[v],
                                            0,
                                            m_w,
                                            TransferOp::Reduce,
                                            ContributorSet::Single(m_n, 2 * v),
                                            {},
                                            0,
                                            m_phase}));
        m_held[v].Add(2 * v);
    }
    ++m_phase;
}

// Receives of this step join the frontier after all its sends, so no send waits for a
// same-step receive.
void
HdBuilder::Exchange(uint32_t mask, TransferOp op)
{
    constexpr TransferId kNone = UINT32_MAX;
    std::vector<TransferId> sent(m_p2, kNone);
    for (uint32_t v = 0; v < m_p2; ++v)
    {
        const uint64_t bytes = m_offset[m_sendHi[v]] - m_offset[m_sendLo[v]];
        if (bytes > 0)
        {
            const ContributorSet carries = op == TransferOp::Reduce ? m_held[v]
                                                                    : ContributorSet::All(m_n);
            sent[v] = m_plan.Add({0,
                                  m_rankOf[v],
                                  m_rankOf[v ^ mask],
                                  m_offset[m_sendLo[v]],
                                  bytes,
                                  op,
                                  carries,
                                  m_frontier[v],
                                  m_sendLo[v],
                                  m_phase});
        }
    }
    for (uint32_t v = 0; v < m_p2; ++v)
    {
        if (sent[v] != kNone)
        {
            m_frontier[v].assign(1, sent[v]); // implies the older frontier
        }
    }
    for (uint32_t v = 0; v < m_p2; ++v)
    {
        if (sent[v ^ mask] != kNone)
        {
            m_frontier[v].push_back(sent[v ^ mask]);
        }
    }
    ++m_phase;
}

// Distance p'/2 first; the position with the bit clear keeps the lower half.
void
HdBuilder::Halving()
{
    for (uint32_t mask = m_p2 / 2; mask >= 1; mask /= 2)
    {
        for (uint32_t v = 0; v < m_p2; ++v)
        {
            const uint32_t mid = m_lo[v] + (m_hi[v] - m_lo[v]) / 2;
            const bool keepLower = (v & mask) == 0;
            m_sendLo[v] = keepLower ? mid : m_lo[v];
            m_sendHi[v] = keepLower ? m_hi[v] : mid;
        }
        Exchange(mask, TransferOp::Reduce);
        std::vector<ContributorSet> before = m_held;
        for (uint32_t v = 0; v < m_p2; ++v)
        {
            m_held[v].UnionWith(before[v ^ mask]);
            if (m_sendLo[v] == m_lo[v])
            {
                m_lo[v] = m_sendHi[v];
            }
            else
            {
                m_hi[v] = m_sendLo[v];
            }
        }
    }
}

// Distance 1 first.
void
HdBuilder::Doubling()
{
    for (uint32_t mask = 1; mask < m_p2; mask *= 2)
    {
        for (uint32_t v = 0; v < m_p2; ++v)
        {
            m_sendLo[v] = m_lo[v];
            m_sendHi[v] = m_hi[v];
        }
        Exchange(mask, TransferOp::Copy);
        for (uint32_t v = 0; v < m_p2; ++v)
        {
            m_lo[v] = std::min(m_sendLo[v], m_sendLo[v ^ mask]);
            m_hi[v] = std::max(m_sendHi[v], m_sendHi[v ^ mask]);
        }
    }
}

void
HdBuilder::FoldOut()
{
    for (uint32_t v = 0; v < m_extra; ++v)
    {
        m_plan.Add({0,
                    m_rankOf[v],
                    2 * v,
                    0,
                    m_w,
                    TransferOp::Copy,
                    ContributorSet::All(m_n),
                    m_frontier[v],
                    0,
                    m_phase});
    }
}

} // namespace

SyncPlan
HalvingDoublingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    const uint64_t w = model.TotalBytes();
    SyncPlan plan;
    StartPlan(plan, w, n, n);
    HdBuilder builder(plan, n, w);
    builder.FoldIn();
    builder.Halving();
    builder.Doubling();
    builder.FoldOut();
    return plan;
}

PlanSizeBound
HalvingDoublingAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    // ceil(log2 N) rounds of reduce-scatter and as many of all-gather, one send per worker
    // each.
    // A send waits on at most the two of the round before (its own and the one it received).
    return {PeersBound(n), PeersBound(n), SaturatingMul(2, PeersBound(n))};
}

} // namespace ns3
