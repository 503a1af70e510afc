#include "bigraph-topology.h"

#include "family-options.h"
#include "spec-string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

const char* const kBigraphUsage =
    "bigraph:s=S,m=M with S and M in [1, 255][,deadlockfree=0|1][,rate=R][,delay=D]";

/// What a bigraph spec says, read and checked once for the constructor and Counts.
struct BigraphArgs
{
    uint32_t s;
    uint32_t m;
    bool deadlockFree;
    double rate;
    double delay;
};

BigraphArgs
ParseBigraph(SpecString& spec, double rateBps, double delayS)
{
    BigraphArgs a;
    a.s = static_cast<uint32_t>(RequireUint(spec, "s", 1, 255, kBigraphUsage));
    a.m = static_cast<uint32_t>(RequireUint(spec, "m", 1, 255, kBigraphUsage));
    a.deadlockFree = spec.GetBool("deadlockfree", true);
    a.rate = spec.GetRate("rate", rateBps);
    a.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    return a;
}

} // namespace

BigraphTopology::BigraphTopology(SpecString& spec, double rateBps, double delayS)
{
    const BigraphArgs args = ParseBigraph(spec, rateBps, delayS);
    m_s = args.s;
    m_m = args.m;
    m_deadlockFree = args.deadlockFree;
    const double rate = args.rate;
    const double delay = args.delay;
    m_spec = "bigraph:s=" + std::to_string(m_s) + ",m=" + std::to_string(m_m) +
             ExplicitOptions(spec, {"deadlockfree", "rate", "delay"});

    m_hosts = 2 * m_s * m_m;
    for (uint32_t r = 0; r < m_hosts; ++r)
    {
        m_graph.AddHost("h" + std::to_string(r));
    }
    for (uint32_t part = 0; part < 2; ++part)
    {
        for (uint32_t w = 0; w < m_s; ++w)
        {
            m_graph.AddSwitch((part == 0 ? "up" : "low") + std::to_string(w));
        }
    }
    for (uint32_t r = 0; r < m_hosts; ++r)
    {
        m_graph.AddLink(r, m_hosts + r / m_m, rate, delay);
    }
    // Upper-major, lower inner: upper u's port M + l and lower l's port M + u.
    for (uint32_t u = 0; u < m_s; ++u)
    {
        for (uint32_t l = 0; l < m_s; ++l)
        {
            m_graph.AddLink(m_hosts + u, m_hosts + m_s + l, rate, delay);
        }
    }
}

std::string
BigraphTopology::Spec() const
{
    return m_spec;
}

std::string
BigraphTopology::Family() const
{
    return "bigraph";
}

uint8_t
BigraphTopology::LaneCount() const
{
    return m_deadlockFree ? 2 : 1;
}

uint32_t
BigraphTopology::Part(HostRank rank) const
{
    if (rank >= m_hosts)
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    return rank / (m_s * m_m);
}

NodeIndex
BigraphTopology::SwitchOf(HostRank rank) const
{
    if (rank >= m_hosts)
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    return m_hosts + rank / m_m;
}

void
BigraphTopology::NextHops(NodeIndex at,
                          HostRank dst,
                          uint8_t lane,
                          std::vector<RouteHop>& out) const
{
    out.clear();
    const uint32_t dstSwitch = dst / m_m; // part S + w
    const uint8_t next = m_deadlockFree ? static_cast<uint8_t>(dstSwitch / m_s) : 0;
    if (at < m_hosts)
    {
        out.push_back(RouteHop{0, next});
        return;
    }
    const uint32_t sw = at - m_hosts;
    if (sw == dstSwitch)
    {
        out.push_back(RouteHop{dst % m_m, next});
    }
    else if (sw / m_s != dstSwitch / m_s)
    {
        out.push_back(RouteHop{m_m + dstSwitch % m_s, next});
    }
    else
    {
        for (uint32_t x = 0; x < m_s; ++x)
        {
            out.push_back(RouteHop{m_m + x, next});
        }
    }
}

std::vector<HostDimension>
BigraphTopology::SwitchLevels() const
{
    // Slot i visits upper switch w, then lower switch (w + i) mod S, then upper w + 1, ...
    // Hop up w -> low (w+i) names slot i by (w, w+i), hop low x -> up y by (x, y) with
    // i = x - y + 1: for M <= S no two slots share an inter-part link.
    std::vector<HostDimension> levels = GroupsBySwitch(2 * m_s * m_m, m_m);
    for (uint32_t i = 0; i < m_m; ++i)
    {
        std::vector<HostRank>& ring = levels[1][i].members;
        ring.clear();
        for (uint32_t w = 0; w < m_s; ++w)
        {
            ring.push_back(w * m_m + i);                     // upper switch w
            ring.push_back((m_s + (w + i) % m_s) * m_m + i); // lower switch (w + i) mod s
        }
    }
    return levels;
}

std::optional<Topology::BipartiteShape>
BigraphTopology::Bipartite() const
{
    return BipartiteShape{m_s, m_m};
}

TopologyCounts
BigraphTopology::Counts(SpecString& spec)
{
    // Two parts of S switches with M servers each; every switch of one part to every
    // switch of the other.
    const BigraphArgs args = ParseBigraph(spec, 0, 0); // refuses what the constructor refuses
    const uint64_t s = args.s;
    const uint64_t m = args.m;
    TopologyCounts c;
    c.hosts = 2 * s * m;
    c.switches = 2 * s;
    c.links = c.hosts + s * s;
    c.lanes = args.deadlockFree ? 2 : 1;
    return c;
}

} // namespace ns3
