// PfcNetDevice: pause timing at exact simulated times, PFC ahead of data,
// scheduling, the pull interface.
//
// Links run at 8 Gb/s so that one byte takes exactly 1 ns (ns-3's default time resolution
// is 1 ns): a 1000 B-payload data frame (1066 B + 20 B framing) takes 1086 ns, a PFC frame
// (64 + 20 B) 84 ns, one pause quantum (512 bit) 64 ns. Channel delay 1000 ns.
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdlib>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

struct Link
{
    Ptr<PfcNetDevice> a;
    Ptr<PfcNetDevice> b;
    std::vector<std::pair<int64_t, uint8_t>> aTx;       // (ns, priority) dequeued at A
    std::vector<std::pair<int64_t, uint8_t>> bRx;       // (ns, priority) received at B
    std::vector<std::pair<int64_t, uint16_t>> bPauseRx; // (ns, quanta) pauses received at B
    std::vector<std::pair<int64_t, int64_t>> aResume;   // (ns, paused ns) resumes at A
};

void
OnTx(Link* l, Ptr<const Packet>, uint8_t p)
{
    l->aTx.emplace_back(Simulator::Now().GetNanoSeconds(), p);
}

void
OnRx(Link* l, Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t p)
{
    l->bRx.emplace_back(Simulator::Now().GetNanoSeconds(), p);
}

void
OnPauseRx(Link* l, uint8_t, uint16_t q)
{
    l->bPauseRx.emplace_back(Simulator::Now().GetNanoSeconds(), q);
}

void
OnResume(Link* l, uint8_t, Time paused)
{
    l->aResume.emplace_back(Simulator::Now().GetNanoSeconds(), paused.GetNanoSeconds());
}

std::unique_ptr<Link>
MakeLink(const std::string& scheduling = "StrictPriority",
         const std::string& rate = "8Gbps",
         uint32_t reactionBits = 0)
{
    auto l = std::make_unique<Link>();
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    ch->SetAttribute("Delay", TimeValue(NanoSeconds(1000)));
    Ptr<PfcNetDevice> d[2];
    for (auto& dev : d)
    {
        Ptr<Node> n = CreateObject<Node>();
        dev = CreateObject<PfcNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
        dev->SetAttribute("TxScheduling", StringValue(scheduling));
        // 0: pauses act at the PFC frame's last bit, so the timings below are the quanta's
        // alone (PfcReactionDelayPostponesThePause tests the reaction).
        dev->SetAttribute("PfcReactionBitTimes", UintegerValue(reactionBits));
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
    }
    l->a = d[0];
    l->b = d[1];
    l->a->TraceConnectWithoutContext("Dequeue", MakeBoundCallback(&OnTx, l.get()));
    l->a->TraceConnectWithoutContext("Resume", MakeBoundCallback(&OnResume, l.get()));
    l->b->TraceConnectWithoutContext("PauseReceived", MakeBoundCallback(&OnPauseRx, l.get()));
    l->b->SetFrameReceiveCallback(MakeBoundCallback(&OnRx, l.get()));
    return l;
}

Ptr<Packet>
Frame(uint8_t priority)
{
    RoceFrameInfo i;
    i.priority = priority;
    i.payloadBytes = 1000;
    return BuildRoceFrame(i);
}

void
EnqueueAt(Ptr<PfcNetDevice> d, uint8_t p)
{
    d->Enqueue(Frame(p), p);
}

class PfcNetDeviceTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(PfcNetDeviceTest, PauseStopsOnlyItsPriorityForQuantaTimes512BitTimes)
{
    auto l = MakeLink();
    // B pauses priority 3 of A with Q = 1000 at t = 0; the PFC frame reaches A at
    // 84 + 1000 = 1084 ns; the pause lasts 1000 x 512 bit / 8 Gb/s = 64000 ns -> 65084 ns.
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    // At 2000 ns A gets a priority-3 and a priority-1 frame: strict priority would send 3
    // first, but 3 is paused, so 1 leaves at once and 3 waits for the expiry.
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 3);
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 1);
    Simulator::Schedule(NanoSeconds(30000), [&l]() {
        EXPECT_TRUE(l->a->IsPaused(3));
        EXPECT_FALSE(l->a->IsPaused(1));
        EXPECT_EQ(l->a->QueuedBytes(3), 1066u);
    });
    Simulator::Run();
    ASSERT_EQ(l->aTx.size(), 2u);
    EXPECT_EQ(l->aTx[0], std::make_pair(int64_t(2000), uint8_t(1)));
    EXPECT_EQ(l->aTx[1], std::make_pair(int64_t(65084), uint8_t(3)));
    ASSERT_EQ(l->aResume.size(), 1u);
    EXPECT_EQ(l->aResume[0], std::make_pair(int64_t(65084), int64_t(64000)));
    EXPECT_EQ(l->a->GetPausedTime(3), NanoSeconds(64000));
    EXPECT_EQ(l->a->GetPausedTime(1), Time(0));
    EXPECT_EQ(l->a->GetPauseFramesReceived(3), 1u);
    EXPECT_EQ(l->b->GetPauseFramesSent(3), 1u);
    // B receives frame 1 at 2000 + 1086 + 1000 = 4086 ns, frame 3 at 65084 + 2086 = 67170.
    ASSERT_EQ(l->bRx.size(), 2u);
    EXPECT_EQ(l->bRx[0].first, 4086);
    EXPECT_EQ(l->bRx[1].first, 67170);
    EXPECT_EQ(l->bRx[1].second, 3);
}

// Whether a device holds pause state, and every pause getter on all priorities: zeros
// (and no state) or the counts expected.
struct PauseCounts
{
    std::array<uint64_t, kPfcPriorities> sent{};
    std::array<uint64_t, kPfcPriorities> received{};
    std::array<uint64_t, kPfcPriorities> resumes{};
    std::array<int64_t, kPfcPriorities> pausedNs{};
};

void
ExpectPauseCounts(const Ptr<PfcNetDevice>& d, bool hasState, const PauseCounts& want)
{
    EXPECT_EQ(d->HasPauseState(), hasState);
    for (uint8_t p = 0; p < kPfcPriorities; ++p)
    {
        EXPECT_EQ(d->GetPauseFramesSent(p), want.sent[p]) << "priority " << int(p);
        EXPECT_EQ(d->GetPauseFramesReceived(p), want.received[p]) << "priority " << int(p);
        EXPECT_EQ(d->GetResumeFramesReceived(p), want.resumes[p]) << "priority " << int(p);
        EXPECT_EQ(d->GetPausedTime(p), NanoSeconds(want.pausedNs[p])) << "priority " << int(p);
    }
    // The getters report the zero state without making it.
    EXPECT_EQ(d->HasPauseState(), hasState);
}

TEST_F(PfcNetDeviceTest, PauseStateIsMadeByTheFirstPfcFrameSentOrReceived)
{
    // Data frames both ways at 0 (each received at 1086 + 1000 = 2086 ns) and the trace
    // sinks MakeLink connected make no pause state: at 10000 ns both report zeros.
    auto l = MakeLink();
    Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->a, 1);
    Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->b, 1);
    Simulator::Schedule(NanoSeconds(10000), [&l]() {
        EXPECT_EQ(l->a->GetTxFrames(1), 1u);
        EXPECT_EQ(l->a->GetRxFrames(), 1u);
        ExpectPauseCounts(l->a, false, PauseCounts{});
        ExpectPauseCounts(l->b, false, PauseCounts{});
        EXPECT_FALSE(l->a->IsPaused(3));
    });
    // B pauses A's priority 3 with Q = 1000 at 20000 ns: B has state from then (sent), A from
    // the frame's arrival at 20000 + 84 + 1000 = 21084 ns; the pause lasts 1000 x 64 ns =
    // 64000 ns, to 85084 ns. At 50000 ns the ongoing pause counts 50000 - 21084 = 28916 ns.
    Simulator::Schedule(NanoSeconds(20000), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(20000), [&l]() {
        EXPECT_TRUE(l->b->HasPauseState());
        EXPECT_EQ(l->b->GetPauseFramesSent(3), 1u);
        EXPECT_FALSE(l->a->HasPauseState());
    });
    Simulator::Schedule(NanoSeconds(50000), [&l]() {
        EXPECT_TRUE(l->a->HasPauseState());
        EXPECT_TRUE(l->a->IsPaused(3));
        EXPECT_EQ(l->a->GetPausedTime(3), NanoSeconds(28916));
    });
    // A pauses B's priority 2 with Q = 10 at 100000 ns: it reaches B at 101084 and lasts
    // 10 x 64 = 640 ns. B resumes A's priority 5 at 110000 ns (arrives 111084): counted as
    // a resume; A's priority 5 was not paused, so no paused time.
    Simulator::Schedule(NanoSeconds(100000), &PfcNetDevice::SendPause, l->a, 2, 10);
    Simulator::Schedule(NanoSeconds(110000), &PfcNetDevice::SendPause, l->b, 5, 0);
    Simulator::Run();

    PauseCounts a;
    a.received[3] = 1;
    a.pausedNs[3] = 85084 - 21084;
    a.sent[2] = 1;
    a.resumes[5] = 1;
    ExpectPauseCounts(l->a, true, a);
    PauseCounts b;
    b.sent[3] = 1;
    b.sent[5] = 1;
    b.received[2] = 1;
    b.pausedNs[2] = 640;
    ExpectPauseCounts(l->b, true, b);
    ASSERT_EQ(l->aResume.size(), 1u);
    EXPECT_EQ(l->aResume[0], std::make_pair(int64_t(85084), int64_t(64000)));
}

