#include "network-builder.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/forwarding-table.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/parallel-paths.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-switch.h"
#include "ns3/spec-string.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace ns3
{

Ptr<Node>
PfcNetwork::Host(uint32_t rank) const
{
    return nodes.Get(hostNode.at(rank));
}

Ptr<PfcSwitch>
PfcNetwork::HostSwitch(uint32_t rank) const
{
    return switches.at(hostNode.at(rank));
}

const std::vector<Ptr<PfcNetDevice>>&
PfcNetwork::HostPorts(uint32_t rank) const
{
    return ports.at(hostNode.at(rank));
}

std::vector<std::vector<uint32_t>>
PfcNetwork::PeerNodes() const
{
    // Node ids are NodeList's, dense from this network's first node: a vector, not a map (at
    // 8,192 hosts, 49,152 lookups).
    uint32_t idEnd = 0;
    for (uint32_t v = 0; v < nodes.GetN(); ++v)
    {
        idEnd = std::max(idEnd, nodes.Get(v)->GetId() + 1);
    }
    constexpr uint32_t kNotInNetwork = UINT32_MAX;
    std::vector<uint32_t> indexOfNodeId(idEnd, kNotInNetwork);
    for (uint32_t v = 0; v < nodes.GetN(); ++v)
    {
        indexOfNodeId[nodes.Get(v)->GetId()] = v;
    }
    std::vector<std::vector<uint32_t>> peers(ports.size());
    for (uint32_t v = 0; v < ports.size(); ++v)
    {
        peers[v].reserve(ports[v].size());
        for (const Ptr<PfcNetDevice>& dev : ports[v])
        {
            Ptr<PfcChannel> ch = dev->GetPfcChannel();
            Ptr<PfcNetDevice> other = ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1)
                                                                 : ch->GetPfcDevice(0);
            const uint32_t peer = indexOfNodeId.at(other->GetNode()->GetId());
            if (peer == kNotInNetwork)
            {
                throw std::out_of_range("PfcNetwork::PeerNodes: a link leaves the network");
            }
            peers[v].push_back(peer);
        }
    }
    return peers;
}

void
PfcNetwork::SetHostReceive(uint32_t rank,
                           PfcNetDevice::FrameReceiveCallback up,
                           bool takesHeaderOnly) const
{
    Ptr<PfcSwitch> relay = HostSwitch(rank);
    if (relay)
    {
        relay->SetLocalDelivery(rank, up, takesHeaderOnly);
    }
    else
    {
        for (const auto& dev : HostPorts(rank))
        {
            dev->SetFrameReceiveCallback(up, takesHeaderOnly);
        }
    }
}

void
PfcNetwork::SetHostSink(uint32_t rank, PfcFrameSink* sink) const
{
    Ptr<PfcSwitch> relay = HostSwitch(rank);
    if (relay)
    {
        relay->SetLocalSink(rank, sink);
    }
    else
    {
        for (const auto& dev : HostPorts(rank))
        {
            dev->SetFrameSink(sink);
        }
    }
}

NetworkBuilder::NetworkBuilder()
    : m_device("ns3::PfcNetDevice"),
      m_channel("ns3::PfcChannel"),
      m_switch("ns3::PfcSwitch"),
      m_table("ns3::ForwardingTable")
{
}

void
NetworkBuilder::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_device.Set(name, value);
}

void
NetworkBuilder::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channel.Set(name, value);
}

void
NetworkBuilder::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
NetworkBuilder::SetSystemIds(std::vector<uint32_t> systemIds)
{
    m_systemIds = std::move(systemIds);
}

void
NetworkBuilder::SetHashSalt(uint32_t salt, bool perNode)
{
    m_hashSalt = salt;
    m_saltPerNode = perNode;
}

void
NetworkBuilder::SetTableAttribute(const std::string& name, const AttributeValue& value)
{
    m_table.Set(name, value);
}

