// Header round trips and frame sizes; three bodies live in roce-header-checks.cc (shared
// with the ns-3 TestSuite paramsync-roce-header). Sizes derived by hand from
// ARCHITECTURE.md, Network model: Ethernet 14, 802.1Q 4, IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4,
// FCS 4, and preamble+SFD+IFG 20 on the wire.
#include "gtest-reporter.h"
#include "model-checks.h"

#include "ns3/pfc-header.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-header.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

SHARED_BODY_TEST(RoceHeaderTest, DataFrameSizeWithVlan, CheckRoceDataFrameSizeWithVlan)

SHARED_BODY_TEST(RoceHeaderTest, FrameSizesWithoutVlanAndAck, CheckRoceFrameSizesWithoutVlanAndAck)

TEST(RoceHeaderTest, DataFrameBytesAtFixedOffsets)
{
    auto b = TestFrameBytes(BuildRoceFrame(TestDataFrameInfo()));
    // dst MAC 02:00:00:00:0a:0b, src MAC 02:00:00:01:02:03
    EXPECT_EQ(b[0], 0x02);
    EXPECT_EQ(b[4], 0x0a);
    EXPECT_EQ(b[5], 0x0b);
    EXPECT_EQ(b[9], 0x01);
    EXPECT_EQ(b[11], 0x03);
    // 802.1Q: TPID 0x8100, TCI = PCP 5 << 13 = 0xa000
    EXPECT_EQ(b[12], 0x81);
    EXPECT_EQ(b[13], 0x00);
    EXPECT_EQ(b[14], 0xa0);
    EXPECT_EQ(b[15], 0x00);
    EXPECT_EQ(b[16], 0x08);
    EXPECT_EQ(b[17], 0x00);
    // IPv4 at 18: version/IHL 0x45; TOS = DSCP (5 << 3) << 2 | ECT(0) = 0xa0 | 0x02 = 0xa2
    EXPECT_EQ(b[18], 0x45);
    EXPECT_EQ(b[19], 0xa2);
    // total length = 20 + 8 + 12 + 1000 + 4 = 1044 = 0x0414
    EXPECT_EQ(b[20], 0x04);
    EXPECT_EQ(b[21], 0x14);
    EXPECT_EQ(b[27], 17); // UDP
    // src 10.1.2.3
    EXPECT_EQ(b[30], 10);
    EXPECT_EQ(b[31], 1);
    EXPECT_EQ(b[33], 3);
    // UDP at 38: src port 0xc123, dst port 4791 = 0x12b7, length 8 + 12 + 1000 + 4 = 1024
    EXPECT_EQ(b[38], 0xc1);
    EXPECT_EQ(b[39], 0x23);
    EXPECT_EQ(b[40], 0x12);
    EXPECT_EQ(b[41], 0xb7);
    EXPECT_EQ(b[42], 0x04);
    EXPECT_EQ(b[43], 0x00);
    // BTH at 46: opcode 0x01, flags M = 0x40, pkey 0xffff, QP at 51..53, A|PSN at 54..57
    EXPECT_EQ(b[46], 0x01);
    EXPECT_EQ(b[47], 0x40);
    EXPECT_EQ(b[48], 0xff);
    EXPECT_EQ(b[50], 0x00);
    EXPECT_EQ(b[51], 0xab);
    EXPECT_EQ(b[53], 0xef);
    EXPECT_EQ(b[54], 0x80);
    EXPECT_EQ(b[55], 0x12);
    EXPECT_EQ(b[57], 0x56);
    // IPv4 checksum verifies: the one's complement sum over the header is 0xffff.
    uint32_t sum = 0;
    for (int k = 18; k < 38; k += 2)
    {
        sum += (b[k] << 8) | b[k + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    EXPECT_EQ(sum, 0xffffu);
}

TEST(RoceHeaderTest, ReadRoceFrameRoundTrip)
{
    RoceFrameInfo in = TestDataFrameInfo();
    RoceFrameInfo out;
    ASSERT_TRUE(ReadRoceFrame(BuildRoceFrame(in), out));
    EXPECT_EQ(out.srcHost, in.srcHost);
    EXPECT_EQ(out.dstHost, in.dstHost);
    EXPECT_EQ(out.udpSrcPort, in.udpSrcPort);
    EXPECT_EQ(out.priority, in.priority);
    EXPECT_TRUE(out.ecnCapable);
    EXPECT_FALSE(out.ecnCe);
    EXPECT_EQ(out.opcode, in.opcode);
    EXPECT_EQ(out.destQp, in.destQp);
    EXPECT_EQ(out.psn, in.psn);
    EXPECT_TRUE(out.ackRequest);
    EXPECT_EQ(out.payloadBytes, 1000u);
    EXPECT_TRUE(out.vlan);

    RoceFrameInfo ack = TestDataFrameInfo();
    ack.vlan = false;
    ack.opcode = RoceOpcode::kAck;
    ack.payloadBytes = 0;
    ack.aethSyndrome = 0x60; // NAK: PSN sequence error
    ack.aethMsn = 0x00beef;
    ack.ackRequest = false;
    ASSERT_TRUE(ReadRoceFrame(BuildRoceFrame(ack), out));
    EXPECT_FALSE(out.vlan);
    EXPECT_EQ(out.priority, 5); // from DSCP 40 >> 3
    EXPECT_EQ(out.aethSyndrome, 0x60);
    EXPECT_EQ(out.aethMsn, 0x00beefu);
    EXPECT_EQ(out.payloadBytes, 0u);
    EXPECT_FALSE(out.ackRequest);
}

namespace
{
void
ExpectSameInfo(const RoceFrameInfo& a, const RoceFrameInfo& b)
{
    EXPECT_EQ(a.srcHost, b.srcHost);
    EXPECT_EQ(a.dstHost, b.dstHost);
    EXPECT_EQ(a.udpSrcPort, b.udpSrcPort);
    EXPECT_EQ(a.priority, b.priority);
    EXPECT_EQ(a.ecnCapable, b.ecnCapable);
    EXPECT_EQ(a.ecnCe, b.ecnCe);
    EXPECT_EQ(a.opcode, b.opcode);
    EXPECT_EQ(a.destQp, b.destQp);
    EXPECT_EQ(a.psn, b.psn);
    EXPECT_EQ(a.ackRequest, b.ackRequest);
    EXPECT_EQ(a.aethSyndrome, b.aethSyndrome);
    EXPECT_EQ(a.aethMsn, b.aethMsn);
    EXPECT_EQ(a.payloadBytes, b.payloadBytes);
    EXPECT_EQ(a.vlan, b.vlan);
}
} // namespace

TEST(RoceHeaderTest, HeaderHandedAlongEqualsTheParsedOne)
{
    // The header a frame's maker hands along must be exactly what parsing the bytes gives,
    // or forwarding would depend on whether the previous hop handed it along.
    std::vector<RoceFrameInfo> cases;
    cases.push_back(TestDataFrameInfo());
    RoceFrameInfo cnp = TestDataFrameInfo();
    cnp.opcode = RoceOpcode::kCnp; // no AETH: its MSN is not on the wire and reads back 0
    cnp.payloadBytes = 16;
    cnp.ecnCapable = false;
    cnp.aethMsn = 7;
    cases.push_back(cnp);
    RoceFrameInfo ack = cnp;
    ack.opcode = RoceOpcode::kAck;
    ack.payloadBytes = 0; // padded to 64 B; the payload still reads 0
    ack.aethSyndrome = 0x60;
    ack.aethMsn = 0x1abcdef; // 25 bits: the wire keeps 24
    ack.psn = 0x1000005;
    ack.vlan = false;
    cases.push_back(ack);
    RoceFrameInfo ce = TestDataFrameInfo();
    ce.ecnCapable = false; // CE on the wire (11) also reads as ECN-capable
    ce.ecnCe = true;
    cases.push_back(ce);
    for (const auto& in : cases)
    {
        RoceFrameInfo parsed;
        ASSERT_TRUE(ReadRoceFrame(BuildRoceFrame(in), parsed));
        ExpectSameInfo(RoceFrameInfoAsParsed(in), parsed);
    }
}

namespace
{
/// The frame as the header classes serialize it (what BuildRoceFrame must equal byte for byte).
std::vector<uint8_t>
FrameFromHeaderClasses(const RoceFrameInfo& in)
{
    RoceFrameHeader h;
    h.hasAeth = in.opcode == RoceOpcode::kAck;
    const uint32_t transport = 12 + (h.hasAeth ? 4 : 0) + in.payloadBytes + 4;
    h.eth.dst = {
        0x02, 0, 0, uint8_t(in.dstHost >> 16), uint8_t(in.dstHost >> 8), uint8_t(in.dstHost)};
    h.eth.src = {
        0x02, 0, 0, uint8_t(in.srcHost >> 16), uint8_t(in.srcHost >> 8), uint8_t(in.srcHost)};
    h.eth.vlan = in.vlan;
    h.eth.pcp = in.priority;
    h.eth.etherType = 0x0800;
    h.ip.dscp = static_cast<uint8_t>(in.priority << 3);
    h.ip.ecn = in.ecnCe ? 3 : (in.ecnCapable ? 2 : 0);
    h.ip.totalLength = static_cast<uint16_t>(20 + 8 + transport);
    h.ip.src = RoceHostIpv4(in.srcHost);
    h.ip.dst = RoceHostIpv4(in.dstHost);
    h.udp.srcPort = in.udpSrcPort;
    h.udp.dstPort = 4791;
    h.udp.length = static_cast<uint16_t>(8 + transport);
    h.bth.opcode = in.opcode;
    h.bth.destQp = in.destQp;
    h.bth.psn = in.psn;
    h.bth.ackRequest = in.ackRequest;
    h.aeth.syndrome = in.aethSyndrome;
    h.aeth.msn = in.aethMsn;
    Ptr<Packet> p = Create<Packet>(in.payloadBytes);
    p->AddHeader(h);
    p->AddTrailer(RoceTrailer());
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), p->GetSize());
    return bytes;
}
} // namespace

