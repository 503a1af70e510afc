#include "fat-tree-topology.h"

#include "family-options.h"
#include "spec-string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

const char* const kFatTreeUsage =
    "fattree:k=K with K even in [2, 128][,oversub=O with O in [1, 64]][,rate=R][,aggrate=R]"
    "[,corerate=R][,delay=D]";

/// What a fat-tree spec says, read and checked once for the constructor and Counts.
struct FatTreeArgs
{
    uint32_t k;
    uint32_t oversub;
    double rate;
    double aggRate;
    double coreRate;
    double delay;
};

FatTreeArgs
ParseFatTree(SpecString& spec, double rateBps, double delayS)
{
    FatTreeArgs a;
    a.k = static_cast<uint32_t>(RequireUint(spec, "k", 2, 128, kFatTreeUsage));
    if (a.k % 2 != 0)
    {
        throw std::invalid_argument(spec.Where() + "k = " + std::to_string(a.k) +
                                    " is odd; usage: " + kFatTreeUsage);
    }
    a.oversub = static_cast<uint32_t>(spec.GetUint("oversub", 1, 1, 64));
    a.rate = spec.GetRate("rate", rateBps);
    a.aggRate = spec.GetRate("aggrate", a.rate);
    a.coreRate = spec.GetRate("corerate", a.rate);
    a.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    return a;
}

} // namespace

FatTreeTopology::FatTreeTopology(SpecString& spec, double rateBps, double delayS)
{
    const FatTreeArgs args = ParseFatTree(spec, rateBps, delayS);
    m_k = args.k;
    const uint32_t oversub = args.oversub;
    const double rate = args.rate;
    const double aggRate = args.aggRate;
    const double coreRate = args.coreRate;
    const double delay = args.delay;
    m_spec = "fattree:k=" + std::to_string(m_k) +
             ExplicitOptions(spec, {"oversub", "rate", "aggrate", "corerate", "delay"});

    m_half = m_k / 2;
    m_hostsPerEdge = oversub * m_half;
    m_hostsPerPod = m_half * m_hostsPerEdge;
    m_hosts = m_k * m_hostsPerPod;
    const uint32_t edges = m_hosts;
    const uint32_t aggs = edges + m_k * m_half;
    const uint32_t cores = aggs + m_k * m_half;

    for (uint32_t r = 0; r < m_hosts; ++r)
    {
        m_graph.AddHost("h" + std::to_string(r));
    }
    for (const char* tier : {"edge", "agg"})
    {
        for (uint32_t p = 0; p < m_k; ++p)
        {
            for (uint32_t i = 0; i < m_half; ++i)
            {
                m_graph.AddSwitch(std::string(tier) + std::to_string(p) + "." + std::to_string(i));
            }
        }
    }
    for (uint32_t c = 0; c < m_half * m_half; ++c)
    {
        m_graph.AddSwitch("core" + std::to_string(c));
    }
    // The loop orders below make the port numbers documented in the header.
    for (uint32_t r = 0; r < m_hosts; ++r)
    {
        m_graph.AddLink(r, edges + r / m_hostsPerEdge, rate, delay);
    }
    for (uint32_t p = 0; p < m_k; ++p)
    {
        for (uint32_t e = 0; e < m_half; ++e)
        {
            for (uint32_t a = 0; a < m_half; ++a)
            {
                m_graph.AddLink(edges + p * m_half + e, aggs + p * m_half + a, aggRate, delay);
            }
        }
    }
    for (uint32_t p = 0; p < m_k; ++p)
    {
        for (uint32_t a = 0; a < m_half; ++a)
        {
            for (uint32_t j = 0; j < m_half; ++j)
            {
                m_graph.AddLink(aggs + p * m_half + a, cores + a * m_half + j, coreRate, delay);
            }
        }
    }
}

std::string
FatTreeTopology::Spec() const
{
    return m_spec;
}

std::string
FatTreeTopology::Family() const
{
    return "fattree";
}

uint32_t
FatTreeTopology::PodOf(HostRank rank) const
{
    if (rank >= m_hosts)
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    return rank / m_hostsPerPod;
}

NodeIndex
FatTreeTopology::EdgeOf(HostRank rank) const
{
    if (rank >= m_hosts)
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    return m_hosts + rank / m_hostsPerEdge;
}

