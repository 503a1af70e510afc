/*
 * ServerTopology: the inside of a GPU server (devices and NICs behind a PCIe switch) wrapped
 * around any network, so a server with one NIC per GPU (EFLOPS: Dong et al., "EFLOPS:
 * Algorithm and System Co-design for a High Performance Distributed Training Platform",
 * HPCA 2020) can be compared with a conventional server whose GPUs share the PCIe path to
 * one or two NICs.
 */
#ifndef PARAMSYNC_SERVER_TOPOLOGY_H
#define PARAMSYNC_SERVER_TOPOLOGY_H

#include "topology.h"

#include <memory>
#include <string>

namespace ns3
{

class SpecString;

/**
 * \brief `server:gpus=G,nics=K[,pcie=R][,pciedelay=D]/NETWORK`: every K consecutive hosts of
 * NETWORK (any topology spec) become the K NICs of one server with G GPUs; the GPUs are the
 * ranks.
 *
 * Inside server s (hosts s K .. s K + K - 1 of NETWORK are its NICs 0..K-1):
 *  - GPUs g = 0..G-1, rank s G + g, in K groups of m = G/K consecutive GPUs; group q sits
 *    with NIC q behind PCIe switch q: one PCIe link per GPU and one PCIe link from the switch
 *    to NIC q, all at rate pcie. The m GPUs of a group share that one switch-to-NIC link
 *    and NIC q's network links: nics=1 is a conventional server (every GPU through one PCIe
 *    path and one NIC), nics=G the EFLOPS server (each GPU paired with its own NIC, no
 *    shared PCIe path).
 *  - With K > 1 a root switch joins the K PCIe switches (one PCIe link each) for traffic
 *    between the groups of one server.
 * NETWORK's host nodes become the NIC nodes (switches here: a NIC forwards between its PCIe
 * link and its network ports, and relays as a server-centric host does); NETWORK's links,
 * rates and switches are unchanged.
 *
 * Flow control: the PCIe switches, roots and NICs are PfcSwitch nodes in the packet model,
 * so PCIe is lossless with PFC pauses standing in for PCIe's credit-based flow control
 * (a credit-based link never sends without buffer at the receiver; PFC stops the sender
 * when the receiver's queue crosses its threshold: both lossless, PFC coarser). PCIe's
 * TLP framing overhead is not modelled: pcie is the payload-carrying rate.
 *
 * pcie defaults to 126 Gbps: PCIe 3.0 x16, 16 lanes x 8 GT/s x 128/130 encoding, as in the
 * EFLOPS servers. pciedelay (default 100ns) is the one-way delay of every PCIe link.
 * G in [1, 64]; K in [1, G] and divides G; NETWORK's host count a multiple of K.
 *
 * Ranks and nodes: GPUs are nodes 0..H-1 (node == rank, H = servers x G), then NETWORK's
 * nodes in their order (node H + v for NETWORK's node v, same port numbers, PCIe port of a
 * NIC after its network ports), then PCIe switch (s, q) at H + V + s K + q (port 0 to its
 * NIC, 1..m to its GPUs, m + 1 to the root), then root s at H + V + S K + s (port q to PCIe
 * switch q).
 *
 * Routing: a GPU sends to its PCIe switch; a PCIe switch delivers to its own GPUs, sends
 * to the root for the server's other groups and to its NIC for other servers; the network
 * routes towards the destination GPU's NIC (the NIC of its group) with NETWORK's own
 * routing and lanes, and that NIC hands the packet to its PCIe switch. Packets enter the
 * network on lane 0 as they would at NETWORK's host.
 */
class ServerTopology : public Topology
{
  public:
    /**
     * \brief Builds from the parsed server options and the network it wraps.
     * \throws std::invalid_argument naming the spec and what is allowed
     */
    ServerTopology(SpecString& spec, std::unique_ptr<Topology> network);

    std::string Spec() const override;
    std::string Family() const override;
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;
    uint8_t LaneCount() const override;
    /// \brief Level 0: the GPUs of one server; level 1: GPU slot g across the servers.
    std::vector<HostDimension> SwitchLevels() const override;

    /// \brief GPUs per server.
    uint32_t GpusPerServer() const;
    /// \brief NICs per server.
    uint32_t NicsPerServer() const;
    /// \brief Number of servers.
    uint32_t Servers() const;
    /// \brief The PCIe switch of GPU `rank` (its node index).
    NodeIndex PcieSwitchOf(HostRank rank) const;
    /// \brief The NIC of GPU `rank` (its node index).
    NodeIndex NicOf(HostRank rank) const;

  private:
    /// \brief Adds the GPUs, NETWORK's nodes and links, then every server's PCIe parts.
    void Build(double pcieBps, double pcieDelayS);
    /// \brief The host of NETWORK that is the NIC of GPU `rank`.
    HostRank NetworkHostOf(HostRank rank) const;

    std::unique_ptr<Topology> m_network;
    uint32_t m_gpus;     //!< G
    uint32_t m_nics;     //!< K
    uint32_t m_perNic;   //!< m = G / K
    uint32_t m_servers;  //!< S
    uint32_t m_gpuNodes; //!< H = S G
    uint32_t m_netNodes; //!< V, NETWORK's node count
    std::string m_spec;
};

/**
 * \brief MakeTopology's entry for "server": builds NETWORK from `network` (the text after
 * the first '/') and wraps it.
 * \throws std::invalid_argument when `network` is empty or invalid
 */
std::unique_ptr<Topology> MakeServerTopology(SpecString& spec,
                                             const std::string& network,
                                             double rateBps,
                                             double delayS);

} // namespace ns3

#endif // PARAMSYNC_SERVER_TOPOLOGY_H
