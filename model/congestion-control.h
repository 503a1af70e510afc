/**
 * \file
 * \brief CongestionControl: per-QP sending-rate state of a RoCE NIC, chosen by TypeId name
 * (like ns-3's TcpCongestionOps). One instance per queue pair. RoceCcNone (line rate, PFC
 * alone) and DcqcnCongestionControl (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015).
 */
#ifndef PARAMSYNC_CONGESTION_CONTROL_H
#define PARAMSYNC_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \brief Abstract per-QP congestion control: the NIC paces a QP at GetRate().
 *
 * Hooks: Start (line rate known), OnCnpReceived, OnBytesSent; timers are the subclass's own.
 */
class CongestionControl : public Object
{
  public:
    /// \brief ns-3 TypeId.
    static TypeId GetTypeId();
    ~CongestionControl() override;
    /// \brief Sets the line rate; the QP starts at line rate.
    virtual void Start(DataRate lineRate);
    /// \brief A CNP for this QP arrived.
    virtual void OnCnpReceived() = 0;
    /// \brief The QP put \p bytes (wire bytes of data frames) on the port.
    virtual void OnBytesSent(uint32_t bytes) = 0;
    /// \brief The current pacing rate (bit/s).
    uint64_t GetRateBps() const;
    /// \brief The line rate (bit/s).
    uint64_t GetLineRateBps() const;
    /**
     * \brief A copy of this unstarted instance, attribute values included, or nullptr when
     * the type has no copy (RoceNic then builds each QP's from the TypeId).
     *
     * Copying one configured instance skips ns-3's per-object attribute construction
     * (ObjectBase::ConstructSelf walks and serializes every attribute of the type), which
     * was most of a QP's set-up cost on an 8,192-host fat-tree.
     */
    virtual Ptr<CongestionControl> Copy() const;

  protected:
    /// \brief Sets the current rate and fires the RateChange trace when it changed.
    void SetRateBps(uint64_t bps);
    uint64_t m_lineBps{0};                           //!< line rate
    uint64_t m_rateBps{0};                           //!< current rate
    TracedCallback<uint64_t, uint64_t> m_rateChange; //!< (old, new) bit/s
};

/**
 * \brief No congestion control: always line rate (PFC alone keeps the network lossless).
 */
class RoceCcNone : public CongestionControl
{
  public:
    /// \brief ns-3 TypeId.
    static TypeId GetTypeId();
    Ptr<CongestionControl> Copy() const override;
    void OnCnpReceived() override;
    void OnBytesSent(uint32_t bytes) override;
};

/**
 * \brief DCQCN reaction point (Zhu et al., SIGCOMM'15, §3 and Fig. 6).
 *
 * On a CNP (at most one cut per RateDecreaseInterval): Rt = Rc, Rc = Rc (1 - alpha/2),
 * alpha = (1 - g) alpha + g, both increase counters reset. With CutAtDecreaseCheck the CNP
 * only raises a flag and the cut happens at the next tick of a RateDecreaseInterval grid that
 * starts at the first CNP (HPCC's simulator, rdma-hw.cc, checks every 4 us). With
 * ClampTargetRate false, Rt keeps its value at a cut that follows no rate increase event
 * (HPCC's CLAMP_TARGET_RATE 0). Every AlphaResumeInterval without a CNP: alpha = (1 - g)
 * alpha, forever (also once the rate is back at line rate, as a NIC's alpha timer keeps
 * running). Alpha is only read at a cut (and by GetAlpha), so the periods are applied lazily
 * there, n elapsed ones at once, instead of one event per period per QP (at 1 us that was 35
 * events per packet-hop in a DCQCN fat-tree run). Increase events come from the timer (every
 * RpTimer) and the byte counter (every ByteCounter bytes; 0 disables it). With T, BC the
 * numbers of previous timer and byte events since the last cut: max(T, BC) < F: fast recovery
 * Rc = (Rt + Rc) / 2; min(T, BC) > F: hyper increase Rt += (min(T, BC) - F) Rhai, then
 * Rc = (Rt + Rc) / 2; otherwise additive increase Rt += Rai, then Rc = (Rt + Rc) / 2. Without
 * a byte counter the stage is T alone, as in HPCC's simulator: T < F fast recovery, T = F
 * additive, T > F hyper increase by one Rhai per event. Rates stay in [MinRate, line rate].
 *
 * Attribute defaults are the paper's DCQCN (README "Congestion control presets" gives each
 * value's source); congestion-control-preset.h names the paper's and HPCC's settings.
 */
class DcqcnCongestionControl : public CongestionControl
{
  public:
    /// \brief ns-3 TypeId.
    static TypeId GetTypeId();
    Ptr<CongestionControl> Copy() const override;
    void Start(DataRate lineRate) override;
    void OnCnpReceived() override;
    void OnBytesSent(uint32_t bytes) override;
    /// \brief Current alpha.
    double GetAlpha() const;
    /// \brief Current target rate (bit/s).
    uint64_t GetTargetRateBps() const;

  protected:
    void DoDispose() override;

  private:
    /// \brief Number of alpha periods of the current grid that have ended by \p now.
    uint64_t AlphaPeriodsDue(Time now) const;
    /// \brief Alpha after the periods up to \p due (>= those applied) have been applied.
    double AlphaAfter(uint64_t due) const;
    /// \brief Apply the alpha periods that have ended by now.
    void CatchUpAlpha();
    /// \brief The rate increase timer fired.
    void RateTimer();
    /// \brief Start the rate increase timer (RateTimer after RpTimer), pooled (pooled-event.h).
    void ScheduleRateTimer();
    /// \brief A rate increase event.
    void Increase();
    /// \brief Cut the rate now (Rt, Rc, alpha, counters, the alpha grid and the rate timer).
    void Cut();
    /// \brief The rate decrease check of CutAtDecreaseCheck fired.
    void DecreaseCheck();

    double m_g;                  //!< alpha gain
    double m_alpha;              //!< congestion estimate
    double m_initialAlpha;       //!< alpha at start
    Time m_alphaInterval;        //!< alpha resume interval
    Time m_decreaseInterval;     //!< minimum time between two cuts
    Time m_rpTimer;              //!< rate increase timer
    uint64_t m_byteCounter;      //!< bytes per byte-counter increase event
    uint32_t m_f;                //!< fast recovery stages
    DataRate m_rai;              //!< additive increase step
    DataRate m_rhai;             //!< hyper increase step
    DataRate m_minRate;          //!< floor
    uint64_t m_targetBps{0};     //!< Rt
    uint32_t m_timerStage{0};    //!< T
    uint32_t m_byteStage{0};     //!< BC
    uint64_t m_bytes{0};         //!< bytes since last byte event
    bool m_cnpSinceAlpha{false}; //!< a CNP arrived in the current alpha period (no decay)
    Time m_lastCut;              //!< time of the last cut: origin of the alpha period grid
    bool m_cut{false};           //!< a cut ever happened
    uint64_t m_alphaPeriods{0};  //!< alpha periods since the last cut already applied
    bool m_clampTarget;          //!< Rt = Rc at every cut (else only after an increase)
    bool m_cutAtCheck;           //!< cut at the decrease-check grid, not at the CNP
    bool m_cutPending{false};    //!< a CNP arrived since the last decrease check
    bool m_checkStarted{false};  //!< the decrease-check grid has an origin
    Time m_checkOrigin;          //!< first CNP: origin of the decrease-check grid
    EventId m_rateEvent;         //!< rate increase timer
    EventId m_checkEvent;        //!< next decrease check
};

} // namespace ns3

#endif