TEST_F(PfcNetDeviceTest, PushedFramesAreCountedPerQueueAndTracedWhileConnected)
{
    // The owner's pushed frames (Enqueue) wait in the device's cold state, a queue and its
    // bytes per priority; the Enqueue trace is asked through a flag in the receive line.
    // Three frames of priority 3 and one of 5 are pushed with a sink connected, two more of
    // 3 after it is disconnected: 4 traced. A frame is 1066 B (1000 B payload, 66 B of
    // headers); the first one pushed goes on the idle line at once, so 4 x 1066 B wait at
    // priority 3 and 1066 B at 5 before the run, none after.
    auto l = MakeLink();
    uint64_t traced = 0;
    auto onEnqueue = [&traced](Ptr<const Packet>, uint8_t) { ++traced; };
    const Callback<void, Ptr<const Packet>, uint8_t> sink(onEnqueue);
    ASSERT_TRUE(l->a->TraceConnectWithoutContext("Enqueue", sink));
    for (int i = 0; i < 3; ++i)
    {
        l->a->Enqueue(Frame(3), 3);
    }
    l->a->Enqueue(Frame(5), 5);
    ASSERT_TRUE(l->a->TraceDisconnectWithoutContext("Enqueue", sink));
    l->a->Enqueue(Frame(3), 3);
    l->a->Enqueue(Frame(3), 3);
    EXPECT_EQ(traced, 4u);
    EXPECT_EQ(l->a->QueuedBytes(3), 4u * 1066u);
    EXPECT_EQ(l->a->QueuedBytes(5), 1066u);
    EXPECT_EQ(l->a->QueuedFrames(), 5u);
    Simulator::Run();
    EXPECT_EQ(l->bRx.size(), 6u);
    EXPECT_EQ(l->a->QueuedBytes(3), 0u);
    EXPECT_EQ(l->a->QueuedBytes(5), 0u);
    EXPECT_EQ(l->a->QueuedFrames(), 0u);
}

TEST_F(PfcNetDeviceTest, ZeroQuantaResumesAtOnce)
{
    auto l = MakeLink();
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 3);
    // Resume sent at 5000 ns arrives at 5000 + 84 + 1000 = 6084 ns: frame 3 leaves then.
    Simulator::Schedule(NanoSeconds(5000), &PfcNetDevice::SendPause, l->b, 3, 0);
    Simulator::Run();
    ASSERT_EQ(l->aTx.size(), 1u);
    EXPECT_EQ(l->aTx[0].first, 6084);
    EXPECT_EQ(l->a->GetPausedTime(3), NanoSeconds(6084 - 1084));
    EXPECT_EQ(l->a->GetResumeFramesReceived(3), 1u);
}

TEST_F(PfcNetDeviceTest, NewPauseRefreshesTheTimer)
{
    auto l = MakeLink();
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 3);
    // A second pause at 10000 ns arrives at 11084 and runs 64000 ns more: expiry 75084 ns,
    // not 65084.
    Simulator::Schedule(NanoSeconds(10000), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Run();
    ASSERT_EQ(l->aTx.size(), 1u);
    EXPECT_EQ(l->aTx[0].first, 75084);

    // A shorter pause replaces a longer one too: Q = 1000 at 100000 ns (arrives 101084,
    // would expire 165084), then Q = 10 (640 ns) at 120000 ns arrives 121084: expiry 121724.
    Simulator::Destroy(); // a fresh clock at 0 for the second scenario
    auto m = MakeLink();
    Simulator::Schedule(NanoSeconds(100000), &PfcNetDevice::SendPause, m->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(102000), &EnqueueAt, m->a, 3);
    Simulator::Schedule(NanoSeconds(120000), &PfcNetDevice::SendPause, m->b, 3, 10);
    Simulator::Run();
    ASSERT_EQ(m->aTx.size(), 1u);
    EXPECT_EQ(m->aTx[0].first, 121724);
    EXPECT_EQ(m->a->GetPausedTime(3), NanoSeconds(121724 - 101084));
}

