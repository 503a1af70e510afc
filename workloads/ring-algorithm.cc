#include "ring-algorithm.h"

#include "ns3/digit-walk.h"
#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr TransferId kNone = UINT32_MAX;

/// The order of one data range around one ring: positions -> hosts.
struct RingSpec
{
    std::vector<HostRank> order;
    uint64_t offset;
    uint64_t bytes;
};

/// Splits [0, size) into `parts` ranges, the first (size mod parts) one byte longer.
std::vector<uint64_t>
SplitOffsets(uint64_t size, uint64_t parts)
{
    std::vector<uint64_t> offset(parts + 1, 0);
    for (uint64_t i = 0; i < parts; ++i)
    {
        offset[i + 1] = offset[i] + size / parts + (i < size % parts ? 1 : 0);
    }
    return offset;
}

} // namespace

RingAlgorithm::RingAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_order = s.GetChoice("order", "natural", {"natural", "topo", "gray", "snake"});
    m_bidir = s.GetBool("bidir", false);
    m_allNics = s.GetChoice("nics", "1", {"1", "all"}) == "all";
    m_segments = static_cast<uint32_t>(s.GetUint("segments", 1, 1, 65536));
    s.Finish();
}

std::string
RingAlgorithm::Spec() const
{
    return "ring:order=" + m_order + ",bidir=" + (m_bidir ? "1" : "0") +
           ",nics=" + (m_allNics ? "all" : "1") + ",segments=" + std::to_string(m_segments);
}

bool
RingAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Graph().HostCount() < 1)
    {
        why = "ring needs at least one host";
        return false;
    }
    if (m_order == "gray" && topology.NeighbourWalk() != DigitWalk::ModGray)
    {
        why = "ring order=gray needs a bcube topology";
        return false;
    }
    if (m_order == "snake" && topology.NeighbourWalk() != DigitWalk::Reflect)
    {
        why = "ring order=snake needs a torus or ring topology";
        return false;
    }
    return true;
}

namespace
{

/// Ring order `rotation` (0 or 1) of a square k x k torus: one of two edge-disjoint
/// Hamiltonian cycles (x = coordinate 1, y = coordinate 0). Ring 0 walks row y from x = -y
/// for k-1 +x steps, then one +y step (in column k-1-y); ring 1 uses every other cable:
/// column x from y = -x for k-1 +y steps, then one +x step (in row k-1-x). Each vertex keeps
/// degree 2 in the second, and it visits every column once, so it is one cycle.
std::vector<HostRank>
SquareTorusOrder(const Topology& topology, uint32_t n, uint32_t side, uint32_t rotation)
{
    std::vector<HostRank> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t major = i / side;
        const uint32_t minor = (side - major + i % side) % side;
        // Coordinates (dimension 0, dimension 1) = digits (slow, fast).
        order[i] = rotation == 0 ? topology.RankOfDigits({minor, major})
                                 : topology.RankOfDigits({major, minor});
    }
    return order;
}

/// Rotating which dimension is walked fastest moves most hops of ring p onto the ports of
/// dimension `rotation` (see the class comment).
std::vector<HostRank>
RotatedDigitOrder(const Topology& topology,
                  const std::vector<uint32_t>& radix,
                  DigitWalk walk,
                  uint32_t rotation,
                  uint32_t n)
{
    const uint32_t dims = static_cast<uint32_t>(radix.size());
    std::vector<HostRank> order(n);
    std::vector<uint32_t> rotated(dims);
    for (uint32_t q = 0; q < dims; ++q)
    {
        rotated[q] = radix[(q + rotation) % dims];
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        const std::vector<uint32_t> walked = WalkDigits(rotated, walk, i);
        std::vector<uint32_t> natural(dims); // natural[q]: q-th fastest dimension
        for (uint32_t q = 0; q < dims; ++q)
        {
            natural[(q + rotation) % dims] = walked[q];
        }
        order[i] = topology.RankOfDigits(natural);
    }
    return order;
}

} // namespace

