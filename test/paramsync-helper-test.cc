// ParamsyncHelper, the public API: one message's completion time against the closed form,
// the Config paths reaching every NIC and port, a ring job's plan, bad input, the set-up
// shortcuts (EndTimeMarking, CheckNetwork).
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/node-list.h"
#include "ns3/paramsync-helper.h"
#include "ns3/pfc-switch.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
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

namespace
{

bool g_eventRan = false; //!< set by MarkEventRan

void
MarkEventRan()
{
    g_eventRan = true;
}

} // namespace

TEST(ParamsyncHelper, EndTimeMarkingRunsOnlyAnEmptyFreshSimulation)
{
    Simulator::Destroy();
    // A pending event: an empty Run is not possible, and the event must wait for the real Run.
    g_eventRan = false;
    Simulator::Schedule(MicroSeconds(1), &MarkEventRan);
    EXPECT_FALSE(ParamsyncHelper::EndTimeMarking());
    EXPECT_FALSE(g_eventRan);
    EXPECT_EQ(Simulator::Now(), Time(0));
    Simulator::Run();
    EXPECT_TRUE(g_eventRan);
    EXPECT_EQ(Simulator::Now(), MicroSeconds(1));
    // Events already run (the clock at 1 us): not a fresh simulation either.
    EXPECT_FALSE(ParamsyncHelper::EndTimeMarking());
    Simulator::Destroy();

    // Fresh and empty: it runs, the clock stays at 0, a Time built before keeps its value
    // (5 us = 5000 ns at the default nanosecond resolution), and the simulator still runs
    // what is scheduled afterwards at its time.
    const Time before = MicroSeconds(5);
    EXPECT_TRUE(ParamsyncHelper::EndTimeMarking());
    EXPECT_EQ(Simulator::Now(), Time(0));
    EXPECT_EQ(before.GetNanoSeconds(), 5000);
    g_eventRan = false;
    Simulator::Schedule(before, &MarkEventRan);
    Simulator::Run();
    EXPECT_TRUE(g_eventRan);
    EXPECT_EQ(Simulator::Now(), MicroSeconds(5));
    Simulator::Destroy();
}

TEST(ParamsyncHelper, EndTimeMarkingLeavesOtherSimulatorsAlone)
{
    // Another engine's Run may do more than ClearMarkedTimes (the distributed one of --mpi
    // synchronizes the ranks): the real-time engine stands in for it here.
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    EXPECT_FALSE(ParamsyncHelper::EndTimeMarking());
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    EXPECT_TRUE(ParamsyncHelper::EndTimeMarking());
    Simulator::Destroy();
}

namespace
{

/// Install's or CheckNetwork's refusal of a buffer on a topology ("" when it fits).
std::string
RefusalOf(const std::string& spec, uint64_t bufferBytes, bool install)
{
    ParamsyncHelper helper;
    helper.SetSwitchAttribute("BufferSize", UintegerValue(bufferBytes));
    helper.SetTopology(spec, DataRate("40Gbps"), MicroSeconds(1));
    std::string why;
    try
    {
        install ? (void)helper.Install() : helper.CheckNetwork();
    }
    catch (const std::invalid_argument& e)
    {
        why = e.what();
    }
    Simulator::Destroy();
    return why;
}

} // namespace

TEST(ParamsyncHelper, CheckNetworkBuildsOneSwitchOfEachKind)
{
    // fattree:k=4 with 100 Gb/s agg-core links: edge switches (4 ports at 40 Gb/s),
    // aggregation (2 at 40, 2 at 100) and core (4 at 100): 3 kinds of switch, each built
    // with a node for its peers: 6 nodes, and no RoceNic (no NICs built).
    const std::string spec = "fattree:k=4,corerate=100Gbps";
    ParamsyncHelper helper;
    helper.SetTopology(spec, DataRate("40Gbps"), MicroSeconds(1));
    const uint32_t nodesBefore = NodeList::GetNNodes();
    helper.CheckNetwork();
    ASSERT_EQ(NodeList::GetNNodes(), nodesBefore + 6);
    uint32_t switches = 0;
    for (uint32_t i = nodesBefore; i < NodeList::GetNNodes(); ++i)
    {
        EXPECT_EQ(NodeList::GetNode(i)->GetObject<RoceNic>(), nullptr);
        switches += NodeList::GetNode(i)->GetObject<PfcSwitch>() ? 1 : 0;
    }
    EXPECT_EQ(switches, 3u);
    Simulator::Destroy();
}

TEST(ParamsyncHelper, CheckNetworkRefusesWhatInstallRefuses)
{
    // Each switch's PFC reserve (headroom and queue reserve of its lossless port-priorities)
    // is its buffer less its shared pool. A 100 Gb/s port needs more headroom than a 40 Gb/s
    // one (2 x delay x rate and the response time x rate grow with the rate), so the core
    // switches (4 ports at 100 Gb/s) need the most, the edge switches (4 at 40) the least.
    const std::string spec = "fattree:k=4,corerate=100Gbps";
    const uint64_t big = 32000000;
    uint64_t least = big;
    uint64_t most = 0;
    {
        ParamsyncHelper helper;
        helper.SetSwitchAttribute("BufferSize", UintegerValue(big));
        helper.SetTopology(spec, DataRate("40Gbps"), MicroSeconds(1));
        const PfcNetwork& net = helper.Install();
        for (const auto& sw : net.switches)
        {
            if (sw)
            {
                const uint64_t reserve = big - sw->GetMmu().SharedPoolBytes();
                least = std::min(least, reserve);
                most = std::max(most, reserve);
            }
        }
        Simulator::Destroy();
    }
    ASSERT_LT(least, most);
    // A buffer of exactly the largest reserve: only the switches that need it all (the
    // cores, last in node order) are refused; one below the least, every switch; the
    // largest fits everywhere. CheckNetwork says what Install says, word for word.
    for (const uint64_t buffer : {most, least - 1, most + 1})
    {
        const std::string installed = RefusalOf(spec, buffer, true);
        EXPECT_EQ(installed.empty(), buffer > most) << buffer;
        EXPECT_EQ(RefusalOf(spec, buffer, false), installed) << buffer;
    }
    // Too small for any switch: 10 kB is below one 40 Gb/s port's 2 x 1 us x 40 Gb/s / 8 alone.
    EXPECT_NE(RefusalOf("star:n=2", 10000, false), "");
}
