/*
 * NetworkBuilder: turns any Topology into an ns-3 network of paramsync's model — one Node
 * per topology node, a PfcNetDevice per port, a PfcChannel per link (the link's rate and
 * delay), a PfcSwitch on every switch AND on every host with several ports (BCube and torus
 * servers relay through their own ports, buffer and PFC), and a ForwardingTable per node
 * filled from Topology::NextHops for every destination and arrival lane (lane L travels on
 * priority BasePriority + L). Like ns-3's PointToPointHelper it holds ObjectFactories and
 * wires; the NICs are installed by RoceNicInstaller on top of the network.
 *
 * Classes: the data lanes [BasePriority, BasePriority + lanes) are the lossless priorities
 * (PfcSwitch's LosslessPriorities default); the devices' ControlPriority (ACK/NAK/CNP, 7)
 * is served first and never paused. Lanes must not reach it: Build refuses a topology whose
 * lanes would (LaneConflict says why), since lanes that share pause state with the ACKs
 * lose the ordering their deadlock freedom rests on (topologies/README.md).
 *
 * Source routing (ForwardingTable SourceRouted, --routing=source): the tables hold, per
 * destination, the next hop of each route id of the topology's ParallelPaths
 * (topologies/parallel-paths.h) in route-id order, and the lanes are the paths' own; the
 * network keeps the paths (PfcNetwork::sourceRoutes) so that senders pick their route ids.
 */
#ifndef PARAMSYNC_NETWORK_BUILDER_H
#define PARAMSYNC_NETWORK_BUILDER_H

#include "ns3/attribute.h"
#include "ns3/callback.h"
#include "ns3/forwarding-table.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/ptr.h"
#include "ns3/resolved-object-factory.h"
#include "ns3/topology-graph.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class ForwardingTable;
class ParallelPaths;
class PfcChannel;
class PfcSwitch;
class Topology;

/**
 * \brief The ns-3 objects of one built network, indexed like the TopologyGraph.
 */
struct PfcNetwork
{
    NodeContainer nodes;                               //!< by NodeIndex
    std::vector<std::vector<Ptr<PfcNetDevice>>> ports; //!< [node][port]
    std::vector<Ptr<PfcChannel>> channels;             //!< by LinkIndex
    std::vector<Ptr<PfcSwitch>> switches;              //!< by node; null on a single-port host
    std::vector<Ptr<ForwardingTable>> tables;          //!< by node (also aggregated to the node)
    std::vector<uint32_t> hostNode;                    //!< node index of each host rank
    std::vector<std::string> names;                    //!< node names, from the graph
    /// The source-routed paths the tables follow (null: ECMP by hash).
    std::shared_ptr<const ParallelPaths> sourceRoutes;

    /// \brief The ns-3 node of a host rank.
    Ptr<Node> Host(uint32_t rank) const;
    /// \brief The relay switch of a host, or null for a single-port host.
    Ptr<PfcSwitch> HostSwitch(uint32_t rank) const;
    /// \brief The ports of a host, in port order.
    const std::vector<Ptr<PfcNetDevice>>& HostPorts(uint32_t rank) const;
    /// \brief [node][port] -> node index at the other end of the port's link.
    std::vector<std::vector<uint32_t>> PeerNodes() const;
    /**
     * \brief Where frames addressed to a host go: through its relay switch's local
     * delivery on a multi-port host, directly from its device on a single-port host.
     * takesHeaderOnly: `up` reads the header alone (RoceNic::Receive), so header-only frames
     * reach it without a Packet (PfcNetDevice::SetFrameReceiveCallback).
     */
    void SetHostReceive(uint32_t rank,
                        PfcNetDevice::FrameReceiveCallback up,
                        bool takesHeaderOnly = false) const;
    /// \brief The same with a direct sink (the host's RoceNic): PfcNetDevice::SetFrameSink,
    /// PfcSwitch::SetLocalSink. Replaces a SetHostReceive callback, and is replaced by one.
    void SetHostSink(uint32_t rank, PfcFrameSink* sink) const;
};

/**
 * \brief Builds a PfcNetwork from a Topology.
 */
class NetworkBuilder
{
  public:
    NetworkBuilder();

    /**
     * \brief Refills every node's forwarding table from a topology's routing (the same
     * graph, e.g. a DegradedTopology after a link failure, or the original after repair).
     * NICs must then re-route their queue pairs (RoceNic::Reroute).
     */
    static void Reroute(const PfcNetwork& net, const Topology& topology);

    /// \brief Attribute of every PfcNetDevice (DataRate is set per link from the graph).
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every PfcChannel (Delay is set per link from the graph).
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every PfcSwitch (switches and relaying hosts).
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// \brief Attribute of every ForwardingTable (e.g. BasePriority, HashSeed).
    void SetTableAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief ECMP salts: with perNode (default) node v's ForwardingTable gets HashSeed
     * salt + v (overriding a HashSeed table attribute); otherwise the attribute stays.
     */
    void SetHashSalt(uint32_t salt, bool perNode = true);

    /**
     * \brief The ns-3 system id (MPI rank) of each graph node, by NodeIndex
     * (RankPartition); empty (the default): every node in this process, system id 0.
     */
    void SetSystemIds(std::vector<uint32_t> systemIds);

