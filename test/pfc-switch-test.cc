// PfcSwitch: headroom from the formula, pause generation and resume,
// forwarding with ECMP and lanes, ECN marking.
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/forwarding-table.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace
{

/// Test-only frame source: blasts `remaining` data frames of one priority through the
/// TxPuller, as fast as the port and PFC allow.
struct Blaster
{
    uint32_t src{0};
    uint32_t dst{1};
    uint8_t priority{3};
    uint32_t remaining{0};
    uint32_t payload{1000};
    uint16_t udpSrcPort{1000};
    bool varyPort{false};

    Ptr<Packet>
    Pull(Ptr<PfcNetDevice>, uint8_t p)
    {
        if (p != priority || remaining == 0)
        {
            return nullptr;
        }
        --remaining;
        RoceFrameInfo i;
        i.srcHost = src;
        i.dstHost = dst;
        i.priority = priority;
        i.payloadBytes = payload;
        i.udpSrcPort = varyPort ? static_cast<uint16_t>(udpSrcPort + remaining) : udpSrcPort;
        return BuildRoceFrame(i);
    }
};

Ptr<PfcNetDevice>
Device(Ptr<Node> n, const std::string& rate)
{
    Ptr<PfcNetDevice> d = CreateObject<PfcNetDevice>();
    d->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
    d->SetAddress(Mac48Address::Allocate());
    n->AddDevice(d);
    return d;
}

void
Connect(Ptr<PfcNetDevice> a, Ptr<PfcNetDevice> b, Time delay)
{
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    ch->SetAttribute("Delay", TimeValue(delay));
    a->Attach(ch);
    b->Attach(ch);
}

/// Sender host S -> switch port 0; switch port 1 -> receiver host R (rank 1).
struct Line
{
    Ptr<PfcNetDevice> s, sw0, sw1, r;
    Ptr<PfcSwitch> sw;
    Blaster blaster;
    uint64_t received{0};
    uint64_t receivedCe{0};
    uint64_t dropTrace{0};
    std::vector<uint8_t> rxPriority;
    std::vector<uint32_t> rxSrc;
};

void
CountRx(Line* l, Ptr<PfcNetDevice>, Ptr<Packet> frame, uint8_t priority)
{
    ++l->received;
    RoceFrameInfo info;
    ReadRoceFrame(frame, info);
    l->receivedCe += info.ecnCe ? 1 : 0;
    l->rxPriority.push_back(priority);
    l->rxSrc.push_back(info.srcHost);
}

void
CountDrop(Line* l, Ptr<const Packet>, uint32_t, uint8_t)
{
    ++l->dropTrace;
}

std::unique_ptr<Line>
MakeLine(double headroomScale,
         bool ecn = false,
         uint8_t lane = 0,
         bool pfc = true,
         uint64_t kmin = 1500,
         uint64_t kmax = 2000)
{
    auto l = std::make_unique<Line>();
    Ptr<Node> s = CreateObject<Node>();
    Ptr<Node> swNode = CreateObject<Node>();
    Ptr<Node> r = CreateObject<Node>();
    l->s = Device(s, "40Gbps");
    l->sw0 = Device(swNode, "40Gbps");
    l->sw1 = Device(swNode, "40Gbps");
    l->r = Device(r, "40Gbps");
    Connect(l->s, l->sw0, MicroSeconds(1));
    Connect(l->sw1, l->r, MicroSeconds(1));
    l->sw = CreateObject<PfcSwitch>();
    l->sw->SetAttribute("BufferSize", UintegerValue(1000000));
    l->sw->SetAttribute("DynamicThreshold", BooleanValue(false));
    l->sw->SetAttribute("StaticXoff", UintegerValue(50000));
    l->sw->SetAttribute("XonHysteresis", UintegerValue(5000));
    l->sw->SetAttribute("MaxFrameBytes", UintegerValue(1086)); // 1000 B payload + 66 + 20
    l->sw->SetAttribute("LosslessPriorities", UintegerValue(0x08));
    l->sw->SetAttribute("HeadroomScale", DoubleValue(headroomScale));
    l->sw->SetAttribute("PfcEnabled", BooleanValue(pfc));
    l->sw->SetAttribute("EcnEnabled", BooleanValue(ecn));
    l->sw->SetAttribute("EcnKmin", UintegerValue(kmin));
    l->sw->SetAttribute("EcnKmax", UintegerValue(kmax));
    swNode->AggregateObject(l->sw);
    l->sw->AddPort(l->sw0);
    l->sw->AddPort(l->sw1);
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(1, 1, lane);
    l->sw->SetForwardingTable(t);
    l->sw->Initialize();
    l->sw->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, l.get()));
    l->s->SetTxPuller(MakeCallback(&Blaster::Pull, &l->blaster));
    l->r->SetFrameReceiveCallback(MakeBoundCallback(&CountRx, l.get()));
    return l;
}

class PfcSwitchTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(PfcSwitchTest, HeadroomFromTheFormulaAbsorbsTheWorstCaseBurst)
{
    auto l = MakeLine(1.0);
    // Headroom = 2 x 1 us x 40 Gb/s / 8 + 3 x 1086 + the sender's PFC reaction (802.3's
    // 60416 bit times at 40 Gb/s = 1510.4 ns, 1510 ns at ns-3's 1 ns resolution) x 40 Gb/s
    // / 8 = 10000 + 3258 + 7550 = 20808 B.
    ASSERT_EQ(l->sw->GetMmu().HeadroomBytes(0), 20808u);
    // The receiver pauses the switch egress at t = 0 for 65535 quanta (838.848 us), so
    // nothing drains: every byte the sender blasts after XOFF (50000 B) must fit headroom.
    // 200 frames x 1066 B = 213200 B >> XOFF + headroom: the sender is stopped by PFC.
    l->blaster.remaining = 200;
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Stop(MicroSeconds(300));
    Simulator::Run();
    const SharedBufferMmu& mmu = l->sw->GetMmu();
    EXPECT_EQ(l->sw->GetTotalDrops(), 0u);
    EXPECT_EQ(l->dropTrace, 0u);
    EXPECT_GE(l->sw0->GetPauseFramesSent(3), 1u);
    EXPECT_TRUE(l->s->IsPaused(3));
    // 7 frames cross before the receiver's pause acts on the switch egress (its 1510 ns
    // reaction: see WithoutPfcTheSwitchDropsWhenTheBufferIsFull); the rest wait.
    EXPECT_EQ(l->received, 7u);
    // The shared part stops at XOFF: 46 frames x 1066 = 49036 B fit, the 47th would exceed
    // 50000 and goes to headroom.
    EXPECT_EQ(mmu.SharedBytes(0, 3), 49036u);
    // The burst after XOFF really used the headroom: the frames in flight during
    // 2 x 1 us + the sender's 1510 ns reaction + one frame + the PFC frame, i.e.
    // (10000 + 7550 + 1086 + 84) / 1086 ~ 17.2 wire frames, plus the one being received
    // when XOFF was crossed: at least 16 whole frames of 1066 B, within 20808 B.
    EXPECT_GE(mmu.HeadroomUsed(0, 3), 16u * 1066);
    EXPECT_LE(mmu.HeadroomUsed(0, 3), 20808u);
    RecordProperty("headroom_used_bytes", std::to_string(mmu.HeadroomUsed(0, 3)));
    uint64_t sent = 200 - l->blaster.remaining;
    EXPECT_EQ(sent * 1066, 7 * 1066 + mmu.SharedBytes(0, 3) + mmu.HeadroomUsed(0, 3));
}

