// RunInvariants: each end-of-run invariant breaks on the situation it exists for, and holds
// on a clean network.
#include "ns3/network-builder.h"
#include "ns3/roce-frame.h"
#include "ns3/run-invariants.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class RunInvariantsTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

RunCounters
Clean()
{
    RunCounters c;
    c.pfc = true;
    c.drained = true;
    c.completed = true;
    c.dataSent = 100; // 100 sent = 97 arrived + 3 dropped (lossy run)
    c.dataArrived = 97;
    c.dataDrops = 3;
    c.drops = 3;
    return c;
}

bool
Mentions(const std::vector<std::string>& broken, const std::string& what)
{
    for (const auto& b : broken)
    {
        if (b.find(what) != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

} // namespace

TEST_F(RunInvariantsTest, ACleanDrainedRunBreaksNothingAndEachCounterBreaksItsInvariant)
{
    auto star = MakeTopology("star:n=3", 40e9, 1e-6);
    PfcNetwork net = NetworkBuilder().Build(*star);

    RunCounters lossy = Clean();
    lossy.pfc = false; // 3 drops are allowed without PFC; 100 = 97 + 3 conserves
    EXPECT_TRUE(RunInvariants::Check(net, lossy).empty());

    // The same 3 drops with PFC on break losslessness, and only that.
    auto broken = RunInvariants::Check(net, Clean());
    ASSERT_EQ(broken.size(), 1u);
    EXPECT_NE(broken[0].find("drops with PFC on (3 frames)"), std::string::npos) << broken[0];

    // One packet unaccounted for: 100 != 96 + 3 with nothing in flight.
    RunCounters lost = lossy;
    lost.dataArrived = 96;
    EXPECT_TRUE(Mentions(RunInvariants::Check(net, lost), "sent 100 != arrived 96 + dropped 3"));

    // Drained but a message never delivered.
    RunCounters undelivered = lossy;
    undelivered.completed = false;
    EXPECT_TRUE(Mentions(RunInvariants::Check(net, undelivered), "messages lost"));

    // A run cut short (not drained) is not held to conservation: packets may be in flight.
    RunCounters cut = lost;
    cut.drained = false;
    EXPECT_TRUE(RunInvariants::Check(net, cut).empty());
}

TEST_F(RunInvariantsTest, AFrameLeftInAQueueIsABufferLeak)
{
    // Frames queued on host 0's port and never sent stand for frames stranded after the
    // last event. The idle port starts sending the first one at once; the second stays in
    // the egress queue, so the check must name host 0 (h0) as still holding bytes.
    auto star = MakeTopology("star:n=3", 40e9, 1e-6);
    PfcNetwork net = NetworkBuilder().Build(*star);
    RoceFrameInfo info;
    info.srcHost = 0;
    info.dstHost = 1;
    info.udpSrcPort = 49152;
    info.priority = 3;
    info.payloadBytes = 1000;
    net.HostPorts(0)[0]->Enqueue(BuildRoceFrame(info), 3);
    net.HostPorts(0)[0]->Enqueue(BuildRoceFrame(info), 3);
    ASSERT_GT(net.HostPorts(0)[0]->QueuedBytes(3), 1000u);
    RunCounters c = Clean();
    c.pfc = false;
    auto broken = RunInvariants::Check(net, c);
    ASSERT_TRUE(Mentions(broken, "buffers not drained: h0")) << (broken.empty() ? "" : broken[0]);
}
