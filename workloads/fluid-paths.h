/*
 * FluidPaths: how a fluid run (FluidEstimator) carries a transfer between two hosts: over
 * how many queue pairs it is striped, which directed links each queue pair uses and with
 * what share, and how many bytes a message puts on the wire.
 *
 *  - EcmpSplitPaths, the ideal: one queue pair per host pair whose traffic splits evenly
 * over every equal-cost next hop at every node (Topology::NextHops), payload at line rate.
 * The packet run stripes a transfer over one QP per equal-cost first hop in equal parts
 * (workloads/sync-job.cc), so its QPs to one peer hold the same messages in the same order:
 * as a whole they are one FIFO, which the ideal serves at the perfect split.
 *  - PinnedPaths, the routed bound: the QPs the packet run opens and the one path each of
 * them takes (the ECMP member its 5-tuple hashes to at every node), with each message
 * framed into packets.
 */
#ifndef PARAMSYNC_FLUID_PATHS_H
#define PARAMSYNC_FLUID_PATHS_H

#include "ns3/topology-graph.h"
#include "ns3/topology.h"

#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class Topology;

/// \brief A queue pair's use of one directed link (FluidResult::DirectedIndex).
struct FluidLinkUse
{
    uint32_t link;   //!< directed link index
    double fraction; //!< share of the QP's traffic on it, in (0, 1]
};

/**
 * \brief Where a fluid run sends the messages of a transfer.
 */
class FluidPaths
{
  public:
    virtual ~FluidPaths() = default;
    /// \brief Queue pairs a transfer from src to dst is striped over, in equal parts
    /// (the first `bytes mod n` one byte longer, as SyncJob::Post does); >= 1.
    virtual uint32_t QueuePairs(HostRank src, HostRank dst) const = 0;
    /**
     * \brief The directed links queue pair `qp` of (src, dst) uses, sorted by link.
     * \throws std::runtime_error naming the pair if there is no route or it loops
     */
    virtual std::vector<FluidLinkUse> Uses(HostRank src, HostRank dst, uint32_t qp) const = 0;
    /// \brief Bytes a message of `payload` bytes occupies on every link it crosses.
    virtual double WireBytes(uint64_t payload) const = 0;
};

/**
 * \brief The ideal: one FIFO per host pair, perfect ECMP split, payload at line rate.
 */
class EcmpSplitPaths : public FluidPaths
{
  public:
    /// \brief Paths on the topology's routing (the topology must outlive this).
    explicit EcmpSplitPaths(const Topology& topology);

    uint32_t QueuePairs(HostRank src, HostRank dst) const override;
    std::vector<FluidLinkUse> Uses(HostRank src, HostRank dst, uint32_t qp) const override;
    double WireBytes(uint64_t payload) const override;

  private:
    static constexpr uint32_t kNoState = ~0u;

    /// \brief A routing state (node, lane) reached from the source.
    struct State
    {
        NodeIndex node;
        uint8_t lane;
        uint32_t hopsBegin; //!< its next hops in Scratch::allHops
        uint32_t hopsEnd;
        uint8_t color;     //!< 0 new, 1 on the depth-first stack, 2 done
        double weight;     //!< share of the traffic reaching it
        uint32_t sameNode; //!< next state of the same node (other lane) or kNoState
    };

    /// \brief Working arrays of Uses, kept between calls (no allocation per host pair).
    struct Scratch
    {
        uint32_t stamp{0};
        std::vector<uint32_t> nodeStamp; //!< per node: call that set nodeFirst
        std::vector<uint32_t> nodeFirst; //!< per node: its latest state
        std::vector<uint32_t> linkStamp; //!< per directed link: call that set linkShare
        std::vector<double> linkShare;   //!< per directed link: share of the traffic
        std::vector<uint32_t> links;     //!< directed links used in this call
        std::vector<State> states;
        std::vector<RouteHop> hops;
        std::vector<RouteHop> allHops;
        std::vector<uint32_t> hopState; //!< per entry of allHops: the state it leads to
        std::vector<uint32_t> postOrder;
        std::vector<std::pair<uint32_t, uint32_t>> stack; //!< state, next hop to explore
    };

    /// \brief Sizes the scratch for the topology and starts a new call (stamp).
    void ResetScratch() const;
    /// \brief The state (node, lane) of this call, created if new.
    uint32_t StateOf(NodeIndex node, uint8_t lane) const;
    /// \brief The per-link shares of a unit of traffic from state (node, lane) to dst, sorted
    /// by link (`src` names the route in errors).
    std::vector<FluidLinkUse> Split(HostRank src, NodeIndex node, uint8_t lane, HostRank dst) const;
    /// \brief Depth-first search of the states reachable from (start, lane) towards dst
    /// (postOrder).
    void ExploreStates(HostRank src, NodeIndex start, uint8_t lane, HostRank dst) const;
    /// \brief Pushes the unit of traffic through the DAG into the per-link shares.
    void PushShares() const;

    /// \brief Most link uses kept in m_splitFrom (16 B each: 64 MB).
    static constexpr size_t kSplitCacheEntries = size_t{1} << 22;

    const Topology& m_topology;
    mutable Scratch m_scratch; //!< not thread safe: one fluid run at a time per instance
    /// \brief Split from the state (node << 40 | lane << 32 | dst) a source's only next
    /// hop leads to (see Uses); emptied when it would hold more than kSplitCacheEntries.
    mutable std::unordered_map<uint64_t, std::vector<FluidLinkUse>> m_splitFrom;
    mutable size_t m_splitFromEntries{0};
};

/**
 * \brief The routed bound: given QPs, one path each, framed messages.
 */
class PinnedPaths : public FluidPaths
{
  public:
    /// \brief Key of a queue pair: (source host, destination host, QP index).
    using Key = std::tuple<HostRank, HostRank, uint32_t>;

    /**
     * \param queuePairs QPs per (src, dst) pair (one per equal-cost first hop)
     * \param wireBytes wire bytes of a message of the given payload (framing)
     */
    PinnedPaths(std::function<uint32_t(HostRank, HostRank)> queuePairs,
                std::function<double(uint64_t)> wireBytes);

    /// \brief Pins the path of a QP: its directed links in order.
    void Pin(const Key& qp, std::vector<uint32_t> directedLinks);
    /// \brief QPs pinned so far.
    size_t
    Size() const
    {
        return m_paths.size();
    }

    uint32_t QueuePairs(HostRank src, HostRank dst) const override;
    /// \throws std::runtime_error if the QP was never pinned
    std::vector<FluidLinkUse> Uses(HostRank src, HostRank dst, uint32_t qp) const override;
    double WireBytes(uint64_t payload) const override;

  private:
    std::function<uint32_t(HostRank, HostRank)> m_queuePairs;
    std::function<double(uint64_t)> m_wireBytes;
    std::map<Key, std::vector<uint32_t>> m_paths;
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_PATHS_H