TEST_F(PfcSwitchTest, HalfTheHeadroomDropsAndCountsIt)
{
    auto l = MakeLine(0.5);
    ASSERT_EQ(l->sw->GetMmu().HeadroomBytes(0), 10404u); // 20808 / 2
    l->blaster.remaining = 200;
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Stop(MicroSeconds(300));
    Simulator::Run();
    const SharedBufferMmu& mmu = l->sw->GetMmu();
    // 10404 B hold 9 frames; the ~17 frames in flight after XOFF overflow it.
    EXPECT_EQ(mmu.HeadroomUsed(0, 3), 9u * 1066);
    uint64_t sent = 200 - l->blaster.remaining;
    uint64_t dropped = sent - 7 - 46 - 9; // 7 crossed before the egress pause acted
    EXPECT_GT(dropped, 0u);
    RecordProperty("dropped_frames", std::to_string(dropped));
    EXPECT_EQ(l->sw->GetDrops(0, 3), dropped);
    EXPECT_EQ(l->sw->GetTotalDrops(), dropped);
    EXPECT_EQ(l->dropTrace, dropped);
    EXPECT_EQ(mmu.DroppedBytes(0, 3), dropped * 1066);
    EXPECT_EQ(l->sw->GetDrops(0, 2), 0u);
}

TEST_F(PfcSwitchTest, WithoutPfcTheSwitchDropsWhenTheBufferIsFull)
{
    auto l = MakeLine(1.0, false, 0, false);
    // No headroom reserved: the shared pool is the whole 1000000 B. Every class is lossy and
    // held to LossyAlpha (8) x free: the n-th frame fits while n x 1066 <= 8 x (1000000 -
    // (n - 1) x 1066) <=> n <= 8008528 / 9594 = 834.7: 834 frames wait. Before them, 7
    // frames got out: the receiver's pause (sent at 0, 84 B = 16.8 ns, + 1 us) acts on the
    // switch egress after its 1510 ns reaction, at 2526.8 ns, and the blasted frames reach
    // the switch at 1000 + 217.2 (k + 1) ns (1086 B at 40 Gb/s), k = 0..6 by then, each
    // forwarded at once. Of 1000 frames, 1000 - 834 - 7 = 159 are dropped; the switch never
    // pauses the sender.
    EXPECT_EQ(l->sw->GetMmu().SharedPoolBytes(), 1000000u);
    l->blaster.remaining = 1000;
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Stop(MicroSeconds(300));
    Simulator::Run();
    EXPECT_EQ(l->blaster.remaining, 0u);
    EXPECT_EQ(l->sw->GetDrops(0, 3), 159u);
    EXPECT_EQ(l->dropTrace, 159u);
    EXPECT_EQ(l->sw0->GetPauseFramesSent(3), 0u);
    EXPECT_FALSE(l->s->IsPaused(3));
}

TEST_F(PfcSwitchTest, PauseIsRefreshedThenResumedBelowXon)
{
    auto l = MakeLine(1.0);
    l->blaster.remaining = 200;
    // The receiver holds the switch for 65535 quanta = 838.848 us; the switch pauses the
    // sender with 65535 quanta too and refreshes every half pause (419.424 us) while above
    // XON. When the egress pause expires the queue drains, the switch drops below XON
    // (45000 B) and sends quanta 0, and the sender finishes all 200 frames.
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Run();
    EXPECT_EQ(l->received, 200u);
    EXPECT_EQ(l->sw->GetTotalDrops(), 0u);
    // Pauses sent on port 0: the first at XOFF (~10 us) and a refresh at +419.424 us, both
    // before the egress resumes at 839.848 us (838.848 + 84 B + 1 us of the pause frame);
    // then a resume (quanta 0) once below XON. A later XOFF crossing is impossible: the
    // egress drains at the rate the sender fills.
    EXPECT_EQ(l->sw0->GetPauseFramesSent(3), 3u);
    EXPECT_EQ(l->s->GetResumeFramesReceived(3), 1u);
    EXPECT_FALSE(l->s->IsPaused(3));
    EXPECT_EQ(l->sw->GetMmu().SharedUsed(), 0u);
    EXPECT_EQ(l->sw->GetMmu().HeadroomUsed(0, 3), 0u);
}

