#include "congestion-control.h"

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
                            .AddTraceSource("RateChange",
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
    // Defaults: the HPCC reference settings (anchors/hpcc-format/README.md) where given,
    // else the DCQCN paper (byte counter 10 MB, initial alpha 1).
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<CongestionControl>()
            .SetGroupName("Paramsync")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G", "Alpha gain g (1/256).", DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha", "Alpha at start (1).", DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaResumeInterval", "Alpha decay period without CNP (1 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval", "Minimum time between two cuts (4 us).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker())
            .AddAttribute("RpTimer", "Rate increase timer period (900 us).",
                          TimeValue(MicroSeconds(900)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_rpTimer),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter", "Bytes per byte-counter increase event (10 MB).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoveryStages", "F (1).", UintegerValue(1),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_f),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi", "Additive increase Rai (50 Mb/s).",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHai", "Hyper increase Rhai (100 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate", "Rate floor (100 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker());
    return tid;
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
    m_alphaEvent.Cancel();
    m_rateEvent.Cancel();
    CongestionControl::DoDispose();
}

double
DcqcnCongestionControl::GetAlpha() const
{
    return m_alpha;
}

uint64_t
DcqcnCongestionControl::GetTargetRateBps() const
{
    return m_targetBps;
}

void
DcqcnCongestionControl::OnCnpReceived()
{
    Time now = Simulator::Now();
    m_cnpSinceAlpha = true;
    if (m_cut && now - m_lastCut < m_decreaseInterval)
    {
        return; // at most one cut per RateDecreaseInterval
    }
    m_cut = true;
    m_lastCut = now;
    m_targetBps = m_rateBps;
    auto cut = static_cast<uint64_t>(static_cast<double>(m_rateBps) * (1.0 - m_alpha / 2.0));
    m_alpha = (1.0 - m_g) * m_alpha + m_g;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    SetRateBps(std::max<uint64_t>(cut, m_minRate.GetBitRate()));
    m_alphaEvent.Cancel();
    m_rateEvent.Cancel();
    ScheduleTimers();
}

void
DcqcnCongestionControl::ScheduleTimers()
{
    m_cnpSinceAlpha = false;
    m_alphaEvent =
        Simulator::Schedule(m_alphaInterval, &DcqcnCongestionControl::AlphaTimer, this);
    m_rateEvent = Simulator::Schedule(m_rpTimer, &DcqcnCongestionControl::RateTimer, this);
}

void
DcqcnCongestionControl::AlphaTimer()
{
    if (!m_cnpSinceAlpha)
    {
        m_alpha = (1.0 - m_g) * m_alpha;
    }
    m_cnpSinceAlpha = false;
    if (m_rateBps < m_lineBps)
    {
        m_alphaEvent =
            Simulator::Schedule(m_alphaInterval, &DcqcnCongestionControl::AlphaTimer, this);
    }
}

void
DcqcnCongestionControl::RateTimer()
{
    Increase();
    m_timerStage++;
    if (m_rateBps < m_lineBps)
    {
        m_rateEvent = Simulator::Schedule(m_rpTimer, &DcqcnCongestionControl::RateTimer, this);
    }
}

void
DcqcnCongestionControl::OnBytesSent(uint32_t bytes)
{
    if (m_rateBps >= m_lineBps)
    {
        return; // at line rate: nothing to recover
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
    uint32_t lo = std::min(m_timerStage, m_byteStage);
    uint32_t hi = std::max(m_timerStage, m_byteStage);
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
    m_targetBps = std::min(m_targetBps, m_lineBps);
    // Rounded up: with a floor, Rc = (Rt + Rc) / 2 would stop 1 bit/s short of Rt forever.
    SetRateBps(std::min((m_targetBps + m_rateBps + 1) / 2, m_lineBps));
}

} // namespace ns3
