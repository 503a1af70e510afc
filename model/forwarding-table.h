/*
 * Lookup(dst, inLane, srcHost, udpSrcPort) returns the chosen
 * ForwardingRoute {port, lane} or nullptr; a NIC sending its own traffic uses inLane 0 and
 * sends on LanePriority(route->lane) for data (BasePriority attribute, default 3).
 *
 * Destination host -> equal-cost egress (port, lane) set, with ECMP by a hash of the flow
 * 5-tuple (src host, dst host, UDP source port; protocol and dst port are constant for
 * RoCEv2). Used by switches and by multi-port hosts (server-centric BCube/Torus).
 *
 * Lanes (topologies/README.md): the next hop may depend on the lane a packet arrived on;
 * routes are stored per (dst, arrival lane). Lane L travels on PFC priority
 * BasePriority + L.
 *
 * Storage does not grow with the network where the routing does not: equal-cost sets are
 * kept once each (a fat-tree edge switch sends every remote host to the same uplinks), and
 * each arrival lane maps runs of consecutive destinations to one set (a fat-tree node has a
 * handful of runs, however many hosts). A dense destination x route-set array held ~56 B per
 * (node, host): 77 MB of a 1,024-host fat-tree, 4 GB at 8,192 hosts, and a lookup at scale
 * was a cache miss into it. AddRoute stages routes; they are compacted into runs when the
 * table is next read (or by Compact, which the network builder calls once a table is full).
 *
 * Source routing (attribute SourceRouted, --routing=source): the source picks a path by a
 * route index r carried in the UDP source port (port mod R == r, SourceRoutedPort) and every
 * node's set for a destination holds R routes, member r being route r's next hop
 * (topologies/parallel-paths.h); Lookup takes member (udpSrcPort mod set size) instead of the
 * hash, and ignores the arrival lane, which a route's next lane does not depend on (routes
 * are stored for lane 0 only). The sets are as compact as ECMP's: a switch's set mostly
 * repeats one port R times and is kept once, however many destinations share it.
 */
#ifndef PARAMSYNC_FORWARDING_TABLE_H
#define PARAMSYNC_FORWARDING_TABLE_H

#include "network-arena.h"
#include "prefetch-line.h"

#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class PfcNetDevice;

/// \brief One equal-cost next hop.
struct ForwardingRoute
{
    uint32_t port; //!< egress port index (PfcSwitch/RoceNic port order)
    uint8_t lane;  //!< lane on the next link

    /// \brief The same next hop.
    bool
    operator==(const ForwardingRoute& o) const
    {
        return port == o.port && lane == o.lane;
    }

    /// \brief Another next hop.
    bool
    operator!=(const ForwardingRoute& o) const
    {
        return !(*this == o);
    }
};

/// \brief A next hop as Lookup returns it: the route and, in the table of a switch, the
/// device of its port (ForwardingTable::SetPortDevices), null elsewhere. The switch reaches
/// the egress device through the line of routes it reads anyway: an array of its ports'
/// devices cost a line of its own per hop in a network larger than the cache.
struct ForwardingHop : ForwardingRoute
{
    PfcNetDevice* device{nullptr}; //!< the device of `port`, if the table was told
};

