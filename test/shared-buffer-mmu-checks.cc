// SharedBufferMmu by hand arithmetic (no simulator): shared test bodies (model-checks.h).
#include "model-checks.h"

#include "ns3/shared-buffer-mmu.h"

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

} // namespace

void
CheckMmuHeadroomFormulaAndSharedPool(CheckReporter& r)
{
    SharedBufferMmu m(StaticConfig());
    m.AddPort(40e9, 1e-6);
    m.AddPort(100e9, 2e-6);
    m.Finalize();
    // port 0: 2 x 1 us x 40 Gb/s / 8 = 10000 B + 3 x 1000 = 13000 B
    PS_CHECK_EQ(r, m.HeadroomBytes(0), 13000u);
    // port 1: 2 x 2 us x 100 Gb/s / 8 = 50000 B + 3000 = 53000 B
    PS_CHECK_EQ(r, m.HeadroomBytes(1), 53000u);
    // one lossless priority: pool = 1e6 - 13000 - 53000 = 934000
    PS_CHECK_EQ(r, m.SharedPoolBytes(), 934000u);

    SharedBufferMmu::Config c = StaticConfig();
    c.responseTimeS = 1e-6; // + 1 us x 40 Gb/s / 8 = 5000 B
    SharedBufferMmu slow(c);
    slow.AddPort(40e9, 1e-6);
    slow.Finalize();
    PS_CHECK_EQ(r, slow.HeadroomBytes(0), 18000u);
}

void
CheckMmuSharedThenHeadroomThenDrop(CheckReporter& r)
{
    SharedBufferMmu m(StaticConfig());
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    // 100 frames of 1000 B fill the shared part of (0, 3) exactly to XOFF = 100000.
    for (int k = 0; k < 100; ++k)
    {
        if (!PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::SHARED))
        {
            return;
        }
    }
    PS_CHECK(r, m.ShouldPause(0, 3)); // 100000 >= XOFF
    PS_CHECK(r, !m.ShouldPause(1, 3));
    // headroom 13000 B takes 13 more frames, the 14th is dropped and counted.
    for (int k = 0; k < 13; ++k)
    {
        if (!PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::HEADROOM))
        {
            return;
        }
    }
    PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::DROP);
    PS_CHECK_EQ(r, m.Drops(0, 3), 1u);
    PS_CHECK_EQ(r, m.DroppedBytes(0, 3), 1000u);
    PS_CHECK_EQ(r, m.Drops(1, 3), 0u);
    PS_CHECK_EQ(r, m.TotalDrops(), 1u);
    PS_CHECK_EQ(r, m.HeadroomUsed(0, 3), 13000u);
    PS_CHECK_EQ(r, m.SharedUsed(), 100000u);

    // Release drains the headroom first: 13000 B leave -> no headroom, shared still 100000.
    m.Release(0, 3, 13000);
    PS_CHECK_EQ(r, m.HeadroomUsed(0, 3), 0u);
    PS_CHECK(r, !m.ShouldResume(0, 3)); // 100000 > XON = 90000
    m.Release(0, 3, 9000);
    PS_CHECK(r, !m.ShouldResume(0, 3)); // 91000 > 90000
    m.Release(0, 3, 1000);
    PS_CHECK(r, m.ShouldResume(0, 3)); // 90000 <= 90000
    PS_CHECK_EQ(r, m.SharedUsed(), 90000u);
    bool threw = false;
    try
    {
        m.Release(0, 3, 90001); // more than the 90000 B held
    }
    catch (const std::logic_error&)
    {
        threw = true;
    }
    PS_CHECK(r, threw);
}