void
NetworkBuilder::FillTable(const PfcNetwork& net, const Topology& topology, NodeIndex v)
{
    const TopologyGraph& g = topology.Graph();
    if (net.sourceRoutes)
    {
        FillSourceRoutedTable(net, g, v);
        return;
    }
    const TopologyNode& node = g.Node(v);
    Ptr<ForwardingTable> table = net.tables.at(v);
    table->Clear();
    std::vector<RouteRun> runs;
    std::vector<ForwardingRoute> set;
    // A host only originates (lane 0) unless it relays; a relay may see any lane, including
    // lanes a previous routing used (frames still in flight on them after a re-route).
    const uint8_t lanes = std::max(topology.LaneCount(), table->GetLaneCount());
    const uint8_t inLanes = (node.isHost && g.Ports(v).size() < 2) ? 1 : lanes;
    for (uint8_t lane = 0; lane < inLanes; ++lane)
    {
        const uint8_t asked = std::min<uint8_t>(lane, topology.LaneCount() - 1);
        topology.NextHopRuns(v, asked, runs);
        for (const RouteRun& run : runs)
        {
            set.clear();
            for (const RouteHop& hop : run.hops)
            {
                set.push_back({hop.port, hop.lane});
            }
            // Destinations ascend: the table extends its runs without staging the routes.
            table->AppendRouteRange(run.first, run.end, lane, set);
        }
    }
    table->Compact(); // before the next node's table: one node's routes staged at a time
}

void
NetworkBuilder::FillSourceRoutedTable(const PfcNetwork& net, const TopologyGraph& g, NodeIndex v)
{
    const TopologyNode& node = g.Node(v);
    Ptr<ForwardingTable> table = net.tables.at(v);
    table->Clear();
    const ParallelPaths& paths = *net.sourceRoutes;
    std::vector<ForwardingRoute> set(paths.RouteCount());
    for (HostRank dst = 0; dst < g.HostCount(); ++dst)
    {
        if (node.isHost && node.rank == dst)
        {
            continue;
        }
        for (uint32_t r = 0; r < set.size(); ++r)
        {
            const RouteHop hop = paths.Hop(v, dst, r);
            set[r] = {hop.port, hop.lane};
        }
        // Lane 0 only: a source-routed table ignores the arrival lane.
        table->AppendRoutes(dst, 0, set);
    }
    table->Compact();
}

std::shared_ptr<const ParallelPaths>
NetworkBuilder::SourceRoutes(const Topology& topology)
{
    std::shared_ptr<const ParallelPaths> paths = topology.SourceRoutes();
    if (!paths)
    {
        throw std::invalid_argument(
            topology.Spec() + " (" + topology.Family() +
            ") has no source-routed parallel paths; allowed: a bcube (BCube source routing) "
            "or torus (rotated dimension order) topology");
    }
    return paths;
}

void
NetworkBuilder::Reroute(const PfcNetwork& net, const Topology& topology)
{
    for (NodeIndex v = 0; v < topology.Graph().NodeCount(); ++v)
    {
        FillTable(net, topology, v);
    }
}

std::string
NetworkBuilder::LaneConflict(const Topology& topology,
                             uint8_t basePriority,
                             uint8_t controlPriority)
{
    return LaneConflict(
        topology, basePriority, controlPriority, CreateObject<ForwardingTable>()->IsSourceRouted());
}

std::string
NetworkBuilder::LaneConflict(const Topology& topology,
                             uint8_t basePriority,
                             uint8_t controlPriority,
                             bool sourceRouted)
{
    const uint32_t lanes = sourceRouted ? SourceRoutes(topology)->LaneCount()
                                        : topology.LaneCount();
    const uint32_t top = basePriority + lanes - 1;
    const bool collides = controlPriority >= basePriority && controlPriority <= top;
    if (!collides && top < kPfcPriorities)
    {
        return "";
    }
    // Bases whose lanes stay within 0..7 and off the control priority.
    std::string allowed;
    for (uint32_t b = 0; b + lanes <= kPfcPriorities; ++b)
    {
        if (controlPriority >= b && controlPriority < b + lanes)
        {
            continue;
        }
        allowed += (allowed.empty() ? "" : ",") + std::to_string(b);
    }
    std::string why = std::to_string(basePriority) + ": " + topology.Spec() + " routes on " +
                      std::to_string(lanes) + " data lanes, priorities " +
                      std::to_string(basePriority) + ".." + std::to_string(top) + ", which ";
    why += collides ? "reach the ACK/NAK/CNP priority " + std::to_string(controlPriority) +
                          " (served first, never paused: lanes would share its pause state)"
                    : "go past priority 7";
    return why + "; allowed: " +
           (allowed.empty() ? "none (the topology needs more lanes than 7 priorities hold)"
                            : "a base priority in {" + allowed + "} for this topology");
}

