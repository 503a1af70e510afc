#include "topology-graph.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/// Throws std::out_of_range naming the accessor: an index outside the graph is a caller bug,
/// and an exception is cheaper to debug than reading past the end of a vector.
void
CheckIndex(uint32_t index, size_t size, const char* what)
{
    if (index >= size)
    {
        throw std::out_of_range(std::string("TopologyGraph::") + what + ": index " +
                                std::to_string(index) + " out of range (size " +
                                std::to_string(size) + ")");
    }
}

} // namespace

NodeIndex
TopologyGraph::AddHost(const std::string& name)
{
    NodeIndex index = static_cast<NodeIndex>(m_nodes.size());
    HostRank rank = static_cast<HostRank>(m_hostNodes.size());
    m_nodes.push_back(TopologyNode{true, rank, name});
    m_ports.emplace_back();
    m_hostNodes.push_back(index);
    return index;
}

NodeIndex
TopologyGraph::AddSwitch(const std::string& name)
{
    NodeIndex index = static_cast<NodeIndex>(m_nodes.size());
    m_nodes.push_back(TopologyNode{false, kNoIndex, name});
    m_ports.emplace_back();
    ++m_switchCount;
    return index;
}

LinkIndex
TopologyGraph::AddLink(NodeIndex a, NodeIndex b, double rateBps, double delayS)
{
    CheckIndex(a, m_nodes.size(), "AddLink");
    CheckIndex(b, m_nodes.size(), "AddLink");
    if (a == b)
    {
        throw std::invalid_argument("TopologyGraph::AddLink: node " + m_nodes[a].name +
                                    " linked to itself; a link needs two distinct nodes");
    }
    // Negated comparisons also reject NaN.
    if (!(rateBps > 0))
    {
        throw std::invalid_argument("TopologyGraph::AddLink " + m_nodes[a].name + "-" +
                                    m_nodes[b].name + ": rate " + std::to_string(rateBps) +
                                    " bit/s; allowed: > 0");
    }
    if (!(delayS >= 0))
    {
        throw std::invalid_argument("TopologyGraph::AddLink " + m_nodes[a].name + "-" +
                                    m_nodes[b].name + ": delay " + std::to_string(delayS) +
                                    " s; allowed: >= 0");
    }
    LinkIndex link = static_cast<LinkIndex>(m_links.size());
    uint32_t portA = static_cast<uint32_t>(m_ports[a].size());
    uint32_t portB = static_cast<uint32_t>(m_ports[b].size());
    m_links.push_back(TopologyLink{a, portA, b, portB, rateBps, delayS});
    m_ports[a].push_back(PortPeer{link, b, portB});
    m_ports[b].push_back(PortPeer{link, a, portA});
    return link;
}

uint32_t
TopologyGraph::NodeCount() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

uint32_t
TopologyGraph::HostCount() const
{
    return static_cast<uint32_t>(m_hostNodes.size());
}

uint32_t
TopologyGraph::SwitchCount() const
{
    return m_switchCount;
}

uint32_t
TopologyGraph::LinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

const TopologyNode&
TopologyGraph::Node(NodeIndex node) const
{
    CheckIndex(node, m_nodes.size(), "Node");
    return m_nodes[node];
}

const TopologyLink&
TopologyGraph::Link(LinkIndex link) const
{
    CheckIndex(link, m_links.size(), "Link");
    return m_links[link];
}

TopologyLink&
TopologyGraph::MutableLink(LinkIndex link)
{
    CheckIndex(link, m_links.size(), "MutableLink");
    return m_links[link];
}

NodeIndex
TopologyGraph::HostNode(HostRank rank) const
{
    CheckIndex(rank, m_hostNodes.size(), "HostNode");
    return m_hostNodes[rank];
}

const std::vector<PortPeer>&
TopologyGraph::Ports(NodeIndex node) const
{
    CheckIndex(node, m_ports.size(), "Ports");
    return m_ports[node];
}

LinkIndex
TopologyGraph::LinkAt(NodeIndex node, uint32_t port) const
{
    CheckIndex(node, m_ports.size(), "LinkAt");
    CheckIndex(port, m_ports[node].size(), "LinkAt port");
    return m_ports[node][port].link;
}

} // namespace ns3
