// NetworkBuilder + NetworkRecorder on an 8-to-1 incast through one switch (star:n=9), frames
// injected straight into the hosts' ports (no NIC): with PFC on the switch pauses the
// senders and loses nothing; with PFC off and a small buffer it drops, and the recorder's
// counts add up frame by frame.
#include "ns3/boolean.h"
#include "ns3/network-builder.h"
#include "ns3/network-recorder.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t kSenders = 8;
constexpr uint32_t kFramesEach = 200;
constexpr uint32_t kPayload = 4096;
constexpr uint8_t kPriority = 3;

struct Incast
{
    uint64_t received{0};
    RunResult result;
};

Incast
RunIncast(bool pfc, uint64_t bufferBytes)
{
    auto star = MakeTopology("star:n=9", 40e9, 1e-6);
    NetworkBuilder builder;
    builder.SetDeviceAttribute("PfcEnabled", BooleanValue(pfc));
    builder.SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    builder.SetSwitchAttribute("BufferSize", UintegerValue(bufferBytes));
    // Only the data priority is lossless, so that headroom is reserved for it alone.
    builder.SetSwitchAttribute("LosslessPriorities", UintegerValue(1u << kPriority));
    builder.SetTableAttribute("BasePriority", UintegerValue(kPriority));
    PfcNetwork net = builder.Build(*star);
    NetworkRecorder recorder(net);
    Incast incast;
    net.SetHostReceive(
        kSenders,
        MakeBoundCallback(
            +[](uint64_t* n, Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t) { ++*n; }, &incast.received));
    for (uint32_t s = 0; s < kSenders; ++s)
    {
        for (uint32_t i = 0; i < kFramesEach; ++i)
        {
            RoceFrameInfo info;
            info.srcHost = s;
            info.dstHost = kSenders;
            info.udpSrcPort = 49152;
            info.priority = kPriority;
            info.psn = i;
            info.payloadBytes = kPayload;
            net.HostPorts(s)[0]->Enqueue(BuildRoceFrame(info), kPriority);
        }
    }
    Simulator::Run();
    recorder.Fill(incast.result);
    Simulator::Destroy();
    return incast;
}

} // namespace

TEST(NetworkBuilderRecorder, IncastWithPfcPausesAndLosesNothing)
{
    // 8 x 200 x 4 KB = 6.5 MB arrive at 8x the drain rate into a 1 MB buffer: without
    // pauses most of it would not fit, so the switch must pause the senders.
    Incast r = RunIncast(true, 1u << 20);
    EXPECT_EQ(r.received, kSenders * kFramesEach);
    EXPECT_EQ(r.result.drops, 0u);
    EXPECT_GT(r.result.pfcPauseFrames, 0u);
    EXPECT_GT(r.result.pfcPausedS, 0);
    // Each frame crosses two links (sender -> switch -> receiver).
    EXPECT_EQ(r.result.pktHops, 2ull * kSenders * kFramesEach);
    // Pauses are sent by switch ports toward senders and received by the senders' ports.
    uint64_t sent = 0, received = 0;
    for (const auto& row : r.result.pfc)
    {
        sent += row.pausesSent;
        received += row.pausesReceived;
        EXPECT_EQ(row.priority, kPriority);
    }
    EXPECT_EQ(sent, r.result.pfcPauseFrames);
    EXPECT_EQ(received, sent); // every pause frame crosses one link and arrives
    EXPECT_FALSE(r.result.pauses.empty());
}

TEST(NetworkBuilderRecorder, IncastWithoutPfcAndASmallBufferDropsAndCountsEveryFrame)
{
    Incast r = RunIncast(false, 200u << 10);
    EXPECT_GT(r.result.drops, 0u);
    EXPECT_EQ(r.result.pfcPauseFrames, 0u);
    // Every frame is either delivered or dropped at the switch, counted once.
    EXPECT_EQ(r.received + r.result.drops, kSenders * kFramesEach);
    // First hop for all, second hop only for the delivered ones.
    EXPECT_EQ(r.result.pktHops, kSenders * kFramesEach + r.received);
}
