#include "hdrm-algorithm.h"

#include "hips-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/// \brief log2(v) when v is a power of two, else -1.
int
Log2Exact(uint32_t v)
{
    if (v == 0 || (v & (v - 1)) != 0)
    {
        return -1;
    }
    int bits = 0;
    while ((1u << bits) != v)
    {
        ++bits;
    }
    return bits;
}

/// \brief Empty when hdrm serves bigraph:s=S,m=M, else the reason.
std::string
Unserved(uint32_t s, uint32_t m)
{
    if (Log2Exact(s) < 0 || Log2Exact(m) < 0)
    {
        return "hdrm needs 2sm hosts a power of two (s and m powers of two), got s=" +
               std::to_string(s) + ", m=" + std::to_string(m);
    }
    if (m > s)
    {
        return "hdrm needs m <= s (each switch's m hosts need m distinct inter-part links per "
               "step), got s=" +
               std::to_string(s) + ", m=" + std::to_string(m);
    }
    return "";
}

} // namespace

HdrmAlgorithm::HdrmAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    s.Finish();
}

std::string
HdrmAlgorithm::Spec() const
{
    return "hdrm";
}

bool
HdrmAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    const std::optional<Topology::BipartiteShape> bigraph = topology.Bipartite();
    if (!bigraph)
    {
        why = "hdrm needs a bigraph (EFLOPS rank mapping), not " + topology.Family();
        return false;
    }
    why = Unserved(bigraph->switchesPerPart, bigraph->hostsPerSwitch);
    return why.empty();
}

std::vector<uint32_t>
HdrmAlgorithm::RankMap(const Topology& bigraph)
{
    const std::optional<Topology::BipartiteShape> shape = bigraph.Bipartite();
    if (!shape)
    {
        throw std::invalid_argument("--algorithm 'hdrm' on " + bigraph.Spec() +
                                    ": needs a bigraph (EFLOPS rank mapping)");
    }
    const uint32_t s = shape->switchesPerPart;
    const uint32_t m = shape->hostsPerSwitch;
    std::string why = Unserved(s, m);
    if (!why.empty())
    {
        throw std::invalid_argument("--algorithm 'hdrm' on " + bigraph.Spec() + ": " + why);
    }
    const uint32_t t = static_cast<uint32_t>(Log2Exact(m));
    const uint32_t sBits = static_cast<uint32_t>(Log2Exact(s));
    const uint32_t p = 2 * s * m;
    std::vector<uint32_t> host(p);
    for (uint32_t r = 0; r < p; ++r)
    {
        const uint32_t part = __builtin_popcount(r) & 1u;
        const uint32_t x = r & (p / 2 - 1); // r without its top bit
        const uint32_t sw = part == 0 ? x >> t : x & (s - 1);
        const uint32_t slot = part == 0 ? x & (m - 1) : x >> sBits;
        host[r] = (part * s + sw) * m + slot;
    }
    return host;
}

SyncPlan
HdrmAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    SyncPlan plan;
    plan.algorithm = Spec();
    plan.gradientBytes = model.TotalBytes();
    plan.hostOf = RankMap(topology);
    plan.workers = plan.ParticipantCount();
    const uint32_t p = plan.workers;
    const uint32_t d = static_cast<uint32_t>(Log2Exact(p));
    // Hypercube dimension j: the pairs {r, r XOR 2^j}, lower rank first (it keeps the lower
    // half). Recursive halving visits the highest bit first.
    std::vector<HostDimension> dims(d);
    HierarchicalFlow flow{{}, false};
    for (uint32_t j = 0; j < d; ++j)
    {
        for (uint32_t r = 0; r < p; ++r)
        {
            if ((r & (1u << j)) == 0)
            {
                dims[j].push_back(HostGroup{{r, r | (1u << j)}, false});
            }
        }
        flow.dimOrder.push_back(d - 1 - j);
    }
    AddHierarchicalAllreduce(
        plan, dims, {flow}, GroupExchange::Direct, "--algorithm '" + Spec() + "'");
    return plan;
}

} // namespace ns3
