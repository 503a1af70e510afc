/*
 * TopologyGraph: the plain-C++ description of a data-center network that every part of
 * paramsync shares. Hosts and switches are nodes; a link joins one port of each end and
 * has a rate and a propagation delay. No ns-3 simulation objects live here: helper/ turns a
 * graph into ns-3 nodes and devices, workloads/ reads it to shape algorithms and to route
 * flows in the fluid estimator.
 */
#ifndef PARAMSYNC_TOPOLOGY_GRAPH_H
#define PARAMSYNC_TOPOLOGY_GRAPH_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/// \brief Index of a node (host or switch) in a TopologyGraph.
using NodeIndex = uint32_t;
/// \brief Index of a link in a TopologyGraph.
using LinkIndex = uint32_t;
/// \brief Rank of a host: 0..HostCount()-1, in the order hosts were added.
using HostRank = uint32_t;
/// \brief Marks "no such node / rank / port".
constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();

/// \brief One node of the graph.
struct TopologyNode
{
    bool isHost;      //!< hosts run workers and may relay; switches only forward
    HostRank rank;    //!< host rank, kNoIndex for switches
    std::string name; //!< readable name used in results ("h3", "sw1.2")
};

/// \brief A full-duplex cable between port portA of node a and port portB of node b.
struct TopologyLink
{
    NodeIndex a;
    uint32_t portA;
    NodeIndex b;
    uint32_t portB;
    double rateBps; //!< line rate in bit/s, > 0
    double delayS;  //!< one-way propagation delay in seconds, >= 0
};

/// \brief What is at the far end of one port of a node.
struct PortPeer
{
    LinkIndex link;
    NodeIndex peer;
    uint32_t peerPort;
};

/**
 * \brief Hosts, switches and the links between their ports.
 *
 * Ports of a node are numbered 0.. in the order its links were added.
 */
class TopologyGraph
{
  public:
    /// \brief Adds a host; its rank is the number of hosts added before it.
    NodeIndex AddHost(const std::string& name);
    /// \brief Adds a switch.
    NodeIndex AddSwitch(const std::string& name);
    /// \brief Cables the next free port of a to the next free port of b.
    LinkIndex AddLink(NodeIndex a, NodeIndex b, double rateBps, double delayS);

    /// \brief Number of nodes (hosts and switches).
    uint32_t NodeCount() const;
    /// \brief Number of hosts.
    uint32_t HostCount() const;
    /// \brief Number of switches.
    uint32_t SwitchCount() const;
    /// \brief Number of links.
    uint32_t LinkCount() const;

    /// \brief The node at an index.
    const TopologyNode& Node(NodeIndex node) const;
    /// \brief The link at an index.
    const TopologyLink& Link(LinkIndex link) const;
    /// \brief Mutable link, e.g. to slow one link down for a straggler experiment.
    TopologyLink& MutableLink(LinkIndex link);
    /// \brief The node of the host with this rank.
    NodeIndex HostNode(HostRank rank) const;
    /// \brief Ports of a node, index = port number.
    const std::vector<PortPeer>& Ports(NodeIndex node) const;
    /// \brief The link leaving node through port.
    LinkIndex LinkAt(NodeIndex node, uint32_t port) const;

  private:
    std::vector<TopologyNode> m_nodes;
    std::vector<TopologyLink> m_links;
    std::vector<std::vector<PortPeer>> m_ports;
    std::vector<NodeIndex> m_hostNodes;
    uint32_t m_switchCount{0};
};

} // namespace ns3

#endif // PARAMSYNC_TOPOLOGY_GRAPH_H
