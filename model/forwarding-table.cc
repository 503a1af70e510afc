#include "forwarding-table.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ForwardingTable);

TypeId
ForwardingTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ForwardingTable")
            .SetParent<Object>()
            .SetGroupName("Paramsync")
            .AddConstructor<ForwardingTable>()
            .AddAttribute(
                "HashSeed",
                "Salt of the ECMP 5-tuple hash (give each node its own to avoid "
                "hash polarization).",
                UintegerValue(0),
                MakeUintegerAccessor(&ForwardingTable::SetHashSeed, &ForwardingTable::GetHashSeed),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("BasePriority",
                          "PFC priority of lane 0; lane L uses BasePriority + L.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&ForwardingTable::m_basePriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("SourceRouted",
                          "Source routing: a route's member is the route index the "
                          "sender put in the UDP source port (port mod the set's size), "
                          "not the 5-tuple hash, whatever the arrival lane (false: ECMP).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ForwardingTable::SetSourceRouted,
                                              &ForwardingTable::IsSourceRouted),
                          MakeBooleanChecker());
    return tid;
}

ForwardingTable::ForwardingTable() = default;

void
ForwardingTable::SetHashSeed(uint32_t seed)
{
    m_hashSeed = seed;
    m_peeked = PeekedRoute{};
}

void
ForwardingTable::SetSourceRouted(bool sourceRouted)
{
    m_sourceRouted = sourceRouted;
    m_peeked = PeekedRoute{};
}

void
ForwardingTable::Clear()
{
    // The lane count stays: frames already in flight on a higher lane keep being lanes.
    m_compiled = false;
    m_staged.clear();
    m_sets.assign(1, {});
    m_setIndex.clear();
    for (auto& runs : m_runs)
    {
        runs.clear();
    }
}

void
ForwardingTable::AddRoute(uint32_t dstHost, uint32_t port, uint8_t lane)
{
    AddRoute(dstHost, 0, port, lane);
}

void
ForwardingTable::AddRoute(uint32_t dstHost, uint8_t inLane, uint32_t port, uint8_t lane)
{
    NS_ABORT_MSG_IF(inLane >= kMaxLanes || lane >= kMaxLanes,
                    "ForwardingTable: lane " << int(inLane) << "/" << int(lane) << " >= 8");
    if (m_staged.empty())
    {
        Expand();
    }
    m_staged.push_back({dstHost, inLane, {port, lane}});
    m_compiled = false;
    uint8_t used = static_cast<uint8_t>((inLane > lane ? inLane : lane) + 1);
    m_lanes = used > m_lanes ? used : m_lanes;
}

void
ForwardingTable::Expand()
{
    std::vector<Staged> staged;
    for (uint8_t lane = 0; lane < kMaxLanes; ++lane)
    {
        const std::vector<Run>& runs = m_runs[lane];
        // The last run is open-ended and empty: every run before it has an end.
        for (std::size_t i = 0; i + 1 < runs.size(); ++i)
        {
            for (uint32_t dst = runs[i].start; dst < runs[i + 1].start; ++dst)
            {
                for (const ForwardingRoute& r : m_sets[runs[i].set])
                {
                    staged.push_back({dst, lane, r});
                }
            }
        }
    }
    Clear();
    m_staged = std::move(staged);
}

bool
ForwardingTable::SetLess::operator()(const std::vector<ForwardingRoute>& a,
                                     const std::vector<ForwardingRoute>& b) const
{
    return std::lexicographical_compare(a.begin(),
                                        a.end(),
                                        b.begin(),
                                        b.end(),
                                        [](const ForwardingRoute& x, const ForwardingRoute& y) {
                                            return x.port != y.port ? x.port < y.port
                                                                    : x.lane < y.lane;
                                        });
}

uint32_t
ForwardingTable::SetIndex(const std::vector<ForwardingRoute>& set) const
{
    auto found = m_setIndex.find(set);
    if (found == m_setIndex.end())
    {
        found = m_setIndex.emplace(set, static_cast<uint32_t>(m_sets.size())).first;
        m_sets.push_back(set);
    }
    return found->second;
}

void
ForwardingTable::AppendRoutes(uint32_t dstHost,
                              uint8_t inLane,
                              const std::vector<ForwardingRoute>& set)
{
    AppendRouteRange(dstHost, dstHost + 1, inLane, set);
}

