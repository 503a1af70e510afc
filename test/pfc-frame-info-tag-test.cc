// PfcFrameInfoTag (model/pfc-frame-info-tag.h): a frame's header survives the trip through
// Packet::Serialize and the deserializing Packet constructor, the way ns-3's MPI interface
// carries a frame to another rank (model/pfc-mpi-crossing.cc).
#include "ns3/pfc-frame-info-tag.h"
#include "ns3/roce-frame.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

TEST(PfcFrameInfoTagTest, HeaderAndSizeSurviveSerialization)
{
    RoceFrameInfo info;
    info.srcHost = 0x123456; // 24-bit fields at their widest
    info.dstHost = 7;
    info.udpSrcPort = 49999;
    info.priority = 3;
    info.ecnCapable = false;
    info.ecnCe = true;
    info.opcode = RoceOpcode::kAck;
    info.destQp = 0xabcdef;
    info.psn = 0xfffffe;
    info.ackRequest = true;
    info.becn = true;
    info.aethSyndrome = 0x60;
    info.aethMsn = 42;
    info.payloadBytes = 1000;
    info.vlan = false;
    Ptr<Packet> frame = BuildRoceFrame(info);
    PfcFrameInfoTag tag;
    tag.info = info;
    tag.bytes = 1086;
    frame->AddPacketTag(tag);

    std::vector<uint8_t> wire(frame->GetSerializedSize());
    ASSERT_EQ(frame->Serialize(wire.data(), wire.size()), 1); // 1: everything fitted
    Ptr<Packet> arrived = Create<Packet>(wire.data(), wire.size(), true);

    PfcFrameInfoTag got;
    ASSERT_TRUE(arrived->RemovePacketTag(got));
    EXPECT_EQ(got.bytes, 1086u);
    EXPECT_EQ(got.info.srcHost, 0x123456u);
    EXPECT_EQ(got.info.dstHost, 7u);
    EXPECT_EQ(got.info.udpSrcPort, 49999);
    EXPECT_EQ(got.info.priority, 3);
    EXPECT_FALSE(got.info.ecnCapable);
    EXPECT_TRUE(got.info.ecnCe);
    EXPECT_EQ(got.info.opcode, RoceOpcode::kAck);
    EXPECT_EQ(got.info.destQp, 0xabcdefu);
    EXPECT_EQ(got.info.psn, 0xfffffeu);
    EXPECT_TRUE(got.info.ackRequest);
    EXPECT_TRUE(got.info.becn);
    EXPECT_EQ(got.info.aethSyndrome, 0x60);
    EXPECT_EQ(got.info.aethMsn, 42u);
    EXPECT_EQ(got.info.payloadBytes, 1000u);
    EXPECT_FALSE(got.info.vlan);
    // The frame itself is unchanged: same size as sent, and no tag left behind.
    EXPECT_EQ(arrived->GetSize(), frame->GetSize());
    EXPECT_FALSE(arrived->RemovePacketTag(got));
}
