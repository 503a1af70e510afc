// Header-only frames (model/frame-ref.h): a RoCE frame whose bytes were never built is its
// header; whoever reads its bytes gets BuildRoceFrame(header). These tests hold that to the
// frames a sender builds and the switches rewrite: byte for byte at every observed point, and
// the same run (times, marks, pauses) whether the NICs build their frames' bytes or not.
#include "model-checks.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/frame-ref.h"
#include "ns3/network-builder.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/queue-pair.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

RoceFrameInfo
DataHeader()
{
    RoceFrameInfo info;
    info.srcHost = 3;
    info.dstHost = 70000; // 10.1.17.112: every address byte differs
    info.udpSrcPort = 49161;
    info.priority = 3;
    info.opcode = RoceOpcode::kSendMiddle;
    info.destQp = 0x123456;
    info.psn = 0xabcdef;
    info.payloadBytes = 1000;
    return RoceFrameInfoAsParsed(info);
}

} // namespace

TEST(HeaderOnlyFrameTest, AHeaderOnlyFrameIsAFrameWithoutAPacket)
{
    const RoceFrameInfo info = DataHeader();
    FrameRef f = FrameRef::HeaderOnly();
    EXPECT_TRUE(static_cast<bool>(f));
    EXPECT_TRUE(f.IsHeaderOnly());
    // Read: a Packet built from the header, the frame itself unchanged.
    EXPECT_EQ(TestFrameBytes(f.Share(&info)), TestFrameBytes(BuildRoceFrame(info)));
    EXPECT_TRUE(f.IsHeaderOnly());
    // Moves as any FrameRef.
    FrameRef g = std::move(f);
    EXPECT_FALSE(static_cast<bool>(f));
    EXPECT_TRUE(g.IsHeaderOnly());
    // A sink that reads the header alone gets no Packet; the frame is handed over.
    EXPECT_EQ(g.Release(&info, false), nullptr);
    EXPECT_FALSE(static_cast<bool>(g));
    FrameRef h = FrameRef::HeaderOnly();
    Ptr<Packet> built = h.Release(&info);
    ASSERT_NE(built, nullptr);
    EXPECT_EQ(built->GetSize(), RoceFrameBytes(1000, true, false));
    EXPECT_FALSE(static_cast<bool>(h));
}

TEST(HeaderOnlyFrameTest, AFrameWithAPacketKeepsItsOneReference)
{
    Ptr<Packet> p = BuildRoceFrame(DataHeader());
    ASSERT_EQ(p->GetReferenceCount(), 1u);
    FrameRef f(p);
    EXPECT_FALSE(f.IsHeaderOnly());
    EXPECT_EQ(p->GetReferenceCount(), 2u); // ours and the FrameRef's
    {
        Ptr<Packet> shared = f.Share(nullptr); // no header needed: the Packet is there
        EXPECT_EQ(PeekPointer(shared), PeekPointer(p));
        EXPECT_EQ(p->GetReferenceCount(), 3u);
    }
    // Release hands the FrameRef's reference over, with or without building.
    Ptr<Packet> released = f.Release(nullptr, false);
    EXPECT_EQ(PeekPointer(released), PeekPointer(p));
    EXPECT_EQ(p->GetReferenceCount(), 2u);
    EXPECT_FALSE(static_cast<bool>(f));
}

// What the switches do to a frame in flight (a CE mark at an egress, a priority rewrite on a
// lane change) must equal building the frame from the rewritten header: that is all a
// header-only frame's holders keep (PfcSwitch::RelayReceive and RelayPull update the header).
TEST(HeaderOnlyFrameTest, RewritingAFrameEqualsBuildingItFromTheRewrittenHeader)
{
    for (bool vlan : {true, false})
    {
        RoceFrameInfo info = DataHeader();
        info.vlan = vlan;
        RoceFrameInfo marked = info;
        marked.ecnCe = true;
        Ptr<Packet> p = BuildRoceFrame(info);
        ASSERT_TRUE(MarkRoceFrameCe(p));
        EXPECT_EQ(TestFrameBytes(p), TestFrameBytes(BuildRoceFrame(marked))) << "vlan " << vlan;

        RoceFrameInfo moved = marked;
        moved.priority = 5;
        SetRoceFramePriority(p, 5);
        EXPECT_EQ(TestFrameBytes(p), TestFrameBytes(BuildRoceFrame(moved))) << "vlan " << vlan;
        // And it is a different frame: the rewrite is not a no-op.
        EXPECT_NE(TestFrameBytes(p), TestFrameBytes(BuildRoceFrame(info)));
    }
}

