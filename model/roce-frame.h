/*
 * Byte-accurate RoCEv2 frames (ARCHITECTURE.md, Network model) and their fast parsing.
 * RoceFrameInfo's `vlan` (default true) adds the 802.1Q tag with PCP = priority;
 * MarkRoceFrameCe / SetRoceFramePriority rewrite a frame in place. A CNP is opcode
 * RoceOpcode::kCnp with payloadBytes = 16 (the reserved bytes of a CNP).
 *
 * Frame layout built here (offsets in bytes, VLAN tagged):
 *   0  Ethernet II dst(6) src(6)           12 TPID 0x8100, TCI (PCP = priority)
 *   16 EtherType 0x0800                     18 IPv4 (20 B, DSCP = priority<<3, ECN)
 *   38 UDP (8 B, dst port 4791)             46 BTH (12 B)   [58 AETH (4 B) on ACK/NACK]
 *   then the payload (virtual zero bytes), ICRC (4 B) and FCS (4 B) as a trailer.
 * Without the tag every offset after 12 moves down by 4. Preamble+SFD (8 B) and the
 * inter-frame gap (12 B) are not in the Packet: PfcNetDevice counts them in the
 * serialization time (kFramingBytes).
 *
 * Fast access (ARCHITECTURE.md, Performance): ReadRoceFrame copies the first at most 62 bytes of
 * the frame with Packet::CopyData (no allocation, no Header objects) and decodes fixed offsets. No
 * Tag is used. A switch calls it once per hop.
 */
#ifndef PARAMSYNC_ROCE_FRAME_H
#define PARAMSYNC_ROCE_FRAME_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/// \brief Preamble + SFD (8 B) + inter-frame gap (12 B): on the wire, not in the Packet.
constexpr uint32_t kFramingBytes = 20;
/// \brief Smallest Ethernet frame (incl. FCS), PFC frames are padded to it.
constexpr uint32_t kMinFrameBytes = 64;
/// \brief RoCEv2 UDP destination port.
constexpr uint16_t kRoceUdpPort = 4791;

/// \brief BTH opcodes used by paramsync (IBA Vol. 1, RC transport).
namespace RoceOpcode
{
constexpr uint8_t kSendFirst = 0x00;  //!< RC SEND First
constexpr uint8_t kSendMiddle = 0x01; //!< RC SEND Middle
constexpr uint8_t kSendLast = 0x02;   //!< RC SEND Last
constexpr uint8_t kSendOnly = 0x04;   //!< RC SEND Only
constexpr uint8_t kAck = 0x11;        //!< RC Acknowledge (AETH follows)
constexpr uint8_t kCnp = 0x81;        //!< RoCEv2 Congestion Notification Packet
} // namespace RoceOpcode

/**
 * \brief The metadata of one RoCEv2 frame, parsed once.
 *
 * Host addressing: host rank r <-> IPv4 10.x.y.z with r = x<<16|y<<8|z,
 * MAC 02:00:00:xx:yy:zz (same 24 bits).
 */
struct RoceFrameInfo
{
    /// \brief A SEND Only frame from host 0 to host 0, ECN capable, VLAN tagged.
    RoceFrameInfo()
        : ecnCapable(true),
          ecnCe(false),
          ackRequest(false),
          becn(false),
          vlan(true)
    {
    }

