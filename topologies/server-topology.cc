#include "server-topology.h"

#include "family-options.h"
#include "spec-string.h"

#include <stdexcept>

namespace ns3
{

namespace
{
const char* const kUsage = "server:gpus=G,nics=K[,pcie=R][,pciedelay=D]/NETWORK with G in "
                           "[1, 64], K in [1, G] dividing G, NETWORK's hosts a multiple of K";
constexpr double kPcie3x16Bps = 126e9; // 16 lanes x 8 GT/s x 128/130 (PCIe 3.0 x16)
constexpr double kPcieDelayS = 100e-9;
} // namespace

ServerTopology::ServerTopology(SpecString& spec, std::unique_ptr<Topology> network)
    : m_network(std::move(network))
{
    m_gpus = static_cast<uint32_t>(RequireUint(spec, "gpus", 1, 64, kUsage));
    m_nics = static_cast<uint32_t>(RequireUint(spec, "nics", 1, m_gpus, kUsage));
    const double pcie = spec.GetRate("pcie", kPcie3x16Bps);
    const double pcieDelay = spec.GetTime("pciedelay", kPcieDelayS);
    spec.Finish();
    if (m_gpus % m_nics != 0)
    {
        throw std::invalid_argument(spec.Where() + "nics = " + std::to_string(m_nics) +
                                    " does not divide gpus = " + std::to_string(m_gpus) +
                                    "; usage: " + kUsage);
    }
    const uint32_t hosts = m_network->Graph().HostCount();
    if (hosts % m_nics != 0)
    {
        throw std::invalid_argument(
            spec.Where() + m_network->Spec() + " has " + std::to_string(hosts) +
            " hosts, not a multiple of nics = " + std::to_string(m_nics) + "; usage: " + kUsage);
    }
    m_perNic = m_gpus / m_nics;
    m_servers = hosts / m_nics;
    m_gpuNodes = m_servers * m_gpus;
    m_netNodes = m_network->Graph().NodeCount();
    m_spec = "server:gpus=" + std::to_string(m_gpus) + ",nics=" + std::to_string(m_nics) +
             ExplicitOptions(spec, {"pcie", "pciedelay"}) + "/" + m_network->Spec();
    Build(pcie, pcieDelay);
}

void
ServerTopology::Build(double pcieBps, double pcieDelayS)
{
    const TopologyGraph& net = m_network->Graph();
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t g = 0; g < m_gpus; ++g)
        {
            m_graph.AddHost("s" + std::to_string(s) + ".gpu" + std::to_string(g));
        }
    }
    // NETWORK's nodes in order, its hosts as NIC switches; its links in order, so every
    // node of NETWORK keeps its port numbers.
    for (NodeIndex v = 0; v < m_netNodes; ++v)
    {
        const TopologyNode& node = net.Node(v);
        m_graph.AddSwitch(node.isHost ? "s" + std::to_string(node.rank / m_nics) + ".nic" +
                                            std::to_string(node.rank % m_nics)
                                      : node.name);
    }
    for (LinkIndex l = 0; l < net.LinkCount(); ++l)
    {
        const TopologyLink& link = net.Link(l);
        m_graph.AddLink(m_gpuNodes + link.a, m_gpuNodes + link.b, link.rateBps, link.delayS);
    }
    const NodeIndex firstPcie = m_gpuNodes + m_netNodes;
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t q = 0; q < m_nics; ++q)
        {
            m_graph.AddSwitch("s" + std::to_string(s) + ".pcie" + std::to_string(q));
        }
    }
    if (m_nics > 1)
    {
        for (uint32_t s = 0; s < m_servers; ++s)
        {
            m_graph.AddSwitch("s" + std::to_string(s) + ".root");
        }
    }
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t q = 0; q < m_nics; ++q)
        {
            const NodeIndex pcie = firstPcie + s * m_nics + q;
            const NodeIndex nic = m_gpuNodes + net.HostNode(s * m_nics + q);
            m_graph.AddLink(pcie, nic, pcieBps, pcieDelayS); // switch port 0
            for (uint32_t i = 0; i < m_perNic; ++i)          // switch ports 1..m
            {
                m_graph.AddLink(s * m_gpus + q * m_perNic + i, pcie, pcieBps, pcieDelayS);
            }
        }
        if (m_nics > 1)
        {
            const NodeIndex root = firstPcie + m_servers * m_nics + s;
            for (uint32_t q = 0; q < m_nics; ++q) // switch port m + 1, root port q
            {
                m_graph.AddLink(firstPcie + s * m_nics + q, root, pcieBps, pcieDelayS);
            }
        }
    }
}

