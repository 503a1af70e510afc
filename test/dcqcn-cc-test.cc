// DCQCN rate cut per Zhu et al. (SIGCOMM'15) at exact times, recovery to line rate through
// fast recovery then additive increase without CNPs, alpha decaying for ever, HPCC's variant
// (cut at the periodic check, target not clamped, timer-only stages), and the presets.
#include "ns3/boolean.h"
#include "ns3/congestion-control-preset.h"
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

/// A DCQCN with the parameters these mechanics tests were derived with (HPCC's HPCC-mode
/// keys: alpha timer 1 us, cut interval 4 us, RP timer 900 us, F 1, Rai 50, Rhai 100 Mb/s),
/// not the paper's defaults.
Ptr<DcqcnCongestionControl>
MakeTestDcqcn()
{
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    cc->SetAttribute("AlphaResumeInterval", TimeValue(MicroSeconds(1)));
    cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    cc->SetAttribute("RpTimer", TimeValue(MicroSeconds(900)));
    cc->SetAttribute("FastRecoveryStages", UintegerValue(1));
    cc->SetAttribute("RateAi", DataRateValue(DataRate("50Mbps")));
    cc->SetAttribute("RateHai", DataRateValue(DataRate("100Mbps")));
    return cc;
}
} // namespace

TEST(DcqcnCc, CutPerFormulaAtExactTimes)
{
    Ptr<DcqcnCongestionControl> cc = MakeTestDcqcn();
    cc->Start(DataRate("40Gbps"));
    Snap a{}, b{}, c{}, d{};
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(500), [&] {
        a = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()};
    });
    Simulator::Schedule(NanoSeconds(10500), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(10600), [&] {
        b = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()};
    });
    // RpTimer 900 us after the second CNP: fast recovery; 1800 us: additive increase.
    Simulator::Schedule(NanoSeconds(910600), [&] {
        c = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()};
    });
    Simulator::Schedule(NanoSeconds(1810600), [&] {
        d = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()};
    });
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
    Ptr<DcqcnCongestionControl> cc = MakeTestDcqcn();
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
    // Alpha: 1 after the cut, then one decay per 1 us period, also after the rate is back at
    // line rate (a NIC's alpha timer keeps running): the periods ending at 1 .. 1999 us have
    // been applied when read at 2 ms (the one ending exactly now is not yet), (1-g)^1999.
    EXPECT_NEAR(cc->GetAlpha(), std::pow(1 - 1.0 / 256, 1999), 1e-12);
    EXPECT_LT(atLine.GetMicroSeconds(), 1999); // i.e. the decay went on past atLine
    Simulator::Destroy();
}

TEST(DcqcnCc, EarlyCnpSkipsOneAlphaDecay)
{
    Ptr<DcqcnCongestionControl> cc = MakeTestDcqcn();
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

TEST(DcqcnCc, DefaultsAreThePapers)
{
    // Zhu et al. SIGCOMM'15 (and its authors' ns-3 configuration): 55 us timers, F = 5,
    // Rai 40 Mb/s. Cut at 0: 40G -> 20G, Rt = 40G. Timer events at 55, 110, 165, 220, 275 us
    // are fast recovery (T = 0..4 < F = 5, byte counter idle): Rc = (40G + Rc) / 2 each, so
    // the gap to 40G halves five times: 20G / 32 = 625 Mb/s left at 275 us.
    Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
    cc->Start(DataRate("40Gbps"));
    uint64_t at274 = 0;
    uint64_t at275 = 0;
    double alpha = 0;
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(274999), [&] { at274 = cc->GetRateBps(); });
    Simulator::Schedule(NanoSeconds(275001), [&] {
        at275 = cc->GetRateBps();
        alpha = cc->GetAlpha();
    });
    Simulator::Stop(MicroSeconds(276));
    Simulator::Run();
    EXPECT_EQ(at274, 40000000000ULL - 1250000000ULL); // four halvings: 20G / 16 left
    EXPECT_EQ(at275, 40000000000ULL - 625000000ULL);
    // Alpha timer 55 us: periods ending at 55 .. 275 us applied (275 us itself: 275.001 us
    // is after it), five decays from 1.
    EXPECT_NEAR(alpha, std::pow(1 - 1.0 / 256, 5), 1e-12);
    Simulator::Destroy();
}

TEST(DcqcnCc, HpccVariantCutsAtTheCheckAndKeepsTheTarget)
{
    // CutAtDecreaseCheck: the CNP at 0 starts a 4 us grid; the cut happens at 4 us. A CNP at
    // 5 us is cut at 8 us. ClampTargetRate false: no increase between the cuts, so Rt keeps
    // the 40G the first cut set.
    Ptr<DcqcnCongestionControl> cc = MakeTestDcqcn();
    cc->SetAttribute("CutAtDecreaseCheck", BooleanValue(true));
    cc->SetAttribute("ClampTargetRate", BooleanValue(false));
    cc->Start(DataRate("40Gbps"));
    Snap before{}, first{}, second{};
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(3999), [&] {
        before = {cc->GetRateBps(), cc->GetTargetRateBps(), 0};
    });
    Simulator::Schedule(NanoSeconds(4001), [&] {
        first = {cc->GetRateBps(), cc->GetTargetRateBps(), 0};
    });
    Simulator::Schedule(NanoSeconds(5000), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(NanoSeconds(8001), [&] {
        second = {cc->GetRateBps(), cc->GetTargetRateBps(), cc->GetAlpha()};
    });
    Simulator::Stop(MicroSeconds(9));
    Simulator::Run();
    EXPECT_EQ(before.rc, 40000000000ULL); // no cut at the CNP itself
    EXPECT_EQ(first.rc, 20000000000ULL);  // alpha 1: 40G (1 - 1/2)
    EXPECT_EQ(first.rt, 40000000000ULL);
    // Second cut at 8 us: alpha periods since 4 us ending at 5, 6, 7 us, the first of which
    // saw the CNP (no decay): alpha = (1-g)^2; Rc = 20G (1 - alpha/2); Rt still 40G.
    const double g = 1.0 / 256;
    const double al = std::pow(1 - g, 2);
    EXPECT_EQ(second.rc, static_cast<uint64_t>(20e9 * (1 - al / 2)));
    EXPECT_EQ(second.rt, 40000000000ULL);
    EXPECT_NEAR(second.alpha, (1 - g) * al + g, 1e-12);
    Simulator::Destroy();
}