TEST_F(PfcNetDeviceTest, PfcFrameGoesAheadOfQueuedDataAndIsNeverPaused)
{
    auto l = MakeLink();
    // A is paused on every priority by B at t = 0 (arrives 1084 ns) ... but A's own PFC
    // frame must still leave. Data: a priority-1 frame queued at 1700 ns (paused by then).
    for (uint8_t p = 0; p < 8; ++p)
    {
        Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, p, 1000);
    }
    Simulator::Schedule(NanoSeconds(1700), &EnqueueAt, l->a, 1);
    Simulator::Schedule(NanoSeconds(2000), &PfcNetDevice::SendPause, l->a, 5, 7);
    Simulator::Run();
    // A's PFC frame leaves at 2000 ns and reaches B at 2000 + 84 + 1000 = 3084 ns.
    ASSERT_EQ(l->bPauseRx.size(), 1u);
    EXPECT_EQ(l->bPauseRx[0], std::make_pair(int64_t(3084), uint16_t(7)));
    // The 8 pauses were sent back to back from 0 ns: the last (priority 7) arrives at
    // 8 x 84 + 1000 = 1672 ns, priority 1's at 2 x 84 + 1000 = 1168 ns -> expiry 65168 ns.
    ASSERT_EQ(l->aTx.size(), 1u);
    EXPECT_EQ(l->aTx[0].first, 65168);

    Simulator::Destroy(); // a fresh clock at 0 for the second scenario
    auto m = MakeLink();
    // Busy port: a frame in progress (0..1086 ns) finishes, then the PFC frame goes before
    // the two data frames queued behind it.
    Simulator::Schedule(NanoSeconds(0), &EnqueueAt, m->a, 1);
    Simulator::Schedule(NanoSeconds(0), &EnqueueAt, m->a, 1);
    Simulator::Schedule(NanoSeconds(0), &EnqueueAt, m->a, 1);
    Simulator::Schedule(NanoSeconds(100), &PfcNetDevice::SendPause, m->a, 2, 9);
    Simulator::Run();
    ASSERT_EQ(m->bPauseRx.size(), 1u);
    EXPECT_EQ(m->bPauseRx[0].first, 1086 + 84 + 1000);
    ASSERT_EQ(m->aTx.size(), 3u);
    EXPECT_EQ(m->aTx[1].first, 1086 + 84);
    EXPECT_EQ(m->aTx[2].first, 1086 + 84 + 1086);
}

TEST_F(PfcNetDeviceTest, StrictPriorityAndRoundRobin)
{
    for (std::string s : {"StrictPriority", "RoundRobin"})
    {
        auto l = MakeLink(s);
        for (int k = 0; k < 2; ++k)
        {
            Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->a, 2);
            Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->a, 5);
        }
        Simulator::Run();
        ASSERT_EQ(l->aTx.size(), 4u);
        std::vector<int> order;
        for (auto& t : l->aTx)
        {
            order.push_back(t.second);
        }
        // The first frame (priority 2) starts alone at 0 ns; the other three wait.
        // Strict: 2 (already started), 5, 5, 2. Round robin after serving 2: 5, 2, 5.
        if (s == "StrictPriority")
        {
            EXPECT_EQ(order, (std::vector<int>{2, 5, 5, 2}));
        }
        else
        {
            EXPECT_EQ(order, (std::vector<int>{2, 5, 2, 5}));
        }
        EXPECT_EQ(l->aTx[3].first, 3 * 1086);
        // Frames sent per priority: two of each, whether the priorities alternate (round
        // robin: 2, 5, 2, 5) or repeat (strict: 2, 5, 5, 2); none of any other priority.
        EXPECT_EQ(l->a->GetTxFrames(2), 2u) << s;
        EXPECT_EQ(l->a->GetTxFrames(5), 2u) << s;
        EXPECT_EQ(l->a->GetTxFrames(0), 0u) << s;
        EXPECT_EQ(l->a->GetTxFrames(3), 0u) << s;
        Simulator::Destroy();
    }
}

