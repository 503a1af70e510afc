/*
 * Topology: a family instance (BCube, torus, fat-tree, ...) = its graph + its routing +
 * the structural queries that topology-aware algorithms need. One subclass per family,
 * created by name through MakeTopology (its registry of families lives in topology.cc) from a
 * spec string such as "bcube:n=3,k=1". The families and their options: topologies/README.md.
 */
#ifndef PARAMSYNC_TOPOLOGY_H
#define PARAMSYNC_TOPOLOGY_H

#include "digit-walk.h"
#include "topology-counts.h"
#include "topology-graph.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class ParallelPaths;

/**
 * \brief One egress choice of a routing decision.
 *
 * Lanes keep PFC lossless routing deadlock-free: a packet travels on lane 0 and the
 * routing moves it to a higher lane where its path could otherwise close a cycle of
 * buffer dependencies (e.g. after a torus dateline). helper/ maps lane L to PFC priority
 * dataPriority + L. Families without cycles use lane 0 only.
 */
struct RouteHop
{
    uint32_t port; //!< egress port of the current node
    uint8_t lane;  //!< lane the packet uses on the next link

    /// \brief The same hop.
    bool
    operator==(const RouteHop& o) const
    {
        return port == o.port && lane == o.lane;
    }
};

/**
 * \brief Destinations [first, end) that leave a node by the same equal-cost hops.
 */
struct RouteRun
{
    HostRank first;             //!< first destination of the run
    HostRank end;               //!< one past its last destination
    std::vector<RouteHop> hops; //!< NextHops of every destination in the run, in that order
};

/**
 * \brief A group of hosts that one stage of a hierarchical algorithm works within.
 *
 * HiPS (and 2D ring) run one stage per "dimension": on BCube(n,k) dimension l groups the
 * n servers sharing a level-l switch (all reachable in one switch hop, so an n-way exchange
 * fits); on a torus dimension d groups the servers of one ring along d, in ring order.
 */
struct HostGroup
{
    std::vector<HostRank> members; //!< in ring order where ring == true
    bool ring;                     //!< true: neighbours are adjacent members (wrap-around)
};

/// \brief All groups of one dimension of the hierarchy; each host is in exactly one.
using HostDimension = std::vector<HostGroup>;

/**
 * \brief A topology family instance: graph, routing and structure queries.
 */
class Topology
{
  public:
    virtual ~Topology() = default;

    /// \brief The spec string this instance was built from, canonical form.
    virtual std::string Spec() const = 0;
    /// \brief Family name ("bcube", "torus", ...).
    virtual std::string Family() const = 0;
    /// \brief The graph.
    const TopologyGraph&
    Graph() const
    {
        return m_graph;
    }
    /// \brief Mutable graph (link rate changes for straggler experiments).
    TopologyGraph&
    MutableGraph()
    {
        return m_graph;
    }

    /**
     * \brief Equal-cost next hops at node `at` towards host `dst` for a packet on `lane`.
     * \param at current node (host or switch)
     * \param dst destination host rank, != rank of `at`
     * \param lane lane the packet arrived on (0 at its source)
     * \param out cleared, then filled with one RouteHop per equal-cost egress port
     */
    virtual void NextHops(NodeIndex at,
                          HostRank dst,
                          uint8_t lane,
                          std::vector<RouteHop>& out) const = 0;

    /**
     * \brief NextHops(at, dst, lane) for every destination, as runs of consecutive
     * destinations with the same hops, ascending; a host's own rank and a destination
     * without hops are in no run. What a forwarding table stores (NetworkBuilder fills every
     * node's table from this): the default asks NextHops destination by destination and
     * joins equal neighbours; a family whose routing follows its numbering (fat-tree: by
     * pod and edge switch) gives its O(k) runs directly, so filling the tables of 8,192
     * hosts does not take 8,192^2 calls.
     * \param out cleared, then filled
     */
    virtual void NextHopRuns(NodeIndex at, uint8_t lane, std::vector<RouteRun>& out) const;