TEST_F(PfcSwitchTest, HeadroomThatDoesNotFitFailsAtStartUp)
{
    Ptr<Node> n = CreateObject<Node>();
    Ptr<PfcSwitch> sw = CreateObject<PfcSwitch>();
    sw->SetAttribute("BufferSize", UintegerValue(100000));
    n->AggregateObject(sw);
    for (int k = 0; k < 4; ++k)
    {
        Ptr<PfcNetDevice> a = Device(n, "100Gbps");
        Ptr<PfcNetDevice> b = Device(CreateObject<Node>(), "100Gbps");
        Connect(a, b, MicroSeconds(1));
        sw->AddPort(a);
    }
    // No forwarding table, so no lanes known: all 8 priorities are lossless. 4 ports x 8
    // priorities x (2 x 1 us x 100 Gb/s / 8 + 3 x 4186 + the peer's reaction, 201728 bit
    // at 100 Gb/s = 2017 ns at 1 ns resolution, x 100 Gb/s / 8 = 25212.5) = 32 x 62771 B
    // (rounded up) = 2008672 B > 100000.
    try
    {
        sw->Initialize();
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("2008672"), std::string::npos) << e.what();
    }
}

TEST_F(PfcSwitchTest, EcnDefaultsScaleWithRate)
{
    Ptr<Node> n = CreateObject<Node>();
    Ptr<PfcSwitch> sw = CreateObject<PfcSwitch>();
    n->AggregateObject(sw);
    for (std::string rate : {"40Gbps", "100Gbps", "400Gbps", "25Gbps"})
    {
        Ptr<PfcNetDevice> a = Device(n, rate);
        Connect(a, Device(CreateObject<Node>(), rate), MicroSeconds(1));
        sw->AddPort(a);
    }
    sw->SetAttribute("LosslessPriorities", UintegerValue(0x08));
    sw->Initialize();
    // Kmin 4000 B and Kmax 16000 B per Gb/s: HPCC's 400 KB / 1600 KB at 100 Gb/s and
    // 1600 KB / 6400 KB at 400 Gb/s; any other rate scales the same way (no table).
    EXPECT_EQ(sw->EcnKmin(0), 160000u);
    EXPECT_EQ(sw->EcnKmax(0), 640000u);
    EXPECT_EQ(sw->EcnKmin(1), 400000u);
    EXPECT_EQ(sw->EcnKmax(1), 1600000u);
    EXPECT_EQ(sw->EcnKmin(2), 1600000u);
    EXPECT_EQ(sw->EcnKmax(2), 6400000u);
    EXPECT_EQ(sw->EcnKmin(3), 100000u);
}

TEST_F(PfcSwitchTest, EcnMarksFramesDequeuedAboveKmax)
{
    auto l = MakeLine(1.0, true);
    l->blaster.remaining = 200;
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Run();
    ASSERT_EQ(l->received, 200u);
    // When the egress resumes it holds 46 shared + the headroom frames, and the sender
    // refills at the rate the egress drains, so the queue (a multiple of 1066 B) never falls
    // below 2 frames until the sender is done. Every frame that leaves with >= 2 frames
    // (2132 B > Kmax = 2000) queued is marked for sure; the last one leaves alone
    // (1066 B < Kmin = 1500) and is not, nor are the 7 frames that crossed the switch alone
    // before the receiver's pause took effect (its 1510 ns reaction: see
    // WithoutPfcTheSwitchDropsWhenTheBufferIsFull): 192 marks, the CE frames received.
    EXPECT_EQ(l->sw->GetEcnMarks(), 192u);
    EXPECT_EQ(l->sw->GetEcnMarks(), l->receivedCe);
    RecordProperty("ecn_marks", std::to_string(l->sw->GetEcnMarks()));
}