TEST(RoceHeaderTest, BuiltFrameEqualsTheHeaderClassesBytes)
{
    std::vector<RoceFrameInfo> cases;
    cases.push_back(TestDataFrameInfo());
    RoceFrameInfo ack = TestDataFrameInfo();
    ack.vlan = false;
    ack.opcode = RoceOpcode::kAck;
    ack.payloadBytes = 0;
    ack.aethSyndrome = 0x60;
    ack.aethMsn = 0x00beef;
    ack.ackRequest = false;
    ack.psn = 0x00abcdef;
    ack.destQp = 0x00fedcba;
    cases.push_back(ack);
    RoceFrameInfo cnp = TestDataFrameInfo();
    cnp.opcode = RoceOpcode::kCnp;
    cnp.payloadBytes = 16;
    cnp.ecnCapable = false;
    cnp.srcHost = 0x012345;
    cnp.dstHost = 0x00ff01;
    cnp.udpSrcPort = 65535;
    cases.push_back(cnp);
    RoceFrameInfo ce = TestDataFrameInfo();
    ce.ecnCe = true;
    ce.priority = 7;
    cases.push_back(ce);
    for (const auto& in : cases)
    {
        Ptr<Packet> built = BuildRoceFrame(in);
        std::vector<uint8_t> bytes(built->GetSize());
        built->CopyData(bytes.data(), built->GetSize());
        // Up to the trailer: the header classes carry CRC values, BuildRoceFrame computes them
        // (checked by RoceFrameCrc below and by tshark in PfcPcapTest).
        std::vector<uint8_t> classes = FrameFromHeaderClasses(in);
        ASSERT_EQ(bytes.size(), classes.size());
        bytes.resize(bytes.size() - 8);
        classes.resize(classes.size() - 8);
        EXPECT_EQ(bytes, classes);
    }
}

