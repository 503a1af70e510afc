// CRC-32 as Ethernet: the standard check value, the zero-run step against byte-by-byte, and
// the FCS and ICRC of built RoCEv2 and PFC frames against a bit-by-bit reference written
// here from the definition (802.3 §3.2.9; RoCEv2 annex for the ICRC's masked fields).
#include "ns3/ethernet-crc.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-frame.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// Bit-at-a-time CRC-32 (reflected 0x04C11DB7, preset ones, complemented): the definition.
uint32_t
BitwiseCrc32(const std::vector<uint8_t>& bytes)
{
    uint32_t c = 0xFFFFFFFFu;
    for (uint8_t b : bytes)
    {
        c ^= b;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        }
    }
    return ~c;
}

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

uint32_t
LittleEndianAt(const std::vector<uint8_t>& v, std::size_t at)
{
    return uint32_t(v[at]) | (uint32_t(v[at + 1]) << 8) | (uint32_t(v[at + 2]) << 16) |
           (uint32_t(v[at + 3]) << 24);
}

/// The FCS a frame must carry: the CRC of everything before its last 4 bytes.
uint32_t
ExpectedFcs(const std::vector<uint8_t>& frame)
{
    return BitwiseCrc32(std::vector<uint8_t>(frame.begin(), frame.end() - 4));
}

/// The ICRC by the annex: 8 bytes of ones, then from the IPv4 header to the ICRC with TOS,
/// TTL, IPv4 checksum, UDP checksum and the BTH reserved byte set to ones.
uint32_t
ExpectedIcrc(const std::vector<uint8_t>& frame, bool vlan)
{
    const std::size_t ip = vlan ? 18 : 14;
    std::vector<uint8_t> m(8, 0xff);
    m.insert(m.end(), frame.begin() + ip, frame.end() - 8);
    const std::size_t o = 8; // where the IPv4 header starts in m
    m[o + 1] = 0xff;
    m[o + 8] = 0xff;
    m[o + 10] = m[o + 11] = 0xff;
    m[o + 20 + 6] = m[o + 20 + 7] = 0xff;
    m[o + 28 + 4] = 0xff;
    return BitwiseCrc32(m);
}

} // namespace

TEST(EthernetCrc, StandardCheckValue)
{
    // CRC-32 (ISO-HDLC, the Ethernet one) of the ASCII "123456789" is 0xCBF43926.
    const char* s = "123456789";
    EXPECT_EQ(Crc32(reinterpret_cast<const uint8_t*>(s), 9), 0xCBF43926u);
    EXPECT_EQ(BitwiseCrc32(std::vector<uint8_t>(s, s + 9)), 0xCBF43926u);
}

TEST(EthernetCrc, SkippingZerosEqualsFeedingThem)
{
    for (uint64_t n : {0u, 1u, 3u, 8u, 1000u, 4096u, 9000u})
    {
        const std::vector<uint8_t> head = {0x12, 0x34, 0x56, 0x78, 0x9a};
        std::vector<uint8_t> all = head;
        all.resize(head.size() + n, 0);
        const uint32_t reg = Crc32Update(kCrc32Preset, head.data(), head.size());
        EXPECT_EQ(~Crc32SkipZeros(reg, n), BitwiseCrc32(all)) << n;
    }
}

TEST(RoceFrameCrc, FcsAndIcrcOfDataAckAndCnp)
{
    RoceFrameInfo data;
    data.srcHost = 3;
    data.dstHost = 0x010203;
    data.udpSrcPort = 49153;
    data.priority = 3;
    data.opcode = RoceOpcode::kSendMiddle;
    data.destQp = 0x100;
    data.psn = 0x123456;
    data.payloadBytes = 1000;
    RoceFrameInfo ack = data;
    ack.opcode = RoceOpcode::kAck;
    ack.payloadBytes = 0;
    ack.aethMsn = 7;
    ack.vlan = false;
    RoceFrameInfo cnp = data;
    cnp.opcode = RoceOpcode::kCnp;
    cnp.payloadBytes = 16;
    for (const RoceFrameInfo& in : {data, ack, cnp})
    {
        const auto frame = Bytes(BuildRoceFrame(in));
        const std::size_t n = frame.size();
        EXPECT_EQ(LittleEndianAt(frame, n - 4), ExpectedFcs(frame)) << int(in.opcode);
        EXPECT_EQ(LittleEndianAt(frame, n - 8), ExpectedIcrc(frame, in.vlan)) << int(in.opcode);
    }
}

TEST(RoceFrameCrc, RewritesKeepTheFcsRightAndTheIcrcUnchanged)
{
    RoceFrameInfo in;
    in.srcHost = 1;
    in.dstHost = 2;
    in.priority = 3;
    in.payloadBytes = 4096;
    Ptr<Packet> p = BuildRoceFrame(in);
    const uint32_t icrc = LittleEndianAt(Bytes(p), p->GetSize() - 8);
    ASSERT_TRUE(MarkRoceFrameCe(p));
    auto marked = Bytes(p);
    EXPECT_EQ(marked[19] & 3, 3); // CE in the IPv4 TOS (byte 1 of the header at 18)
    EXPECT_EQ(LittleEndianAt(marked, marked.size() - 4), ExpectedFcs(marked));
    // TOS is a variant field: the ICRC stays, and is still right by the annex.
    EXPECT_EQ(LittleEndianAt(marked, marked.size() - 8), icrc);
    EXPECT_EQ(ExpectedIcrc(marked, true), icrc);
    SetRoceFramePriority(p, 5);
    auto moved = Bytes(p);
    EXPECT_EQ(moved[14] >> 5, 5);
    EXPECT_EQ(LittleEndianAt(moved, moved.size() - 4), ExpectedFcs(moved));
    EXPECT_EQ(LittleEndianAt(moved, moved.size() - 8), icrc);
}

TEST(PfcFrameCrc, PauseAndResumeCarryTheirFcs)
{
    for (uint16_t quanta : {uint16_t(0xffff), uint16_t(0)})
    {
        const auto frame = Bytes(BuildPfcFrame(3, quanta, {0x02, 0, 0, 0, 0, 9}));
        ASSERT_EQ(frame.size(), 64u);
        EXPECT_EQ(LittleEndianAt(frame, 60), ExpectedFcs(frame));
    }
}
