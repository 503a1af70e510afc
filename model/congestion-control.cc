#include "congestion-control.h"

#include "pooled-event.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CongestionControl);
NS_OBJECT_ENSURE_REGISTERED(RoceCcNone);
NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);

TypeId
CongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionControl")
                            .SetParent<Object>()
                            .SetGroupName("Paramsync")
                            .AddTraceSource(
                                "RateChange",
                                "The pacing rate changed (old, new bit/s).",
                                MakeTraceSourceAccessor(&CongestionControl::m_rateChange),
                                "ns3::TracedValueCallback::Uint64");
    return tid;
}

CongestionControl::~CongestionControl() = default;

void
CongestionControl::Start(DataRate lineRate)
{
    m_lineBps = lineRate.GetBitRate();
    m_rateBps = m_lineBps;
}

uint64_t
CongestionControl::GetRateBps() const
{
    return m_rateBps;
}

uint64_t
CongestionControl::GetLineRateBps() const
{
    return m_lineBps;
}

void
CongestionControl::SetRateBps(uint64_t bps)
{
    if (bps != m_rateBps)
    {
        uint64_t old = m_rateBps;
        m_rateBps = bps;
        m_rateChange(old, bps);
    }
}

TypeId
RoceCcNone::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCcNone")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RoceCcNone>();
    return tid;
}

Ptr<CongestionControl>
CongestionControl::Copy() const
{
    return nullptr;
}

Ptr<CongestionControl>
RoceCcNone::Copy() const
{
    // A subclass registered under its own TypeId would be sliced by this copy.
    return GetInstanceTypeId() == GetTypeId() ? CopyObject<RoceCcNone>(Ptr<const RoceCcNone>(this))
                                              : nullptr;
}

void
RoceCcNone::OnCnpReceived()
{
}

void
RoceCcNone::OnBytesSent(uint32_t)
{
}

