#include "roce-frame.h"

#include "ethernet-crc.h"
#include "roce-header.h"

#include "ns3/abort.h"

#include <array>
#include <cstring>
#include <type_traits>

namespace ns3
{

namespace
{

/**
 * Frame bytes written as one block of at most `Capacity` bytes: a Header (the whole header by
 * BuildRoceFrame, or the Ethernet + 802.1Q + IPv4 prefix when a switch rewrites it in place)
 * or a Trailer (ICRC and FCS, or the FCS alone). The two differ only in where the block
 * sits: a trailer's iterator points past the packet's end, so it steps back first.
 */
template<class Base, uint32_t Capacity, const char* TypeName>
class RoceRawBlock : public Base
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId(TypeName)
                                .SetParent<Base>()
                                .SetGroupName("Paramsync")
                                .template AddConstructor<RoceRawBlock>();
        return tid;
    }

    TypeId
    GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t
    GetSerializedSize() const override
    {
        return size;
    }

    void
    Serialize(Buffer::Iterator i) const override
    {
        if constexpr (kIsTrailer)
        {
            i.Prev(size);
        }
        i.Write(bytes, size);
    }

    uint32_t
    Deserialize(Buffer::Iterator i) override
    {
        if constexpr (kIsTrailer)
        {
            i.Prev(size);
        }
        i.Read(bytes, size);
        return size;
    }

    void
    Print(std::ostream& os) const override
    {
        os << (kIsTrailer ? "trailer" : "header") << " bytes " << size;
    }

    uint8_t bytes[Capacity];
    uint32_t size{0};

  private:
    static constexpr bool kIsTrailer = std::is_base_of_v<Trailer, Base>;
};

constexpr char kRawBytesTypeName[] = "ns3::RoceRawBytes";
constexpr char kRawTrailerTypeName[] = "ns3::RoceRawTrailer";
using RoceRawBytes = RoceRawBlock<Header, 64, kRawBytesTypeName>;
using RoceRawTrailer = RoceRawBlock<Trailer, 8, kRawTrailerTypeName>;
NS_OBJECT_ENSURE_REGISTERED(RoceRawBytes);
NS_OBJECT_ENSURE_REGISTERED(RoceRawTrailer);

constexpr uint32_t kEthBytes = 14;
constexpr uint32_t kVlanBytes = 4;
constexpr uint32_t kIpBytes = 20;
constexpr uint32_t kUdpBytes = 8;
constexpr uint32_t kBthBytes = 12;
constexpr uint32_t kAethBytes = 4;
constexpr uint32_t kIcrcBytes = 4;
constexpr uint32_t kFcsBytes = 4;

/**
 * The RoCEv2 ICRC (IBA Vol. 1 Annex A17, RoCEv2, §A17.4.3.3 "ICRC"): CRC-32 as Ethernet's
 * over 8 bytes of ones standing in for the InfiniBand LRH, then the IPv4 header with its
 * variant fields (type of service, TTL, header checksum) set to ones, the UDP header with its
 * checksum set to ones, the BTH with its reserved byte (resv8a, byte 4) set to ones, the rest
 * of the transport headers and the payload (here zeros). `ip` points at the IPv4 header,
 * followed by `transportHeaderBytes` of UDP, BTH (and AETH).
 */