void
FatTreeTopology::NextHops(NodeIndex at,
                          HostRank dst,
                          uint8_t lane,
                          std::vector<RouteHop>& out) const
{
    out.clear();
    if (at < m_hosts)
    {
        out.push_back(RouteHop{0, 0});
        return;
    }
    const uint32_t edge = dst / m_hostsPerEdge; // global edge index of the destination
    const uint32_t pod = dst / m_hostsPerPod;
    uint32_t sw = at - m_hosts;
    if (sw < m_k * m_half) // edge switch
    {
        if (sw == edge)
        {
            out.push_back(RouteHop{dst % m_hostsPerEdge, 0});
            return;
        }
        for (uint32_t a = 0; a < m_half; ++a)
        {
            out.push_back(RouteHop{m_hostsPerEdge + a, 0});
        }
        return;
    }
    sw -= m_k * m_half;
    if (sw < m_k * m_half) // aggregation switch
    {
        if (sw / m_half == pod)
        {
            out.push_back(RouteHop{edge % m_half, 0});
            return;
        }
        for (uint32_t j = 0; j < m_half; ++j)
        {
            out.push_back(RouteHop{m_half + j, 0});
        }
        return;
    }
    out.push_back(RouteHop{pod, 0}); // core
}

void
FatTreeTopology::NextHopRuns(NodeIndex at, uint8_t /* lane */, std::vector<RouteRun>& out) const
{
    // The same hops as NextHops, a block of destinations at a time: hosts are numbered
    // edge switch by edge switch and pod by pod, so every routing decision is a range.
    out.clear();
    std::vector<RouteHop> up;
    const auto addUp = [&](HostRank first, HostRank end) {
        if (first < end)
        {
            out.push_back({first, end, up});
        }
    };
    if (at < m_hosts)
    {
        up = {RouteHop{0, 0}};
        addUp(0, at);
        addUp(at + 1, m_hosts);
        return;
    }
    uint32_t sw = at - m_hosts;
    if (sw < m_k * m_half) // edge switch sw: its hosts down, the rest up to every aggregation
    {
        for (uint32_t a = 0; a < m_half; ++a)
        {
            up.push_back(RouteHop{m_hostsPerEdge + a, 0});
        }
        const HostRank local = sw * m_hostsPerEdge;
        addUp(0, local);
        for (uint32_t h = 0; h < m_hostsPerEdge; ++h)
        {
            out.push_back({local + h, local + h + 1, {RouteHop{h, 0}}});
        }
        addUp(local + m_hostsPerEdge, m_hosts);
        return;
    }
    sw -= m_k * m_half;
    if (sw < m_k * m_half) // aggregation switch of pod sw / half: its pod down, the rest up
    {
        for (uint32_t j = 0; j < m_half; ++j)
        {
            up.push_back(RouteHop{m_half + j, 0});
        }
        const HostRank pod = (sw / m_half) * m_hostsPerPod;
        addUp(0, pod);
        for (uint32_t e = 0; e < m_half; ++e)
        {
            const HostRank first = pod + e * m_hostsPerEdge;
            out.push_back({first, first + m_hostsPerEdge, {RouteHop{e, 0}}});
        }
        addUp(pod + m_hostsPerPod, m_hosts);
        return;
    }
    for (uint32_t pod = 0; pod < m_k; ++pod) // core: down to every pod
    {
        out.push_back({pod * m_hostsPerPod, (pod + 1) * m_hostsPerPod, {RouteHop{pod, 0}}});
    }
}

std::vector<HostDimension>
FatTreeTopology::SwitchLevels() const
{
    return GroupsBySwitch(m_hosts, m_hostsPerEdge);
}

TopologyCounts
FatTreeTopology::Counts(SpecString& spec)
{
    // k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores; O k/2 servers per
    // edge switch; links: one per server, (k/2)^2 per pod edge-agg and agg-core.
    const FatTreeArgs args = ParseFatTree(spec, 0, 0); // refuses what the constructor refuses
    const uint64_t k = args.k;
    const uint64_t o = args.oversub;
    const uint64_t half = k / 2;
    TopologyCounts c;
    c.hosts = k * half * o * half;
    c.switches = 2 * k * half + half * half;
    c.links = c.hosts + 2 * k * half * half;
    return c;
}

} // namespace ns3
