// SharedBufferMmu by hand arithmetic (no simulator).
#include "ns3/shared-buffer-mmu.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ns3
{
namespace
{

SharedBufferMmu::Config
StaticConfig()
{
    SharedBufferMmu::Config c;
    c.bufferBytes = 1000000;
    c.dynamicThreshold = false;
    c.staticXoffBytes = 100000;
    c.hysteresisBytes = 10000;
    c.mtuBytes = 1000;
    c.responseTimeS = 0;
    c.losslessMask = 0x08; // priority 3 only
    return c;
}

TEST(SharedBufferMmuTest, HeadroomFormulaAndSharedPool)
{
    SharedBufferMmu m(StaticConfig());
    m.AddPort(40e9, 1e-6);
    m.AddPort(100e9, 2e-6);
    m.Finalize();
    // port 0: 2 x 1 us x 40 Gb/s / 8 = 10000 B + 3 x 1000 = 13000 B
    EXPECT_EQ(m.HeadroomBytes(0), 13000u);
    // port 1: 2 x 2 us x 100 Gb/s / 8 = 50000 B + 3000 = 53000 B
    EXPECT_EQ(m.HeadroomBytes(1), 53000u);
    // one lossless priority: pool = 1e6 - 13000 - 53000 = 934000
    EXPECT_EQ(m.SharedPoolBytes(), 934000u);

    SharedBufferMmu::Config c = StaticConfig();
    c.responseTimeS = 1e-6; // + 1 us x 40 Gb/s / 8 = 5000 B
    SharedBufferMmu r(c);
    r.AddPort(40e9, 1e-6);
    r.Finalize();
    EXPECT_EQ(r.HeadroomBytes(0), 18000u);
}

TEST(SharedBufferMmuTest, SharedThenHeadroomThenDrop)
{
    SharedBufferMmu m(StaticConfig());
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    // 100 frames of 1000 B fill the shared part of (0, 3) exactly to XOFF = 100000.
    for (int k = 0; k < 100; ++k)
    {
        ASSERT_EQ(m.Admit(0, 3, 1000), SharedBufferMmu::SHARED) << k;
    }
    EXPECT_TRUE(m.ShouldPause(0, 3)); // 100000 >= XOFF
    EXPECT_FALSE(m.ShouldPause(1, 3));
    // headroom 13000 B takes 13 more frames, the 14th is dropped and counted.
    for (int k = 0; k < 13; ++k)
    {
        ASSERT_EQ(m.Admit(0, 3, 1000), SharedBufferMmu::HEADROOM) << k;
    }
    EXPECT_EQ(m.Admit(0, 3, 1000), SharedBufferMmu::DROP);
    EXPECT_EQ(m.Drops(0, 3), 1u);
    EXPECT_EQ(m.DroppedBytes(0, 3), 1000u);
    EXPECT_EQ(m.Drops(1, 3), 0u);
    EXPECT_EQ(m.TotalDrops(), 1u);
    EXPECT_EQ(m.HeadroomUsed(0, 3), 13000u);
    EXPECT_EQ(m.SharedUsed(), 100000u);

    // Release drains the headroom first: 13000 B leave -> no headroom, shared still 100000.
    m.Release(0, 3, 13000);
    EXPECT_EQ(m.HeadroomUsed(0, 3), 0u);
    EXPECT_FALSE(m.ShouldResume(0, 3)); // 100000 > XON = 90000
    m.Release(0, 3, 9000);
    EXPECT_FALSE(m.ShouldResume(0, 3)); // 91000 > 90000
    m.Release(0, 3, 1000);
    EXPECT_TRUE(m.ShouldResume(0, 3)); // 90000 <= 90000
    EXPECT_EQ(m.SharedUsed(), 90000u);
    EXPECT_THROW(m.Release(0, 3, 90001), std::logic_error);
}

TEST(SharedBufferMmuTest, LossyPriorityHasNoHeadroomAndNoPause)
{
    SharedBufferMmu::Config c = StaticConfig();
    c.bufferBytes = 31000; // pool = 31000 - 13000 = 18000
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    ASSERT_EQ(m.SharedPoolBytes(), 18000u);
    // The lossy class's dynamic threshold (lossy alpha 8): a frame of 1000 B fits while
    // s + 1000 <= 8 x (18000 - s) <=> 9 s <= 143000 <=> s <= 15888: frames at s = 0 ..
    // 15000, 16 of them; the 17th (s = 16000) is dropped although 2000 B are still free.
    for (int k = 0; k < 16; ++k)
    {
        ASSERT_EQ(m.Admit(0, 0, 1000), SharedBufferMmu::SHARED);
    }
    EXPECT_FALSE(m.ShouldPause(0, 0));
    EXPECT_EQ(m.Admit(0, 0, 1000), SharedBufferMmu::DROP);
    EXPECT_EQ(m.Drops(0, 0), 1u);
    // The lossless class (static XOFF 100000) still finds 2000 B of pool for its frame.
    EXPECT_EQ(m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    EXPECT_FALSE(m.ShouldPause(0, 3));
}

TEST(SharedBufferMmuTest, ALossyClassCannotDriveTheLosslessXoffToZero)
{
    // Dynamic thresholds, alpha 1/8 (lossless) and 8 (lossy); two ports of 13000 B headroom
    // for the one lossless priority: pool = 1e6 - 26000 = 974000. A lossy burst on port 1
    // (priority 0) stops at s + 1000 <= 8 (974000 - s) <=> 9 s <= 7791000 <=> s <= 865666:
    // 866 frames (s = 0 .. 865000). Free is then 974000 - 866000 = 108000 and the lossless
    // XOFF of port 0 is 108000 / 8 = 13500 B, not 0 as when a lossy class could take every
    // free byte (then: 974 frames, free 0, XOFF 0: every lossless frame to headroom).
    SharedBufferMmu::Config c = StaticConfig();
    c.dynamicThreshold = true;
    c.alpha = 1.0 / 8;
    c.lossyAlpha = 8;
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    ASSERT_EQ(m.SharedPoolBytes(), 974000u);
    int admitted = 0;
    while (m.Admit(1, 0, 1000) == SharedBufferMmu::SHARED)
    {
        ++admitted;
    }
    EXPECT_EQ(admitted, 866);
    EXPECT_EQ(m.LossyLimit(), 8u * 108000);
    EXPECT_EQ(m.Xoff(0, 3), 13500u);
    EXPECT_EQ(m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    EXPECT_FALSE(m.ShouldPause(0, 3));
}

TEST(SharedBufferMmuTest, TheUpstreamsReactionTimeJoinsTheHeadroom)
{
    // 100 Gb/s, 1 us: 2 x 1e-6 x 100e9 / 8 = 25000 B + 3 x 1000 B + reaction 201728 bit
    // times (802.3's bound at 100 Gb/s) = 25216 B: 53216 B.
    SharedBufferMmu m(StaticConfig());
    m.AddPort(100e9, 1e-6, 201728 / 100e9);
    m.AddPort(100e9, 1e-6);
    EXPECT_EQ(m.HeadroomBytes(0), 53216u);
    EXPECT_EQ(m.HeadroomBytes(1), 28000u);
}

TEST(SharedBufferMmuTest, DynamicThreshold)
{
    SharedBufferMmu::Config c = StaticConfig();
    c.dynamicThreshold = true;
    c.alpha = 0.5;
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    // pool = 1e6 - 2 x 13000 = 974000; XOFF = 0.5 x 974000 = 487000; XON = 477000
    EXPECT_EQ(m.Xoff(0, 3), 487000u);
    EXPECT_EQ(m.Xon(0, 3), 477000u);
    for (int k = 0; k < 100; ++k)
    {
        m.Admit(1, 3, 1000);
    }
    // free = 974000 - 100000 = 874000 -> XOFF = 437000 for every port-priority
    EXPECT_EQ(m.Xoff(0, 3), 437000u);
    EXPECT_FALSE(m.ShouldPause(1, 3)); // 100000 < 437000
    int shared = 100;
    while (m.Admit(1, 3, 1000) == SharedBufferMmu::SHARED)
    {
        ++shared;
    }
    // Admission test: s + 1000 <= 0.5 (974000 - s) <=> 1.5 s <= 486000 <=> s <= 324000:
    // the last admitted frame starts at s = 324000, so 325 frames are shared.
    EXPECT_EQ(shared, 325);
    EXPECT_EQ(m.HeadroomUsed(1, 3), 1000u);
    EXPECT_TRUE(m.ShouldPause(1, 3)); // headroom in use
}

TEST(SharedBufferMmuTest, HeadroomThatDoesNotFitIsAClearError)
{
    SharedBufferMmu::Config c = StaticConfig();
    c.bufferBytes = 20000;
    c.losslessMask = 0xff;
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    // 2 ports x 8 priorities x 13000 B = 208000 B > 20000 B
    try
    {
        m.Finalize();
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        std::string what = e.what();
        EXPECT_NE(what.find("208000"), std::string::npos) << what;
        EXPECT_NE(what.find("20000"), std::string::npos) << what;
    }
    SharedBufferMmu m2(c);
    EXPECT_THROW(m2.AddPort(-1, 1e-6), std::invalid_argument);
}

} // namespace
} // namespace ns3