TEST_F(PfcSwitchTest, EcnMarksAFrameThatFindsItsEgressIdleWhenOneFrameExceedsKmax)
{
    // Kmin 500 B and Kmax 1,000 B, below one 1,066 B frame: a frame that finds port 1's
    // queue empty leaves with 1,066 B queued (itself), above Kmax, and is marked for sure,
    // though an idle port takes it without its entering the queue's ring. Frames 5 us apart
    // (each crosses the switch in 217.2 ns): every one finds the port idle. 6 frames,
    // 6 marks, 6 CE frames received.
    auto l = MakeLine(1.0, true, 0, true, 500, 1000);
    for (int k = 0; k < 6; ++k)
    {
        Simulator::Schedule(MicroSeconds(5 * k), [&]() {
            l->blaster.remaining = 1;
            l->s->Wake();
        });
    }
    uint64_t queuedMax = 0;
    l->sw->TraceConnectWithoutContext("EcnMark",
                                      Callback<void, Ptr<const Packet>, uint32_t, uint8_t>(
                                          [&](Ptr<const Packet>, uint32_t, uint8_t) {
                                              queuedMax = std::max(queuedMax,
                                                                   l->sw->EgressFrames());
                                          }));
    Simulator::Run();
    EXPECT_EQ(l->received, 6u);
    EXPECT_EQ(l->sw->GetEcnMarks(), 6u);
    EXPECT_EQ(l->receivedCe, 6u);
    EXPECT_EQ(queuedMax, 0u); // no frame waited in a queue's ring
}

TEST_F(PfcSwitchTest, AFrameForAnIdleEgressLeavesAtOnceAndOneForAPausedEgressWaits)
{
    // A frame is 1066 B (1000 B payload, 66 B of headers), 1086 B on the wire with 20 B of
    // preamble and gap: 217.2 ns at 40 Gb/s; the links delay 1 us.
    auto l = MakeLine(1.0);
    uint64_t framesAt1300ns = 99;
    uint64_t sentAt1300ns = 99;
    uint64_t framesAt20us = 99;
    uint64_t bytesAt20us = 99;
    uint64_t receivedAt20us = 99;
    // Frame 1 leaves S at 0 and reaches the idle switch at 1,217.2 ns: port 1 takes it as it
    // arrives, so at 1,300 ns nothing waits in the switch and port 1 has started sending it.
    l->blaster.remaining = 1;
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Schedule(NanoSeconds(1300), [&]() {
        framesAt1300ns = l->sw->EgressFrames();
        sentAt1300ns = l->sw1->GetTxFrames(3);
    });
    // R pauses priority 3 at 2 us for 65535 quanta (838.848 us): port 1 stops by ~4.6 us
    // (1 us on the link, the 84 B frame, its reaction time). Frames 2 and 3 leave S at 10 us
    // and reach the switch at 11.217 and 11.434 us: both wait in port 1's queue until R
    // resumes at 30 us.
    Simulator::Schedule(MicroSeconds(2), &PfcNetDevice::SendPause, l->r, 3, 0xffff);
    Simulator::Schedule(MicroSeconds(10), [&]() {
        l->blaster.remaining = 2;
        l->s->Wake();
    });
    Simulator::Schedule(MicroSeconds(20), [&]() {
        framesAt20us = l->sw->EgressFrames();
        bytesAt20us = l->sw->EgressBytes(1, 3);
        receivedAt20us = l->received;
    });
    Simulator::Schedule(MicroSeconds(30), &PfcNetDevice::SendPause, l->r, 3, 0);
    Simulator::Run();
    EXPECT_EQ(framesAt1300ns, 0u);
    EXPECT_EQ(sentAt1300ns, 1u);
    EXPECT_EQ(framesAt20us, 2u);
    EXPECT_EQ(bytesAt20us, 2u * 1066u);
    EXPECT_EQ(receivedAt20us, 1u);
    EXPECT_EQ(l->received, 3u);
    EXPECT_EQ(l->sw->EgressFrames(), 0u);
    EXPECT_EQ(l->sw->EgressBytes(1, 3), 0u);
    EXPECT_EQ(l->sw->GetMmu().SharedUsed(), 0u);
}

