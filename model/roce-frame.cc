#include "roce-frame.h"

#include "roce-header.h"

#include "ns3/abort.h"

#include <cstring>

namespace ns3
{

namespace
{

/// Frame prefix bytes rewritten in place (Ethernet + 802.1Q + IPv4 at most).
class RoceRawPrefix : public Header
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RoceRawPrefix")
                                .SetParent<Header>()
                                .SetGroupName("Paramsync")
                                .AddConstructor<RoceRawPrefix>();
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
        i.Write(bytes, size);
    }

    uint32_t
    Deserialize(Buffer::Iterator i) override
    {
        i.Read(bytes, size);
        return size;
    }

    void
    Print(std::ostream& os) const override
    {
        os << "prefix " << size << " B";
    }

    uint8_t bytes[40];
    uint32_t size{0};
};

NS_OBJECT_ENSURE_REGISTERED(RoceRawPrefix);

constexpr uint32_t kEthBytes = 14;
constexpr uint32_t kVlanBytes = 4;
constexpr uint32_t kIpBytes = 20;
constexpr uint32_t kUdpBytes = 8;
constexpr uint32_t kBthBytes = 12;
constexpr uint32_t kAethBytes = 4;
constexpr uint32_t kIcrcBytes = 4;
constexpr uint32_t kFcsBytes = 4;

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

/// Rewrite byte 1 of the IPv4 header (and PCP) of a frame, keeping the checksum right.
template<typename F>
void
RewritePrefix(Ptr<Packet> frame, F&& edit)
{
    RoceRawPrefix prefix;
    uint8_t head[18];
    frame->CopyData(head, 18);
    bool vlan = Be16(head + 12) == 0x8100;
    prefix.size = (vlan ? kEthBytes + kVlanBytes : kEthBytes) + kIpBytes;
    frame->CopyData(prefix.bytes, prefix.size);
    uint8_t* ip = prefix.bytes + prefix.size - kIpBytes;
    edit(prefix.bytes, vlan, ip);
    uint16_t c = RoceIpv4Header::Checksum(ip);
    ip[10] = c >> 8;
    ip[11] = c & 0xff;
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
    NS_ABORT_MSG_IF(info.priority > 7, "RoCE frame priority " << int(info.priority) << " > 7");
    RoceFrameHeader h;
    h.hasAeth = RoceHasAeth(info.opcode);
    uint32_t transport = kBthBytes + (h.hasAeth ? kAethBytes : 0) + info.payloadBytes + kIcrcBytes;
    HostMac(info.dstHost, h.eth.dst);
    HostMac(info.srcHost, h.eth.src);
    h.eth.vlan = info.vlan;
    h.eth.pcp = info.priority;
    h.eth.etherType = 0x0800;
    h.ip.dscp = static_cast<uint8_t>(info.priority << 3);
    h.ip.ecn = info.ecnCe ? 3 : (info.ecnCapable ? 2 : 0);
    h.ip.totalLength = static_cast<uint16_t>(kIpBytes + kUdpBytes + transport);
    h.ip.src = RoceHostIpv4(info.srcHost);
    h.ip.dst = RoceHostIpv4(info.dstHost);
    h.udp.srcPort = info.udpSrcPort;
    h.udp.dstPort = kRoceUdpPort;
    h.udp.length = static_cast<uint16_t>(kUdpBytes + transport);
    h.bth.opcode = info.opcode;
    h.bth.destQp = info.destQp;
    h.bth.psn = info.psn;
    h.bth.ackRequest = info.ackRequest;
    h.aeth.syndrome = info.aethSyndrome;
    h.aeth.msn = info.aethMsn;
    Ptr<Packet> p = Create<Packet>(info.payloadBytes);
    p->AddHeader(h);
    p->AddTrailer(RoceTrailer());
    return p;
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