TypeId
DcqcnCongestionControl::GetTypeId()
{
    // Defaults: the paper's DCQCN. Zhu et al., SIGCOMM'15, §5 parameter table: g 1/256,
    // timer 55 us (both the alpha and the rate-increase timer), byte counter 10 MB; the
    // authors' ns-3 configuration (bobzhuyb/ns3-rdma, mix/config.txt): F 5, Rai 40 Mb/s,
    // Rhai 200 Mb/s, CLAMP_TARGET_RATE 1; a cut per CNP, CNPs at most once per 50 us
    // (RateDecreaseInterval 50 us, as HPCC's run.py for "dcqcn_paper"). MinRate: not given
    // by the paper; 100 Mb/s as HPCC's RdmaHw MinRate default.
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<CongestionControl>()
            .SetGroupName("Paramsync")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Alpha gain g (1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha at start (1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaResumeInterval",
                          "Alpha decay period without CNP (55 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Minimum time between two cuts; with CutAtDecreaseCheck the period "
                          "of the decrease check (50 us).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker())
            .AddAttribute("RpTimer",
                          "Rate increase timer period (55 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_rpTimer),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter",
                          "Bytes per byte-counter increase event (10 MB); 0: no byte counter.",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryStages",
                          "F (5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_f),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase Rai (40 Mb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper increase Rhai (200 Mb/s).",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Rate floor (100 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "Rt = Rc at every cut (true); false: only at a cut that follows a "
                          "rate increase event or is the first.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTarget),
                          MakeBooleanChecker())
            .AddAttribute("CutAtDecreaseCheck",
                          "false: cut when the CNP arrives; true: a CNP marks the QP and the cut "
                          "happens at the next RateDecreaseInterval tick from the first CNP.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_cutAtCheck),
                          MakeBooleanChecker());
    return tid;
}

Ptr<CongestionControl>
DcqcnCongestionControl::Copy() const
{
    // Only an unstarted instance: a started one has rate state and a pending timer event.
    NS_ASSERT_MSG(m_lineBps == 0, "DcqcnCongestionControl::Copy of a started instance");
    return GetInstanceTypeId() == GetTypeId()
               ? CopyObject<DcqcnCongestionControl>(Ptr<const DcqcnCongestionControl>(this))
               : nullptr;
}

void
DcqcnCongestionControl::Start(DataRate lineRate)
{
    CongestionControl::Start(lineRate);
    m_targetBps = m_lineBps;
    m_alpha = m_initialAlpha;
}

void
DcqcnCongestionControl::DoDispose()
{
    m_rateEvent.Cancel();
    m_checkEvent.Cancel();
    CongestionControl::DoDispose();
}

double
DcqcnCongestionControl::GetAlpha() const
{
    return m_cut ? AlphaAfter(AlphaPeriodsDue(Simulator::Now())) : m_alpha;
}

uint64_t
DcqcnCongestionControl::GetTargetRateBps() const
{
    return m_targetBps;
}

uint64_t
DcqcnCongestionControl::AlphaPeriodsDue(Time now) const
{
    // Period k (k >= 1) ends at m_lastCut + k * interval. A period ending exactly now has not
    // been applied yet: with a per-period timer event, the CNP that arrives at that instant
    // was scheduled by the channel a link delay (>= one period) earlier and ran first.
    const int64_t step = m_alphaInterval.GetTimeStep();
    const int64_t elapsed = (now - m_lastCut).GetTimeStep();
    if (step <= 0 || elapsed <= 0)
    {
        return m_alphaPeriods;
    }
    return std::max(static_cast<uint64_t>((elapsed - 1) / step), m_alphaPeriods);
}

double
DcqcnCongestionControl::AlphaAfter(uint64_t due) const
{
    uint64_t decays = due - m_alphaPeriods;
    if (decays > 0 && m_cnpSinceAlpha)
    {
        --decays; // a CNP (too early for a cut) arrived in the first pending period
    }
    // One multiplication per period rather than pow((1-g), n): the same rounding as the
    // per-period update, so results do not depend on when alpha happens to be read. Once
    // alpha underflows to 0 further periods change nothing (g = 1/256: ~190,000 periods).
    double alpha = m_alpha;
    for (uint64_t i = 0; i < decays && alpha > 0.0; ++i)
    {
        alpha = (1.0 - m_g) * alpha;
    }
    return alpha;
}

void
DcqcnCongestionControl::CatchUpAlpha()
{
    const uint64_t due = AlphaPeriodsDue(Simulator::Now());
    if (due > m_alphaPeriods)
    {
        m_alpha = AlphaAfter(due);
        m_alphaPeriods = due;
        m_cnpSinceAlpha = false;
    }
}

void
DcqcnCongestionControl::OnCnpReceived()
{
    const Time now = Simulator::Now();
    if (m_cut)
    {
        CatchUpAlpha();
    }
    m_cnpSinceAlpha = true;
    if (m_cutAtCheck)
    {
        if (!m_cutPending && !m_checkEvent.IsRunning())
        {
            // The check grid runs from the first CNP; the next tick strictly after now.
            if (!m_checkStarted)
            {
                m_checkStarted = true;
                m_checkOrigin = now;
            }
            const int64_t step = std::max<int64_t>(1, m_decreaseInterval.GetTimeStep());
            const int64_t ticks = (now - m_checkOrigin).GetTimeStep() / step + 1;
            m_checkEvent = Simulator::Schedule(
                m_checkOrigin + TimeStep(ticks * step) - now,
                PooledMethodEvent<DcqcnCongestionControl,
                                  &DcqcnCongestionControl::DecreaseCheck>::Make(this));
        }
        m_cutPending = true;
        return;
    }
    if (m_cut && now - m_lastCut < m_decreaseInterval)
    {
        return; // at most one cut per RateDecreaseInterval
    }
    Cut();
}

void
DcqcnCongestionControl::DecreaseCheck()
{
    if (m_cutPending)
    {
        m_cutPending = false;
        Cut(); // catches alpha up (its grid starts at the previous cut)
    }
}

void
DcqcnCongestionControl::Cut()
{
    if (m_cut)
    {
        CatchUpAlpha();
    }
    const bool increasedSinceCut = m_timerStage > 0 || m_byteStage > 0;
    if (m_clampTarget || !m_cut || increasedSinceCut)
    {
        m_targetBps = m_rateBps;
    }
    m_cut = true;
    m_lastCut = Simulator::Now();
    auto cut = static_cast<uint64_t>(static_cast<double>(m_rateBps) * (1.0 - m_alpha / 2.0));
    m_alpha = (1.0 - m_g) * m_alpha + m_g;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    SetRateBps(std::max<uint64_t>(cut, m_minRate.GetBitRate()));
    // A new grid of alpha periods starts at the cut.
    m_cnpSinceAlpha = false;
    m_alphaPeriods = 0;
    m_rateEvent.Cancel();
    ScheduleRateTimer();
}

void
DcqcnCongestionControl::ScheduleRateTimer()
{
    m_rateEvent = Simulator::Schedule(
        m_rpTimer,
        PooledMethodEvent<DcqcnCongestionControl, &DcqcnCongestionControl::RateTimer>::Make(this));
}

void
DcqcnCongestionControl::RateTimer()
{
    Increase();
    m_timerStage++;
    if (m_rateBps < m_lineBps)
    {
        ScheduleRateTimer();
    }
}

void
DcqcnCongestionControl::OnBytesSent(uint32_t bytes)
{
    // The rates first: they share the line every packet reads (GetRateBps), the byte counter
    // is in a later one, so a QP at line rate reads one line of its congestion control.
    if (m_rateBps >= m_lineBps || m_byteCounter == 0)
    {
        return; // at line rate, or no byte counter: nothing to recover
    }
    m_bytes += bytes;
    if (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        Increase();
        m_byteStage++;
    }
}

void
DcqcnCongestionControl::Increase()
{
    if (m_byteCounter == 0)
    {
        // Timer alone (HPCC's simulator): fast recovery, one additive step, then hyper steps.
        if (m_timerStage == m_f)
        {
            m_targetBps += m_rai.GetBitRate();
        }
        else if (m_timerStage > m_f)
        {
            m_targetBps += m_rhai.GetBitRate();
        }
    }
    else
    {
        const uint32_t lo = std::min(m_timerStage, m_byteStage);
        const uint32_t hi = std::max(m_timerStage, m_byteStage);
        if (hi < m_f)
        {
            // fast recovery: Rt unchanged
        }
        else if (lo > m_f)
        {
            m_targetBps += uint64_t(lo - m_f) * m_rhai.GetBitRate();
        }
        else
        {
            m_targetBps += m_rai.GetBitRate();
        }
    }
    m_targetBps = std::min(m_targetBps, m_lineBps);
    // Rounded up: with a floor, Rc = (Rt + Rc) / 2 would stop 1 bit/s short of Rt forever.
    SetRateBps(std::min((m_targetBps + m_rateBps + 1) / 2, m_lineBps));
}

} // namespace ns3