uint32_t
ComputeIcrc(const uint8_t* ip, uint32_t transportHeaderBytes, uint32_t payloadBytes)
{
    static constexpr uint8_t kOnes[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t masked[kIpBytes + kUdpBytes + kBthBytes + kAethBytes];
    const uint32_t n = kIpBytes + transportHeaderBytes;
    std::memcpy(masked, ip, n);
    masked[1] = 0xff;  // type of service (DSCP, ECN)
    masked[8] = 0xff;  // TTL
    masked[10] = 0xff; // header checksum
    masked[11] = 0xff;
    masked[kIpBytes + 6] = 0xff; // UDP checksum
    masked[kIpBytes + 7] = 0xff;
    masked[kIpBytes + kUdpBytes + 4] = 0xff; // BTH resv8a
    uint32_t reg = Crc32Update(kCrc32Preset, kOnes, sizeof(kOnes));
    reg = Crc32Update(reg, masked, n);
    return ~Crc32SkipZeros(reg, payloadBytes);
}

inline uint16_t
Be16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

inline uint32_t
Be24(const uint8_t* p)
{
    return (uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2];
}

void
HostMac(uint32_t rank, std::array<uint8_t, 6>& mac)
{
    mac = {0x02, 0x00, 0x00, uint8_t(rank >> 16), uint8_t(rank >> 8), uint8_t(rank)};
}

/// Rewrite byte 1 of the IPv4 header (and PCP) of a frame, keeping the IPv4 checksum and the
/// FCS right. The ICRC does not cover these fields. The FCS is updated by the CRC of the
/// change alone: CRC-32 is linear over GF(2), so for frames A and B of one length
/// FCS(A) ^ FCS(B) is the register fed from 0 with A ^ B (here the prefix's changed bytes,
/// then zeros up to the FCS).
template<typename F>
void
RewritePrefix(Ptr<Packet> frame, F&& edit)
{
    RoceRawBytes prefix;
    uint8_t head[18];
    frame->CopyData(head, 18);
    bool vlan = Be16(head + 12) == 0x8100;
    prefix.size = (vlan ? kEthBytes + kVlanBytes : kEthBytes) + kIpBytes;
    frame->CopyData(prefix.bytes, prefix.size);
    uint8_t before[kEthBytes + kVlanBytes + kIpBytes];
    std::memcpy(before, prefix.bytes, prefix.size);
    uint8_t* ip = prefix.bytes + prefix.size - kIpBytes;
    edit(prefix.bytes, vlan, ip);
    uint16_t c = RoceIpv4Header::Checksum(ip);
    ip[10] = c >> 8;
    ip[11] = c & 0xff;
    for (uint32_t k = 0; k < prefix.size; ++k)
    {
        before[k] ^= prefix.bytes[k];
    }
    const uint32_t delta = Crc32SkipZeros(Crc32Update(0, before, prefix.size),
                                          frame->GetSize() - kFcsBytes - prefix.size);
    RoceRawTrailer fcs;
    fcs.size = kFcsBytes;
    frame->RemoveTrailer(fcs);
    WriteCrc32(fcs.bytes, ReadCrc32(fcs.bytes) ^ delta);
    frame->AddTrailer(fcs);
    frame->RemoveAtStart(prefix.size);
    frame->AddHeader(prefix);
}

} // namespace

uint32_t
RoceHostIpv4(uint32_t hostRank)
{
    return (10u << 24) | (hostRank & 0x00ffffff);
}

uint32_t
RoceFrameBytes(uint32_t payloadBytes, bool vlan, bool aeth)
{
    uint32_t bytes = kEthBytes + (vlan ? kVlanBytes : 0) + kIpBytes + kUdpBytes + kBthBytes +
                     (aeth ? kAethBytes : 0) + payloadBytes + kIcrcBytes + kFcsBytes;
    return bytes < kMinFrameBytes ? kMinFrameBytes : bytes;
}

uint32_t
RoceWireBytes(uint32_t payloadBytes, bool vlan, bool aeth)
{
    return RoceFrameBytes(payloadBytes, vlan, aeth) + kFramingBytes;
}