void
CheckMmuLossyPriorityHasNoHeadroomAndNoPause(CheckReporter& r)
{
    SharedBufferMmu::Config c = StaticConfig();
    c.bufferBytes = 31000; // pool = 31000 - 13000 = 18000
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    if (!PS_CHECK_EQ(r, m.SharedPoolBytes(), 18000u))
    {
        return;
    }
    // The lossy class's dynamic threshold (lossy alpha 8): a frame of 1000 B fits while
    // s + 1000 <= 8 x (18000 - s) <=> 9 s <= 143000 <=> s <= 15888: frames at s = 0 ..
    // 15000, 16 of them; the 17th (s = 16000) is dropped although 2000 B are still free.
    for (int k = 0; k < 16; ++k)
    {
        if (!PS_CHECK_EQ(r, m.Admit(0, 0, 1000), SharedBufferMmu::SHARED))
        {
            return;
        }
    }
    PS_CHECK(r, !m.ShouldPause(0, 0));
    PS_CHECK_EQ(r, m.Admit(0, 0, 1000), SharedBufferMmu::DROP);
    PS_CHECK_EQ(r, m.Drops(0, 0), 1u);
    // The lossless class (static XOFF 100000) still finds 2000 B of pool for its frame.
    PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    PS_CHECK(r, !m.ShouldPause(0, 3));
}

void
CheckMmuLossyClassCannotDriveTheLosslessXoffToZero(CheckReporter& r)
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
    if (!PS_CHECK_EQ(r, m.SharedPoolBytes(), 974000u))
    {
        return;
    }
    int admitted = 0;
    while (m.Admit(1, 0, 1000) == SharedBufferMmu::SHARED)
    {
        ++admitted;
    }
    PS_CHECK_EQ(r, admitted, 866);
    PS_CHECK_EQ(r, m.LossyLimit(), uint64_t{8} * 108000);
    PS_CHECK_EQ(r, m.Xoff(1, 0), uint64_t{8} * 108000); // a lossy class's XOFF: its limit
    PS_CHECK_EQ(r, m.Xoff(0, 3), uint64_t{13500});
    PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    PS_CHECK(r, !m.ShouldPause(0, 3));
}

void
CheckMmuUpstreamReactionTimeJoinsTheHeadroom(CheckReporter& r)
{
    // 100 Gb/s, 1 us: 2 x 1e-6 x 100e9 / 8 = 25000 B + 3 x 1000 B + reaction 201728 bit
    // times (802.3's bound at 100 Gb/s) = 25216 B: 53216 B.
    SharedBufferMmu m(StaticConfig());
    m.AddPort(100e9, 1e-6, 201728 / 100e9);
    m.AddPort(100e9, 1e-6);
    PS_CHECK_EQ(r, m.HeadroomBytes(0), uint64_t{53216});
    PS_CHECK_EQ(r, m.HeadroomBytes(1), uint64_t{28000});
}

void
CheckMmuDynamicThreshold(CheckReporter& r)
{
    SharedBufferMmu::Config c = StaticConfig();
    c.dynamicThreshold = true;
    c.alpha = 0.5;
    SharedBufferMmu m(c);
    m.AddPort(40e9, 1e-6);
    m.AddPort(40e9, 1e-6);
    m.Finalize();
    // pool = 1e6 - 2 x 13000 = 974000; XOFF = 0.5 x 974000 = 487000; XON = 477000
    PS_CHECK_EQ(r, m.Xoff(0, 3), 487000u);
    PS_CHECK_EQ(r, m.Xon(0, 3), 477000u);
    for (int k = 0; k < 100; ++k)
    {
        m.Admit(1, 3, 1000);
    }
    // free = 974000 - 100000 = 874000 -> XOFF = 437000 for every port-priority
    PS_CHECK_EQ(r, m.Xoff(0, 3), 437000u);
    PS_CHECK(r, !m.ShouldPause(1, 3)); // 100000 < 437000
    int shared = 100;
    while (m.Admit(1, 3, 1000) == SharedBufferMmu::SHARED)
    {
        ++shared;
    }
    // Admission test: s + 1000 <= 0.5 (974000 - s) <=> 1.5 s <= 486000 <=> s <= 324000:
    // the last admitted frame starts at s = 324000, so 325 frames are shared.
    PS_CHECK_EQ(r, shared, 325);
    PS_CHECK_EQ(r, m.HeadroomUsed(1, 3), 1000u);
    PS_CHECK(r, m.ShouldPause(1, 3)); // headroom in use
}