    /// \brief Number of lanes the routing may use (1 when deadlock avoidance is off).
    virtual uint8_t
    LaneCount() const
    {
        return 1;
    }

    /**
     * \brief One routed path from src to dst: the links crossed, in order.
     * Picks among ECMP choices by flowHash, as a switch would hash a flow's 5-tuple.
     */
    std::vector<LinkIndex> Path(HostRank src, HostRank dst, uint64_t flowHash) const;

    /**
     * \brief The family's source-routed parallel paths (--routing=source; BCube source
     * routing, torus rotated dimension order: topologies/parallel-paths.h), or nullptr when it
     * has no such structure. The result refers to this topology, which must outlive it.
     */
    virtual std::unique_ptr<ParallelPaths> SourceRoutes() const;

    /// \brief Hierarchy for HiPS-style algorithms; empty if the family has none.
    virtual std::vector<HostDimension>
    Dimensions() const
    {
        return {};
    }

    /// \brief Rank order for a topology-aware ring (Gray code, snake, pod order).
    virtual std::vector<HostRank> RingOrder() const;

    /**
     * \brief Host ranks as mixed-radix digit vectors, radices fastest digit first, where the
     * family's addresses have that structure (BCube(n,k): k+1 digits of radix n, level 0
     * fastest; a torus: its sides, the last dimension fastest); empty otherwise.
     */
    virtual std::vector<uint32_t>
    RankRadices() const
    {
        return {};
    }
    /// \brief The walk over RankRadices() whose consecutive elements are neighbours
    /// (ModGray on BCube: they share a switch; Reflect on a torus: they are cabled).
    virtual DigitWalk
    NeighbourWalk() const
    {
        return DigitWalk::Count;
    }
    /// \brief The rank of a digit vector over RankRadices() (fastest digit first).
    /// \throws std::logic_error when the family has no digit structure
    virtual HostRank RankOfDigits(const std::vector<uint32_t>& digits) const;

    /**
     * \brief Two levels of hosts by leaf switch, for hierarchical rings on switch-centric
     * networks: level 0 = the hosts of one leaf switch, level 1 = the hosts of one slot
     * across all leaf switches, in an order whose consecutive hosts take the cheapest path
     * (fat-tree: edge switches; BiGraph: alternating between the parts). Empty when the
     * family has no such structure.
     */
    virtual std::vector<HostDimension>
    SwitchLevels() const
    {
        return {};
    }

    /// \brief Shape of a two-part network whose every switch of one part is cabled to every
    /// switch of the other (EFLOPS' BiGraph).
    struct BipartiteShape
    {
        uint32_t switchesPerPart; //!< s
        uint32_t hostsPerSwitch;  //!< m
    };
    /// \brief The two-part shape, or nullopt when the family is not such a network.
    virtual std::optional<BipartiteShape>
    Bipartite() const
    {
        return std::nullopt;
    }

  protected:
    /// \brief SwitchLevels() of hosts ranked switch-major, perSwitch under each switch.
    static std::vector<HostDimension> GroupsBySwitch(uint32_t hosts, uint32_t perSwitch);

    TopologyGraph m_graph;
};

/**
 * \brief Builds a Topology from a spec string ("family:key=value,...").
 * \param rateBps default line rate of every link; a family's "rate=" option overrides it
 * \param delayS default one-way delay of every link; a family's "delay=" option overrides it
 * \throws std::invalid_argument naming the spec and what is allowed
 *
 * The families, their options and their host numbering are described in
 * topologies/README.md and in each family's header.
 */
std::unique_ptr<Topology> MakeTopology(const std::string& spec, double rateBps, double delayS);

/// \brief Names of the registered families, in the order MakeTopology lists them.
std::vector<std::string> TopologyFamilies();

} // namespace ns3

#endif // PARAMSYNC_TOPOLOGY_H
