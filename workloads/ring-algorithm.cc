#include "ring-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology.h"

#include <stdexcept>

namespace ns3
{

RingAlgorithm::RingAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_order = s.GetChoice("order", "natural", {"natural", "topo"});
    s.Finish();
}

std::string
RingAlgorithm::Spec() const
{
    return "ring:order=" + m_order;
}

bool
RingAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Graph().HostCount() < 1)
    {
        why = "ring needs at least one host";
        return false;
    }
    return true;
}

SyncPlan
RingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    SyncPlan plan;
    plan.algorithm = Spec();
    plan.gradientBytes = model.TotalBytes();
    plan.workers = n;
    for (uint32_t p = 0; p < n; ++p)
    {
        plan.hostOf.push_back(p);
    }
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    if (m_order == "topo")
    {
        std::vector<HostRank> ring = topology.RingOrder();
        if (ring.size() != n)
        {
            throw std::invalid_argument("--algorithm '" + Spec() + "': topology " +
                                        topology.Spec() + " gives a ring order of " +
                                        std::to_string(ring.size()) + " hosts, not " +
                                        std::to_string(n));
        }
        order.assign(ring.begin(), ring.end());
    }
    const uint64_t w = model.TotalBytes();
    std::vector<uint64_t> offset(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        offset[i + 1] = offset[i] + w / n + (i < w % n ? 1 : 0);
    }
    constexpr TransferId kNone = UINT32_MAX;
    std::vector<TransferId> lastSend(n, kNone);
    std::vector<TransferId> lastRecv(n, kNone);
    auto step = [&](uint32_t i, uint32_t chunk, TransferOp op, const ContributorSet& carries,
                    uint32_t phase, std::vector<TransferId>& received) {
        uint32_t next = (i + 1) % n;
        if (offset[chunk + 1] == offset[chunk])
        {
            return;
        }
        std::vector<TransferId> deps;
        for (TransferId d : {lastSend[i], lastRecv[i]})
        {
            if (d != kNone)
            {
                deps.push_back(d);
            }
        }
        TransferId id = plan.Add({0, order[i], order[next], offset[chunk],
                                  offset[chunk + 1] - offset[chunk], op, carries, deps, chunk,
                                  phase});
        lastSend[i] = id;
        received[next] = id;
    };
    // Positions: reduce-scatter step k, position i sends chunk (i - k) mod n holding the
    // contributions of positions i-k..i; after n-1 steps position i owns chunk (i + 1).
    for (uint32_t k = 0; k + 1 < n; ++k)
    {
        std::vector<TransferId> received = lastRecv;
        for (uint32_t i = 0; i < n; ++i)
        {
            ContributorSet carries(n);
            for (uint32_t j = 0; j <= k; ++j)
            {
                carries.Add(order[(i + n - j) % n]);
            }
            step(i, (i + n - k) % n, TransferOp::Reduce, carries, k, received);
        }
        lastRecv = received;
    }
    // All-gather step k: position i forwards chunk (i + 1 - k) mod n, the full sum.
    for (uint32_t k = 0; k + 1 < n; ++k)
    {
        std::vector<TransferId> received = lastRecv;
        for (uint32_t i = 0; i < n; ++i)
        {
            step(i, (i + 1 + n - k) % n, TransferOp::Copy, ContributorSet::All(n), n - 1 + k,
                 received);
        }
        lastRecv = received;
    }
    return plan;
}

} // namespace ns3
