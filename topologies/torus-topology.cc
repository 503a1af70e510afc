#include "torus-topology.h"

#include "family-options.h"
#include "parallel-paths.h"
#include "spec-string.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

const char* const kTorusUsage = "torus:dims=AxB[xC...] with every side >= 2, at most 8 "
                                "dimensions and 2^24 servers[,deadlockfree=0|1][,rate=R]"
                                "[,delay=D]";

std::vector<uint32_t>
ParseSides(SpecString& spec)
{
    if (!spec.Has("dims"))
    {
        throw std::invalid_argument(spec.Where() + "missing 'dims'; usage: " + kTorusUsage);
    }
    std::string text = spec.GetString("dims", "");
    std::vector<uint32_t> sides;
    uint64_t total = 1;
    size_t start = 0;
    while (true)
    {
        size_t x = text.find('x', start);
        std::string item = text.substr(start, x == std::string::npos ? x : x - start);
        uint64_t side = 0;
        if (item.size() > 9 || !ParseUint(item, side))
        {
            side = 0; // refused below, as a side < 2
        }
        if (side < 2)
        {
            throw std::invalid_argument(spec.Where() + "dims '" + text + "': side '" + item +
                                        "' is not an integer >= 2; usage: " + kTorusUsage);
        }
        sides.push_back(static_cast<uint32_t>(side));
        total *= side;
        if (sides.size() > 8 || total > (uint64_t{1} << 24))
        {
            throw std::invalid_argument(spec.Where() + "dims '" + text +
                                        "' too large; usage: " + kTorusUsage);
        }
        if (x == std::string::npos)
        {
            break;
        }
        start = x + 1;
    }
    return sides;
}

std::string
SidesText(const std::vector<uint32_t>& sides)
{
    std::string out;
    for (uint32_t side : sides)
    {
        out += (out.empty() ? "" : "x") + std::to_string(side);
    }
    return out;
}

/// What a torus spec says, read and checked once for the constructor and Counts.
struct TorusArgs
{
    std::vector<uint32_t> sides;
    bool deadlockFree;
    double rate;
    double delay;
};

TorusArgs
ParseTorus(SpecString& spec, double rateBps, double delayS)
{
    TorusArgs a;
    a.sides = ParseSides(spec);
    a.deadlockFree = spec.GetBool("deadlockfree", true);
    a.rate = spec.GetRate("rate", rateBps);
    a.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    return a;
}

} // namespace

TorusTopology::TorusTopology(SpecString& spec, double rateBps, double delayS)
{
    TorusArgs args = ParseTorus(spec, rateBps, delayS);
    m_sides = std::move(args.sides);
    m_deadlockFree = args.deadlockFree;
    const double rate = args.rate;
    const double delay = args.delay;
    m_spec = "torus:dims=" + SidesText(m_sides) +
             ExplicitOptions(spec, {"deadlockfree", "rate", "delay"});
    Build(rate, delay);
}

TorusTopology::TorusTopology(const std::vector<uint32_t>& sides,
                             bool deadlockFree,
                             double rateBps,
                             double delayS,
                             const std::string& spec)
    : m_sides(sides),
      m_deadlockFree(deadlockFree),
      m_spec(spec)
{
    Build(rateBps, delayS);
}

void
TorusTopology::Build(double rateBps, double delayS)
{
    const uint32_t d = static_cast<uint32_t>(m_sides.size());
    m_strides.assign(d, 1);
    for (uint32_t j = d - 1; j > 0; --j)
    {
        m_strides[j - 1] = m_strides[j] * m_sides[j];
    }
    const uint32_t n = m_strides[0] * m_sides[0];
    m_laneCount = 1;
    for (uint32_t side : m_sides)
    {
        m_laneCount += (m_deadlockFree && side >= 4) ? 1 : 0;
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        m_graph.AddHost("h" + std::to_string(r));
    }
    m_plusPort.assign(size_t{n} * d, kNoIndex);
    m_minusPort.assign(size_t{n} * d, kNoIndex);
    // Hosts are nodes 0..n-1 (no switches), so node index == rank below.
    for (uint32_t j = 0; j < d; ++j)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t c = (r / m_strides[j]) % m_sides[j];
            uint32_t plus = c + 1 == m_sides[j] ? r - c * m_strides[j] : r + m_strides[j];
            LinkIndex link = m_graph.AddLink(r, plus, rateBps, delayS);
            m_plusPort[size_t{r} * d + j] = m_graph.Link(link).portA;
            m_minusPort[size_t{plus} * d + j] = m_graph.Link(link).portB;
        }
    }
}

std::string
TorusTopology::Spec() const
{
    return m_spec;
}

std::unique_ptr<ParallelPaths>
TorusTopology::SourceRoutes() const
{
    if (Family() != "torus")
    {
        return nullptr; // a ring (RingTopology) has one direction order and no parallel set
    }
    return std::make_unique<TorusParallelPaths>(*this, m_deadlockFree);
}

std::string
TorusTopology::Family() const
{
    return "torus";
}

uint8_t
TorusTopology::LaneCount() const
{
    return m_laneCount;
}