void
CheckMmuHeadroomThatDoesNotFitIsAClearError(CheckReporter& r)
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
        r.Check(false, "Finalize accepted 208000 B of headroom in 20000 B", __FILE__, __LINE__);
    }
    catch (const std::invalid_argument& e)
    {
        std::string what = e.what();
        r.Check(
            what.find("208000") != std::string::npos, "names 208000: " + what, __FILE__, __LINE__);
        r.Check(
            what.find("20000") != std::string::npos, "names 20000: " + what, __FILE__, __LINE__);
    }
    SharedBufferMmu m2(c);
    bool threw = false;
    try
    {
        m2.AddPort(-1, 1e-6);
    }
    catch (const std::invalid_argument&)
    {
        threw = true;
    }
    PS_CHECK(r, threw);
    // A class's reserve count holds 32 bits: a reserve of 2^32 B (one over the largest) is
    // refused by name, 2^32 - 1 B is taken.
    c.queueReserveBytes = uint64_t{1} << 32;
    try
    {
        SharedBufferMmu m3(c);
        r.Check(false, "a 4 GiB queue reserve was accepted", __FILE__, __LINE__);
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        r.Check(what.find("4294967296") != std::string::npos,
                "names the reserve: " + what,
                __FILE__,
                __LINE__);
    }
    c.queueReserveBytes = (uint64_t{1} << 32) - 1;
    SharedBufferMmu m4(c);
    PS_CHECK_EQ(r, m4.GetConfig().queueReserveBytes, uint64_t{4294967295});
}

namespace
{
/// HPCC's simulator's MMU (shared-buffer-mmu.h): headroom 3 one-way BDPs, 4096 B reserve per
/// lossless queue, free-buffer shift 3 (alpha 1/8) at the 100 Gb/s NIC rate, resume 3072 B
/// below XOFF; priority 3 lossless.
SharedBufferMmu::Config
HpccConfig()
{
    SharedBufferMmu::Config c;
    c.dynamicThreshold = true;
    c.alpha = 1.0 / 8;
    c.hysteresisBytes = 3072;
    c.losslessMask = 0x08;
    c.headroomBdps = 3;
    c.queueReserveBytes = 4096;
    c.alphaReferenceRateBps = 100e9;
    return c;
}
} // namespace

void
CheckMmuHpccHeadroomReserveAndShiftPerPortRate(CheckReporter& r)
{
    SharedBufferMmu::Config c = HpccConfig();
    c.bufferBytes = 1000000;
    SharedBufferMmu m(c);
    m.AddPort(100e9, 1e-6); // NIC rate: shift 3
    m.AddPort(400e9, 1e-6); // two doublings above it: shift 1
    m.Finalize();
    // headroom = 3 x rate x delay / 8: 3 x 12500 = 37500 B at 100 Gb/s, 3 x 50000 = 150000 B
    // at 400 Gb/s (no frame or reaction term)
    PS_CHECK_EQ(r, m.HeadroomBytes(0), 37500u);
    PS_CHECK_EQ(r, m.HeadroomBytes(1), 150000u);
    // pool = 1e6 - (37500 + 4096) - (150000 + 4096) = 804308
    PS_CHECK_EQ(r, m.SharedPoolBytes(), 804308u);
    // free F = 804308: XOFF = F >> 3 = 100538 at the NIC rate, F >> 1 = 402154 at 400 Gb/s
    PS_CHECK_EQ(r, m.Xoff(0, 3), 100538u);
    PS_CHECK_EQ(r, m.Xoff(1, 3), 402154u);
    PS_CHECK_EQ(r, m.Xon(0, 3), 100538u - 3072u);

    // alpha per port rate with the 100 Gb/s reference: doubled ceil(log2(rate / 100 G)) times
    // while <= 1: 100 G 1/8; 150 G and 200 G 1/4; 400 G 1/2; 800 G and 1.6 T 1; 40 G 1/8.
    SharedBufferMmu rates(c);
    for (double gbps : {100.0, 150.0, 200.0, 400.0, 800.0, 1600.0, 40.0})
    {
        rates.AddPort(gbps * 1e9, 0);
    }
    const double want[] = {0.125, 0.25, 0.25, 0.5, 1.0, 1.0, 0.125};
    for (uint32_t i = 0; i < 7; ++i)
    {
        PS_CHECK_EQ(r, rates.Alpha(i), want[i]);
    }
    c.alphaReferenceRateBps = 0; // off: Alpha on every port
    SharedBufferMmu flat(c);
    flat.AddPort(400e9, 0);
    PS_CHECK_EQ(r, flat.Alpha(0), 0.125);
}