    uint32_t srcHost{0};                   //!< source host rank (24 bit)
    uint32_t dstHost{0};                   //!< destination host rank (24 bit)
    uint16_t udpSrcPort{0};                //!< per-QP entropy (ECMP hash input); dst port is 4791
    uint8_t priority{0};                   //!< PFC priority 0..7 (802.1Q PCP and DSCP)
    uint8_t opcode{RoceOpcode::kSendOnly}; //!< BTH opcode
    uint32_t destQp{0};                    //!< BTH destination QP (24 bit)
    uint32_t psn{0};                       //!< BTH PSN (24 bit)
    uint32_t aethMsn{0};                   //!< AETH MSN (24 bit, ACK/NACK only)
    uint32_t payloadBytes{0};              //!< RDMA payload (virtual bytes in the Packet)
    uint8_t aethSyndrome{0};               //!< AETH syndrome (ACK/NACK only)
    bool ecnCapable : 1;                   //!< ECT(0) set (ECN bits 10)
    bool ecnCe : 1;                        //!< CE set (ECN bits 11); overrides ecnCapable
    bool ackRequest : 1;                   //!< BTH A bit
    bool becn : 1;                         //!< BTH B bit (BECN): congestion seen, on an ACK
    bool vlan : 1;                         //!< carry an 802.1Q tag (PCP = priority)
};
// The header travels beside every frame (device queues, switch FIFOs, and the arrival event,
// which with it fits one cache line: model/pfc-channel.cc), so it is packed: 32 bytes, the
// flags in one byte (it was 40 with five bools and padding).
static_assert(sizeof(RoceFrameInfo) == 32, "RoceFrameInfo: 32 bytes");

/// \brief True when the opcode carries an AETH (ACK/NACK).
inline bool
RoceHasAeth(uint8_t opcode)
{
    return opcode == RoceOpcode::kAck;
}

/**
 * \brief Build Ethernet(+802.1Q) + IPv4 + UDP + BTH (+AETH) + payload + ICRC + FCS.
 *
 * The ICRC (RoCEv2 annex: over the invariant fields, variant ones taken as ones) and the
 * Ethernet FCS are computed (model/ethernet-crc.h) and written least significant byte first.
 */
Ptr<Packet> BuildRoceFrame(const RoceFrameInfo& info);

/**
 * \brief What ReadRoceFrame returns for the frame BuildRoceFrame(info) makes: the header a
 * frame's maker hands along with it (PfcNetDevice carries it to the next hop) so that nobody
 * parses the bytes. CE implies ECN-capable, AETH fields are 0 without an AETH, 24-bit fields
 * are masked.
 */
RoceFrameInfo RoceFrameInfoAsParsed(const RoceFrameInfo& info);

/**
 * \brief Decode a frame built by BuildRoceFrame from fixed offsets (one CopyData, no Tag).
 * \return false when it is not a RoCEv2 frame (e.g. a PFC frame); info is then unspecified.
 */
bool ReadRoceFrame(Ptr<const Packet> frame, RoceFrameInfo& info);

/**
 * \brief Priority of any frame from its first 18 bytes: the PCP of an 802.1Q tag, else the
 * DSCP of an IPv4 header (class selector: DSCP >> 3), else 0. DSCP is written as priority << 3.
 */
uint8_t ReadFramePriority(Ptr<const Packet> frame);

/// \brief ReadFramePriority on the frame's first 18 bytes, already copied out.
uint8_t FramePriorityFromHead(const uint8_t* head);

/**
 * \brief Set the CE codepoint of a RoCEv2 frame in place (ECN marking at a switch egress),
 * keeping the IPv4 checksum and the FCS valid (the ICRC does not cover the ECN bits).
 * \return false if the frame is not ECN capable.
 */
bool MarkRoceFrameCe(Ptr<Packet> frame);

/**
 * \brief Rewrite the priority (802.1Q PCP and DSCP) of a RoCEv2 frame in place (lane change),
 * keeping the IPv4 checksum and the FCS valid.
 */
void SetRoceFramePriority(Ptr<Packet> frame, uint8_t priority);

/// \brief Bytes of the frame in the Packet (Ethernet header to FCS).
uint32_t RoceFrameBytes(uint32_t payloadBytes, bool vlan, bool aeth);

/// \brief Bytes of the frame BuildRoceFrame(info) makes (what its Packet would hold).
inline uint32_t
RoceFrameBytes(const RoceFrameInfo& info)
{
    return RoceFrameBytes(info.payloadBytes, info.vlan, RoceHasAeth(info.opcode));
}

/// \brief Bytes on the wire incl. preamble+SFD+IFG (20 B).
uint32_t RoceWireBytes(uint32_t payloadBytes, bool vlan, bool aeth);

/// \brief IPv4 address (host order) of a host rank: 10.x.y.z.
uint32_t RoceHostIpv4(uint32_t hostRank);

} // namespace ns3

#endif // PARAMSYNC_ROCE_FRAME_H
