// Issue 2 test 6: DCQCN rate cut per Zhu et al. (SIGCOMM'15) at exact times, and recovery to
// line rate through fast recovery then additive increase without CNPs.
#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
struct Snap
{
    uint64_t rc, rt;
    double alpha;
};
} // namespace

TEST(DcqcnCc, CutPerFormulaAtExactTimes)
{
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    cc->Start(DataRate("40Gbps"));
    Snap a{}, b{}, c{}, d{};
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(500), [&] { a = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()}; });
    Simulator::Schedule(NanoSeconds(10500), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(10600), [&] { b = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()}; });
    // RpTimer 900 us after the second CNP: fast recovery; 1800 us: additive increase.
    Simulator::Schedule(NanoSeconds(910600), [&] { c = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()}; });
    Simulator::Schedule(NanoSeconds(1810600), [&] { d = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()}; });
    Simulator::Stop(NanoSeconds(1810700));
    Simulator::Run();
    // First CNP: alpha = 1 -> Rc = 40G (1 - 1/2) = 20 Gb/s, Rt = 40 Gb/s, alpha = (1-g) 1 + g = 1.
    EXPECT_EQ(a.rc, 20000000000ULL);
    EXPECT_EQ(a.rt, 40000000000ULL);
    EXPECT_DOUBLE_EQ(a.alpha, 1.0);
    // Alpha timer fired at 1..10 us without CNP: alpha = (255/256)^10 before the second cut.
    double g = 1.0 / 256;
    double al = std::pow(1 - g, 10);
    uint64_t rc2 = static_cast<uint64_t>(20e9 * (1 - al / 2)); // ~10.385 Gb/s
    EXPECT_EQ(b.rt, 20000000000ULL);
    EXPECT_EQ(b.rc, rc2);
    EXPECT_NEAR(b.alpha, (1 - g) * al + g, 1e-12);
    // Fast recovery (stage 0 < F = 1): Rc = (Rt + Rc) / 2 rounded up, Rt unchanged.
    EXPECT_EQ(c.rt, 20000000000ULL);
    EXPECT_EQ(c.rc, (20000000000ULL + rc2 + 1) / 2);
    // Additive increase (stage 1 = F): Rt += 50 Mb/s, Rc = (Rt + Rc) / 2.
    EXPECT_EQ(d.rt, 20050000000ULL);
    EXPECT_EQ(d.rc, (20050000000ULL + (20000000000ULL + rc2 + 1) / 2 + 1) / 2);
    Simulator::Destroy();
}

TEST(DcqcnCc, ClimbsBackToLineRateWithoutCnp)
{
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    cc->SetAttribute("RpTimer", TimeValue(MicroSeconds(10)));
    cc->SetAttribute("RateAi", DataRateValue(DataRate("5Gbps")));
    cc->Start(DataRate("40Gbps"));
    uint32_t changes = 0;
    Time atLine;
    cc->TraceConnectWithoutContext("RateChange",
                                   Callback<void, uint64_t, uint64_t>([&](uint64_t, uint64_t n) {
                                       changes++;
                                       if (n == 40000000000ULL && atLine.IsZero())
                                       {
                                           atLine = Simulator::Now();
                                       }
                                   }));
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    // Cut to 20G (Rt 40G). Every 10 us Rc = (40G + Rc)/2 (Rt saturates at line rate), so the
    // gap halves each event: 20G -> 30 -> 35 -> ... reaches 40G exactly when the integer gap
    // rounds up to 0 (at most ~36 halvings of 2e10): finite, and the rate is line rate at the end.
    EXPECT_EQ(cc->GetRateBps(), 40000000000ULL);
    EXPECT_FALSE(atLine.IsZero());
    EXPECT_GE(changes, 30u);
    EXPECT_EQ(atLine.GetMicroSeconds() % 10, 0);
    // Alpha: 1 after the cut, then one decay per 1 us period up to and including the period
    // that ends at atLine (the rate timer raising the rate there was scheduled 10 us ahead, so
    // that period already sees line rate and is the last one): (1-g)^(atLine / 1 us), frozen
    // from then on although the read is at 2 ms.
    EXPECT_NEAR(cc->GetAlpha(), std::pow(1 - 1.0 / 256, atLine.GetMicroSeconds()), 1e-12);
    Simulator::Destroy();
}

TEST(DcqcnCc, EarlyCnpSkipsOneAlphaDecay)
{
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    cc->Start(DataRate("40Gbps"));
    double alpha = -1;
    uint64_t rate = 0;
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    // 2.5 us after the cut: within RateDecreaseInterval (4 us), no cut, but the period
    // (2, 3] us had a CNP and does not decay alpha.
    Simulator::Schedule(NanoSeconds(2500), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(10500), [&] {
        alpha = cc->GetAlpha();
        rate = cc->GetRateBps();
    });
    Simulator::Stop(NanoSeconds(10600));
    Simulator::Run();
    // Alpha 1 after the cut; periods ending at 1..10 us decay except the one ending at 3 us.
    EXPECT_NEAR(alpha, std::pow(1 - 1.0 / 256, 9), 1e-12);
    EXPECT_EQ(rate, 20000000000ULL); // one cut only: 40G (1 - 1/2)
    Simulator::Destroy();
}

TEST(RoceCcNone, StaysAtLineRate)
{
    Ptr<CongestionControl> cc = CreateObject<RoceCcNone>();
    cc->Start(DataRate("40Gbps"));
    cc->OnCnpReceived();
    cc->OnBytesSent(1000000);
    EXPECT_EQ(cc->GetRateBps(), 40000000000ULL);
}

TEST(DcqcnCc, ChosenByTypeIdName)
{
    // The NIC makes one CC per QP from a TypeId name; a wrong class would not cut on a CNP.
    ObjectFactory f;
    f.SetTypeId("ns3::DcqcnCongestionControl");
    Ptr<CongestionControl> cc = f.Create<CongestionControl>();
    cc->Start(DataRate("40Gbps"));
    cc->OnCnpReceived(); // alpha = 1: 40G (1 - 1/2)
    EXPECT_EQ(cc->GetRateBps(), 20000000000ULL);
    Simulator::Destroy();
}