TEST_F(PfcSwitchTest, ASwitchPortsTracesFollowTheirConnectionsFromTheColdState)
{
    // The device's traces live in its cold state and are reached by accessors of their own
    // (PfcNetDevice::ColdTraceAccessor); Rx and Dequeue keep a flag in the device's hot lines
    // that the relay's path asks instead of the trace. Three frames cross the switch with Rx
    // connected (with a context) on its ingress port and Dequeue on its egress port; both
    // are disconnected at 20 us, and two more frames cross: 3 seen by each trace, 5 relayed.
    auto l = MakeLine(1.0);
    uint64_t rxSeen = 0;
    uint64_t dequeueSeen = 0;
    std::string rxContext;
    auto onRx = [&](std::string context, Ptr<const Packet>, uint8_t priority) {
        rxContext = context;
        rxSeen += priority == 3 ? 1 : 0;
    };
    auto onDequeue = [&](Ptr<const Packet>, uint8_t priority) {
        dequeueSeen += priority == 3 ? 1 : 0;
    };
    const Callback<void, std::string, Ptr<const Packet>, uint8_t> rxSink(onRx);
    const Callback<void, Ptr<const Packet>, uint8_t> dequeueSink(onDequeue);
    ASSERT_TRUE(l->sw0->TraceConnect("Rx", "ingress", rxSink));
    ASSERT_TRUE(l->sw1->TraceConnectWithoutContext("Dequeue", dequeueSink));
    l->blaster.remaining = 3;
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Schedule(MicroSeconds(20), [&]() {
        EXPECT_TRUE(l->sw0->TraceDisconnect("Rx", "ingress", rxSink));
        EXPECT_TRUE(l->sw1->TraceDisconnectWithoutContext("Dequeue", dequeueSink));
    });
    Simulator::Schedule(MicroSeconds(30), [&]() {
        l->blaster.remaining = 2;
        l->s->Wake();
    });
    Simulator::Run();
    EXPECT_EQ(rxSeen, 3u);
    EXPECT_EQ(rxContext, "ingress");
    EXPECT_EQ(dequeueSeen, 3u);
    EXPECT_EQ(l->received, 5u);
    EXPECT_EQ(l->sw0->GetRxFrames(), 5u);
}

TEST_F(PfcSwitchTest, LaneRouteMovesTheFrameToItsPriority)
{
    // BasePriority 3 (default): priority 3 is lane 0; the route puts it on lane 1, so it
    // leaves on priority 4 with PCP and DSCP rewritten.
    auto l = MakeLine(1.0, false, 1);
    l->blaster.remaining = 3;
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Run();
    ASSERT_EQ(l->rxPriority.size(), 3u);
    EXPECT_EQ(l->rxPriority[0], 4);
    EXPECT_EQ(l->sw1->GetTxFrames(4), 3u);
    EXPECT_EQ(l->sw1->GetTxFrames(3), 0u);
}

TEST_F(PfcSwitchTest, RelayingHostSharesItsPortBetweenRelayedAndOwnTraffic)
{
    // The switch node acts as a relaying host (rank 2): its NIC (a blaster) installs itself
    // as the TxPuller of port 1 AFTER the switch took the port. Own frames (src 2) start at
    // t = 0; relayed frames (src 0) reach the switch from 1 us on. Once both have frames the
    // device alternates, so no two relayed frames leave back to back while own frames wait.
    auto l = MakeLine(1.0);
    Blaster own;
    own.src = 2;
    own.remaining = 20;
    l->sw1->SetTxPuller(MakeCallback(&Blaster::Pull, &own));
    l->blaster.remaining = 4;
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->s);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->sw1);
    Simulator::Run();
    ASSERT_EQ(l->received, 24u);
    int relayed = 0;
    for (std::size_t k = 0; k < l->rxSrc.size(); ++k)
    {
        if (l->rxSrc[k] == 0)
        {
            ++relayed;
            ASSERT_TRUE(k == 0 || l->rxSrc[k - 1] == 2) << "two relayed frames in a row at " << k;
        }
    }
    EXPECT_EQ(relayed, 4);
    EXPECT_EQ(l->rxSrc.back(), 2u); // own frames outnumber relayed ones: one ends the run
}

