/*
 * RoutedBound: the paths the packet run's queue pairs actually took, as PinnedPaths for the
 * fluid estimator (workloads/fluid-paths.h): per sync QP, its NIC port and lane, then at
 * every switch or relaying host the ECMP member its 5-tuple hashes to, or with source routing
 * the route its UDP source port names (ForwardingTable::Lookup, as PfcSwitch forwards),
 * until the destination host. Messages
 * are framed for the NIC's MTU: each packet adds its headers, ICRC, FCS and the 20 B of
 * preamble and gap (model/roce-frame.h RoceWireBytes). The fluid run on these paths is
 * `bound_gst_s`: ideal <= bound (hashing and framing) <= packet GST (dynamics).
 */
#ifndef PARAMSYNC_ROUTED_BOUND_H
#define PARAMSYNC_ROUTED_BOUND_H

#include "network-builder.h"
#include "roce-sync-transport.h"

#include "ns3/fluid-paths.h"

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

class Topology;

/**
 * \brief Traces the packet run's queue pair paths.
 */
class RoutedBound
{
  public:
    /// \brief Each traced queue pair's directed links, in path order.
    using OrderedPaths = std::map<PinnedPaths::Key, std::vector<uint32_t>>;

    /**
     * \brief The directed links of every sync QP the transport opened (over MPI ranks: those
     * of this rank's hosts; every rank has every forwarding table, so each traces its own).
     * \throws std::runtime_error if a path loops or leaves the network
     */
    static OrderedPaths Trace(const PfcNetwork& net,
                              const Topology& topology,
                              const RoceSyncTransport& transport);
    /// \brief Traced paths (Trace, or every rank's joined) pinned for the fluid estimator,
    /// framed for `mtu`; the transport gives each host pair's QP count.
    static PinnedPaths Pin(const OrderedPaths& ordered,
                           const RoceSyncTransport& transport,
                           uint32_t mtu,
                           bool vlan);

    /**
     * \brief The least time a message of `payload` bytes, cut into `mtu`-byte packets, takes
     * alone on the directed links `path` (in order) of the packet model: a link delivers a
     * frame whole after its serialization and the propagation delay (model/pfc-channel.cc),
     * and a switch or relay forwards a frame only once it has it (store and forward). Let
     * S be the smallest packet of the message (the last, or the only one). Hop j cannot
     * start before some packet crossed hops 0..j-1 (each at least S / c_i + d_i), must then
     * serialize every wire byte W (W / c_j), and the packet it sends last still crosses
     * hops j+1.. (S / c_i + d_i each): the time is at least sum_i d_i + max_j (W / c_j +
     * sum_{i != j} S / c_i). PFC pauses, queueing and retransmissions only add to it.
     */
    static double SoloTime(const TopologyGraph& graph,
                           const std::vector<uint32_t>& path,
                           uint64_t payload,
                           uint32_t mtu,
                           bool vlan);

    /**
     * \brief Least time from a message's arrival at host `dst` to its sender `src` learning
     * it: the acknowledgement crosses at least the fewest links between the two hosts (a
     * breadth-first search), each with at least the smallest link delay of the graph. The
     * returned function keeps one search per receiving host; the graph must outlive it.
     */
    static std::function<double(HostRank src, HostRank dst)> AckTimes(const TopologyGraph& graph);

    /// \brief Wire bytes of a message of `payload` bytes cut into `mtu`-byte packets.
    static double WireBytes(uint64_t payload, uint32_t mtu, bool vlan);
};

} // namespace ns3

#endif // PARAMSYNC_ROUTED_BOUND_H