void
CheckMmuHpccReserveFillsFirstAndResume3072BelowXoff(CheckReporter& r)
{
    SharedBufferMmu::Config c = HpccConfig();
    // one 100 Gb/s port of 1 us: headroom 37500, reserve 4096; pool F = 960000 exactly
    c.bufferBytes = 960000 + 37500 + 4096;
    SharedBufferMmu m(c);
    m.AddPort(100e9, 1e-6);
    m.Finalize();
    PS_CHECK_EQ(r, m.SharedPoolBytes(), 960000u);
    PS_CHECK_EQ(r, m.Xoff(0, 3), 120000u); // F / 8
    // Frames of 1000 B: the first 4 stay in the reserve (4000 B, nothing shared), the 5th puts
    // 96 B in the reserve and 904 B in the pool.
    for (int k = 0; k < 4; ++k)
    {
        PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    }
    PS_CHECK_EQ(r, m.ReservedBytes(0, 3), 4000u);
    PS_CHECK_EQ(r, m.SharedUsed(), 0u);
    PS_CHECK_EQ(r, m.Admit(0, 3, 1000), SharedBufferMmu::SHARED);
    PS_CHECK_EQ(r, m.ReservedBytes(0, 3), 4096u);
    PS_CHECK_EQ(r, m.SharedBytes(0, 3), 904u);
    PS_CHECK_EQ(r, m.SharedUsed(), 904u);
    // A frame is shared while s + 1000 <= (960000 - s) / 8 <=> 9 s <= 952000 <=> s <= 105777;
    // s = 904 + 1000 j, so j = 0..104 are admitted (105 frames) and s ends at 105904.
    int shared = 0;
    while (m.Admit(0, 3, 1000) == SharedBufferMmu::SHARED)
    {
        ++shared;
    }
    PS_CHECK_EQ(r, shared, 105);
    PS_CHECK_EQ(r, m.SharedBytes(0, 3), 105904u);
    PS_CHECK_EQ(r, m.HeadroomUsed(0, 3), 1000u);
    PS_CHECK(r, m.ShouldPause(0, 3));
    // Resume: no headroom and s <= XOFF - 3072 = (960000 - s) / 8 - 3072 <=> 9 s <= 935424
    // <=> s <= 103936. The headroom frame leaves first (s stays 105904), then s falls by
    // 1000 per frame: 104904 is still above, 103904 resumes.
    m.Release(0, 3, 1000);
    PS_CHECK_EQ(r, m.HeadroomUsed(0, 3), 0u);
    PS_CHECK(r, !m.ShouldResume(0, 3));
    m.Release(0, 3, 1000);
    PS_CHECK(r, !m.ShouldResume(0, 3));
    m.Release(0, 3, 1000);
    PS_CHECK(r, m.ShouldResume(0, 3));
    // Shared bytes leave before the reserve's: 103904 + 1000 released leave 3096 reserved.
    m.Release(0, 3, 104904);
    PS_CHECK_EQ(r, m.SharedUsed(), 0u);
    PS_CHECK_EQ(r, m.ReservedBytes(0, 3), 3096u);
    // The control class (lossy) has no reserve: its bytes are shared at once.
    PS_CHECK_EQ(r, m.Admit(0, 7, 90), SharedBufferMmu::SHARED);
    PS_CHECK_EQ(r, m.ReservedBytes(0, 7), 0u);
    PS_CHECK_EQ(r, m.SharedUsed(), 90u);
}

} // namespace ns3