namespace
{

/// One attribute of HPCC's switch buffer (NetworkBuilder::SetHpccMmu): on the switch factory
/// or on the device factory, its name and value as text.
struct HpccMmuSetting
{
    bool onSwitch;
    const char* attribute;
    const char* value;
};

// HPCC's simulator (alibaba-edu/High-Precision-Congestion-Control): switch-mmu.cc keeps 4 KiB
// per queue aside and resumes 3 KiB below the threshold; its main program sizes each port's
// headroom at 3 x rate x delay; its NIC stops at a pause's arrival. (Its lowering of the
// free-buffer shift per doubling of a port's rate above the NIC rate is AlphaReferenceRate,
// set from the network: HpccAlphaReferenceRate.)
constexpr HpccMmuSetting kHpccMmu[] = {
    {true, "QueueReserveBytes", "4096"},
    {true, "HeadroomOneWayBdps", "3"},
    {true, "XonHysteresis", "3072"},
    {false, "PfcReactionBitTimes", "0"},
};

/// The hosts' NIC rate as HPCC's simulator takes it: the rate ConnectLinks gives host 0's
/// first device; 0 without a host port.
double
HpccAlphaReferenceRate(const TopologyGraph& g)
{
    if (g.HostCount() == 0 || g.Ports(g.HostNode(0)).empty())
    {
        return 0;
    }
    return g.Link(g.LinkAt(g.HostNode(0), 0)).rateBps;
}

std::string
FullName(const HpccMmuSetting& s)
{
    return std::string(s.onSwitch ? "ns3::PfcSwitch::" : "ns3::PfcNetDevice::") + s.attribute;
}

} // namespace

void
NetworkBuilder::SetHpccMmu()
{
    for (const HpccMmuSetting& s : kHpccMmu)
    {
        (s.onSwitch ? m_switch : m_device).Set(s.attribute, StringValue(s.value));
    }
    m_alphaFromNicRate = true;
}

std::vector<std::pair<std::string, std::string>>
NetworkBuilder::HpccMmuAttributes(const TopologyGraph& g)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const HpccMmuSetting& s : kHpccMmu)
    {
        out.emplace_back(FullName(s), s.value);
    }
    const double rate = HpccAlphaReferenceRate(g);
    if (rate > 0)
    {
        const DataRateValue value(DataRate(static_cast<uint64_t>(rate)));
        out.emplace_back("ns3::PfcSwitch::AlphaReferenceRate",
                         value.SerializeToString(MakeDataRateChecker()));
    }
    return out;
}

std::vector<std::string>
NetworkBuilder::HpccMmuAttributeNames()
{
    std::vector<std::string> out;
    for (const HpccMmuSetting& s : kHpccMmu)
    {
        out.push_back(FullName(s));
    }
    out.emplace_back("ns3::PfcSwitch::AlphaReferenceRate");
    return out;
}

ResolvedObjectFactory
NetworkBuilder::SwitchFactory(const TopologyGraph& g) const
{
    ResolvedObjectFactory factory = m_switch;
    const double rate = HpccAlphaReferenceRate(g);
    if (m_alphaFromNicRate && rate > 0)
    {
        factory.Set("AlphaReferenceRate", DataRateValue(DataRate(static_cast<uint64_t>(rate))));
    }
    factory.Resolve();
    return factory;
}

namespace
{

/// Refuses a topology whose lanes reach the control priority (helper/network-builder.h): the
/// priorities as configured, the tables' base and the devices' control class.
void
CheckLanes(const Topology& topology,
           const ResolvedObjectFactory& table,
           const ResolvedObjectFactory& device)
{
    const Ptr<ForwardingTable> t = table.Create<ForwardingTable>(); // table, then device
    const Ptr<PfcNetDevice> d = device.Create<PfcNetDevice>();
    const std::string conflict = NetworkBuilder::LaneConflict(
        topology, t->GetBasePriority(), d->GetControlPriority(), t->IsSourceRouted());
    if (!conflict.empty())
    {
        throw std::invalid_argument("BasePriority " + conflict);
    }
}

/// Whether Build gives node v a PfcSwitch: every switch, and every host with several ports
/// (it relays).
bool
HasSwitch(const TopologyGraph& g, NodeIndex v)
{
    return !g.Node(v).isHost || g.Ports(v).size() > 1;
}

/// What a switch's buffer check reads besides its factory (NetworkBuilder::CheckBuild): the
/// lanes of its table (the default lossless priorities) and each port's link.
struct SwitchKind
{
    uint32_t lanes{0};                                  //!< ForwardingTable::GetLaneCount
    std::vector<std::pair<uint64_t, double>> portLinks; //!< (bit/s, delay s) by port