    /**
     * \brief The switch buffer of HPCC's simulator (--preset=hpcc; README "Congestion control
     * presets"): a 4096 B private reserve per lossless queue, headroom of 3 one-way
     * bandwidth-delay products per port, resume 3072 B below XOFF, Alpha (1/8 at the NIC rate)
     * doubled per doubling of a port's rate above the hosts' NIC rate (the first host's first
     * port, as HPCC takes it), and pauses obeyed the moment they arrive (PfcReactionBitTimes 0).
     */
    void SetHpccMmu();
    /**
     * \brief What SetHpccMmu sets on the factories of a network built from g: each
     * attribute's full name (ns3::Type::Name) and its value as ConfigStore's raw text writes
     * it, AlphaReferenceRate at the rate of host 0's first link (none without hosts). The
     * driver records them in ns3-attributes.txt: they are what a --preset=hpcc run ran with.
     */
    static std::vector<std::pair<std::string, std::string>> HpccMmuAttributes(
        const TopologyGraph& g);
    /// \brief The full names of the attributes SetHpccMmu sets.
    static std::vector<std::string> HpccMmuAttributeNames();

    /**
     * \brief The ports a capture list names: comma-separated NODE (every port of the node)
     * or NODE.PORT, NODE a graph node name. A name that is itself a node wins over a split at
     * its last dot ("sw0.0" is switch sw0.0, "sw0.0.3" its port 3). Throws
     * std::invalid_argument naming the entry and what is allowed.
     */
    static std::vector<std::pair<NodeIndex, uint32_t>> PcapPorts(const TopologyGraph& graph,
                                                                 const std::string& list);
    /**
     * \brief Captures each port into dir/NODE-PORT.pcap (PfcNetDevice::EnablePcap: both
     * directions, nanosecond timestamps); makes dir. \return the file paths.
     */
    static std::vector<std::string> EnablePcap(
        const PfcNetwork& net,
        const std::vector<std::pair<NodeIndex, uint32_t>>& ports,
        const std::string& dir);

    /**
     * \brief Builds the network; every node's switch is Initialize()d (config errors early).
     * \throws std::invalid_argument when the topology's lanes reach the control priority
     * (LaneConflict) or the headroom does not fit a buffer.
     */
    PfcNetwork Build(const Topology& topology) const;

    /**
     * \brief Throws what Build would throw, first error first, building only one switch of
     * each kind: the same lane count and, port by port, the same link rate and delay (all a
     * switch's buffer check reads: its factory's attributes, and per port the rate, the delay
     * and the peer device's reaction time at that rate). A fat-tree of 8,192 hosts (one port
     * layout) then builds one switch and its peers, not 9,472 nodes and 57,344 ports.
     * The first switch Build would refuse is the first of its kind in node order, so it is
     * built and refused with the same message. When one switch of each port layout fits with
     * every priority lossless (SwitchesFitEveryLane), no table is filled at all. Nothing is
     * kept: Simulator::Destroy() after.
     * \throws std::invalid_argument as Build
     */
    void CheckBuild(const Topology& topology) const;

    /**
     * \brief Why lanes [base, base + lanes) of a topology cannot be placed next to a control
     * priority (or past priority 7): a sentence naming the priorities and the allowed bases,
     * or "" when they fit.
     */
    static std::string LaneConflict(const Topology& topology,
                                    uint8_t basePriority,
                                    uint8_t controlPriority);
    /// \brief As above for the lanes of source routing (sourceRouted: the topology's
    /// ParallelPaths lanes) or of its ECMP routing; the 3-argument form asks the
    /// ForwardingTable SourceRouted attribute's default.
    static std::string LaneConflict(const Topology& topology,
                                    uint8_t basePriority,
                                    uint8_t controlPriority,
                                    bool sourceRouted);
    /**
     * \brief The topology's source-routed paths, for a network built with SourceRouted.
     * \throws std::invalid_argument naming the topology and the families that have them
     */
    static std::shared_ptr<const ParallelPaths> SourceRoutes(const Topology& topology);

  private:
    /// \brief (Re)fills node v's forwarding table from the topology's NextHops.
    static void FillTable(const PfcNetwork& net, const Topology& topology, NodeIndex v);
    /// \brief Fills node v's table with the next hop of every route id per destination.
    static void FillSourceRoutedTable(const PfcNetwork& net, const TopologyGraph& g, NodeIndex v);
    /**
     * \brief Whether one switch of each port layout (per port the link's rate and delay)
     * passes its buffer check with every priority from BasePriority to 7 lossless (unless
     * LosslessPriorities is set): then every switch of the topology does, whatever its lanes.
     */
    bool SwitchesFitEveryLane(const TopologyGraph& g,
                              const ResolvedObjectFactory& switchFactory) const;
    /// \brief The switch factory, with AlphaReferenceRate at the NIC rate under SetHpccMmu
    /// (the rate of host 0's first link).
    ResolvedObjectFactory SwitchFactory(const TopologyGraph& g) const;

    ResolvedObjectFactory m_device;  //!< PfcNetDevice factory
    ResolvedObjectFactory m_channel; //!< PfcChannel factory
    ResolvedObjectFactory m_switch;  //!< PfcSwitch factory
    ResolvedObjectFactory m_table;   //!< ForwardingTable factory

    bool m_alphaFromNicRate{false};    //!< SetHpccMmu: AlphaReferenceRate = the NIC rate
    uint32_t m_hashSalt{0};            //!< ECMP salt base
    bool m_saltPerNode{true};          //!< each node its own salt
    std::vector<uint32_t> m_systemIds; //!< SetSystemIds
};

} // namespace ns3

#endif // PARAMSYNC_NETWORK_BUILDER_H