/// Pulls `remaining` frames, cycling through `priorities` one frame each (a priority other
/// than the next one's gets nothing), for the frame counts below.
struct CyclingPuller
{
    std::vector<uint8_t> priorities;
    int remaining;
    std::size_t next{0};
    std::array<uint64_t, kPfcPriorities> pulled{};
};

Ptr<Packet>
PullCycling(CyclingPuller* c, Ptr<PfcNetDevice>, uint8_t p)
{
    if (c->remaining == 0 || p != c->priorities[c->next])
    {
        return nullptr;
    }
    --c->remaining;
    c->next = (c->next + 1) % c->priorities.size();
    ++c->pulled[p];
    return Frame(p);
}

TEST_F(PfcNetDeviceTest, FramesSentPerPriorityCountEveryFrameOfAnyMix)
{
    // The device counts runs of two priorities in 16-bit counters and adds them to its
    // per-priority counts when a third priority comes or a run reaches 65,535 frames: the
    // counts must not depend on the mix. Three priorities in turn (each frame evicts a run),
    // two in turn (no eviction), then one priority for 70,000 frames (a run overflows once).
    const std::vector<std::pair<std::vector<uint8_t>, int>> mixes{
        {{0, 2, 5}, 9}, {{2, 5}, 10}, {{1}, 70000}};
    for (const auto& [priorities, frames] : mixes)
    {
        auto l = MakeLink("RoundRobin");
        CyclingPuller c{priorities, frames};
        l->a->SetTxPuller(MakeBoundCallback(&PullCycling, &c));
        Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::Wake, l->a);
        Simulator::Run();
        ASSERT_EQ(c.remaining, 0);
        uint64_t total = 0;
        for (uint8_t p = 0; p < kPfcPriorities; ++p)
        {
            // 9 frames over 3 priorities: 3 each; 10 over 2: 5 each; 70,000 of priority 1.
            EXPECT_EQ(l->a->GetTxFrames(p), c.pulled[p]) << int(p);
            total += l->a->GetTxFrames(p);
        }
        EXPECT_EQ(total, static_cast<uint64_t>(frames));
        EXPECT_EQ(c.pulled[priorities[0]], static_cast<uint64_t>(frames) / priorities.size());
        Simulator::Destroy();
    }
}

struct PullState
{
    int remaining{3};
    int calls{0};
};

Ptr<Packet>
Pull(PullState* s, Ptr<PfcNetDevice>, uint8_t p)
{
    ++s->calls;
    if (p != 4 || s->remaining == 0)
    {
        return nullptr;
    }
    --s->remaining;
    return Frame(4);
}

TEST_F(PfcNetDeviceTest, PullerFillsTheLineBackToBack)
{
    auto l = MakeLink();
    PullState s;
    l->a->SetTxPuller(MakeBoundCallback(&Pull, &s));
    Simulator::Schedule(NanoSeconds(500), &PfcNetDevice::Wake, l->a);
    Simulator::Run();
    // Three frames at 500, 1586, 2672 ns, then the puller says nothing more.
    ASSERT_EQ(l->aTx.size(), 3u);
    EXPECT_EQ(l->aTx[0].first, 500);
    EXPECT_EQ(l->aTx[1].first, 1586);
    EXPECT_EQ(l->aTx[2].first, 2672);
    EXPECT_EQ(l->a->GetTxFrames(4), 3u);
    // Strict priority asks 7, 6, 5, 4 before getting a frame: 4 calls for each of the three
    // frames, then 8 calls (all priorities) that find nothing.
    EXPECT_EQ(s.calls, 3 * 4 + 8);
}

TEST_F(PfcNetDeviceTest, PullerIsAskedOnlyForBackloggedPriorities)
{
    auto l = MakeLink();
    PullState s;
    l->a->SetTxPuller(MakeBoundCallback(&Pull, &s));
    for (uint8_t p = 0; p < 8; ++p)
    {
        l->a->SetTxBacklog(p, p == 4);
    }
    Simulator::Schedule(NanoSeconds(500), &PfcNetDevice::Wake, l->a);
    Simulator::Run();
    // Same three frames as above, but only priority 4 is ever asked: one call per frame,
    // then one that finds nothing (3 + 1 calls, not 3 x 4 + 8).
    ASSERT_EQ(l->aTx.size(), 3u);
    EXPECT_EQ(l->aTx[2].first, 2672);
    EXPECT_EQ(s.calls, 4);
}