namespace
{

/// One frame seen at a point of the network: when, its bytes and the Packet's uid.
struct Seen
{
    int64_t ns;
    std::vector<uint8_t> bytes;
    uint64_t uid;
};

/// A 4 -> 1 incast on star:n=5 with DCQCN and a 1 MB switch buffer (ECN marks and PFC
/// pauses both happen), every frame into the receiver's link watched at the switch's egress
/// (Dequeue) and at the receiver's device (Rx).
struct IncastRun
{
    std::vector<Seen> dequeued;
    std::vector<Seen> received;
    std::vector<double> doneS;
    uint64_t ecnMarks{0};
    uint64_t pauses{0};
    /// Host 0's frames into the switch, by the Rx trace of the switch's port (connected with
    /// a context) and by the port's own count; and a sink connected there and disconnected
    /// before the run.
    std::vector<std::string> switchIngress;
    uint64_t switchIngressFrames{0};
    std::vector<Seen> disconnected;
};

void
RecordContext(std::vector<std::string>* to, std::string context, Ptr<const Packet>, uint8_t)
{
    to->push_back(context);
}

void
Record(std::vector<Seen>* to, Ptr<const Packet> p, uint8_t)
{
    to->push_back({Simulator::Now().GetNanoSeconds(), TestFrameBytes(p), p->GetUid()});
}

IncastRun
RunIncast(bool buildFrameBytes)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::RoceNic::BuildFrameBytes", BooleanValue(buildFrameBytes));
    Config::SetDefault("ns3::RoceNic::CongestionControl",
                       StringValue("ns3::DcqcnCongestionControl"));
    Config::SetDefault("ns3::RoceNic::Mtu", UintegerValue(1000));
    auto topology = MakeTopology("star:n=5", 40e9, 1e-6);
    NetworkBuilder builder;
    builder.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
    builder.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
    PfcNetwork net = builder.Build(*topology);
    std::vector<Ptr<RoceNic>> nics;
    for (uint32_t h = 0; h < 5; ++h)
    {
        Ptr<RoceNic> nic = CreateObject<RoceNic>();
        nic->SetAttribute("HostRank", UintegerValue(h));
        net.Host(h)->AggregateObject(nic);
        for (const auto& dev : net.HostPorts(h))
        {
            nic->AddPort(dev);
        }
        // As the driver wires it: the NIC reads headers, so header-only frames stay so.
        net.SetHostReceive(h, MakeCallback(&RoceNic::Receive, nic), true);
        nics.push_back(nic);
    }
    IncastRun run;
    Ptr<PfcNetDevice> rx = net.HostPorts(4)[0];
    Ptr<PfcChannel> link = DynamicCast<PfcChannel>(rx->GetChannel());
    Ptr<PfcNetDevice> egress = link->GetPfcDevice(0) == rx ? link->GetPfcDevice(1)
                                                           : link->GetPfcDevice(0);
    egress->TraceConnectWithoutContext("Dequeue", MakeBoundCallback(&Record, &run.dequeued));
    rx->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Record, &run.received));
    // The switch's port from host 0: its frames take the relay's path, which asks the Rx
    // trace's flag in the device's receive line (the trace is in the device's cold state).
    Ptr<PfcNetDevice> h0 = net.HostPorts(0)[0];
    Ptr<PfcChannel> h0Link = DynamicCast<PfcChannel>(h0->GetChannel());
    Ptr<PfcNetDevice> ingress = h0Link->GetPfcDevice(0) == h0 ? h0Link->GetPfcDevice(1)
                                                              : h0Link->GetPfcDevice(0);
    ingress->TraceConnect("Rx", "host0", MakeBoundCallback(&RecordContext, &run.switchIngress));
    ingress->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Record, &run.disconnected));
    ingress->TraceDisconnectWithoutContext("Rx", MakeBoundCallback(&Record, &run.disconnected));
    for (uint32_t s = 0; s < 4; ++s)
    {
        Ptr<QueuePair> qp = nics[s]->CreateQueuePair(4);
        nics[s]->PostSend(
            qp, 2000000, [&run]() { run.doneS.push_back(Simulator::Now().GetSeconds()); });
    }
    Simulator::Run();
    run.switchIngressFrames = ingress->GetRxFrames();
    for (const auto& sw : net.switches)
    {
        run.ecnMarks += sw ? sw->GetEcnMarks() : 0;
    }
    for (const auto& node : net.ports)
    {
        for (const auto& dev : node)
        {
            for (uint8_t p = 0; p < kPfcPriorities; ++p)
            {
                run.pauses += dev->GetPauseFramesSent(p);
            }
        }
    }
    Simulator::Destroy();
    Config::Reset();
    return run;
}

