#include "star-topology.h"

#include "family-options.h"
#include "spec-string.h"

namespace ns3
{

namespace
{

/// What a star spec says, read and checked once for the constructor and Counts.
struct StarArgs
{
    uint32_t n;
    double rate;
    double delay;
};

StarArgs
ParseStar(SpecString& spec, double rateBps, double delayS)
{
    StarArgs a;
    a.n = static_cast<uint32_t>(
        RequireUint(spec, "n", 2, 65535, "star:n=N with N in [2, 65535][,rate=R][,delay=D]"));
    a.rate = spec.GetRate("rate", rateBps);
    a.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    return a;
}

} // namespace

StarTopology::StarTopology(SpecString& spec, double rateBps, double delayS)
{
    const StarArgs args = ParseStar(spec, rateBps, delayS);
    m_n = args.n;
    const double rate = args.rate;
    const double delay = args.delay;
    m_spec = "star:n=" + std::to_string(m_n) + ExplicitOptions(spec, {"rate", "delay"});
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_graph.AddHost("h" + std::to_string(i));
    }
    NodeIndex sw = m_graph.AddSwitch("sw0");
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_graph.AddLink(m_graph.HostNode(i), sw, rate, delay);
    }
}

std::string
StarTopology::Spec() const
{
    return m_spec;
}

std::string
StarTopology::Family() const
{
    return "star";
}

void
StarTopology::NextHops(NodeIndex at, HostRank dst, uint8_t lane, std::vector<RouteHop>& out) const
{
    out.clear();
    // Hosts are nodes 0..n-1 with their single port 0; the switch (node n) has port i to rank i.
    out.push_back(RouteHop{at < m_n ? 0u : dst, 0});
}

std::vector<HostDimension>
StarTopology::Dimensions() const
{
    HostGroup all{Topology::RingOrder(), false};
    return {HostDimension{all}};
}

TopologyCounts
StarTopology::Counts(SpecString& spec)
{
    TopologyCounts c;
    c.hosts = ParseStar(spec, 0, 0).n; // refuses what the constructor refuses
    c.switches = 1;
    c.links = c.hosts;
    return c;
}

} // namespace ns3
