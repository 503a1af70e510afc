// RoCEv2 and PFC frame sizes and bytes: shared test bodies (model-checks.h). Sizes derived by
// hand from ARCHITECTURE.md, Network model: Ethernet 14, 802.1Q 4, IPv4 20, UDP 8, BTH 12, AETH 4,
// ICRC 4, FCS 4, and preamble+SFD+IFG 20 on the wire.
#include "model-checks.h"

#include "ns3/pfc-header.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-header.h"

#include <array>

namespace ns3
{

std::vector<uint8_t>
TestFrameBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

RoceFrameInfo
TestDataFrameInfo()
{
    RoceFrameInfo i;
    i.srcHost = 0x010203; // 10.1.2.3
    i.dstHost = 0x000a0b; // 10.0.10.11
    i.udpSrcPort = 0xc123;
    i.priority = 5;
    i.opcode = RoceOpcode::kSendMiddle;
    i.destQp = 0xabcdef;
    i.psn = 0x123456;
    i.ackRequest = true;
    i.payloadBytes = 1000;
    return i;
}

void
CheckRoceDataFrameSizeWithVlan(CheckReporter& r)
{
    // 14 + 4 + 20 + 8 + 12 + 1000 + 4 + 4 = 1066 B frame, + 20 B framing = 1086 B on the wire.
    Ptr<Packet> p = BuildRoceFrame(TestDataFrameInfo());
    PS_CHECK_EQ(r, p->GetSize(), 1066u);
    PS_CHECK_EQ(r, RoceFrameBytes(1000, true, false), 1066u);
    PS_CHECK_EQ(r, RoceWireBytes(1000, true, false), 1086u);
}

void
CheckRoceFrameSizesWithoutVlanAndAck(CheckReporter& r)
{
    // No tag: 14 + 20 + 8 + 12 + 1000 + 4 + 4 = 1062; ACK with tag: 14+4+20+8+12+4+4+4 = 70;
    // ACK without tag 66; both >= 64 so no padding. A 4096 B payload: 4096 + 70 - 4 = 4162.
    RoceFrameInfo i = TestDataFrameInfo();
    i.vlan = false;
    PS_CHECK_EQ(r, BuildRoceFrame(i)->GetSize(), 1062u);
    RoceFrameInfo a = TestDataFrameInfo();
    a.opcode = RoceOpcode::kAck;
    a.payloadBytes = 0;
    PS_CHECK_EQ(r, BuildRoceFrame(a)->GetSize(), 70u);
    PS_CHECK_EQ(r, RoceWireBytes(0, true, true), 90u);
    PS_CHECK_EQ(r, RoceFrameBytes(0, false, true), 66u);
    PS_CHECK_EQ(r, RoceFrameBytes(4096, true, false), 4162u);
    // A 0-payload SEND without tag would be 14+20+8+12+4+4 = 62 < 64: padded to the minimum.
    PS_CHECK_EQ(r, RoceFrameBytes(0, false, false), 64u);
}

void
CheckPfcFrameBytes(CheckReporter& r)
{
    std::array<uint8_t, 6> src{2, 0, 0, 0, 0, 9};
    Ptr<Packet> p = BuildPfcFrame(3, 0x1234, src);
    if (!PS_CHECK_EQ(r, p->GetSize(), 64u)) // padded to the minimum frame incl. FCS
    {
        return;
    }
    PS_CHECK(r, IsPfcFrame(p));
    auto b = TestFrameBytes(p);
    PS_CHECK_EQ(r, b[0], 0x01); // 01:80:C2:00:00:01
    PS_CHECK_EQ(r, b[1], 0x80);
    PS_CHECK_EQ(r, b[2], 0xc2);
    PS_CHECK_EQ(r, b[5], 0x01);
    PS_CHECK_EQ(r, b[11], 9);
    PS_CHECK_EQ(r, b[12], 0x88); // EtherType 0x8808
    PS_CHECK_EQ(r, b[13], 0x08);
    PS_CHECK_EQ(r, b[14], 0x01); // opcode 0x0101
    PS_CHECK_EQ(r, b[15], 0x01);
    PS_CHECK_EQ(r, b[16], 0x00); // class-enable vector 1 << 3 = 0x0008
    PS_CHECK_EQ(r, b[17], 0x08);
    // quanta[3] at 18 + 2*3 = 24
    PS_CHECK_EQ(r, b[24], 0x12);
    PS_CHECK_EQ(r, b[25], 0x34);
    PS_CHECK_EQ(r, b[18], 0x00);
    PfcHeader h;
    p->PeekHeader(h);
    PS_CHECK_EQ(r, h.opcode, PfcHeader::kOpcode);
    PS_CHECK(r, h.IsEnabled(3));
    PS_CHECK(r, !h.IsEnabled(2));
    PS_CHECK_EQ(r, h.quanta[3], 0x1234);
    PS_CHECK(r, !IsPfcFrame(BuildRoceFrame(TestDataFrameInfo())));
    RoceFrameInfo dummy;
    PS_CHECK(r, !ReadRoceFrame(p, dummy));
}

} // namespace ns3
