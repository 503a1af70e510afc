// The fault models of a PFC storm's origin (model/pfc-pause-storm.h,
// model/stalled-receiver.h) on one link, at exact simulated times.
//
// The link runs at 8 Gb/s so that one byte takes exactly 1 ns: a data frame of 1000 B
// payload is 1066 B in the Packet and 1086 ns on the wire (+20 B preamble/SFD/IFG), a PFC
// frame 64 + 20 = 84 ns, one pause quantum (512 bit) 64 ns, so the largest pause (65535
// quanta) lasts 4,194,240 ns and is refreshed every half of it, 2,097,120 ns. Channel delay
// 1000 ns: a pause sent at t by an idle device takes effect at its peer at t + 1084 ns.
#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-pause-storm.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/stalled-receiver.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

constexpr int64_t kPauseNs = 65535 * 64;     // 4,194,240 ns
constexpr int64_t kRefreshNs = kPauseNs / 2; // 2,097,120 ns

/// Devices a and b joined by one channel; a sends data, b may pause it.
struct Link
{
    Ptr<PfcNetDevice> a;
    Ptr<PfcNetDevice> b;
    std::vector<std::pair<int64_t, uint16_t>> aPauseRx;   // (ns, quanta) pauses received at a
    std::vector<std::pair<int64_t, uint8_t>> aTx;         // (ns, priority) frames a starts
    std::vector<std::pair<int64_t, uint32_t>> bDelivered; // (ns, psn) frames b's NIC takes
    std::vector<std::pair<int64_t, uint16_t>> bPauseSent; // (ns, quanta) pauses b sends
};

std::unique_ptr<Link>
MakeLink()
{
    auto l = std::make_unique<Link>();
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    ch->SetAttribute("Delay", TimeValue(NanoSeconds(1000)));
    Ptr<PfcNetDevice> d[2];
    for (auto& dev : d)
    {
        Ptr<Node> n = CreateObject<Node>();
        dev = CreateObject<PfcNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate("8Gbps")));
        // Pauses act at once: the fault models alone, not the receiver's reaction delay
        // (test/pfc-net-device-test.cc tests that).
        dev->SetAttribute("PfcReactionBitTimes", UintegerValue(0));
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
    }
    l->a = d[0];
    l->b = d[1];
    Link* raw = l.get();
    l->a->TraceConnectWithoutContext(
        "PauseReceived", Callback<void, uint8_t, uint16_t>(([raw](uint8_t, uint16_t q) {
            raw->aPauseRx.emplace_back(Simulator::Now().GetNanoSeconds(), q);
        })));
    l->a->TraceConnectWithoutContext(
        "Dequeue", Callback<void, Ptr<const Packet>, uint8_t>(([raw](Ptr<const Packet>, uint8_t p) {
            raw->aTx.emplace_back(Simulator::Now().GetNanoSeconds(), p);
        })));
    l->b->TraceConnectWithoutContext(
        "PauseSent", Callback<void, uint8_t, uint16_t>(([raw](uint8_t, uint16_t q) {
            raw->bPauseSent.emplace_back(Simulator::Now().GetNanoSeconds(), q);
        })));
    return l;
}

/// What b's NIC would do with a frame: record it with its PSN.
PfcNetDevice::FrameReceiveCallback
Recorder(Link* l)
{
    return PfcNetDevice::FrameReceiveCallback([l](Ptr<PfcNetDevice>, Ptr<Packet> frame, uint8_t) {
        RoceFrameInfo info;
        ReadRoceFrame(frame, info);
        l->bDelivered.emplace_back(Simulator::Now().GetNanoSeconds(), info.psn);
    });
}

void
EnqueueData(Ptr<PfcNetDevice> d, uint8_t priority, uint32_t psn)
{
    RoceFrameInfo i;
    i.priority = priority;
    i.payloadBytes = 1000;
    i.psn = psn;
    d->Enqueue(BuildRoceFrame(i), priority);
}

class PfcFaultModelsTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(PfcFaultModelsTest, PauseStormHoldsItsPrioritiesRefreshingEveryHalfPauseUntilItsEnd)
{
    auto l = MakeLink();
    Ptr<PfcPauseStorm> storm = CreateObject<PfcPauseStorm>();
    storm->SetAttribute("Start", TimeValue(MicroSeconds(10)));
    storm->SetAttribute("Duration", TimeValue(MilliSeconds(5)));
    storm->Install({l->b}, {3});
    // At 20 us a gets a priority-3 frame (stormed) and a priority-1 frame (not stormed).
    Simulator::Schedule(MicroSeconds(20), &EnqueueData, l->a, 3, 1);
    Simulator::Schedule(MicroSeconds(20), &EnqueueData, l->a, 1, 2);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();