    bool
    operator<(const SwitchKind& o) const
    {
        return std::tie(lanes, portLinks) < std::tie(o.lanes, o.portLinks);
    }
};

/// One Node per graph node (with its system id when given: a run over MPI ranks) and one
/// PfcNetDevice per port; names and the host-rank index.
void
CreateNodesAndPorts(const TopologyGraph& g,
                    const ResolvedObjectFactory& deviceFactory,
                    const std::vector<uint32_t>& systemIds,
                    PfcNetwork& net)
{
    const uint32_t n = g.NodeCount();
    if (systemIds.empty())
    {
        // NodeContainer::Create's CreateObject<Node>, without its attribute walk (Node's
        // constructible attributes are two object lists its accessor never sets).
        ResolvedObjectFactory nodeFactory("ns3::Node");
        nodeFactory.Resolve();
        for (NodeIndex v = 0; v < n; ++v)
        {
            net.nodes.Add(nodeFactory.Create<Node>());
        }
    }
    else
    {
        for (NodeIndex v = 0; v < n; ++v)
        {
            net.nodes.Create(1, systemIds.at(v));
        }
    }
    net.ports.resize(n);
    net.switches.resize(n);
    net.tables.resize(n);
    net.hostNode.resize(g.HostCount());
    net.names.resize(n);

    for (NodeIndex v = 0; v < n; ++v)
    {
        const TopologyNode& node = g.Node(v);
        net.names[v] = node.name;
        if (node.isHost)
        {
            net.hostNode[node.rank] = v;
        }
        net.ports[v].resize(g.Ports(v).size());
        for (uint32_t p = 0; p < net.ports[v].size(); ++p)
        {
            Ptr<PfcNetDevice> dev = deviceFactory.Create<PfcNetDevice>();
            if (node.isHost)
            {
                // Addressing (model/README-fabric.md): MAC 02:00:00 followed by the 24-bit host
                // rank.
                uint8_t mac[6] = {0x02,
                                  0x00,
                                  0x00,
                                  static_cast<uint8_t>(node.rank >> 16),
                                  static_cast<uint8_t>(node.rank >> 8),
                                  static_cast<uint8_t>(node.rank)};
                Mac48Address address;
                address.CopyFrom(mac);
                dev->SetAddress(address);
            }
            else
            {
                dev->SetAddress(Mac48Address::Allocate());
            }
            net.nodes.Get(v)->AddDevice(dev);
            net.ports[v][p] = dev;
        }
    }
}

/// One PfcChannel per link, its delay, and its rate on both ends.
void
ConnectLinks(const TopologyGraph& g, const ResolvedObjectFactory& channelFactory, PfcNetwork& net)
{
    net.channels.resize(g.LinkCount());
    for (LinkIndex l = 0; l < g.LinkCount(); ++l)
    {
        const TopologyLink& link = g.Link(l);
        Ptr<PfcChannel> channel = channelFactory.Create<PfcChannel>();
        channel->SetAttribute("Delay", TimeValue(Seconds(link.delayS)));
        Ptr<PfcNetDevice> a = net.ports[link.a][link.portA];
        Ptr<PfcNetDevice> b = net.ports[link.b][link.portB];
        const DataRate rate(static_cast<uint64_t>(link.rateBps));
        a->SetDataRate(rate);
        b->SetDataRate(rate);
        a->Attach(channel);
        b->Attach(channel);
        net.channels[l] = channel;
    }
}

} // namespace

