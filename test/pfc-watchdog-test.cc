// PfcWatchdog with a scripted port: when a storm is declared and when it ends.
#include "ns3/pfc-watchdog.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

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