std::vector<int64_t> g_rxPsn; // PSN handed along with each received frame, -1: none

void
OnRxInfo(Ptr<PfcNetDevice> dev, Ptr<Packet>, uint8_t)
{
    const RoceFrameInfo* info = dev->GetRxInfo();
    g_rxPsn.push_back(info ? int64_t(info->psn) : -1);
}

TEST_F(PfcNetDeviceTest, HeaderHandedAlongReachesTheReceiver)
{
    auto l = MakeLink();
    g_rxPsn.clear();
    l->b->SetFrameReceiveCallback(MakeCallback(&OnRxInfo));
    RoceFrameInfo info;
    info.priority = 3;
    info.psn = 42;
    info.payloadBytes = 1000;
    Ptr<Packet> known = BuildRoceFrame(info);
    l->a->EnqueueRoce(known, 3, RoceFrameInfoAsParsed(info));
    l->a->Enqueue(Frame(3), 3);
    Simulator::Run();
    // The first frame's header rides with it; the second (plain Enqueue) has none, and the
    // receiver parses it (GetRxInfo is nullptr).
    ASSERT_EQ(g_rxPsn.size(), 2u);
    EXPECT_EQ(g_rxPsn[0], 42);
    EXPECT_EQ(g_rxPsn[1], -1);
    // Outside a delivery there is no header.
    EXPECT_EQ(l->b->GetRxInfo(), nullptr);
}

void
EnqueueWithHeader(Ptr<PfcNetDevice> d, uint8_t p)
{
    RoceFrameInfo info;
    info.priority = p;
    info.payloadBytes = 1000;
    d->EnqueueRoce(BuildRoceFrame(info), p, RoceFrameInfoAsParsed(info));
}

TEST_F(PfcNetDeviceTest, FramesWithHeadersFollowTheLinkStateAndDelayOfTheirTime)
{
    // A device hands a frame with its header straight to the peer on an up, local link,
    // without the channel (PfcChannel::GetDirectPath); a change of the link must reach the
    // next frame. One frame at 0 ns (1086 ns on the wire + 1000 ns delay: at B at 2086 ns);
    // the link fails at 5000 ns: a frame at 6000 ns is lost (one link drop); repaired at
    // 10000 ns with a delay of 3000 ns: a frame at 12000 ns arrives at 12000 + 1086 + 3000 =
    // 16086 ns.
    auto l = MakeLink();
    Ptr<PfcChannel> ch = l->a->GetPfcChannel();
    Simulator::Schedule(NanoSeconds(0), &EnqueueWithHeader, l->a, 3);
    Simulator::Schedule(NanoSeconds(5000), &PfcChannel::SetUp, ch, false);
    Simulator::Schedule(NanoSeconds(6000), &EnqueueWithHeader, l->a, 3);
    Simulator::Schedule(NanoSeconds(10000), &PfcChannel::SetUp, ch, true);
    Simulator::Schedule(NanoSeconds(10000), &PfcChannel::SetDelay, ch, NanoSeconds(3000));
    Simulator::Schedule(NanoSeconds(12000), &EnqueueWithHeader, l->a, 3);
    Simulator::Run();
    ASSERT_EQ(l->bRx.size(), 2u);
    EXPECT_EQ(l->bRx[0].first, 2086);
    EXPECT_EQ(l->bRx[1].first, 16086);
    EXPECT_EQ(ch->GetLinkDrops(), 1u);
    EXPECT_EQ(l->a->GetTxFrames(3), 3u); // the lost one was sent into the dead cable
}

TEST_F(PfcNetDeviceTest, PfcDisabledCountsPausesButIgnoresThem)
{
    auto l = MakeLink();
    l->a->SetAttribute("PfcEnabled", BooleanValue(false));
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 3);
    Simulator::Run();
    // The pause arrives at 1084 ns but A keeps sending: the frame leaves at 2000 ns.
    ASSERT_EQ(l->aTx.size(), 1u);
    EXPECT_EQ(l->aTx[0].first, 2000);
    EXPECT_EQ(l->a->GetPauseFramesReceived(3), 1u);
    EXPECT_EQ(l->a->GetPausedTime(3), Time(0));
}

