// PfcWatchdog with a scripted port: when a storm is declared and when it ends.
#include "ns3/pfc-watchdog.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST(PfcWatchdog, DeclaresAStormAfterTheDetectionTimeAndRestoresAfterTheRestoreTime)
{
    // One port; priority 3 is paused with frames waiting from t = 0 to t = 3 ms. Detection
    // 1 ms, polled every 250 us: the pause is seen at 0 (woken by the pause frame) and again
    // at 1.0 ms, when it has lasted the detection time: storm at 1.0 ms, queue flushed once.
    // From 3 ms it is unpaused; restore 2 ms: seen clear at 3.0, restored at 5.0 ms. A short
    // pause (priority 4, 0.5 ms) never becomes a storm.
    bool paused3 = true;
    bool paused4 = true;
    int flushes = 0;
    Time stormAt = Seconds(-1);
    Time restoredAt = Seconds(-1);
    PfcWatchdog::Hooks h;
    h.paused = [&](uint32_t, uint8_t q) { return q == 3 ? paused3 : q == 4 ? paused4 : false; };
    h.backlogged = [&](uint32_t, uint8_t q) { return q == 3 || q == 4; };
    h.sent = [&](uint32_t, uint8_t) { return uint64_t{0}; }; // nothing leaves: a real storm
    h.flush = [&](uint32_t, uint8_t q) { flushes += q == 3 ? 1 : 100; };
    h.changed = [&](uint32_t, uint8_t q, bool on) {
        ASSERT_EQ(q, 3);
        (on ? stormAt : restoredAt) = Simulator::Now();
    };
    PfcWatchdog dog(1, MilliSeconds(1), MilliSeconds(2), h);
    dog.Wake();
    Simulator::Schedule(MicroSeconds(500), [&]() { paused4 = false; });
    Simulator::Schedule(MilliSeconds(3), [&]() { paused3 = false; });
    Simulator::Schedule(MicroSeconds(1100), [&]() { EXPECT_TRUE(dog.Dropping(0, 3)); });
    Simulator::Run();
    EXPECT_EQ(stormAt, MilliSeconds(1));
    EXPECT_EQ(restoredAt, MilliSeconds(5));
    EXPECT_EQ(flushes, 1);
    EXPECT_EQ(dog.Storms(), 1u);
    EXPECT_FALSE(dog.Dropping(0, 3));
    EXPECT_FALSE(dog.Dropping(0, 4));
    Simulator::Destroy();
}

TEST(PfcWatchdog, APausedBackloggedQueueThatStillSendsIsNeverAStorm)
{
    // A congested incast egress: priority 3 is paused and backlogged at every look for 10 ms
    // (40 looks at 250 us), but between two looks it sends a frame (XON lets it go, then XOFF
    // again). Priority 5 is the same except that it stops sending at 4 ms (its receiver
    // stalled). Looks are at multiples of 250 us and its frames leave 100 us after each
    // look, the last at 3.85 ms: the look at 4.0 ms still sees the counter moved since the
    // look at 3.75 ms and restarts the window there; the looks at 4.25 .. 5.0 ms see it
    // unchanged, and at 5.0 ms the window has lasted the 1 ms detection time: storm at 5.0.
    uint64_t sent3 = 0;
    uint64_t sent5 = 0;
    std::vector<Time> storms3;
    Time storm5 = Seconds(-1);
    PfcWatchdog::Hooks h;
    h.paused = [&](uint32_t, uint8_t q) { return q == 3 || q == 5; };
    h.backlogged = [&](uint32_t, uint8_t q) { return q == 3 || q == 5; };
    h.sent = [&](uint32_t, uint8_t q) { return q == 3 ? sent3 : q == 5 ? sent5 : 0; };
    h.flush = [&](uint32_t, uint8_t) {};
    h.changed = [&](uint32_t, uint8_t q, bool on) {
        if (on && q == 3)
        {
            storms3.push_back(Simulator::Now());
        }
        if (on && q == 5)
        {
            storm5 = Simulator::Now();
        }
    };
    PfcWatchdog dog(1, MilliSeconds(1), MilliSeconds(1), h);
    dog.Wake();
    for (int i = 0; i < 40; ++i)
    {
        // A frame 100 us after each look: always sent before the next one.
        const Time at = MicroSeconds(250 * i + 100);
        Simulator::Schedule(at, [&]() { ++sent3; });
        if (at < MilliSeconds(4))
        {
            Simulator::Schedule(at, [&]() { ++sent5; });
        }
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_TRUE(storms3.empty()) << "first false storm at " << storms3.front().GetSeconds();
    EXPECT_FALSE(dog.Dropping(0, 3));
    EXPECT_EQ(storm5, MilliSeconds(5));
    EXPECT_EQ(dog.Storms(), 1u);
    Simulator::Destroy();
}

TEST(PfcWatchdog, RefusesMissingHooks)
{
    // The transmit counter is what tells a draining queue from a stalled one: required.
    PfcWatchdog::Hooks h;
    h.paused = [](uint32_t, uint8_t) { return false; };
    h.backlogged = [](uint32_t, uint8_t) { return false; };
    h.flush = [](uint32_t, uint8_t) {};
    h.changed = [](uint32_t, uint8_t, bool) {};
    EXPECT_THROW(PfcWatchdog(1, MilliSeconds(1), MilliSeconds(1), h), std::invalid_argument);
}
