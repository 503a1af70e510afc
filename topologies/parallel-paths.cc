#include "parallel-paths.h"

#include "bcube-topology.h"
#include "torus-topology.h"

#include <stdexcept>
#include <string>

namespace ns3
{

std::vector<NodeIndex>
ParallelPaths::Nodes(const TopologyGraph& graph, HostRank src, HostRank dst, uint32_t path) const
{
    const uint32_t route = Route(src, dst, path);
    const NodeIndex target = graph.HostNode(dst);
    std::vector<NodeIndex> nodes{graph.HostNode(src)};
    while (nodes.back() != target)
    {
        // A loop-free path visits each node at most once.
        if (nodes.size() > graph.NodeCount())
        {
            throw std::runtime_error("ParallelPaths: path " + std::to_string(path) + " from " +
                                     std::to_string(src) + " to " + std::to_string(dst) + " loops");
        }
        const RouteHop hop = Hop(nodes.back(), dst, route);
        nodes.push_back(graph.Ports(nodes.back()).at(hop.port).peer);
    }
    return nodes;
}

BcubeParallelPaths::BcubeParallelPaths(const BcubeTopology& bcube, bool deadlockFree)
    : m_bcube(bcube),
      m_levels(bcube.K() + 1),
      m_deadlockFree(deadlockFree)
{
}

uint32_t
BcubeParallelPaths::PathCount() const
{
    return m_levels;
}

uint32_t
BcubeParallelPaths::RouteCount() const
{
    return 2 * m_levels; // k+1 correction orders, k+1 detours
}

uint32_t
BcubeParallelPaths::Route(HostRank src, HostRank dst, uint32_t path) const
{
    const std::vector<uint32_t> a = m_bcube.Digits(src);
    const std::vector<uint32_t> b = m_bcube.Digits(dst);
    return a.at(path) != b.at(path) ? path : m_levels + path;
}

uint8_t
BcubeParallelPaths::LaneCount() const
{
    return m_deadlockFree ? static_cast<uint8_t>(m_levels + 1) : 1;
}

uint32_t
BcubeParallelPaths::Differing(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y)
{
    uint32_t h = 0;
    for (size_t l = 0; l < x.size(); ++l)
    {
        h += x[l] != y[l] ? 1 : 0;
    }
    return h;
}

uint8_t
BcubeParallelPaths::LaneFor(uint32_t left) const
{
    // left <= k+2 (a detour from a server differing in at most k digits): lanes 0..k+1.
    return m_deadlockFree ? static_cast<uint8_t>(m_levels + 1 - left) : 0;
}

RouteHop
BcubeParallelPaths::Hop(NodeIndex at, HostRank dst, uint32_t route) const
{
    const uint32_t servers = m_bcube.Graph().HostCount();
    if (at >= servers)
    {
        return SwitchHop(at, dst, route);
    }
    const std::vector<uint32_t> x = m_bcube.Digits(at);
    const std::vector<uint32_t> b = m_bcube.Digits(dst);
    const bool detour = route >= m_levels;
    const uint32_t i = route % m_levels;
    const uint32_t h = Differing(x, b);
    if (detour && x[i] == b[i])
    {
        // The source of AltDCRouting: out on level i to C (c_i = a_i + 1), then h + 1 hops.
        return RouteHop{i, LaneFor(h + 2)};
    }
    // DCRouting from here: the first differing digit in the order start, start-1, ...
    const uint32_t start = detour ? (i + m_levels - 1) % m_levels : i;
    for (uint32_t s = 0; s < m_levels; ++s)
    {
        const uint32_t l = (start + m_levels - s) % m_levels;
        if (x[l] != b[l])
        {
            return RouteHop{l, LaneFor(h)};
        }
    }
    throw std::invalid_argument("BcubeParallelPaths: server " + std::to_string(at) +
                                " is the destination");
}

RouteHop
BcubeParallelPaths::SwitchHop(NodeIndex at, HostRank dst, uint32_t route) const
{
    // Node of the level-l switch with index s: servers + l n^k + s (bcube-topology.h); s is
    // the address with digit l removed.
    const uint32_t n = m_bcube.N();
    const uint32_t servers = m_bcube.Graph().HostCount();
    const uint32_t perLevel = servers / n;
    const uint32_t l = (at - servers) / perLevel;
    const uint32_t s = (at - servers) % perLevel;
    uint32_t below = 1; // n^l
    for (uint32_t j = 0; j < l; ++j)
    {
        below *= n;
    }
    const uint32_t sOfDst = (dst / (below * n)) * below + dst % below; // dst without digit l
    const uint32_t bl = (dst / below) % n;
    // Other digits differing from dst's: the server the packet came from shares them.
    uint32_t others = 0;
    for (uint32_t x = s, y = sOfDst, j = 0; j < m_levels - 1; ++j, x /= n, y /= n)
    {
        others += x % n != y % n ? 1 : 0;
    }
    if (route == m_levels + l && s != sOfDst)
    {
        // The detour's first switch (its last level-l switch is dst's own, s == sOfDst): on
        // to C, whose digit l is b_l + 1; the source came with digit l equal to b_l.
        return RouteHop{(bl + 1) % n, LaneFor(others + 2)};
    }
    // A correction of digit l: the previous server differed in it and in `others` more.
    return RouteHop{bl, LaneFor(others + 1)};
}

TorusParallelPaths::TorusParallelPaths(const TorusTopology& torus, bool deadlockFree)
    : m_torus(torus),
      m_lanesPerRotation(0)
{
    if (deadlockFree)
    {
        m_lanesPerRotation = 1;
        for (uint32_t side : torus.Sides())
        {
            m_lanesPerRotation = side >= 4 ? 2 : m_lanesPerRotation;
        }
    }
}

uint32_t
TorusParallelPaths::PathCount() const
{
    return static_cast<uint32_t>(m_torus.Sides().size());
}

uint32_t
TorusParallelPaths::RouteCount() const
{
    return PathCount();
}

uint32_t
TorusParallelPaths::Route(HostRank /* src */, HostRank /* dst */, uint32_t path) const
{
    return path;
}

uint8_t
TorusParallelPaths::LaneCount() const
{
    return m_lanesPerRotation == 0 ? 1 : static_cast<uint8_t>(PathCount() * m_lanesPerRotation);
}

RouteHop
TorusParallelPaths::Hop(NodeIndex at, HostRank dst, uint32_t route) const
{
    const std::vector<uint32_t>& sides = m_torus.Sides();
    const uint32_t d = static_cast<uint32_t>(sides.size());
    const std::vector<uint32_t> c = m_torus.Coordinates(at); // node == rank on a torus
    const std::vector<uint32_t> t = m_torus.Coordinates(dst);
    for (uint32_t s = 0; s < d; ++s)
    {
        const uint32_t j = (route + s) % d;
        if (c[j] == t[j])
        {
            continue;
        }
        const uint32_t forward = (t[j] + sides[j] - c[j]) % sides[j]; // hops going "+"
        const uint32_t backward = sides[j] - forward;
        const bool plus = forward < backward || (forward == backward && route % 2 == 0);
        uint8_t lane = 0;
        if (m_lanesPerRotation > 0)
        {
            // Lower lane while the wrap link is still ahead (not this hop), else upper.
            const bool wrapsLater = plus ? (c[j] > t[j] && c[j] + 1 != sides[j])
                                         : (c[j] < t[j] && c[j] != 0);
            const uint32_t upper = m_lanesPerRotation == 2 && !wrapsLater ? 1 : 0;
            lane = static_cast<uint8_t>(route * m_lanesPerRotation + upper);
        }
        return RouteHop{m_torus.NeighbourPort(at, j, plus), lane};
    }
    throw std::invalid_argument("TorusParallelPaths: server " + std::to_string(at) +
                                " is the destination");
}

} // namespace ns3