TEST_F(PfcNetDeviceTest, LongRunRateIsExactAtNanosecondResolution)
{
    auto l = MakeLink("StrictPriority", "100Gbps");
    PullState s;
    s.remaining = 100;
    l->a->SetTxPuller(MakeBoundCallback(&Pull, &s));
    Simulator::Schedule(Time(0), &PfcNetDevice::Wake, l->a);
    Simulator::Run();
    ASSERT_EQ(l->aTx.size(), 100u);
    // A 1086 B slot at 100 Gb/s is 86.88 ns. Frame 99 starts after 99 slots = 8601.12 ns,
    // i.e. at 8601 ns (sub-ns remainders carried). Rounding each slot to 87 ns would give
    // 8613 ns, truncating to 86 ns 8514 ns.
    EXPECT_EQ(l->aTx[99].first, 8601);
    EXPECT_EQ(l->aTx[1].first, 86);
    EXPECT_EQ(l->aTx[2].first, 173); // 173.76
}

TEST_F(PfcNetDeviceTest, PfcReactionDelayPostponesThePause)
{
    // 802.3's bounds (Annex 31B as vendors quote them): 118 quanta = 60416 bit times at
    // 40 Gb/s, 394 quanta = 201728 at 100 Gb/s; 201728 / 100 Gb/s = 2017.28 ns.
    EXPECT_EQ(PfcNetDevice::PfcReactionBitTimesFor(40000000000ULL), 60416u);
    EXPECT_EQ(PfcNetDevice::PfcReactionBitTimesFor(100000000000ULL), 201728u);
    Ptr<PfcNetDevice> fast = CreateObject<PfcNetDevice>();
    fast->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    EXPECT_NEAR(fast->GetPfcReactionDelay().GetSeconds(), 2.01728e-6, 1e-9);

    // 8 Gb/s with the 40 Gb/s figure: 60416 bit / 8 Gb/s = 7552 ns. B pauses priority 3 for
    // Q = 1000 at 0; the PFC frame reaches A at 84 + 1000 = 1084 ns and takes effect at
    // 1084 + 7552 = 8636 ns, until 8636 + 64000 = 72636 ns. A frame queued at 2000 ns leaves
    // at once (the pause is not in effect yet: without the reaction delay it would wait
    // until 65084 ns); one queued at 9000 ns waits for the expiry.
    auto l = MakeLink("StrictPriority", "8Gbps", 60416);
    EXPECT_EQ(l->a->GetPfcReactionDelay(), NanoSeconds(7552));
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, 3);
    Simulator::Schedule(NanoSeconds(8000), [&l]() { EXPECT_FALSE(l->a->IsPaused(3)); });
    Simulator::Schedule(NanoSeconds(9000), &EnqueueAt, l->a, 3);
    Simulator::Run();
    ASSERT_EQ(l->aTx.size(), 2u);
    EXPECT_EQ(l->aTx[0].first, 2000);
    EXPECT_EQ(l->aTx[1].first, 72636);
    EXPECT_EQ(l->a->GetPausedTime(3), NanoSeconds(64000));
    // Counted on arrival (1084 ns), applied later.
    EXPECT_EQ(l->a->GetPauseFramesReceived(3), 1u);
}

TEST_F(PfcNetDeviceTest, TheControlPriorityGoesFirstAndIsNeverPaused)
{
    // B pauses priorities 3 and 7 (the control class, ACK/NAK/CNP) at 0: A counts both and
    // obeys only 3. A queues two priority-4 frames, one of 3 and one of 7 at 2000 ns under
    // deficit round robin: the first 4 starts alone at 2000 ns; 7 is next whatever the
    // round (control first), then the other 4; 3 waits for its pause (64000 ns from 1168,
    // the second PFC frame's arrival at 2 x 84 + 1000: until 65168 ns).
    auto l = MakeLink("DeficitRoundRobin");
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 7, 1000);
    Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SendPause, l->b, 3, 1000);
    for (uint8_t p : {4, 4, 3, 7})
    {
        Simulator::Schedule(NanoSeconds(2000), &EnqueueAt, l->a, p);
    }
    Simulator::Schedule(NanoSeconds(3000), [&l]() {
        EXPECT_FALSE(l->a->IsPaused(7));
        EXPECT_TRUE(l->a->IsPaused(3));
    });
    Simulator::Run();
    EXPECT_EQ(l->a->GetPauseFramesReceived(7), 1u);
    ASSERT_EQ(l->aTx.size(), 4u);
    std::vector<int> order;
    for (auto& t : l->aTx)
    {
        order.push_back(t.second);
    }
    EXPECT_EQ(order, (std::vector<int>{4, 7, 4, 3}));
    EXPECT_EQ(l->aTx[3].first, 65168);
}