/// ECN field of a VLAN-tagged RoCE frame: the low 2 bits of the IPv4 TOS byte (offset 19:
/// Ethernet 14 + 802.1Q 4, then the TOS after the IPv4 version/IHL byte).
uint8_t
Ecn(const std::vector<uint8_t>& frame)
{
    return frame[19] & 3;
}

} // namespace

TEST(HeaderOnlyFrameTest, AnIncastIsTheSameRunByteForByteWithoutBuildingFrames)
{
    IncastRun built = RunIncast(true);
    IncastRun headers = RunIncast(false);

    // The scenario does what it is for: CE marks (DCQCN at work) and PFC pauses.
    EXPECT_GT(built.ecnMarks, 0u);
    std::cout << "[ measured ] marks " << built.ecnMarks << ", pauses " << built.pauses
              << std::endl;
    EXPECT_GT(built.pauses, 0u);
    ASSERT_EQ(built.doneS.size(), 4u);
    // 4 x 2 MB of 1000 B payloads = 8000 data frames reach the receiver, plus the CNPs and
    // ACKs that do not cross this link's direction: every frame seen is a data frame.
    EXPECT_EQ(built.received.size(), 8000u);

    // The same run: completions, marks, pauses.
    EXPECT_EQ(headers.doneS, built.doneS);
    EXPECT_EQ(headers.ecnMarks, built.ecnMarks);
    EXPECT_EQ(headers.pauses, built.pauses);
    // Every frame at the same time with the same bytes, at the egress and at the receiver.
    ASSERT_EQ(headers.dequeued.size(), built.dequeued.size());
    ASSERT_EQ(headers.received.size(), built.received.size());
    std::size_t ce = 0;
    for (std::size_t i = 0; i < built.received.size(); ++i)
    {
        ASSERT_EQ(headers.received[i].ns, built.received[i].ns) << "frame " << i;
        ASSERT_EQ(headers.received[i].bytes, built.received[i].bytes) << "frame " << i;
        ASSERT_EQ(headers.dequeued[i].bytes, built.dequeued[i].bytes) << "frame " << i;
        ce += Ecn(built.received[i].bytes) == 3;
    }
    // Marked frames are among them (the rewritten header made the same bytes as the rewrite).
    EXPECT_GT(ce, 0u);

    // The switch port's Rx trace saw each frame the port counted, with its context, in both
    // runs (header-only frames take the relay's direct path); the sink disconnected before
    // the run saw none. Host 0 sends its 2,000,000 B as 2,000 data frames of 1,000 B (no
    // loss, no retransmission); the ACKs and CNPs for it travel the other way.
    for (const IncastRun* run : {&built, &headers})
    {
        EXPECT_EQ(run->switchIngressFrames, 2000u);
        EXPECT_EQ(run->switchIngress.size(), run->switchIngressFrames);
        EXPECT_EQ(std::count(run->switchIngress.begin(), run->switchIngress.end(), "host0"),
                  static_cast<std::ptrdiff_t>(run->switchIngress.size()));
        EXPECT_TRUE(run->disconnected.empty());
    }

    // What tells the two apart: with built frames one Packet travels from the switch to the
    // receiver (same uid at both points); header-only frames get a new Packet at each read.
    for (std::size_t i = 0; i < built.received.size(); ++i)
    {
        ASSERT_EQ(built.received[i].uid, built.dequeued[i].uid) << "frame " << i;
        ASSERT_NE(headers.received[i].uid, headers.dequeued[i].uid) << "frame " << i;
    }
}

// The arrival event carries a frame's header, not its size: a frame handed in with a Packet
// and a header must be the size the header says, or the receiving switch would admit one
// size and release another.
TEST(HeaderOnlyFrameDeathTest, APacketWithAHeaderOfAnotherSizeIsRefused)
{
    RoceFrameInfo info = DataHeader(); // 1000 B of payload
    RoceFrameInfo other = info;
    other.payloadBytes = 500;
    Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
    // Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 = 66 B of headers:
    // 1066 B built, 566 B by the header.
    EXPECT_DEATH(dev->EnqueueRoce(BuildRoceFrame(info), 3, other),
                 "a frame of 1066 B with a header of a 566 B frame");
    dev->Dispose();
}