void
ForwardingTable::AppendRouteRange(uint32_t firstDst,
                                  uint32_t endDst,
                                  uint8_t inLane,
                                  const std::vector<ForwardingRoute>& set)
{
    if (firstDst >= endDst)
    {
        return;
    }
    Fold(); // routes added one by one come first
    std::vector<Run>& runs = inLane < kMaxLanes ? m_runs[inLane] : m_runs[0];
    if (set.empty() || inLane >= kMaxLanes || (!runs.empty() && firstDst < runs.back().start))
    {
        for (uint32_t dst = firstDst; dst < endDst; ++dst)
        {
            for (const ForwardingRoute& r : set)
            {
                AddRoute(dst, inLane, r.port, r.lane); // checks the lanes
            }
        }
        return;
    }
    for (const ForwardingRoute& r : set)
    {
        NS_ABORT_MSG_IF(r.lane >= kMaxLanes, "ForwardingTable: lane " << int(r.lane) << " >= 8");
        uint8_t used = static_cast<uint8_t>((inLane > r.lane ? inLane : r.lane) + 1);
        m_lanes = used > m_lanes ? used : m_lanes;
    }
    // The previous destination's set first: neighbours mostly share theirs.
    const uint32_t id = runs.size() >= 2 && m_sets[runs[runs.size() - 2].set] == set
                            ? runs[runs.size() - 2].set
                            : SetIndex(set);
    m_compiled = false;
    if (!runs.empty() && runs.back().start == firstDst)
    {
        runs.pop_back(); // the open-ended empty run began at this destination
    }
    if (runs.empty() || runs.back().set != id)
    {
        runs.push_back({firstDst, id});
    }
    runs.push_back({endDst, 0});
}

void
ForwardingTable::Compact() const
{
    // Compiled here, where the network builder finishes a table, rather than at the first
    // lookup: the flat arrays are allocated with the rest of the build, not among the
    // frames and queues of a running simulation.
    if (!m_compiled)
    {
        Compile();
    }
}

void
ForwardingTable::Fold() const
{
    if (m_staged.empty())
    {
        return;
    }
    m_compiled = false;
    // Routes are staged only after Expand emptied the runs: they are rebuilt from scratch.
    // By lane, then destination; stable, so each set keeps the order its routes were added.
    const auto byLaneThenDst = [](const Staged& a, const Staged& b) {
        return a.inLane != b.inLane ? a.inLane < b.inLane : a.dst < b.dst;
    };
    if (!std::is_sorted(m_staged.begin(), m_staged.end(), byLaneThenDst))
    {
        std::stable_sort(m_staged.begin(), m_staged.end(), byLaneThenDst);
    }
    std::vector<ForwardingRoute> set;
    uint32_t next = 0; // the first destination of the lane not covered yet
    uint32_t id = 0;   // the set of the previous destination
    for (std::size_t i = 0; i < m_staged.size();)
    {
        const uint8_t lane = m_staged[i].inLane;
        const uint32_t dst = m_staged[i].dst;
        set.clear();
        for (; i < m_staged.size() && m_staged[i].inLane == lane && m_staged[i].dst == dst; ++i)
        {
            set.push_back(m_staged[i].route);
        }
        // Neighbouring destinations mostly share their set: look it up only when it changes.
        if (set != m_sets[id])
        {
            id = SetIndex(set);
        }
        std::vector<Run>& runs = m_runs[lane];
        if (runs.empty())
        {
            next = dst;
        }
        if (dst > next && runs.back().set != 0)
        {
            runs.push_back({next, 0}); // destinations without a route in between
        }
        if (runs.empty() || runs.back().set != id)
        {
            runs.push_back({dst, id});
        }
        next = dst + 1;
        const bool laneEnds = i == m_staged.size() || m_staged[i].inLane != lane;
        if (laneEnds)
        {
            runs.push_back({next, 0}); // open-ended: no route past the last destination
        }
    }
    m_staged.clear();
    m_staged.shrink_to_fit();
}

void
ForwardingTable::Compile() const
{
    Fold();
    m_flatRouteStore.clear();
    std::vector<uint32_t> setOffset;
    setOffset.reserve(m_sets.size());
    for (const std::vector<ForwardingRoute>& set : m_sets)
    {
        setOffset.push_back(static_cast<uint32_t>(m_flatRouteStore.size()));
        for (const ForwardingRoute& route : set)
        {
            ForwardingHop hop{route};
            hop.device = route.port < m_portDevices.size() ? m_portDevices[route.port] : nullptr;
            m_flatRouteStore.push_back(hop);
        }
    }
    m_flatRunStore.clear();
    for (uint8_t lane = 0; lane < kMaxLanes; ++lane)
    {
        m_laneRuns[lane] = static_cast<uint32_t>(m_flatRunStore.size());
        const std::vector<Run>& runs = m_runs[lane];
        if (runs.empty() || runs.front().start > 0)
        {
            m_flatRunStore.push_back({0, 0, 0}); // no route below the first run
        }
        for (const Run& run : runs)
        {
            m_flatRunStore.push_back(
                {run.start, setOffset[run.set], static_cast<uint32_t>(m_sets[run.set].size())});
        }
    }
    m_laneRuns[kMaxLanes] = static_cast<uint32_t>(m_flatRunStore.size());
    m_flatRuns = m_flatRunStore.data();
    m_flatRoutes = m_flatRouteStore.data();
    m_flatRouteCount = static_cast<uint32_t>(m_flatRouteStore.size());
    m_peeked = PeekedRoute{}; // it pointed into the old flat form
    m_compiled = true;
}

std::size_t
ForwardingTable::GetRunCount() const
{
    Fold();
    std::size_t n = 0;
    for (const auto& runs : m_runs)
    {
        n += runs.size();
    }
    return n;
}