    // Pauses sent at 10,000, +2,097,120 and +4,194,240 ns (the next refresh, at +6,291,360,
    // falls after the end at 5,010,000 and is cancelled), and the resume (quanta 0) at the
    // end; each received 1084 ns after it is sent.
    const std::vector<std::pair<int64_t, uint16_t>> expected = {
        {10000 + 1084, 65535},
        {10000 + kRefreshNs + 1084, 65535},
        {10000 + 2 * kRefreshNs + 1084, 65535},
        {5010000 + 1084, 0},
    };
    EXPECT_EQ(l->aPauseRx, expected);
    // The priority-1 frame leaves at once; the priority-3 frame at the resume.
    ASSERT_EQ(l->aTx.size(), 2u);
    EXPECT_EQ(l->aTx[0], std::make_pair(int64_t{20000}, uint8_t{1}));
    EXPECT_EQ(l->aTx[1], std::make_pair(int64_t{5011084}, uint8_t{3}));
}

TEST_F(PfcFaultModelsTest, PauseStormWithoutEndStopsRefreshingOnceTheRunIsOver)
{
    auto l = MakeLink();
    Ptr<PfcPauseStorm> storm = CreateObject<PfcPauseStorm>();
    storm->SetAttribute("Start", TimeValue(MicroSeconds(10)));
    // Duration 0: for as long as the run goes on, here until 3 ms.
    storm->SetKeepGoing([]() { return Simulator::Now() < MilliSeconds(3); });
    storm->Install({l->b}, {3});
    Simulator::Schedule(MicroSeconds(20), &EnqueueData, l->a, 3, 1);
    Simulator::Run(); // no Stop: the storm itself must let the simulation end

    // Pauses at 10,000 and 2,107,120 ns (run not over: refresh scheduled), and at 4,204,240
    // ns, after which the run is over: no further refresh, no resume. The last pause expires
    // 4,194,240 ns after its arrival at 4,205,324 ns: at 8,399,564 ns the frame leaves.
    ASSERT_EQ(l->aPauseRx.size(), 3u);
    EXPECT_EQ(l->aPauseRx.back(),
              std::make_pair(int64_t{10000 + 2 * kRefreshNs + 1084}, uint16_t{65535}));
    ASSERT_EQ(l->aTx.size(), 1u);
    EXPECT_EQ(l->aTx[0].first, 10000 + 2 * kRefreshNs + 1084 + kPauseNs);
}

TEST_F(PfcFaultModelsTest, StalledReceiverHoldsFramesPausesAboveXoffAndDrainsInOrder)
{
    auto l = MakeLink();
    Ptr<StalledReceiver> stalled = CreateObject<StalledReceiver>();
    stalled->SetAttribute("Start", TimeValue(Seconds(0)));
    stalled->SetAttribute("Duration", TimeValue(MilliSeconds(1)));
    stalled->SetAttribute("XoffBytes", UintegerValue(262144));
    l->b->SetFrameReceiveCallback(stalled->Wrap(Recorder(l.get())));
    for (uint32_t psn = 0; psn < 300; ++psn)
    {
        EnqueueData(l->a, 3, psn);
    }
    uint64_t heldAt500us = 0;
    Simulator::Schedule(MicroSeconds(500), [&]() { heldAt500us = stalled->HeldBytes(); });
    Simulator::Run();

    // a sends back to back: frame k (k = 1, 2, ...) starts at (k-1) x 1086 ns and has fully
    // arrived at b at k x 1086 + 1000 ns. Held bytes exceed 262,144 with the 246th frame
    // (245 x 1066 = 261,170; 246 x 1066 = 262,236), at 246 x 1086 + 1000 = 268,156 ns: b
    // pauses, and the pause takes effect at a at 269,240 ns, while frame 248 (started at
    // 247 x 1086 = 268,242) is on the wire. So 248 frames reach b and wait; at 1 ms b drains
    // them in arrival order and resumes a (effective at 1,001,084 ns), which sends the other
    // 52 (frame 249 arrives at 1,001,084 + 2086; frame 300 at 1,001,084 + 51 x 1086 + 2086).
    const std::vector<std::pair<int64_t, uint16_t>> pauses = {{268156, 65535}, {1000000, 0}};
    EXPECT_EQ(l->bPauseSent, pauses);
    EXPECT_EQ(heldAt500us, 248u * 1066);
    ASSERT_EQ(l->bDelivered.size(), 300u);
    for (uint32_t k = 0; k < 300; ++k)
    {
        EXPECT_EQ(l->bDelivered[k].second, k) << "frame " << k << " out of order";
    }
    EXPECT_EQ(l->bDelivered[0].first, 1000000);
    EXPECT_EQ(l->bDelivered[247].first, 1000000);
    EXPECT_EQ(l->bDelivered[248].first, 1001084 + 2086);
    EXPECT_EQ(l->bDelivered[299].first, 1001084 + 51 * 1086 + 2086);
    EXPECT_FALSE(stalled->IsStalled());
}

} // namespace
} // namespace ns3