std::vector<uint32_t>
TorusTopology::Coordinates(HostRank rank) const
{
    if (rank >= m_graph.HostCount())
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    std::vector<uint32_t> c(m_sides.size());
    for (size_t j = 0; j < m_sides.size(); ++j)
    {
        c[j] = (rank / m_strides[j]) % m_sides[j];
    }
    return c;
}

HostRank
TorusTopology::RankOf(const std::vector<uint32_t>& coordinates) const
{
    if (coordinates.size() != m_sides.size())
    {
        throw std::invalid_argument(m_spec + ": " + std::to_string(coordinates.size()) +
                                    " coordinates given, the torus has " +
                                    std::to_string(m_sides.size()) + " dimensions");
    }
    HostRank rank = 0;
    for (size_t j = 0; j < m_sides.size(); ++j)
    {
        if (coordinates[j] >= m_sides[j])
        {
            throw std::invalid_argument(m_spec + ": coordinate " + std::to_string(j) + " = " +
                                        std::to_string(coordinates[j]) + " outside [0, " +
                                        std::to_string(m_sides[j]) + ")");
        }
        rank += coordinates[j] * m_strides[j];
    }
    return rank;
}

HostRank
TorusTopology::Neighbour(HostRank rank, uint32_t dim, bool plus) const
{
    return m_graph.Ports(rank)[NeighbourPort(rank, dim, plus)].peer; // node == rank here
}

uint32_t
TorusTopology::NeighbourPort(HostRank rank, uint32_t dim, bool plus) const
{
    size_t i = size_t{rank} * m_sides.size() + dim;
    if (rank >= m_graph.HostCount() || dim >= m_sides.size())
    {
        throw std::out_of_range(m_spec + ": NeighbourPort(" + std::to_string(rank) + ", " +
                                std::to_string(dim) + ") out of range");
    }
    return plus ? m_plusPort[i] : m_minusPort[i];
}

void
TorusTopology::NextHops(NodeIndex at, HostRank dst, uint8_t lane, std::vector<RouteHop>& out) const
{
    out.clear();
    const size_t d = m_sides.size();
    for (size_t j = 0; j < d; ++j)
    {
        uint32_t side = m_sides[j];
        uint32_t c = (at / m_strides[j]) % side;
        uint32_t t = (dst / m_strides[j]) % side;
        if (c == t)
        {
            continue;
        }
        uint32_t forward = (t + side - c) % side; // hops going "+"
        uint32_t backward = side - forward;
        bool dateline = m_deadlockFree && side >= 4;
        if (forward <= backward)
        {
            // The + link of coordinate side-1 is the wrap-around link.
            uint8_t next = lane + ((dateline && c + 1 == side) ? 1 : 0);
            out.push_back(RouteHop{m_plusPort[at * d + j], next});
        }
        if (backward <= forward)
        {
            uint8_t next = lane + ((dateline && c == 0) ? 1 : 0);
            out.push_back(RouteHop{m_minusPort[at * d + j], next});
        }
        return;
    }
}

std::vector<HostDimension>
TorusTopology::Dimensions() const
{
    std::vector<HostDimension> dims;
    const uint32_t n = m_graph.HostCount();
    for (size_t j = 0; j < m_sides.size(); ++j)
    {
        HostDimension dim;
        for (uint32_t r = 0; r < n; ++r)
        {
            if ((r / m_strides[j]) % m_sides[j] != 0)
            {
                continue; // each ring is listed once, from its coordinate-0 member
            }
            HostGroup group{{}, true};
            for (uint32_t c = 0; c < m_sides[j]; ++c)
            {
                group.members.push_back(r + c * m_strides[j]);
            }
            dim.push_back(std::move(group));
        }
        dims.push_back(std::move(dim));
    }
    return dims;
}

std::vector<HostRank>
TorusTopology::RingOrder() const
{
    // Boustrophedon: a coordinate runs backwards whenever the number formed by the slower
    // ones is odd, so each step changes one coordinate by one.
    const std::vector<uint32_t> radix = RankRadices();
    std::vector<HostRank> order(m_graph.HostCount());
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = RankOfDigits(WalkDigits(radix, DigitWalk::Reflect, i));
    }
    return order;
}

std::vector<uint32_t>
TorusTopology::RankRadices() const
{
    return std::vector<uint32_t>(m_sides.rbegin(), m_sides.rend());
}

HostRank
TorusTopology::RankOfDigits(const std::vector<uint32_t>& digits) const
{
    return RankOf(std::vector<uint32_t>(digits.rbegin(), digits.rend()));
}

TopologyCounts
TorusTopology::Counts(SpecString& spec)
{
    // One link per server and dimension (to its + neighbour); no switches; a lane pair
    // (dateline) per dimension of side >= 4 when deadlock-free.
    const TorusArgs args = ParseTorus(spec, 0, 0); // refuses what the constructor refuses
    TopologyCounts c;
    c.hosts = 1;
    for (uint32_t s : args.sides)
    {
        c.hosts = SaturatingMul(c.hosts, s);
        c.lanes += (args.deadlockFree && s >= 4) ? 1 : 0;
    }
    c.links = SaturatingMul(args.sides.size(), c.hosts);
    c.hostsRelay = true;
    return c;
}

} // namespace ns3