TEST_F(PfcSwitchTest, DefaultLosslessClassesAreTheDataLanesOnly)
{
    // The case: 64 ports at 100 Gb/s, 1 us, 32 MiB, 4186 B frames. Headroom per
    // lossless port-priority: 2 x 1 us x 100 Gb/s / 8 = 25000 + 3 x 4186 = 12558 + the
    // peer's reaction (201728 bit at 100 Gb/s = 2017 ns at 1 ns resolution: 25212.5 B) =
    // 62771 B (rounded up). One data lane (base 3): only priority 3 is lossless, pool =
    // 33554432 - 64 x 62771 = 29537088 B. All 8 (the old default, 0xff): 33554432 - 512 x
    // 62771 < 0, the buffer could not even hold the headroom (without the reaction term:
    // 64 x 8 x 37558 = 19229696, leaving 14.3 MB). Priority 7 (ACK/NAK/CNP) never pauses.
    Ptr<Node> n = CreateObject<Node>();
    Ptr<PfcSwitch> sw = CreateObject<PfcSwitch>();
    sw->SetAttribute("MaxFrameBytes", UintegerValue(4186));
    n->AggregateObject(sw);
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    for (uint32_t k = 0; k < 64; ++k)
    {
        Ptr<PfcNetDevice> a = Device(n, "100Gbps");
        Connect(a, Device(CreateObject<Node>(), "100Gbps"), MicroSeconds(1));
        sw->AddPort(a);
        t->AddRoute(k, k, 0);
    }
    sw->SetForwardingTable(t);
    sw->Initialize();
    EXPECT_EQ(sw->GetMmu().GetConfig().losslessMask, 0x08);
    EXPECT_EQ(sw->GetMmu().HeadroomBytes(0), 62771u);
    EXPECT_EQ(sw->GetMmu().SharedPoolBytes(), 29537088u);

    // Two lanes (a route moves lane 0 to lane 1): priorities 3 and 4.
    Ptr<PfcSwitch> two = CreateObject<PfcSwitch>();
    Ptr<Node> m = CreateObject<Node>();
    m->AggregateObject(two);
    Ptr<PfcNetDevice> a = Device(m, "40Gbps");
    Connect(a, Device(CreateObject<Node>(), "40Gbps"), MicroSeconds(1));
    two->AddPort(a);
    Ptr<ForwardingTable> t2 = CreateObject<ForwardingTable>();
    t2->AddRoute(0, 0, 1);
    two->SetForwardingTable(t2);
    two->Initialize();
    EXPECT_EQ(two->GetMmu().GetConfig().losslessMask, 0x18);
}

namespace
{
void
LogPause(std::vector<std::tuple<int64_t, uint32_t, uint16_t>>* log,
         uint32_t port,
         uint8_t,
         uint16_t quanta)
{
    log->emplace_back(Simulator::Now().GetNanoSeconds(), port, quanta);
}

void
Discard(Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t)
{
}
} // namespace

