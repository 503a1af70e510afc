#include "halving-doubling-algorithm.h"

#include "ns3/spec-string.h"
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

SyncPlan
HalvingDoublingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    const uint64_t w = model.TotalBytes();
    SyncPlan plan;
    StartPlan(plan, w, n, n);
    uint32_t p2 = 1;
    while (p2 * 2 <= n)
    {
        p2 *= 2;
    }
    const uint32_t extra = n - p2;

    // rankOf[v]: the worker playing position v of the power-of-two exchange.
    std::vector<uint32_t> rankOf(p2);
    for (uint32_t v = 0; v < p2; ++v)
    {
        rankOf[v] = v < extra ? 2 * v + 1 : v + extra;
    }
    std::vector<uint64_t> offset(p2 + 1, 0);
    for (uint32_t b = 0; b < p2; ++b)
    {
        offset[b + 1] = offset[b] + w / p2 + (b < w % p2 ? 1 : 0);
    }
    // frontier[v]: what position v's next send waits for: its last send and the receives
    // since. A skipped (empty) send leaves it in place, so the chain is never broken.
    std::vector<std::vector<TransferId>> frontier(p2);
    std::vector<ContributorSet> held(p2);
    for (uint32_t v = 0; v < p2; ++v)
    {
        held[v] = ContributorSet::Single(n, rankOf[v]);
    }
    uint32_t phase = 0;
    if (extra > 0)
    {
        for (uint32_t v = 0; v < extra; ++v)
        {
            frontier[v].push_back(plan.Add({0,
                                            2 * v,
                                            rankOf[v],
                                            0,
                                            w,
                                            TransferOp::Reduce,
                                            ContributorSet::Single(n, 2 * v),
                                            {},
                                            0,
                                            phase}));
            held[v].Add(2 * v);
        }
        ++phase;
    }
    // One exchange step: v sends blocks [sendLo[v], sendHi[v]) to v ^ mask. Receives of
    // this step join the frontier after all its sends, so no send waits for a same-step
    // receive.
    std::vector<uint32_t> lo(p2, 0);
    std::vector<uint32_t> hi(p2, p2);
    std::vector<uint32_t> sendLo(p2);
    std::vector<uint32_t> sendHi(p2);
    auto exchange = [&](uint32_t mask, TransferOp op) {
        constexpr TransferId kNone = UINT32_MAX;
        std::vector<TransferId> sent(p2, kNone);
        for (uint32_t v = 0; v < p2; ++v)
        {
            const uint64_t bytes = offset[sendHi[v]] - offset[sendLo[v]];
            if (bytes > 0)
            {
                const ContributorSet carries = op == TransferOp::Reduce ? held[v]
                                                                        : ContributorSet::All(n);
                sent[v] = plan.Add({0,
                                    rankOf[v],
                                    rankOf[v ^ mask],
                                    offset[sendLo[v]],
                                    bytes,
                                    op,
                                    carries,
                                    frontier[v],
                                    sendLo[v],
                                    phase});
            }
        }
        for (uint32_t v = 0; v < p2; ++v)
        {
            if (sent[v] != kNone)
            {
                frontier[v].assign(1, sent[v]); // implies the older frontier
            }
        }
        for (uint32_t v = 0; v < p2; ++v)
        {
            if (sent[v ^ mask] != kNone)
            {
                frontier[v].push_back(sent[v ^ mask]);
            }
        }
        ++phase;
    };

    // Recursive halving: distance p'/2 first; the position with the bit clear keeps the
    // lower half. Afterwards position v holds the full sum of block v.
    for (uint32_t mask = p2 / 2; mask >= 1; mask /= 2)
    {
        for (uint32_t v = 0; v < p2; ++v)
        {
            const uint32_t mid = lo[v] + (hi[v] - lo[v]) / 2;
            const bool keepLower = (v & mask) == 0;
            sendLo[v] = keepLower ? mid : lo[v];
            sendHi[v] = keepLower ? hi[v] : mid;
        }
        exchange(mask, TransferOp::Reduce);
        std::vector<ContributorSet> before = held;
        for (uint32_t v = 0; v < p2; ++v)
        {
            held[v].UnionWith(before[v ^ mask]);
            if (sendLo[v] == lo[v])
            {
                lo[v] = sendHi[v];
            }
            else
            {
                hi[v] = sendLo[v];
            }
        }
    }
    // Recursive doubling: distance 1 first; each sends its whole range, ranges double.
    for (uint32_t mask = 1; mask < p2; mask *= 2)
    {
        for (uint32_t v = 0; v < p2; ++v)
        {
            sendLo[v] = lo[v];
            sendHi[v] = hi[v];
        }
        exchange(mask, TransferOp::Copy);
        for (uint32_t v = 0; v < p2; ++v)
        {
            lo[v] = std::min(sendLo[v], sendLo[v ^ mask]);
            hi[v] = std::max(sendHi[v], sendHi[v ^ mask]);
        }
    }
    for (uint32_t v = 0; v < extra; ++v)
    {
        plan.Add({0,
                  rankOf[v],
                  2 * v,
                  0,
                  w,
                  TransferOp::Copy,
                  ContributorSet::All(n),
                  frontier[v],
                  0,
                  phase});
    }
    return plan;
}

} // namespace ns3