namespace
{
/// Bytes A started sending per priority, and the bytes of each when the first queue emptied.
struct ByteCount
{
    std::array<uint64_t, 8> sent{};
    uint64_t twoAtSplit{0};
    uint64_t fiveAtSplit{0};
    int twoLeft{0};
};

void
CountBytes(ByteCount* c, Ptr<const Packet> f, uint8_t p)
{
    c->sent[p] += f->GetSize();
    if (p == 2 && --c->twoLeft == 0)
    {
        c->twoAtSplit = c->sent[2];
        c->fiveAtSplit = c->sent[5];
    }
}

Ptr<Packet>
FrameOf(uint8_t priority, uint32_t payload)
{
    RoceFrameInfo i;
    i.priority = priority;
    i.payloadBytes = payload;
    return BuildRoceFrame(i);
}
} // namespace

TEST_F(PfcNetDeviceTest, DeficitRoundRobinSharesBytesRoundRobinSharesFrames)
{
    // 40 small frames on priority 2 (434 B payload + 66 = 500 B) and 40 large ones on
    // priority 5 (1066 B), all queued at 0. DRR with a 2132 B quantum is byte-fair: while
    // both are backlogged their bytes differ by at most one quantum plus one frame (the
    // surplus form's bound: a turn ends at most one frame past its credit), so when
    // priority 2 has sent its 20000 B, priority 5 has sent 20000 +- 3198 B. Round robin is
    // frame-fair: 2 5 2 5 ... so when priority 2's 40th frame starts, priority 5 has sent
    // 39 frames, 39 x 1066 = 41574 B against 20000 B.
    for (std::string s : {"DeficitRoundRobin", "RoundRobin"})
    {
        auto l = MakeLink(s);
        l->a->SetAttribute("DrrQuantum", UintegerValue(2132));
        ByteCount c;
        c.twoLeft = 40;
        l->a->TraceConnectWithoutContext("Dequeue", MakeBoundCallback(&CountBytes, &c));
        for (int k = 0; k < 40; ++k)
        {
            l->a->Enqueue(FrameOf(2, 434), 2);
            l->a->Enqueue(FrameOf(5, 1000), 5);
        }
        Simulator::Run();
        ASSERT_EQ(c.sent[2], 40u * 500) << s;
        ASSERT_EQ(c.sent[5], 40u * 1066) << s;
        const int64_t gap = static_cast<int64_t>(c.fiveAtSplit) -
                            static_cast<int64_t>(c.twoAtSplit);
        if (s == "DeficitRoundRobin")
        {
            EXPECT_LE(std::abs(gap), 2132 + 1066) << c.fiveAtSplit;
        }
        else
        {
            EXPECT_EQ(c.fiveAtSplit, 39u * 1066);
        }
        Simulator::Destroy();
    }
}

TEST_F(PfcNetDeviceTest, DeficitRoundRobinTurnsOfTwoFramesWithATwoFrameQuantum)
{
    // Equal frames of 1066 B, quantum 2132 B = two frames per turn: priority 2 and 5, four
    // each, queued at 0 (2 first). Turns: 2 2 | 5 5 | 2 2 | 5 5, back to back.
    auto l = MakeLink("DeficitRoundRobin");
    l->a->SetAttribute("DrrQuantum", UintegerValue(2132));
    for (int k = 0; k < 4; ++k)
    {
        Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->a, 2);
        Simulator::Schedule(NanoSeconds(0), &EnqueueAt, l->a, 5);
    }
    Simulator::Run();
    std::vector<int> order;
    for (auto& t : l->aTx)
    {
        order.push_back(t.second);
    }
    EXPECT_EQ(order, (std::vector<int>{2, 2, 5, 5, 2, 2, 5, 5}));
    EXPECT_EQ(l->aTx.back().first, 7 * 1086);
}

} // namespace
} // namespace ns3
