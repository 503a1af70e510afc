#include "roce-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceEthernetHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceIpv4Header);
NS_OBJECT_ENSURE_REGISTERED(RoceUdpHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceAethHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceTrailer);
NS_OBJECT_ENSURE_REGISTERED(RoceFrameHeader);

// ---------------------------------------------------------------- Ethernet

TypeId
RoceEthernetHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceEthernetHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceEthernetHeader>();
    return tid;
}

TypeId
RoceEthernetHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceEthernetHeader::GetSerializedSize() const
{
    return vlan ? 18 : 14;
}

void
RoceEthernetHeader::Serialize(Buffer::Iterator i) const
{
    i.Write(dst.data(), 6);
    i.Write(src.data(), 6);
    if (vlan)
    {
        i.WriteHtonU16(0x8100);
        i.WriteHtonU16(static_cast<uint16_t>(((pcp & 7) << 13) | (vid & 0x0fff)));
    }
    i.WriteHtonU16(etherType);
}

uint32_t
RoceEthernetHeader::Deserialize(Buffer::Iterator i)
{
    i.Read(dst.data(), 6);
    i.Read(src.data(), 6);
    uint16_t type = i.ReadNtohU16();
    vlan = (type == 0x8100);
    if (vlan)
    {
        uint16_t tci = i.ReadNtohU16();
        pcp = tci >> 13;
        vid = tci & 0x0fff;
        type = i.ReadNtohU16();
    }
    etherType = type;
    return GetSerializedSize();
}

void
RoceEthernetHeader::Print(std::ostream& os) const
{
    os << "ethertype=0x" << std::hex << etherType << std::dec;
    if (vlan)
    {
        os << " pcp=" << int(pcp) << " vid=" << vid;
    }
}

// ---------------------------------------------------------------- IPv4

TypeId
RoceIpv4Header::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIpv4Header")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceIpv4Header>();
    return tid;
}

TypeId
RoceIpv4Header::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceIpv4Header::GetSerializedSize() const
{
    return 20;
}

uint16_t
RoceIpv4Header::Checksum(const uint8_t* h)
{
    uint32_t sum = 0;
    for (int k = 0; k < 20; k += 2)
    {
        if (k == 10)
        {
            continue; // the checksum field itself
        }
        sum += (uint32_t(h[k]) << 8) | h[k + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum & 0xffff);
}

void
RoceIpv4Header::Serialize(Buffer::Iterator i) const
{
    uint8_t h[20];
    h[0] = 0x45;
    h[1] = static_cast<uint8_t>((dscp << 2) | (ecn & 3));
    h[2] = totalLength >> 8;
    h[3] = totalLength & 0xff;
    h[4] = identification >> 8;
    h[5] = identification & 0xff;
    h[6] = 0x40; // don't fragment
    h[7] = 0;
    h[8] = ttl;
    h[9] = protocol;
    h[10] = 0;
    h[11] = 0;
    for (int k = 0; k < 4; ++k)
    {
        h[12 + k] = static_cast<uint8_t>(src >> (24 - 8 * k));
        h[16 + k] = static_cast<uint8_t>(dst >> (24 - 8 * k));
    }
    uint16_t c = Checksum(h);
    h[10] = c >> 8;
    h[11] = c & 0xff;
    i.Write(h, 20);
}

uint32_t
RoceIpv4Header::Deserialize(Buffer::Iterator i)
{
    uint8_t h[20];
    i.Read(h, 20);
    dscp = h[1] >> 2;
    ecn = h[1] & 3;
    totalLength = static_cast<uint16_t>((h[2] << 8) | h[3]);
    identification = static_cast<uint16_t>((h[4] << 8) | h[5]);
    ttl = h[8];
    protocol = h[9];
    src = (uint32_t(h[12]) << 24) | (uint32_t(h[13]) << 16) | (uint32_t(h[14]) << 8) | h[15];
    dst = (uint32_t(h[16]) << 24) | (uint32_t(h[17]) << 16) | (uint32_t(h[18]) << 8) | h[19];
    checksumOk = Checksum(h) == static_cast<uint16_t>((h[10] << 8) | h[11]);
    return 20;
}

void
RoceIpv4Header::Print(std::ostream& os) const
{
    os << "dscp=" << int(dscp) << " ecn=" << int(ecn) << " len=" << totalLength;
}

// ---------------------------------------------------------------- UDP

TypeId
RoceUdpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceUdpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceUdpHeader>();
    return tid;
}

TypeId
RoceUdpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceUdpHeader::GetSerializedSize() const
{
    return 8;
}

void
RoceUdpHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(srcPort);
    i.WriteHtonU16(dstPort);
    i.WriteHtonU16(length);
    i.WriteHtonU16(0);
}

