#include "pfc-header.h"

#include "ethernet-crc.h"

#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return kFrameBytes;
}

void
PfcHeader::SetQuanta(uint8_t priority, uint16_t q)
{
    classEnable |= static_cast<uint16_t>(1u << priority);
    quanta[priority] = q;
}

void
PfcHeader::Serialize(Buffer::Iterator i) const
{
    // Built in a block first: the FCS covers the 60 bytes before it (802.3 §3.2.9).
    uint8_t b[kFrameBytes] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
    std::memcpy(b + 6, src.data(), 6);
    const auto put16 = [&b](uint32_t at, uint16_t v) {
        b[at] = static_cast<uint8_t>(v >> 8);
        b[at + 1] = static_cast<uint8_t>(v);
    };
    put16(12, kEtherType);
    put16(14, opcode);
    put16(16, classEnable);
    for (uint32_t p = 0; p < quanta.size(); ++p)
    {
        put16(18 + 2 * p, quanta[p]);
    }
    // 14 + 2 + 2 + 16 = 34 B so far; zero padding to 60 and the 4 B FCS make 64.
    WriteCrc32(b + kFrameBytes - 4, Crc32(b, kFrameBytes - 4));
    i.Write(b, kFrameBytes);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator i)
{
    i.Next(6);
    i.Read(src.data(), 6);
    i.ReadNtohU16(); // EtherType (checked by IsPfcFrame)
    opcode = i.ReadNtohU16();
    classEnable = i.ReadNtohU16();
    for (uint16_t& q : quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(kFrameBytes - 34);
    return kFrameBytes;
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << opcode << " classes=0x" << classEnable << std::dec;
    for (int p = 0; p < 8; ++p)
    {
        if (IsEnabled(p))
        {
            os << " q" << p << "=" << quanta[p];
        }
    }
}

Ptr<Packet>
BuildPfcFrame(uint8_t priority, uint16_t quanta, const std::array<uint8_t, 6>& src)
{
    PfcHeader h;
    h.src = src;
    h.SetQuanta(priority, quanta);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return p;
}

bool
IsPfcFrame(Ptr<const Packet> frame)
{
    uint8_t b[14];
    if (frame->CopyData(b, 14) < 14)
    {
        return false;
    }
    return ((b[12] << 8) | b[13]) == PfcHeader::kEtherType;
}

} // namespace ns3