const std::vector<ForwardingRoute>&
ForwardingTable::SetOf(uint32_t dstHost, uint8_t inLane) const
{
    if (!m_staged.empty())
    {
        Fold();
    }
    const std::vector<Run>& runs = m_runs[inLane];
    // The run holding dstHost: the last one starting at or before it (a few per node).
    auto after = std::upper_bound(runs.begin(),
                                  runs.end(),
                                  dstHost,
                                  [](uint32_t dst, const Run& r) { return dst < r.start; });
    return after == runs.begin() ? m_sets[0] : m_sets[std::prev(after)->set];
}

const std::vector<ForwardingRoute>&
ForwardingTable::Routes(uint32_t dstHost, uint8_t inLane) const
{
    return inLane < kMaxLanes ? SetOf(dstHost, inLane) : m_sets[0];
}

uint32_t
ForwardingTable::FlowHash(uint32_t srcHost, uint32_t dstHost, uint16_t udpSrcPort) const
{
    // 64-bit mix (SplitMix64 finalizer) of the tuple; protocol (UDP) and dst port (4791) are
    // the same for every RoCEv2 flow.
    uint64_t x = (uint64_t(srcHost) << 40) ^ (uint64_t(dstHost) << 16) ^ udpSrcPort ^
                 (uint64_t(m_hashSeed) * 0x9e3779b97f4a7c15ull);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return static_cast<uint32_t>(x);
}

uint16_t
ForwardingTable::SourceRoutedPort(uint16_t entropy, uint32_t route, uint32_t routes)
{
    NS_ABORT_MSG_IF(routes == 0 || route >= routes,
                    "ForwardingTable: route " << route << " of " << routes);
    uint32_t port = entropy - entropy % routes + route;
    if (port > 0xFFFF)
    {
        port -= routes; // the top block is cut short by the end of the port range
    }
    return static_cast<uint16_t>(port);
}

void
ForwardingTable::SetPortDevices(const std::vector<PfcNetDevice*>& devices)
{
    NS_ABORT_MSG_IF(!m_portDevices.empty() && !devices.empty() && devices != m_portDevices,
                    "ForwardingTable: the ports of a second switch (a table serves one switch)");
    m_portDevices = devices;
    m_compiled = false; // the hops carry the devices from the next compilation
}

const ForwardingHop*
ForwardingTable::Lookup(uint32_t dstHost,
                        uint8_t inLane,
                        uint32_t srcHost,
                        uint16_t udpSrcPort) const
{
    if (!m_compiled)
    {
        Compile();
    }
    if (m_peeked.hop != nullptr && m_peeked.dstHost == dstHost && m_peeked.srcHost == srcHost &&
        m_peeked.udpSrcPort == udpSrcPort && m_peeked.inLane == inLane)
    {
        return m_peeked.hop; // the warming found it (PeekedRoute)
    }
    return FindRoute(dstHost, inLane, srcHost, udpSrcPort);
}

const ForwardingHop*
ForwardingTable::FindAndRemember(uint32_t dstHost,
                                 uint8_t inLane,
                                 uint32_t srcHost,
                                 uint16_t udpSrcPort) const
{
    const ForwardingHop* hop = FindRoute(dstHost, inLane, srcHost, udpSrcPort);
    m_peeked = PeekedRoute{hop, dstHost, srcHost, udpSrcPort, inLane};
    return hop;
}

const ForwardingHop*
ForwardingTable::FindRoute(uint32_t dstHost,
                           uint8_t inLane,
                           uint32_t srcHost,
                           uint16_t udpSrcPort) const
{
    // Source routing ignores the arrival lane (routes are stored for lane 0 only).
    const uint8_t lane = m_sourceRouted ? 0 : inLane;
    if (lane >= kMaxLanes)
    {
        return nullptr;
    }
    const FlatRun* first = m_flatRuns + m_laneRuns[lane];
    const FlatRun* end = m_flatRuns + m_laneRuns[lane + 1];
    // The run holding dstHost: the last one starting at or before it (the first starts at 0).
    // A fat-tree node has a handful of runs, within a line or two: a forward scan reads them
    // in order, where a binary search jumps between them; past a few lines it halves.
    constexpr std::ptrdiff_t kScanRuns = 16;
    const FlatRun* run = first;
    if (end - first <= kScanRuns)
    {
        while (run + 1 < end && run[1].start <= dstHost)
        {
            ++run;
        }
    }
    else
    {
        run = std::prev(std::upper_bound(
            first + 1, end, dstHost, [](uint32_t dst, const FlatRun& r) { return dst < r.start; }));
    }
    const uint32_t size = run->size;
    if (size == 0)
    {
        return nullptr;
    }
    const ForwardingHop* routes = m_flatRoutes + run->offset;
    if (m_sourceRouted)
    {
        return &routes[udpSrcPort % size];
    }
    if (size == 1)
    {
        return routes;
    }
    return &routes[FlowHash(srcHost, dstHost, udpSrcPort) % size];
}

} // namespace ns3