TEST(DcqcnCc, TimerOnlyStagesWithoutByteCounter)
{
    // ByteCounter 0 (HPCC): T < F fast recovery, T = F one Rai, T > F one Rhai per event.
    Ptr<DcqcnCongestionControl> cc = MakeTestDcqcn();
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    cc->SetAttribute("RateDecreaseInterval", TimeValue(Seconds(0)));
    cc->SetAttribute("RpTimer", TimeValue(MicroSeconds(10)));
    cc->SetAttribute("RateAi", DataRateValue(DataRate("5Gbps")));
    cc->SetAttribute("RateHai", DataRateValue(DataRate("1Gbps")));
    cc->Start(DataRate("40Gbps"));
    std::vector<Snap> s;
    // Cut at 0: 20G, Rt 40G, alpha stays 1. Cut at 1 us (no alpha period over yet): Rt = 20G,
    // Rc = 10G. Timer events at 11, 21, 31, 41 us.
    Simulator::Schedule(Seconds(0), [&] { cc->OnCnpReceived(); });
    Simulator::Schedule(MicroSeconds(1), [&] {
        cc->OnCnpReceived();
        cc->OnBytesSent(100000000); // no byte counter: no increase event from bytes
    });
    for (int t : {2, 12, 22, 32, 42})
    {
        Simulator::Schedule(MicroSeconds(t), [&] {
            s.push_back({cc->GetRateBps(), cc->GetTargetRateBps(), 0});
        });
    }
    Simulator::Stop(MicroSeconds(43));
    Simulator::Run();
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(s[0].rc, 10000000000ULL);
    EXPECT_EQ(s[0].rt, 20000000000ULL);
    EXPECT_EQ(s[1].rc, 15000000000ULL); // T=0 < F: (20 + 10) / 2
    EXPECT_EQ(s[1].rt, 20000000000ULL);
    EXPECT_EQ(s[2].rt, 25000000000ULL); // T=1 = F: Rt + 5G
    EXPECT_EQ(s[2].rc, 20000000000ULL); // (25 + 15) / 2
    EXPECT_EQ(s[3].rt, 26000000000ULL); // T=2 > F: Rt + 1G (not (T - F) x 1G)
    EXPECT_EQ(s[3].rc, 23000000000ULL); // (26 + 20) / 2
    EXPECT_EQ(s[4].rt, 27000000000ULL); // T=3: one more Rhai
    EXPECT_EQ(s[4].rc, 25000000000ULL);
    Simulator::Destroy();
}

TEST(CongestionControlPreset, NamesAndSources)
{
    EXPECT_EQ(CongestionControlPreset::Names(), "none, dcqcn, dcqcn-hpcc");
    EXPECT_EQ(CongestionControlPreset::Find("dcqcn+"), nullptr);
    for (const auto& p : CongestionControlPreset::All())
    {
        for (const auto& setting : p.settings)
        {
            EXPECT_FALSE(setting.source.empty()) << p.name << " " << setting.name;
        }
    }
}

TEST(CongestionControlPreset, ParseValuesScalesAndTypesEachSetting)
{
    // dcqcn-hpcc at 100 Gb/s: RateAi = 5 Mb/s x 100 / 25 = 20 Mb/s and RateHai = 50 x 100 / 25
    // = 200 Mb/s (HPCC's run.py), parsed into the DataRate the attribute holds; RpTimer is
    // 300 us as a Time. One value per setting, in the settings' order.
    const CongestionControlPreset& p = *CongestionControlPreset::Find("dcqcn-hpcc");
    const auto values = p.ParseValues(DataRate("100Gbps"));
    ASSERT_EQ(values.size(), p.settings.size());
    uint32_t checked = 0;
    for (size_t i = 0; i < values.size(); ++i)
    {
        const std::string& name = p.settings[i].name;
        if (name == "RateAi" || name == "RateHai")
        {
            const auto rate = DynamicCast<const DataRateValue>(values[i]);
            ASSERT_TRUE(rate) << name;
            EXPECT_EQ(rate->Get().GetBitRate(), name == "RateAi" ? 20000000u : 200000000u);
            ++checked;
        }
        else if (name == "RpTimer")
        {
            const auto time = DynamicCast<const TimeValue>(values[i]);
            ASSERT_TRUE(time);
            EXPECT_EQ(time->Get(), MicroSeconds(300));
            ++checked;
        }
    }
    EXPECT_EQ(checked, 3u);
}