TEST_F(PfcSwitchTest, APauseRefreshResumesWhenOtherPortsFreedTheBuffer)
{
    // Ports 0 (host A), 1 (host B), 2 (host R), 40 Gb/s, 1 us; frames of 1066 B. Headroom
    // per port: 10000 + 3 x 1086 + 7550 (the peer's 1510 ns reaction) = 20808 B; buffer
    // 3 x 20808 + 25064 B, so the shared pool P = 25064 B. Alpha 1: XOFF = free = P - used,
    // XON = XOFF - 3000.
    //  - t = 0: A holds the switch's port 0 (2000 quanta = 25.6 us, from 1.0168 us) and R
    //    its port 2 (65535 quanta = 838.848 us); both act at once (no reaction delay on
    //    the switch ports). B sends 4 frames to A: they wait at port 0, 4264 B.
    //  - t = 10 us: A sends 10 frames to R (they wait at port 2). Frame k goes to the
    //    shared pool while 2 s + 1066 <= P - 4264 = 20800 (s = (k - 1) x 1066): all 10;
    //    after the 10th, s = 10660 >= XOFF = 20800 - 10660 = 10140: port 0 pauses A,
    //    with no headroom in use (after the 9th: 9594 < 11206, no pause).
    //  - 28.2 us: A's hold ends and B's frames leave: free = P - 10660 = 14404, XON =
    //    11404 >= 10660. Nothing of A's has left (R holds it) and A sends nothing more, so
    //    only the pause refresh (every 6.4 us: 1000 quanta) can see it: it must resume A
    //    (quanta 0) within 6.4 us, not pause it again until R lets go at ~840 us.
    Ptr<Node> swNode = CreateObject<Node>();
    Ptr<PfcNetDevice> a = Device(CreateObject<Node>(), "40Gbps");
    Ptr<PfcNetDevice> b = Device(CreateObject<Node>(), "40Gbps");
    Ptr<PfcNetDevice> r = Device(CreateObject<Node>(), "40Gbps");
    Ptr<PfcNetDevice> p[3];
    for (auto& d : p)
    {
        d = Device(swNode, "40Gbps");
        d->SetAttribute("PfcReactionBitTimes", UintegerValue(0));
    }
    Connect(a, p[0], MicroSeconds(1));
    Connect(b, p[1], MicroSeconds(1));
    Connect(p[2], r, MicroSeconds(1));
    Ptr<PfcSwitch> sw = CreateObject<PfcSwitch>();
    sw->SetAttribute("BufferSize", UintegerValue(3 * 20808 + 25064));
    sw->SetAttribute("Alpha", DoubleValue(1.0));
    sw->SetAttribute("MaxFrameBytes", UintegerValue(1086));
    sw->SetAttribute("LosslessPriorities", UintegerValue(0x08));
    sw->SetAttribute("PauseQuanta", UintegerValue(1000));
    sw->SetAttribute("EcnEnabled", BooleanValue(false));
    swNode->AggregateObject(sw);
    for (auto& d : p)
    {
        sw->AddPort(d);
    }
    Ptr<ForwardingTable> t = CreateObject<ForwardingTable>();
    t->AddRoute(0, 0, 0); // host 0 = A
    t->AddRoute(2, 2, 0); // host 2 = R
    sw->SetForwardingTable(t);
    sw->Initialize();
    ASSERT_EQ(sw->GetMmu().SharedPoolBytes(), 25064u);
    std::vector<std::tuple<int64_t, uint32_t, uint16_t>> log;
    sw->TraceConnectWithoutContext("PauseSent", MakeBoundCallback(&LogPause, &log));
    Blaster fromA;
    fromA.src = 0;
    fromA.dst = 2;
    fromA.remaining = 10;
    Blaster fromB;
    fromB.src = 1;
    fromB.dst = 0;
    fromB.remaining = 4;
    a->SetTxPuller(MakeCallback(&Blaster::Pull, &fromA));
    b->SetTxPuller(MakeCallback(&Blaster::Pull, &fromB));
    a->SetFrameReceiveCallback(MakeCallback(&Discard));
    r->SetFrameReceiveCallback(MakeCallback(&Discard));
    a->SetTxBacklog(3, false); // A starts at 10 us
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, r, 3, 0xffff);
    Simulator::Schedule(Time(0), &PfcNetDevice::SendPause, a, 3, 2000);
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, b);
    Simulator::Schedule(MicroSeconds(10), [a]() {
        a->SetTxBacklog(3, true);
        a->Wake();
    });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    int64_t paused = -1;
    int64_t resumed = -1;
    for (const auto& [ns, port, quanta] : log)
    {
        if (port == 0 && quanta > 0 && paused < 0)
        {
            paused = ns;
        }
        if (port == 0 && quanta == 0 && paused >= 0 && resumed < 0)
        {
            resumed = ns;
        }
    }
    EXPECT_EQ(fromA.remaining, 0u);
    EXPECT_EQ(sw->GetMmu().HeadroomUsed(0, 3), 0u);
    EXPECT_EQ(sw->GetMmu().SharedBytes(0, 3), 10660u); // A's frames, still held by R
    ASSERT_GT(paused, 10000) << "port 0 never paused A";
    ASSERT_GT(resumed, 28000) << "port 0 did not resume A while R held its frames";
    EXPECT_LE(resumed, 28200 + 6400 + 1000); // the first refresh after B's frames left
    EXPECT_FALSE(a->IsPaused(3));
}

} // namespace
} // namespace ns3