std::vector<std::vector<HostRank>>
RingAlgorithm::RingOrders(const Topology& topology) const
{
    RequireApplies(topology);
    const TopologyGraph& graph = topology.Graph();
    const uint32_t n = graph.HostCount();
    // Dimensions (radices, fastest first at rotation 0) and the walk the order takes: the
    // family's digit structure (BCube's address digits, a torus' coordinates), if any.
    const bool digits = !topology.RankRadices().empty();
    std::vector<uint32_t> radix{n};
    DigitWalk walk = DigitWalk::Count;
    if (digits)
    {
        radix = topology.RankRadices();
        walk = m_order == "natural" ? DigitWalk::Count : topology.NeighbourWalk();
    }
    const uint32_t dims = static_cast<uint32_t>(radix.size());

    uint32_t ports = 1;
    if (m_allNics)
    {
        ports = UINT32_MAX;
        for (HostRank h = 0; h < n; ++h)
        {
            ports = std::min<uint32_t>(ports, graph.Ports(graph.HostNode(h)).size());
        }
        if (ports == 0)
        {
            throw std::invalid_argument("--algorithm '" + Spec() + "': topology " +
                                        topology.Spec() + " has a host without ports");
        }
    }

    // A square 2-D torus (side >= 3) has a Hamiltonian decomposition (Kotzig 1973; the
    // construction in SquareTorusOrder is the simple one for equal sides): with nics=all and a
    // topology-aware order its 4 rings use every directed cable exactly once.
    const bool squareTorus = m_allNics && m_order != "natural" &&
                             topology.NeighbourWalk() == DigitWalk::Reflect && radix.size() == 2 &&
                             radix[0] == radix[1] && radix[0] >= 3;
    const uint32_t side = squareTorus ? radix[0] : 0;
    std::vector<std::vector<HostRank>> rings;
    for (uint32_t p = 0; p < ports; ++p)
    {
        const uint32_t rotation = p % dims;
        std::vector<HostRank> order(n);
        if (squareTorus)
        {
            order = SquareTorusOrder(topology, n, side, rotation);
        }
        else if (!digits)
        {
            // No structure to rotate: natural or the family's own topology-aware order.
            std::vector<HostRank> base = topology.RingOrder();
            if (m_order == "natural")
            {
                for (uint32_t i = 0; i < n; ++i)
                {
                    base[i] = i;
                }
            }
            if (base.size() != n)
            {
                throw std::invalid_argument("--algorithm '" + Spec() + "': topology " +
                                            topology.Spec() + " gives a ring order of " +
                                            std::to_string(base.size()) + " hosts, not " +
                                            std::to_string(n));
            }
            order = base;
        }
        else
        {
            order = RotatedDigitOrder(topology, radix, walk, rotation, n);
        }
        if ((p / dims) % 2 == 1)
        {
            std::reverse(order.begin(), order.end());
        }
        rings.push_back(order);
        if (m_bidir)
        {
            std::reverse(order.begin(), order.end());
            rings.push_back(order);
        }
    }
    return rings;
}