Ptr<Packet>
BuildRoceFrame(const RoceFrameInfo& info)
{
    // The bytes RoceFrameHeader + RoceTrailer serialize (roce-header.h: VLAN id 0, IPv4
    // identification 0, DF, TTL 64, BTH M bit set, P_Key 0xffff), written here at fixed offsets
    // into one block: one Buffer write per frame instead of five headers, a trailer and their
    // virtual calls (a third of the cost of a packet-hop in an incast). The payload is the
    // packet's zero-filled virtual bytes; ICRC and FCS are real bytes after it, computed with
    // Crc32SkipZeros over the payload (a few multiplications, not one step per byte).
    NS_ABORT_MSG_IF(info.priority > 7, "RoCE frame priority " << int(info.priority) << " > 7");
    const bool aeth = RoceHasAeth(info.opcode);
    const uint32_t transport = kBthBytes + (aeth ? kAethBytes : 0) + info.payloadBytes + kIcrcBytes;
    RoceRawBytes h;
    uint8_t* b = h.bytes;
    std::array<uint8_t, 6> mac;
    HostMac(info.dstHost, mac);
    std::memcpy(b, mac.data(), 6);
    HostMac(info.srcHost, mac);
    std::memcpy(b + 6, mac.data(), 6);
    uint8_t* p = b + 12;
    if (info.vlan)
    {
        p[0] = 0x81;
        p[1] = 0x00;
        p[2] = static_cast<uint8_t>(info.priority << 5); // PCP, DEI 0, VLAN id 0
        p[3] = 0;
        p += kVlanBytes;
    }
    p[0] = 0x08; // IPv4
    p[1] = 0x00;
    uint8_t* ip = p + 2;
    const uint16_t totalLength = static_cast<uint16_t>(kIpBytes + kUdpBytes + transport);
    const uint8_t ecn = info.ecnCe ? 3 : (info.ecnCapable ? 2 : 0);
    const uint32_t src = RoceHostIpv4(info.srcHost);
    const uint32_t dst = RoceHostIpv4(info.dstHost);
    ip[0] = 0x45;
    ip[1] = static_cast<uint8_t>((info.priority << 5) | ecn); // DSCP = priority << 3
    ip[2] = totalLength >> 8;
    ip[3] = totalLength & 0xff;
    ip[4] = 0; // identification
    ip[5] = 0;
    ip[6] = 0x40; // don't fragment
    ip[7] = 0;
    ip[8] = 64; // TTL
    ip[9] = 17; // UDP
    for (int k = 0; k < 4; ++k)
    {
        ip[12 + k] = static_cast<uint8_t>(src >> (24 - 8 * k));
        ip[16 + k] = static_cast<uint8_t>(dst >> (24 - 8 * k));
    }
    const uint16_t c = RoceIpv4Header::Checksum(ip);
    ip[10] = c >> 8;
    ip[11] = c & 0xff;
    uint8_t* udp = ip + kIpBytes;
    const uint16_t udpLength = static_cast<uint16_t>(kUdpBytes + transport);
    udp[0] = info.udpSrcPort >> 8;
    udp[1] = info.udpSrcPort & 0xff;
    udp[2] = kRoceUdpPort >> 8;
    udp[3] = kRoceUdpPort & 0xff;
    udp[4] = udpLength >> 8;
    udp[5] = udpLength & 0xff;
    udp[6] = 0; // no UDP checksum
    udp[7] = 0;
    uint8_t* bth = udp + kUdpBytes;
    bth[0] = info.opcode;
    bth[1] = 0x40; // M bit; SE 0, pad count 0, TVer 0
    bth[2] = 0xff; // P_Key
    bth[3] = 0xff;
    bth[4] = info.becn ? 0x40 : 0; // FECN 0, BECN, 6 reserved bits
    bth[5] = static_cast<uint8_t>(info.destQp >> 16);
    bth[6] = static_cast<uint8_t>(info.destQp >> 8);
    bth[7] = static_cast<uint8_t>(info.destQp);
    bth[8] = info.ackRequest ? 0x80 : 0; // A bit, reserved
    bth[9] = static_cast<uint8_t>(info.psn >> 16);
    bth[10] = static_cast<uint8_t>(info.psn >> 8);
    bth[11] = static_cast<uint8_t>(info.psn);
    uint8_t* end = bth + kBthBytes;
    if (aeth)
    {
        end[0] = info.aethSyndrome;
        end[1] = static_cast<uint8_t>(info.aethMsn >> 16);
        end[2] = static_cast<uint8_t>(info.aethMsn >> 8);
        end[3] = static_cast<uint8_t>(info.aethMsn);
        end += kAethBytes;
    }
    h.size = static_cast<uint32_t>(end - b);
    // ICRC over the invariant fields, then the FCS over everything before it (payload zeros).
    RoceRawTrailer t;
    t.size = kIcrcBytes + kFcsBytes;
    WriteCrc32(t.bytes, ComputeIcrc(ip, static_cast<uint32_t>(end - udp), info.payloadBytes));
    uint32_t reg = Crc32Update(kCrc32Preset, b, h.size);
    reg = Crc32SkipZeros(reg, info.payloadBytes);
    reg = Crc32Update(reg, t.bytes, kIcrcBytes);
    WriteCrc32(t.bytes + kIcrcBytes, ~reg);
    Ptr<Packet> frame = Create<Packet>(info.payloadBytes);
    frame->AddHeader(h);
    frame->AddTrailer(t);
    return frame;
}

