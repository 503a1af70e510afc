/*
 * TopologyCounts: a topology's size by its family's closed form, without building it. The
 * driver's resource estimate (helper/resource-estimate.h) needs it before it lets a run build
 * millions of nodes. Each family computes its own beside its constructor (a static Counts),
 * after reading the spec through the same parser as the constructor: a spec the constructor
 * refuses has no counts (the estimate of a topology that cannot be built would mislead), and
 * MakeTopology names what is wrong. CountTopology (topology.cc) finds the family through the
 * same registry as MakeTopology. Counts saturate at 2^62 instead of wrapping.
 */
#ifndef PARAMSYNC_TOPOLOGY_COUNTS_H
#define PARAMSYNC_TOPOLOGY_COUNTS_H

#include <cstdint>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \brief Nodes, cables and lanes of a topology.
 */
struct TopologyCounts
{
    uint64_t hosts{0};      //!< servers
    uint64_t switches{0};   //!< switches
    uint64_t links{0};      //!< cables (each a full-duplex pair of ports)
    uint32_t lanes{1};      //!< data lanes (Topology::LaneCount)
    bool hostsRelay{false}; //!< servers have several ports and forward (BCube k >= 1, torus)
};

/// \brief The cap of saturating counts: 2^62.
constexpr uint64_t kCountCap = uint64_t{1} << 62;

/// \brief a * b, or kCountCap when that is larger.
uint64_t SaturatingMul(uint64_t a, uint64_t b);
/// \brief x^e, or kCountCap when that is larger.
uint64_t SaturatingPow(uint64_t x, uint64_t e);

/**
 * \brief The counts of a topology spec by its family's closed form; for a file, its HPCC
 * header line (nodes, switches, links).
 * \return std::nullopt when the spec is not understood or its family has no closed form
 * (MakeTopology then names what is wrong, or builds it)
 */
std::optional<TopologyCounts> CountTopology(const std::string& spec);

} // namespace ns3

#endif // PARAMSYNC_TOPOLOGY_COUNTS_H
