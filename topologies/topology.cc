#include "topology.h"

#include "bcube-topology.h"
#include "bigraph-topology.h"
#include "fat-tree-topology.h"
#include "file-topology.h"
#include "parallel-paths.h"
#include "ring-topology.h"
#include "server-topology.h"
#include "spec-string.h"
#include "star-topology.h"
#include "torus-topology.h"

#include <numeric>
#include <stdexcept>

namespace ns3
{

namespace
{

/// splitmix64's finalizer: spreads flowHash so that nearby hashes pick unrelated ports.
uint64_t
MixHash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// One row of the family registry: a name and how to build it from its parsed spec.
struct FamilyEntry
{
    const char* name;
    const char* usage;
    /// `inner`: the text after "/" of a wrapper family (server), empty for the others.
    std::unique_ptr<Topology> (*make)(SpecString& spec,
                                      const std::string& inner,
                                      double rateBps,
                                      double delayS);
    /// Its closed-form counts (topology-counts.h); nullptr when it has none.
    std::optional<TopologyCounts> (*count)(SpecString& spec);
};

template<typename T>
std::unique_ptr<Topology>
Make(SpecString& spec, const std::string& /* inner */, double rateBps, double delayS)
{
    return std::make_unique<T>(spec, rateBps, delayS);
}

template<typename T>
std::optional<TopologyCounts>
Count(SpecString& spec)
{
    return T::Counts(spec);
}

/// The registry (STYLE.md: variants are classes chosen by name through one registry).
const FamilyEntry kFamilies[] = {
    {"bcube", "bcube:n=N,k=K", &Make<BcubeTopology>, &Count<BcubeTopology>},
    {"torus", "torus:dims=AxB[xC...]", &Make<TorusTopology>, &Count<TorusTopology>},
    {"fattree", "fattree:k=K", &Make<FatTreeTopology>, &Count<FatTreeTopology>},
    {"bigraph", "bigraph:s=S,m=M", &Make<BigraphTopology>, &Count<BigraphTopology>},
    {"ring", "ring:n=N", &Make<RingTopology>, &Count<RingTopology>},
    {"star", "star:n=N", &Make<StarTopology>, &Count<StarTopology>},
    {"file", "file:PATH", &Make<FileTopology>, &Count<FileTopology>},
    {"server", "server:gpus=G,nics=K/NETWORK", &MakeServerTopology, nullptr},
};

/// A spec as the families read it: "file:PATH,..." spelled "file:path=PATH,..." (paths
/// rarely contain '=' and are the one positional argument any family takes), and the
/// network a wrapper family (server:OPTIONS/NETWORK) wraps split off into `inner`.
std::string
CanonicalSpec(const std::string& spec, std::string& inner)
{
    std::string text = spec;
    if (text.compare(0, 5, "file:") == 0)
    {
        std::string rest = text.substr(5);
        std::string first = rest.substr(0, rest.find(','));
        if (first.find('=') == std::string::npos)
        {
            text = "file:path=" + rest;
        }
    }
    inner.clear();
    if (text.compare(0, 7, "server:") == 0 && text.find('/') != std::string::npos)
    {
        inner = text.substr(text.find('/') + 1);
        text.erase(text.find('/'));
    }
    return text;
}

} // namespace

void
Topology::NextHopRuns(NodeIndex at, uint8_t lane, std::vector<RouteRun>& out) const
{
    out.clear();
    std::vector<RouteHop> hops;
    const TopologyNode& node = m_graph.Node(at);
    for (HostRank dst = 0; dst < m_graph.HostCount(); ++dst)
    {
        if (node.isHost && node.rank == dst)
        {
            continue; // no route to itself
        }
        NextHops(at, dst, lane, hops);
        if (hops.empty())
        {
            continue;
        }
        if (!out.empty() && out.back().end == dst && out.back().hops == hops)
        {
            out.back().end = dst + 1;
            continue;
        }
        out.push_back({dst, dst + 1, hops});
    }
}

std::vector<LinkIndex>
Topology::Path(HostRank src, HostRank dst, uint64_t flowHash) const
{
    std::vector<LinkIndex> path;
    if (src == dst)
    {
        return path;
    }
    // A switch hashes the flow's 5-tuple with its own seed, so the choice at each node mixes
    // the node in: otherwise every tier would take the same port index and fat-tree paths
    // would collapse onto a fraction of the cores.
    std::vector<RouteHop> hops;
    hops.reserve(8);
    NodeIndex at = m_graph.HostNode(src);
    NodeIndex target = m_graph.HostNode(dst);
    uint8_t lane = 0;
    // A loop-free route visits each node at most once.
    for (uint32_t steps = 0; at != target; ++steps)
    {
        if (steps >= m_graph.NodeCount())
        {
            throw std::runtime_error("Topology::Path " + Spec() + ": no loop-free route from " +
                                     std::to_string(src) + " to " + std::to_string(dst));
        }
        NextHops(at, dst, lane, hops);
        if (hops.empty())
        {
            throw std::runtime_error("Topology::Path " + Spec() + ": node " +
                                     m_graph.Node(at).name + " has no route to host " +
                                     std::to_string(dst));
        }
        const RouteHop& hop = hops.size() == 1
                                  ? hops[0]
                                  : hops[MixHash(flowHash ^ (uint64_t{at} << 32)) % hops.size()];
        const PortPeer& peer = m_graph.Ports(at)[hop.port];
        path.push_back(peer.link);
        at = peer.peer;
        lane = hop.lane;
    }
    return path;
}

std::unique_ptr<ParallelPaths>
Topology::SourceRoutes() const
{
    return nullptr;
}

std::vector<HostRank>
Topology::RingOrder() const
{
    std::vector<HostRank> order(m_graph.HostCount());
    std::iota(order.begin(), order.end(), 0);
    return order;
}

HostRank
Topology::RankOfDigits(const std::vector<uint32_t>& /* digits */) const
{
    throw std::logic_error(Spec() + ": ranks have no digit structure (RankRadices() is empty)");
}

std::vector<HostDimension>
Topology::GroupsBySwitch(uint32_t hosts, uint32_t perSwitch)
{
    const uint32_t switches = hosts / perSwitch;
    std::vector<HostDimension> levels(2);
    for (uint32_t s = 0; s < switches; ++s)
    {
        HostGroup group{{}, true};
        for (uint32_t i = 0; i < perSwitch; ++i)
        {
            group.members.push_back(s * perSwitch + i);
        }
        levels[0].push_back(std::move(group));
    }
    for (uint32_t i = 0; i < perSwitch; ++i)
    {
        HostGroup group{{}, true};
        for (uint32_t s = 0; s < switches; ++s)
        {
            group.members.push_back(s * perSwitch + i);
        }
        levels[1].push_back(std::move(group));
    }
    return levels;
}

std::vector<std::string>
TopologyFamilies()
{
    std::vector<std::string> names;
    for (const auto& family : kFamilies)
    {
        names.emplace_back(family.name);
    }
    return names;
}

std::unique_ptr<Topology>
MakeTopology(const std::string& spec, double rateBps, double delayS)
{
    std::string inner;
    const std::string text = CanonicalSpec(spec, inner);
    SpecString parsed(text, "--topology");
    for (const auto& family : kFamilies)
    {
        if (parsed.Name() == family.name)
        {
            return family.make(parsed, inner, rateBps, delayS);
        }
    }
    std::string allowed;
    for (const auto& family : kFamilies)
    {
        allowed += std::string(allowed.empty() ? "" : ", ") + family.usage;
    }
    throw std::invalid_argument(parsed.Where() + "unknown topology family '" + parsed.Name() +
                                "'; allowed: " + allowed);
}

std::optional<TopologyCounts>
CountTopology(const std::string& spec)
{
    try
    {
        std::string inner;
        SpecString parsed(CanonicalSpec(spec, inner), "--topology");
        for (const auto& family : kFamilies)
        {
            if (parsed.Name() == family.name)
            {
                return family.count ? family.count(parsed) : std::nullopt;
            }
        }
    }
    catch (const std::exception&)
    {
        // MakeTopology names what is wrong.
    }
    return std::nullopt;
}

} // namespace ns3
