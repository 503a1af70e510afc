#include "pfc-frame-info-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcFrameInfoTag);

namespace
{
/// Flag bits of the one flags byte (RoceFrameInfo's booleans).
constexpr uint8_t kEcnCapable = 1;
constexpr uint8_t kEcnCe = 2;
constexpr uint8_t kAckRequest = 4;
constexpr uint8_t kBecn = 8;
constexpr uint8_t kVlan = 16;
/// Five uint32 (src, dst, destQp, psn, aethMsn), payloadBytes, bytes; a uint16 port; four
/// uint8 (priority, opcode, syndrome, flags).
constexpr uint32_t kSize = 7 * 4 + 2 + 4;
} // namespace

TypeId
PfcFrameInfoTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcFrameInfoTag")
                            .SetParent<Tag>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<PfcFrameInfoTag>();
    return tid;
}

TypeId
PfcFrameInfoTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
PfcFrameInfoTag::GetSerializedSize() const
{
    return kSize;
}

void
PfcFrameInfoTag::Serialize(TagBuffer buf) const
{
    buf.WriteU32(info.srcHost);
    buf.WriteU32(info.dstHost);
    buf.WriteU32(info.destQp);
    buf.WriteU32(info.psn);
    buf.WriteU32(info.aethMsn);
    buf.WriteU32(info.payloadBytes);
    buf.WriteU32(bytes);
    buf.WriteU16(info.udpSrcPort);
    buf.WriteU8(info.priority);
    buf.WriteU8(info.opcode);
    buf.WriteU8(info.aethSyndrome);
    buf.WriteU8((info.ecnCapable ? kEcnCapable : 0) | (info.ecnCe ? kEcnCe : 0) |
                (info.ackRequest ? kAckRequest : 0) | (info.becn ? kBecn : 0) |
                (info.vlan ? kVlan : 0));
}

void
PfcFrameInfoTag::Deserialize(TagBuffer buf)
{
    info.srcHost = buf.ReadU32();
    info.dstHost = buf.ReadU32();
    info.destQp = buf.ReadU32();
    info.psn = buf.ReadU32();
    info.aethMsn = buf.ReadU32();
    info.payloadBytes = buf.ReadU32();
    bytes = buf.ReadU32();
    info.udpSrcPort = buf.ReadU16();
    info.priority = buf.ReadU8();
    info.opcode = buf.ReadU8();
    info.aethSyndrome = buf.ReadU8();
    const uint8_t flags = buf.ReadU8();
    info.ecnCapable = (flags & kEcnCapable) != 0;
    info.ecnCe = (flags & kEcnCe) != 0;
    info.ackRequest = (flags & kAckRequest) != 0;
    info.becn = (flags & kBecn) != 0;
    info.vlan = (flags & kVlan) != 0;
}

void
PfcFrameInfoTag::Print(std::ostream& os) const
{
    os << "src=" << info.srcHost << " dst=" << info.dstHost << " psn=" << info.psn
       << " bytes=" << bytes;
}

} // namespace ns3
