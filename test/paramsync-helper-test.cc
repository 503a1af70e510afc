// ParamsyncHelper, the public API: one message's completion time against the closed form,
// the Config paths reaching every NIC and port, a ring job's plan, and bad input.
#include "ns3/config.h"
#include "ns3/paramsync-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

uint64_t g_messages = 0; //!< MessageReceived through the Config path
uint64_t g_pauses = 0;   //!< PauseSent with quanta > 0 through the Config path

void
OnMessage(uint32_t, uint32_t, uint64_t)
{
    ++g_messages;
}

void
OnPause(uint8_t, uint16_t quanta)
{
    g_pauses += quanta > 0 ? 1 : 0;
}

} // namespace

TEST(ParamsyncHelper, OneFlowEndsAtTheClosedForm)
{
    ParamsyncHelper helper;
    helper.SetTopology("star:n=2", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    helper.AddFlow(0, 1, 10000000, Seconds(0));
    g_messages = 0;
    Config::ConnectWithoutContext(ParamsyncHelper::MessageReceivedPath(), MakeCallback(&OnMessage));
    RunResult r = helper.Run(Seconds(1));
    Simulator::Destroy();
    // 10^7 B at MTU 4096 = 2441 full packets of 4096 + 66 + 20 = 4182 wire bytes and one of
    // 1664 + 86 = 1750: 10,210,012 B = 2042.0024 us at 40 Gb/s; the switch's link runs one
    // full packet (4182 B = 0.8364 us) behind; 2 x 1 us propagation: 2044.8388 us
    // (model/README-fabric.md, the same figure measured by test/roce-nic-test.cc).
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_NEAR(r.flows[0].endS, 2044.8388e-6, 1e-9);
    EXPECT_TRUE(r.completed);
    EXPECT_DOUBLE_EQ(r.simS, r.flows[0].endS);
    EXPECT_EQ(g_messages, 1u); // one message, seen through /NodeList/*/$ns3::RoceNic/...
}

TEST(ParamsyncHelper, PauseTracePathSeesWhatTheResultCounts)
{
    // 3 -> 1 incast of 2 MB each into a 1 MB switch buffer (722 kB of it PFC headroom for
    // 4 ports x 8 lossless priorities): the receiver's port is
    // oversubscribed 3:1, so PFC must pause the senders; lossless means no drop.
    ParamsyncHelper helper;
    helper.SetSwitchAttribute("BufferSize", UintegerValue(1000000));
    helper.SetTopology("star:n=4", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    for (uint32_t s = 1; s <= 3; ++s)
    {
        helper.AddFlow(s, 0, 2000000, Seconds(0));
    }
    g_pauses = 0;
    Config::ConnectWithoutContext(ParamsyncHelper::PauseSentPath(), MakeCallback(&OnPause));
    RunResult r = helper.Run(Seconds(1));
    Simulator::Destroy();
    EXPECT_TRUE(r.completed);
    EXPECT_GT(g_pauses, 0u);
    // Two observers of the same event: the Config path and the result's recorder.
    EXPECT_EQ(g_pauses, r.pfcPauseFrames);
    EXPECT_EQ(r.drops, 0u);
    // The receiver's one 40 Gb/s link carries 6 MB: at least 6e6 x 8 / 40e9 = 1.2 ms.
    EXPECT_GT(r.simS, 1.2e-3);
}

TEST(ParamsyncHelper, RingJobOnFourHosts)
{
    ParamsyncHelper helper;
    helper.SetTopology("star:n=4", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    helper.InstallSyncJob("ring", "bytes:1MB");
    RunResult r = helper.Run(Seconds(1));
    Simulator::Destroy();
    // Ring allreduce, N = 4: 2 (N - 1) steps x N workers = 24 transfers of W / N = 250000 B.
    EXPECT_TRUE(r.completed);
    EXPECT_EQ(r.workers, 4u);
    EXPECT_EQ(r.gradientBytes, 1000000u);
    ASSERT_EQ(r.transfers.size(), 24u);
    for (const TransferRecord& t : r.transfers)
    {
        EXPECT_EQ(t.bytes, 250000u);
        EXPECT_GE(t.endS, t.startS);
    }
    // Each worker's link carries 2 (N - 1) / N x W = 1.5 MB: GST > 1.5e6 x 8 / 40e9 = 300 us.
    EXPECT_GT(r.gstS, 300e-6);
    EXPECT_DOUBLE_EQ(r.simS, r.gstS); // one iteration from t = 0, no compute
}

TEST(ParamsyncHelper, BadInputNamesIt)
{
    ParamsyncHelper helper;
    EXPECT_THROW(helper.SetTopology("nosuch:n=3", DataRate("40Gbps"), MicroSeconds(1)),
                 std::invalid_argument);
    helper.SetTopology("star:n=2", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    EXPECT_THROW(helper.InstallSyncJob("nosuch", "bytes:1MB"), std::invalid_argument);
    EXPECT_THROW(helper.InstallSyncJob("ring", "nosuch-model"), std::invalid_argument);
    EXPECT_THROW(helper.InstallSyncJob("ring", "bytes:1MB", 0), std::invalid_argument);
    // A refused job leaves none behind: the next call installs one, not "called twice".
    helper.InstallSyncJob("ring", "bytes:1MB", 2);
    EXPECT_THROW(helper.AddFlow(0, 2, 1000, Seconds(0)), std::invalid_argument); // 2 hosts
    EXPECT_THROW(helper.AddFlow(0, 0, 1000, Seconds(0)), std::invalid_argument);
    Simulator::Destroy();
}