TEST(RoceHeaderTest, HeaderClassesRoundTrip)
{
    RoceFrameHeader h;
    h.eth.vlan = true;
    h.eth.pcp = 3;
    h.eth.vid = 0x123;
    h.ip.dscp = 24;
    h.ip.ecn = 3;
    h.ip.totalLength = 60;
    h.ip.src = 0x0a000001;
    h.ip.dst = 0x0a000002;
    h.udp.srcPort = 777;
    h.udp.length = 40;
    h.bth.opcode = RoceOpcode::kAck;
    h.bth.destQp = 0x00ffffff;
    h.bth.psn = 0x00fffffe;
    h.hasAeth = true;
    h.aeth.syndrome = 0x1f;
    h.aeth.msn = 42;
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), 18u + 20 + 8 + 12 + 4);
    RoceFrameHeader g;
    p->RemoveHeader(g);
    EXPECT_TRUE(g.eth.vlan);
    EXPECT_EQ(g.eth.pcp, 3);
    EXPECT_EQ(g.eth.vid, 0x123);
    EXPECT_EQ(g.ip.dscp, 24);
    EXPECT_EQ(g.ip.ecn, 3);
    EXPECT_TRUE(g.ip.checksumOk);
    EXPECT_EQ(g.ip.src, 0x0a000001u);
    EXPECT_EQ(g.udp.srcPort, 777);
    EXPECT_EQ(g.udp.dstPort, 4791);
    EXPECT_EQ(g.bth.destQp, 0x00ffffffu);
    EXPECT_EQ(g.bth.psn, 0x00fffffeu);
    EXPECT_TRUE(g.hasAeth);
    EXPECT_EQ(g.aeth.syndrome, 0x1f);
    EXPECT_EQ(g.aeth.msn, 42u);

    Ptr<Packet> t = Create<Packet>(10);
    RoceTrailer tr;
    tr.icrc = 0x01020304;
    tr.fcs = 0xa0b0c0d0;
    t->AddTrailer(tr);
    EXPECT_EQ(t->GetSize(), 18u);
    RoceTrailer tr2;
    t->RemoveTrailer(tr2);
    EXPECT_EQ(tr2.icrc, 0x01020304u);
    EXPECT_EQ(tr2.fcs, 0xa0b0c0d0u);
}