/// \brief Per-node forwarding: destination -> ECMP set of (port, lane).
class alignas(64) ForwardingTable : public Object, public NetworkArenaAllocated
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    ForwardingTable();

    /// \brief Removes every route (before refilling after a link failure or repair).
    void Clear();
    /// \brief Add an equal-cost route for packets arriving on lane 0 (or sent from here).
    void AddRoute(uint32_t dstHost, uint32_t port, uint8_t lane);
    /// \brief Add an equal-cost route for packets that arrived on `inLane`.
    void AddRoute(uint32_t dstHost, uint8_t inLane, uint32_t port, uint8_t lane);
    /**
     * \brief Adds equal-cost routes of (dst, inLane) at once, in ECMP order. When dst is
     * above every destination already routed on inLane (a table filled in destination
     * order, as NetworkBuilder does), it extends the lane's runs directly: O(1) per
     * destination, nothing staged; otherwise it adds the routes one by one (AddRoute).
     */
    void AppendRoutes(uint32_t dstHost, uint8_t inLane, const std::vector<ForwardingRoute>& set);
    /// \brief AppendRoutes for every destination of [firstDst, endDst) at once: one run
    /// when the range is above every destination already routed on inLane.
    void AppendRouteRange(uint32_t firstDst,
                          uint32_t endDst,
                          uint8_t inLane,
                          const std::vector<ForwardingRoute>& set);
    /**
     * \brief The route of a flow: ECMP member chosen by the 5-tuple hash.
     * \return nullptr when there is no route.
     */
    const ForwardingHop* Lookup(uint32_t dstHost,
                                uint8_t inLane,
                                uint32_t srcHost,
                                uint16_t udpSrcPort) const;
    /**
     * \brief The devices of the ports of the switch this table serves, by port index: the
     * hops Lookup returns carry them (an empty vector: none). A table serves one switch:
     * aborts when another set of devices was given before.
     */
    void SetPortDevices(const std::vector<PfcNetDevice*>& devices);
    /// \brief Equal-cost routes of (dst, inLane) (empty if none).
    const std::vector<ForwardingRoute>& Routes(uint32_t dstHost, uint8_t inLane = 0) const;
    /// \brief SourceRouted attribute: members picked by the route index in the UDP source port.
    bool
    IsSourceRouted() const
    {
        return m_sourceRouted;
    }
    /**
     * \brief The UDP source port nearest `entropy` (in the block of `routes` ports holding
     * it, or the block below at the top of the port range) whose value mod `routes` is
     * `route`: what a source-routed sender puts in the header to pick route `route`.
     */
    static uint16_t SourceRoutedPort(uint16_t entropy, uint32_t route, uint32_t routes);
    /// \brief The 5-tuple hash (salted by the HashSeed attribute).
    uint32_t FlowHash(uint32_t srcHost, uint32_t dstHost, uint16_t udpSrcPort) const;
    /// \brief Priority of lane L: BasePriority + L.
    uint8_t
    LanePriority(uint8_t lane) const
    {
        return m_basePriority + lane;
    }
    /// \brief BasePriority attribute.
    uint8_t
    GetBasePriority() const
    {
        return m_basePriority;
    }
    /// \brief Lanes seen in routes (1 + highest lane used).
    uint8_t
    GetLaneCount() const
    {
        return m_lanes;
    }

    /// \brief Folds the routes added since the last call into the compact runs and builds
    /// the flat form Lookup reads (a table is compacted when read anyway; calling this once
    /// a table is full bounds the staging memory of a build and places the flat form).
    void Compact() const;
    /// \brief Runs of destinations held over all lanes (how compact the table is).
    std::size_t GetRunCount() const;
    /// \brief Distinct equal-cost sets held, the empty one included.
    std::size_t
    GetSetCount() const
    {
        Fold();
        return m_sets.size();
    }

    /**
     * \brief Prefetch what Lookup of a destination on lane inLane will read, at depth
     * `stage` (model/warmable-event.h): 1 this object's per-lookup line, 2 the lane's runs
     * and the routes (compiled tables only; up to kWarmLines lines of each). Changes nothing.
     *
     * Why all of them: the run Lookup stops at and the route it picks are found only by the
     * search itself. With the lane's first line alone, the warming's lookup a stage later
     * stalled on the hop it read (the 1,024-host permutation), and asking for the runs past
     * the first line as well made the 8,192-host one faster (a fat-tree switch of k ports
     * has k / 2 + 2 runs of 12 bytes and about k routes of 16 bytes: 4-5 and 8 lines at
     * k = 32; bench/README.md, "the route's lines warmed together").
     */
    void
    WarmLookup(int stage, uint8_t inLane) const
    {
        if (stage <= 1)
        {
            PrefetchLine(&m_flatRuns);
        }
        else if (m_compiled && inLane < kMaxLanes)
        {
            const uint8_t lane = m_sourceRouted ? 0 : inLane;
            PrefetchLines(
                m_flatRuns + m_laneRuns[lane], m_flatRuns + m_laneRuns[lane + 1], kWarmLines);
            PrefetchLines(m_flatRoutes, m_flatRoutes + m_flatRouteCount, kWarmLines);
            PrefetchLine(&m_peeked); // PeekRoute writes it a stage later
        }
    }
    /// \brief The address of the line Lookup reads first (WarmLookup's stage 1), for a warming
    /// hint (PortWarmHints): a switch's devices prefetch it without reading the switch.
    const void*
    LookupLine() const
    {
        return &m_flatRuns;
    }
    /**
     * \brief The hop Lookup will return, without reading it, from a compiled table only
     * (nullptr otherwise, or when there is no route): for warming, once WarmLookup's stage 2
     * has had the lane's runs loaded. Changes no route; remembers the hop it found for the
     * Lookup of the same flow that follows (PeekedRoute).
     */
    const ForwardingHop*
    PeekRoute(uint32_t dstHost, uint8_t inLane, uint32_t srcHost, uint16_t udpSrcPort) const
    {
        return m_compiled ? FindAndRemember(dstHost, inLane, srcHost, udpSrcPort) : nullptr;
    }
    /// \brief HashSeed attribute (a new salt forgets the peeked route).
    void SetHashSeed(uint32_t seed);
    /// \brief HashSeed attribute.
    uint32_t
    GetHashSeed() const
    {
        return m_hashSeed;
    }
    /// \brief SourceRouted attribute (a change forgets the peeked route).
    void SetSourceRouted(bool sourceRouted);

  private:
    static constexpr uint8_t kMaxLanes = 8; //!< lanes map to the 8 priorities
    /// Lines of the runs and of the routes WarmLookup asks for, at most: a fat-tree switch's
    /// up to k = 32 (a larger table's search reads a few of its lines only).
    static constexpr unsigned kWarmLines = 8;
    /// \brief Compiled run: destinations [start, next run's start) route by the `size`
    /// routes at m_flatRoutes[offset] (size 0: no route).
    struct FlatRun
    {
        uint32_t start;  //!< first destination of the run
        uint32_t offset; //!< first route of the run's set in m_flatRoutes
        uint32_t size;   //!< routes in the set
    };

    // What Lookup reads of the object, first and together in one cache line (the class is
    // 64-byte aligned; Object's fields fill the lines before). A packet-hop at 1,024 hosts
    // is bound by memory latency, and the staged form below cost Lookup about five lines
    // (object, lane's run vector, runs, set vector, set's routes), each a miss when 320
    // switches' tables outgrow the cache; the compiled form costs three: this line, the
    // lane's runs and the set's routes (model/pfc-switch.h does the same for the relay).
    alignas(64) mutable const FlatRun* m_flatRuns{nullptr}; //!< every lane's runs, lane after lane
    mutable const ForwardingHop* m_flatRoutes{nullptr};     //!< every set's routes, set after set
    /// Lane L's runs are m_flatRuns[m_laneRuns[L], m_laneRuns[L + 1]): at least one each,
    /// the first starting at destination 0.
    mutable std::array<uint32_t, kMaxLanes + 1> m_laneRuns{};
    mutable uint32_t m_flatRouteCount{0}; //!< routes at m_flatRoutes (WarmLookup)
    uint32_t m_hashSeed{0};               //!< per-node salt against polarization
    uint8_t m_basePriority{0};            //!< priority of lane 0
    uint8_t m_lanes{1};                   //!< lanes used
    bool m_sourceRouted{false};           //!< members by route index, not by hash
    mutable bool m_compiled{false};       //!< the flat form matches the runs and sets

    /**
     * The hop PeekRoute found last and the flow it found it for; Lookup of that flow returns
     * it without searching. Why: with warming on (RadixHeapScheduler::WarmAhead), a switch
     * arrival's last stage finds the route to warm the egress device
     * (PfcSwitch::WarmRelayReceive) a removal or two before RelayReceive looks the same
     * route up again: the search twice, ~84 instructions each at 1,024 hosts (the lane's
     * runs scanned, the 5-tuple hashed; bench/README.md, "the route found once"). Valid
     * while the flat form it points into is: Compile forgets it, and so do the setters of
     * the attributes FindRoute reads (the salt, source routing); a frame's flow is its whole
     * key, so a hit is FindRoute's own answer. The second line of the table's hot part: the
     * warming's lookup writes it (WarmLookup's stage 2 has it loaded), the relay's reads it.
     */
    struct PeekedRoute
    {
        const ForwardingHop* hop{nullptr}; //!< null: nothing remembered
        uint32_t dstHost{0};               //!< the flow's destination
        uint32_t srcHost{0};               //!< its source
        uint16_t udpSrcPort{0};            //!< its UDP source port
        uint8_t inLane{0};                 //!< the lane it arrived on
    };
    alignas(64) mutable PeekedRoute m_peeked; //!< the route PeekRoute found last

    /// \brief A route added and not yet compacted.
    struct Staged
    {
        uint32_t dst;          //!< destination host
        uint8_t inLane;        //!< arrival lane
        ForwardingRoute route; //!< the route
    };
    /// \brief Destinations [start, next run's start) use equal-cost set `set`.
    struct Run
    {
        uint32_t start; //!< first destination of the run
        uint32_t set;   //!< index into m_sets (0: no route)
    };
    /// \brief Lookup on the compiled form (m_compiled must hold).
    const ForwardingHop* FindRoute(uint32_t dstHost,
                                   uint8_t inLane,
                                   uint32_t srcHost,
                                   uint16_t udpSrcPort) const;
    /// \brief FindRoute, remembered in m_peeked. Out of line, so that the warming that
    /// calls PeekRoute keeps the flow's fields in no register past the call: kept there,
    /// they cost WarmReceiveOf<PfcSwitch> four more saved registers at each of its calls,
    /// 22 instructions a packet-hop at 1,024 hosts.
    const ForwardingHop* FindAndRemember(uint32_t dstHost,
                                         uint8_t inLane,
                                         uint32_t srcHost,
                                         uint16_t udpSrcPort) const;
    /// \brief Turns the compact runs back into staged routes (a route added after a read).
    void Expand();
    /// \brief Folds the staged routes into the runs (Compact without building the flat form).
    void Fold() const;
    /// \brief Folds, then builds the flat form Lookup reads from the runs and sets.
    void Compile() const;
    /// \brief The index of an equal-cost set in m_sets, added if new.
    uint32_t SetIndex(const std::vector<ForwardingRoute>& set) const;
    /// \brief The equal-cost set of (dst, inLane); set 0 (empty) when there is none.
    const std::vector<ForwardingRoute>& SetOf(uint32_t dstHost, uint8_t inLane) const;

    /// Staged routes, in the order added (the order of an ECMP set is its members' order).
    mutable std::vector<Staged> m_staged;
    /// Distinct equal-cost sets; set 0 is empty.
    mutable std::vector<std::vector<ForwardingRoute>> m_sets{1};
    /// \brief Strict order of equal-cost sets (members in order).
    struct SetLess
    {
        /// \brief Whether a sorts before b.
        bool operator()(const std::vector<ForwardingRoute>& a,
                        const std::vector<ForwardingRoute>& b) const;
    };
    /// Index of m_sets, so that each distinct set is kept once.
    mutable std::map<std::vector<ForwardingRoute>, uint32_t, SetLess> m_setIndex;
    /// Per arrival lane: runs sorted by start, the last one open-ended with set 0.
    mutable std::array<std::vector<Run>, kMaxLanes> m_runs;
    /// Storage of m_flatRuns: per lane a copy of m_runs with each set index replaced by
    /// where the set's routes sit in m_flatRouteStore.
    mutable ArenaVector<FlatRun> m_flatRunStore;
    /// Storage of m_flatRoutes: m_sets one after another.
    mutable ArenaVector<ForwardingHop> m_flatRouteStore;
    /// The devices of the switch's ports (SetPortDevices), copied into the hops.
    std::vector<PfcNetDevice*> m_portDevices;
};

} // namespace ns3

#endif // PARAMSYNC_FORWARDING_TABLE_H