PfcNetwork
NetworkBuilder::Build(const Topology& topology) const
{
    // Each factory's attribute values settled once for its thousands of objects (a fat-tree
    // of 8,192 hosts: 49,152 devices), not once per object (helper/resolved-object-factory.h).
    ResolvedObjectFactory device = m_device;
    ResolvedObjectFactory channel = m_channel;
    ResolvedObjectFactory tableFactory = m_table;
    device.Resolve();
    channel.Resolve();
    tableFactory.Resolve();
    CheckLanes(topology, tableFactory, device);
    const TopologyGraph& g = topology.Graph();
    PfcNetwork net;
    CreateNodesAndPorts(g, device, m_systemIds, net);
    ConnectLinks(g, channel, net);
    if (tableFactory.Create<ForwardingTable>()->IsSourceRouted())
    {
        net.sourceRoutes = SourceRoutes(topology);
    }

    const ResolvedObjectFactory switchFactory = SwitchFactory(g);
    // SetAttribute("HashSeed") without its lookup by name per table: the same checker and
    // accessor, looked up once.
    TypeId::AttributeInformation hashSeed;
    ForwardingTable::GetTypeId().LookupAttributeByName("HashSeed", &hashSeed);
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        Ptr<ForwardingTable> table = tableFactory.Create<ForwardingTable>();
        if (m_saltPerNode)
        {
            // Every node its own ECMP salt, or all switches would pick the same member for
            // the same flow (hash polarization) and use one of k equal-cost paths.
            hashSeed.accessor->Set(
                PeekPointer(table),
                *hashSeed.checker->CreateValidValue(UintegerValue(m_hashSalt + v)));
        }
        net.tables.at(v) = table;
        FillTable(net, topology, v);
        net.nodes.Get(v)->AggregateObject(table);
        if (HasSwitch(g, v))
        {
            Ptr<PfcSwitch> sw = switchFactory.Create<PfcSwitch>();
            for (const auto& dev : net.ports[v])
            {
                sw->AddPort(dev);
            }
            sw->SetForwardingTable(table);
            net.nodes.Get(v)->AggregateObject(sw);
            sw->Initialize();
            // A fixed stream per node, not ns-3's next free one: a run's ECN draws are then
            // the same whether it runs alone or after others in one process (--algorithm=all).
            sw->AssignStreams(v);
            net.switches[v] = sw;
        }
    }
    return net;
}

namespace
{

/// (bit/s, delay s) of each of node v's ports, by port: what ConnectLinks gives them.
std::vector<std::pair<uint64_t, double>>
PortLinks(const TopologyGraph& g, NodeIndex v)
{
    std::vector<std::pair<uint64_t, double>> links;
    for (uint32_t p = 0; p < g.Ports(v).size(); ++p)
    {
        const TopologyLink& link = g.Link(g.LinkAt(v, p));
        links.emplace_back(static_cast<uint64_t>(link.rateBps), link.delayS);
    }
    return links;
}

/// A switch wired as Build wires one (ConnectLinks): each port cabled at its link's rate and
/// delay to a device of the same factory, whose reaction time enters the port's headroom.
/// Not yet initialized.
Ptr<PfcSwitch>
ProbeSwitch(const std::vector<std::pair<uint64_t, double>>& links,
            const ResolvedObjectFactory& switchFactory,
            const ResolvedObjectFactory& deviceFactory,
            const ResolvedObjectFactory& channelFactory)
{
    Ptr<Node> node = CreateObject<Node>();
    Ptr<Node> peers = CreateObject<Node>();
    Ptr<PfcSwitch> sw = switchFactory.Create<PfcSwitch>();
    for (const auto& [bps, delayS] : links)
    {
        Ptr<PfcNetDevice> dev = deviceFactory.Create<PfcNetDevice>();
        Ptr<PfcNetDevice> peer = deviceFactory.Create<PfcNetDevice>();
        node->AddDevice(dev);
        peers->AddDevice(peer);
        Ptr<PfcChannel> channel = channelFactory.Create<PfcChannel>();
        channel->SetAttribute("Delay", TimeValue(Seconds(delayS)));
        dev->SetDataRate(DataRate(bps));
        peer->SetDataRate(DataRate(bps));
        dev->Attach(channel);
        peer->Attach(channel);
        sw->AddPort(dev);
    }
    node->AggregateObject(sw);
    return sw;
}

} // namespace

bool
NetworkBuilder::SwitchesFitEveryLane(const TopologyGraph& g,
                                     const ResolvedObjectFactory& switchFactory) const
{
    // A switch's lossless priorities are LosslessPriorities, or when that is 0 the lanes of
    // its table from BasePriority up (PfcSwitch::DataLaneMask), never past priority 7; its
    // PFC reserve grows with their number. Probing each port layout with every priority from
    // BasePriority to 7 lossless bounds every switch of that layout without its routes.
    const uint32_t base = m_table.Create<ForwardingTable>()->GetBasePriority();
    uint8_t everyLane = 0;
    for (uint32_t p = base; p < kPfcPriorities; ++p)
    {
        everyLane = static_cast<uint8_t>(everyLane | (1u << p));
    }
    std::set<std::vector<std::pair<uint64_t, double>>> probed;
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        if (!HasSwitch(g, v) || !probed.insert(PortLinks(g, v)).second)
        {
            continue;
        }
        Ptr<PfcSwitch> sw = ProbeSwitch(PortLinks(g, v), switchFactory, m_device, m_channel);
        sw->SetForwardingTable(m_table.Create<ForwardingTable>());
        UintegerValue lossless;
        sw->GetAttribute("LosslessPriorities", lossless);
        if (lossless.Get() == 0)
        {
            sw->SetAttribute("LosslessPriorities", UintegerValue(everyLane));
        }
        try
        {
            sw->Initialize();
        }
        catch (const std::invalid_argument&)
        {
            return false;
        }
    }
    return true;
}