SyncPlan
RingAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    std::vector<std::vector<HostRank>> orders = RingOrders(topology);
    SyncPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    const uint32_t rings = static_cast<uint32_t>(orders.size());
    const uint32_t segs = m_segments;
    std::vector<uint64_t> ringOffset = SplitOffsets(plan.gradientBytes, rings);
    for (uint32_t r = 0; r < rings; ++r)
    {
        const std::vector<HostRank>& order = orders[r];
        const uint64_t base = ringOffset[r];
        std::vector<uint64_t> chunkOffset = SplitOffsets(ringOffset[r + 1] - base, n);
        // segment s of chunk c: [segOffset[c][s], segOffset[c][s + 1]) relative to base
        std::vector<std::vector<uint64_t>> segOffset(n);
        for (uint32_t c = 0; c < n; ++c)
        {
            segOffset[c] = SplitOffsets(chunkOffset[c + 1] - chunkOffset[c], segs);
            for (uint64_t& o : segOffset[c])
            {
                o += base + chunkOffset[c];
            }
        }
        // lastSend[i][s]: position i's previous send of segment s.
        std::vector<std::vector<TransferId>> lastSend(n, std::vector<TransferId>(segs, kNone));
        // received[i][s]: the transfer that last delivered segment s to position i; the
        // chunk a position sends at step k is the one it received at step k-1.
        std::vector<std::vector<TransferId>> received(n, std::vector<TransferId>(segs, kNone));
        // Reduce-scatter step k: position i sends chunk (i - k) mod n holding positions
        // i-k..i; after n-1 steps position i owns chunk (i + 1). All-gather step k:
        // position i forwards chunk (i + 1 - k) mod n, the full sum.
        // held[i]: what position i's reduce-scatter send carries at the current step,
        // positions i-step..i; grown by one worker a step (building it from scratch each
        // step made 1024-host rings cubic).
        std::vector<ContributorSet> held(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            held[i] = ContributorSet::Single(n, order[i]);
        }
        const ContributorSet all = ContributorSet::All(n);
        for (uint32_t step = 0; step + 2 < 2 * n; ++step)
        {
            const bool reduce = step + 1 < n;
            std::vector<std::vector<TransferId>> next = received;
            for (uint32_t i = 0; i < n; ++i)
            {
                const uint32_t chunk = reduce ? (i + n - step) % n
                                              : (i + 1 + n - (step - (n - 1))) % n;
                const ContributorSet& carries = reduce ? held[i] : all;
                const uint32_t succ = (i + 1) % n;
                for (uint32_t s = 0; s < segs; ++s)
                {
                    const uint64_t begin = segOffset[chunk][s];
                    const uint64_t end = segOffset[chunk][s + 1];
                    if (begin == end)
                    {
                        continue;
                    }
                    std::vector<TransferId> deps;
                    for (TransferId d : {lastSend[i][s], received[i][s]})
                    {
                        if (d != kNone)
                        {
                            deps.push_back(d);
                        }
                    }
                    TransferId id = plan.Add({0,
                                              order[i],
                                              order[succ],
                                              begin,
                                              end - begin,
                                              reduce ? TransferOp::Reduce : TransferOp::Copy,
                                              carries,
                                              deps,
                                              (r * n + chunk) * segs + s,
                                              step});
                    lastSend[i][s] = id;
                    next[succ][s] = id;
                }
            }
            received = std::move(next);
            if (reduce)
            {
                for (uint32_t i = 0; i < n; ++i)
                {
                    held[i].Add(order[(i + n - step - 1) % n]);
                }
            }
        }
    }
    return plan;
}

std::optional<RoundPlan>
RingAlgorithm::CompileRounds(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    std::vector<std::vector<HostRank>> orders = RingOrders(topology);
    RoundPlan plan;
    StartPlan(plan, model.TotalBytes(), n, n);
    const uint64_t rings = orders.size();
    // Smallest and largest segment over every ring and chunk (SplitOffsets: ceil and floor
    // at every split).
    const uint64_t smallest = plan.gradientBytes / rings / n / m_segments;
    if (smallest == 0)
    {
        return std::nullopt;
    }
    auto ceilDiv = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    const uint64_t largest = ceilDiv(ceilDiv(ceilDiv(plan.gradientBytes, rings), n), m_segments);
    if (n < 2)
    {
        return plan;
    }
    SyncRound step;
    step.bytes = largest;
    step.repeat = n - 1;
    for (const std::vector<HostRank>& order : orders)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t s = 0; s < m_segments; ++s)
            {
                step.flows.emplace_back(order[i], order[(i + 1) % n]);
            }
        }
    }
    step.phase = 0;
    plan.Append(step);
    step.phase = n - 1;
    plan.Append(std::move(step));
    return plan;
}

PlanSizeBound
RingAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    // One ring per NIC used (nics=all: the fewest ports of any host, at most the hosts'
    // average, 2 links / N), twice that with bidir. Each ring runs 2 (N - 1) steps in which
    // every position sends each of its segments: rings x segments x 2 N (N - 1) transfers,
    // each waiting on at most two (the sender's send before and what it received), on N
    // ordered pairs a ring.
    const uint64_t n = in.hosts;
    uint64_t rings = 1;
    bool bounds = true;
    if (m_allNics)
    {
        bounds = in.links > 0 && n > 0;
        rings = bounds ? std::max<uint64_t>(1, 2 * in.links / n) : 1;
    }
    rings *= m_bidir ? 2 : 1;
    const uint64_t transfers = SaturatingMul(SaturatingMul(rings, m_segments),
                                             SaturatingMul(2 * n, n > 0 ? n - 1 : 0));
    PlanSizeBound b{transfers,
                    std::min(SaturatingMul(rings, n), SaturatingMul(n, n > 0 ? n - 1 : 0)),
                    SaturatingMul(2, transfers)};
    b.bounds = bounds;
    return b;
}

} // namespace ns3