TEST(RoceHeaderTest, EcnMarkAndPriorityRewriteInPlace)
{
    Ptr<Packet> p = BuildRoceFrame(TestDataFrameInfo());
    ASSERT_TRUE(MarkRoceFrameCe(p));
    SetRoceFramePriority(p, 2);
    EXPECT_EQ(p->GetSize(), 1066u);
    RoceFrameHeader g;
    p->PeekHeader(g);
    EXPECT_EQ(g.ip.ecn, 3);
    EXPECT_EQ(g.ip.dscp, 16); // 2 << 3
    EXPECT_EQ(g.eth.pcp, 2);
    EXPECT_TRUE(g.ip.checksumOk);
    EXPECT_EQ(ReadFramePriority(p), 2);
    RoceFrameInfo out;
    ASSERT_TRUE(ReadRoceFrame(p, out));
    EXPECT_TRUE(out.ecnCe);
    EXPECT_EQ(out.psn, 0x123456u);

    RoceFrameInfo notEct = TestDataFrameInfo();
    notEct.ecnCapable = false;
    EXPECT_FALSE(MarkRoceFrameCe(BuildRoceFrame(notEct)));
}

SHARED_BODY_TEST(RoceHeaderTest, PfcFrameBytes, CheckPfcFrameBytes)

} // namespace
} // namespace ns3