std::string
ServerTopology::Spec() const
{
    return m_spec;
}

std::string
ServerTopology::Family() const
{
    return "server";
}

uint8_t
ServerTopology::LaneCount() const
{
    return m_network->LaneCount();
}

HostRank
ServerTopology::NetworkHostOf(HostRank rank) const
{
    return (rank / m_gpus) * m_nics + (rank % m_gpus) / m_perNic;
}

NodeIndex
ServerTopology::PcieSwitchOf(HostRank rank) const
{
    return m_gpuNodes + m_netNodes + NetworkHostOf(rank);
}

NodeIndex
ServerTopology::NicOf(HostRank rank) const
{
    return m_gpuNodes + m_network->Graph().HostNode(NetworkHostOf(rank));
}

void
ServerTopology::NextHops(NodeIndex at, HostRank dst, uint8_t lane, std::vector<RouteHop>& out) const
{
    out.clear();
    const HostRank dstNic = NetworkHostOf(dst);
    const NodeIndex firstPcie = m_gpuNodes + m_netNodes;
    if (at < m_gpuNodes)
    {
        out.push_back(RouteHop{0, 0}); // a GPU's one PCIe link
        return;
    }
    if (at < firstPcie)
    {
        const NodeIndex v = at - m_gpuNodes;
        const TopologyNode& node = m_network->Graph().Node(v);
        if (node.isHost && node.rank == dstNic)
        {
            // The destination's NIC: down its PCIe link, after its network ports.
            const auto port = static_cast<uint32_t>(m_network->Graph().Ports(v).size());
            out.push_back(RouteHop{port, lane});
            return;
        }
        m_network->NextHops(v, dstNic, lane, out); // same port numbers as in NETWORK
        return;
    }
    const uint32_t dstServer = dst / m_gpus;
    const uint32_t dstGroup = (dst % m_gpus) / m_perNic;
    if (at < firstPcie + m_servers * m_nics)
    {
        const uint32_t own = at - firstPcie; // = the NETWORK host of its NIC
        if (own == dstNic)
        {
            out.push_back(RouteHop{1 + (dst % m_gpus) % m_perNic, lane});
        }
        else if (own / m_nics == dstServer)
        {
            out.push_back(RouteHop{m_perNic + 1, lane});
        }
        else
        {
            out.push_back(RouteHop{0, 0}); // into the network at its source NIC, lane 0
        }
        return;
    }
    const uint32_t server = at - firstPcie - m_servers * m_nics;
    if (server == dstServer)
    {
        out.push_back(RouteHop{dstGroup, lane}); // root: only the server's own traffic
    }
}

std::vector<HostDimension>
ServerTopology::SwitchLevels() const
{
    return GroupsBySwitch(m_gpuNodes, m_gpus);
}

uint32_t
ServerTopology::GpusPerServer() const
{
    return m_gpus;
}

uint32_t
ServerTopology::NicsPerServer() const
{
    return m_nics;
}

uint32_t
ServerTopology::Servers() const
{
    return m_servers;
}

std::unique_ptr<Topology>
MakeServerTopology(SpecString& spec, const std::string& network, double rateBps, double delayS)
{
    if (network.empty())
    {
        throw std::invalid_argument(spec.Where() + "missing '/NETWORK' (the topology whose " +
                                    "hosts become the NICs); usage: " + kUsage);
    }
    return std::make_unique<ServerTopology>(spec, MakeTopology(network, rateBps, delayS));
}

} // namespace ns3