RoceFrameInfo
RoceFrameInfoAsParsed(const RoceFrameInfo& info)
{
    RoceFrameInfo r = info;
    r.srcHost &= 0xffffff;
    r.dstHost &= 0xffffff;
    r.destQp &= 0xffffff;
    r.psn &= 0xffffff;
    r.ecnCapable = info.ecnCe || info.ecnCapable;
    if (RoceHasAeth(info.opcode))
    {
        r.aethMsn &= 0xffffff;
    }
    else
    {
        r.aethSyndrome = 0;
        r.aethMsn = 0;
    }
    return r;
}

bool
ReadRoceFrame(Ptr<const Packet> frame, RoceFrameInfo& info)
{
    uint8_t b[kEthBytes + kVlanBytes + kIpBytes + kUdpBytes + kBthBytes + kAethBytes];
    uint32_t n = frame->CopyData(b, sizeof(b));
    if (n < kEthBytes + kIpBytes + kUdpBytes + kBthBytes)
    {
        return false;
    }
    uint32_t off = 12;
    info.vlan = Be16(b + off) == 0x8100;
    uint8_t pcp = 0;
    if (info.vlan)
    {
        pcp = b[off + 2] >> 5;
        off += kVlanBytes;
    }
    if (Be16(b + off) != 0x0800)
    {
        return false;
    }
    const uint8_t* ip = b + off + 2;
    if (ip[9] != 17)
    {
        return false;
    }
    const uint8_t* udp = ip + kIpBytes;
    if (Be16(udp + 2) != kRoceUdpPort)
    {
        return false;
    }
    const uint8_t* bth = udp + kUdpBytes;
    info.priority = info.vlan ? pcp : static_cast<uint8_t>(ip[1] >> 5);
    uint8_t ecn = ip[1] & 3;
    info.ecnCe = ecn == 3;
    info.ecnCapable = ecn != 0;
    info.srcHost = Be24(ip + 13);
    info.dstHost = Be24(ip + 17);
    info.udpSrcPort = Be16(udp);
    info.opcode = bth[0];
    info.destQp = Be24(bth + 5);
    info.ackRequest = bth[8] & 0x80;
    info.becn = bth[4] & 0x40;
    info.psn = Be24(bth + 9);
    bool aeth = RoceHasAeth(info.opcode);
    if (aeth)
    {
        if (n < static_cast<uint32_t>(bth - b) + kBthBytes + kAethBytes)
        {
            return false;
        }
        info.aethSyndrome = bth[12];
        info.aethMsn = Be24(bth + 13);
    }
    else
    {
        info.aethSyndrome = 0;
        info.aethMsn = 0;
    }
    uint32_t udpLen = Be16(udp + 4);
    uint32_t overhead = kUdpBytes + kBthBytes + (aeth ? kAethBytes : 0) + kIcrcBytes;
    info.payloadBytes = udpLen >= overhead ? udpLen - overhead : 0;
    return true;
}

uint8_t
FramePriorityFromHead(const uint8_t* head)
{
    uint16_t type = Be16(head + 12);
    if (type == 0x8100)
    {
        return head[14] >> 5;
    }
    if (type == 0x0800)
    {
        return head[15] >> 5; // DSCP >> 3 = TOS >> 5
    }
    return 0;
}

uint8_t
ReadFramePriority(Ptr<const Packet> frame)
{
    uint8_t b[18];
    if (frame->CopyData(b, 18) < 18)
    {
        return 0;
    }
    return FramePriorityFromHead(b);
}

bool
MarkRoceFrameCe(Ptr<Packet> frame)
{
    bool capable = true;
    RewritePrefix(frame, [&capable](uint8_t*, bool, uint8_t* ip) {
        if ((ip[1] & 3) == 0)
        {
            capable = false;
            return;
        }
        ip[1] |= 3;
    });
    return capable;
}

void
SetRoceFramePriority(Ptr<Packet> frame, uint8_t priority)
{
    RewritePrefix(frame, [priority](uint8_t* eth, bool vlan, uint8_t* ip) {
        if (vlan)
        {
            eth[14] = static_cast<uint8_t>((eth[14] & 0x1f) | (priority << 5));
        }
        ip[1] = static_cast<uint8_t>((priority << 5) | (ip[1] & 0x1f)); // DSCP = priority << 3
    });
}

} // namespace ns3