void
NetworkBuilder::CheckBuild(const Topology& topology) const
{
    // Build's checks in Build's order: lanes, source routes, then the switches by node.
    CheckLanes(topology, m_table, m_device);
    const TopologyGraph& g = topology.Graph();
    PfcNetwork net; // what FillTable reads: the node's table and the source routes
    net.tables.resize(g.NodeCount());
    if (m_table.Create<ForwardingTable>()->IsSourceRouted())
    {
        net.sourceRoutes = SourceRoutes(topology);
    }
    const ResolvedObjectFactory switchFactory = SwitchFactory(g);
    // Most configurations fit with room to spare: then no table need be filled (on a torus
    // or BCube of 8,192 hosts, whose hosts relay, that was half of the check).
    if (SwitchesFitEveryLane(g, switchFactory))
    {
        return;
    }
    std::set<SwitchKind> checked;
    for (NodeIndex v = 0; v < g.NodeCount(); ++v)
    {
        if (!HasSwitch(g, v))
        {
            continue;
        }
        Ptr<ForwardingTable> table = m_table.Create<ForwardingTable>();
        net.tables[v] = table;
        FillTable(net, topology, v);
        net.tables[v] = nullptr;
        SwitchKind kind;
        kind.lanes = table->GetLaneCount();
        kind.portLinks = PortLinks(g, v);
        if (!checked.insert(kind).second)
        {
            continue;
        }
        Ptr<PfcSwitch> sw = ProbeSwitch(kind.portLinks, switchFactory, m_device, m_channel);
        sw->SetForwardingTable(table);
        sw->Initialize(); // throws std::invalid_argument when the headroom does not fit
    }
}

std::vector<std::pair<NodeIndex, uint32_t>>
NetworkBuilder::PcapPorts(const TopologyGraph& graph, const std::string& list)
{
    auto nodeNamed = [&graph](const std::string& name, NodeIndex& v) {
        for (v = 0; v < graph.NodeCount(); ++v)
        {
            if (graph.Node(v).name == name)
            {
                return true;
            }
        }
        return false;
    };
    std::vector<std::pair<NodeIndex, uint32_t>> ports;
    for (size_t start = 0; start <= list.size();)
    {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string entry = list.substr(start, comma - start);
        start = comma + 1;
        NodeIndex v = 0;
        if (nodeNamed(entry, v))
        {
            for (uint32_t p = 0; p < graph.Ports(v).size(); ++p)
            {
                ports.emplace_back(v, p);
            }
            continue;
        }
        const size_t dot = entry.rfind('.');
        const std::string port = dot == std::string::npos ? "" : entry.substr(dot + 1);
        uint64_t portIndex = 0;
        if (dot == std::string::npos || !nodeNamed(entry.substr(0, dot), v) ||
            !ParseUint(port, portIndex) || portIndex >= graph.Ports(v).size())
        {
            throw std::invalid_argument(
                "'" + entry +
                "' is not a node or a node's port; allowed: NODE or NODE.PORT with node names "
                "as in pfc.csv (e.g. h0, sw0.0.1) and PORT below the node's port count");
        }
        ports.emplace_back(v, static_cast<uint32_t>(portIndex));
    }
    return ports;
}

std::vector<std::string>
NetworkBuilder::EnablePcap(const PfcNetwork& net,
                           const std::vector<std::pair<NodeIndex, uint32_t>>& ports,
                           const std::string& dir)
{
    SystemPath::MakeDirectories(dir);
    std::vector<std::string> files;
    for (const auto& [v, p] : ports)
    {
        files.push_back(dir + "/" + net.names[v] + "-" + std::to_string(p) + ".pcap");
        net.ports[v][p]->EnablePcap(files.back());
    }
    return files;
}

} // namespace ns3