uint32_t
RoceUdpHeader::Deserialize(Buffer::Iterator i)
{
    srcPort = i.ReadNtohU16();
    dstPort = i.ReadNtohU16();
    length = i.ReadNtohU16();
    i.ReadNtohU16();
    return 8;
}

void
RoceUdpHeader::Print(std::ostream& os) const
{
    os << srcPort << " > " << dstPort << " len=" << length;
}

// ---------------------------------------------------------------- BTH

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return 12;
}

void
RoceBthHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(opcode);
    i.WriteU8(static_cast<uint8_t>((solicitedEvent ? 0x80 : 0) | (migReq ? 0x40 : 0) |
                                   ((padCount & 3) << 4) | (tver & 0x0f)));
    i.WriteHtonU16(pkey);
    i.WriteHtonU32(destQp & 0x00ffffff); // first byte reserved
    i.WriteHtonU32((ackRequest ? 0x80000000u : 0u) | (psn & 0x00ffffff));
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator i)
{
    opcode = i.ReadU8();
    uint8_t f = i.ReadU8();
    solicitedEvent = f & 0x80;
    migReq = f & 0x40;
    padCount = (f >> 4) & 3;
    tver = f & 0x0f;
    pkey = i.ReadNtohU16();
    destQp = i.ReadNtohU32() & 0x00ffffff;
    uint32_t w = i.ReadNtohU32();
    ackRequest = w & 0x80000000u;
    psn = w & 0x00ffffff;
    return 12;
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << int(opcode) << std::dec << " qp=" << destQp << " psn=" << psn
       << (ackRequest ? " A" : "");
}

// ---------------------------------------------------------------- AETH

TypeId
RoceAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceAethHeader>();
    return tid;
}

TypeId
RoceAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceAethHeader::GetSerializedSize() const
{
    return 4;
}

void
RoceAethHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU32((uint32_t(syndrome) << 24) | (msn & 0x00ffffff));
}

uint32_t
RoceAethHeader::Deserialize(Buffer::Iterator i)
{
    uint32_t w = i.ReadNtohU32();
    syndrome = w >> 24;
    msn = w & 0x00ffffff;
    return 4;
}

void
RoceAethHeader::Print(std::ostream& os) const
{
    os << "syndrome=0x" << std::hex << int(syndrome) << std::dec << " msn=" << msn;
}

// ---------------------------------------------------------------- trailer

TypeId
RoceTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceTrailer>();
    return tid;
}

TypeId
RoceTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceTrailer::GetSerializedSize() const
{
    return 8;
}

void
RoceTrailer::Serialize(Buffer::Iterator end) const
{
    // CRCs go on the wire least significant byte first (as Ethernet sends its FCS).
    end.Prev(8);
    end.WriteU32(icrc);
    end.WriteU32(fcs);
}

uint32_t
RoceTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(8);
    icrc = end.ReadU32();
    fcs = end.ReadU32();
    return 8;
}

void
RoceTrailer::Print(std::ostream& os) const
{
    os << "icrc fcs";
}

// ---------------------------------------------------------------- whole frame

TypeId
RoceFrameHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceFrameHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceFrameHeader>();
    return tid;
}

TypeId
RoceFrameHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceFrameHeader::GetSerializedSize() const
{
    return eth.GetSerializedSize() + 20 + 8 + 12 + (hasAeth ? 4 : 0);
}

void
RoceFrameHeader::Serialize(Buffer::Iterator i) const
{
    eth.Serialize(i);
    i.Next(eth.GetSerializedSize());
    ip.Serialize(i);
    i.Next(20);
    udp.Serialize(i);
    i.Next(8);
    bth.Serialize(i);
    i.Next(12);
    if (hasAeth)
    {
        aeth.Serialize(i);
    }
}

uint32_t
RoceFrameHeader::Deserialize(Buffer::Iterator i)
{
    uint32_t n = eth.Deserialize(i);
    i.Next(n);
    ip.Deserialize(i);
    i.Next(20);
    udp.Deserialize(i);
    i.Next(8);
    bth.Deserialize(i);
    i.Next(12);
    hasAeth = bth.opcode == 0x11;
    if (hasAeth)
    {
        aeth.Deserialize(i);
    }
    return GetSerializedSize();
}

void
RoceFrameHeader::Print(std::ostream& os) const
{
    eth.Print(os);
    os << " | ";
    ip.Print(os);
    os << " | ";
    udp.Print(os);
    os << " | ";
    bth.Print(os);
    if (hasAeth)
    {
        os << " | ";
        aeth.Print(os);
    }
}

} // namespace ns3
