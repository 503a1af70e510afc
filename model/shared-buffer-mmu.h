/*
 * Shared-buffer switch MMU with ingress accounting per (port, priority), PFC thresholds and
 * headroom (ARCHITECTURE.md, Network model). Pure C++: no simulator needed.
 *
 * Buffer = headroom reserve (sum over ports of the per-port-priority headroom times the
 * lossless priorities) + shared pool. A frame arriving on (port, priority):
 *   1. goes to the shared pool if the pool has room and the port-priority's shared bytes
 *      stay <= XOFF (lossless) or <= lossyAlpha x free shared buffer (lossy: a dynamic
 *      threshold too, or a lossy class could take every free byte and drive the lossless
 *      classes' dynamic XOFF to zero; alpha 8 = 2^3 as SONiC's lossy buffer profiles'
 *      dynamic_th 3, looser than the lossless 1/8 since no pause stops a lossy sender);
 *   2. else, for a lossless priority, to its headroom if it fits there;
 *   3. else it is dropped and counted per (port, priority).
 * XOFF is static (bytes) or dynamic: alpha * (shared pool - shared bytes in use), as in
 * Broadcom's dynamic threshold (Choudhury & Hahne 1998) used by HPCC (Li et al. SIGCOMM'19).
 * XON = XOFF - hysteresis (not below 0).
 * Pause is needed while a port-priority uses headroom or holds >= XOFF shared bytes; it may
 * resume when it uses no headroom and holds <= XON shared bytes. Release (the byte left the
 * egress) takes from headroom first.
 * Headroom per port-priority = 2 x delay x rate + 3 x MTU + response time x rate (bytes):
 * the pause travels one delay, the upstream finishes a frame, reacts within its response
 * time (its PFC reaction delay, 802.3 Annex 31B: 201,728 bit times = 25,216 B at 100 Gb/s,
 * plus any extra the switch is told) and the bytes already on the wire keep coming for
 * another delay; our own pause may wait behind one frame; and the
 * frame whose arrival finds XOFF crossed (XOFF also falls when other ports fill the pool)
 * is itself admitted to headroom. With 2 x MTU, VGG-19 halving-doubling on BCube(3,1) at
 * 40 Gb/s dropped 5 frames of 4162 B in 18364 B of headroom.
 *
 * Three optional knobs reproduce the MMU of HPCC's simulator (Li et al. SIGCOMM'19; its
 * switch-mmu.cc and its main program's switch set-up, described here in our words), all off
 * by default:
 *  - queueReserveBytes: each lossless port-priority first fills a private reserve of this
 *    many bytes; only bytes beyond it count as shared (against XOFF and the pool). The pool
 *    gives up reserve x ports x lossless priorities (HPCC: 4 KiB per queue, one per port).
 *  - headroomBdps: headroom per lossless port-priority = this many one-way
 *    bandwidth-delay products (rate x delay / 8 bytes) instead of the formula above (HPCC: 3,
 *    no frame or reaction term, since its ports act on a pause at once).
 *  - alphaReferenceRateBps: a port faster than this rate gets alpha doubled once per
 *    doubling of its rate above it (ceil(log2(rate / reference)) times), as long as alpha
 *    stays <= 1 (HPCC: free-buffer shift 3 at the NIC rate, one less per doubling, down to
 *    shift 0; alpha 1/8 at 100 Gb/s is 1/2 at 400 Gb/s). XOFF of a port = its alpha x free.
 */
#ifndef PARAMSYNC_SHARED_BUFFER_MMU_H
#define PARAMSYNC_SHARED_BUFFER_MMU_H

#include "network-arena.h"
#include "prefetch-line.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// \brief Buffer accounting and PFC decisions of one switch.
class SharedBufferMmu : public NetworkArenaAllocated
{
  public:
    /// \brief Switch-wide settings.
    struct Config
    {
        uint64_t bufferBytes{32u << 20};    //!< total buffer
        bool dynamicThreshold{true};        //!< XOFF = alpha x free shared, else staticXoff
        double alpha{1.0 / 8};              //!< dynamic threshold factor
        double lossyAlpha{8};               //!< dynamic threshold factor of lossy classes
        uint64_t staticXoffBytes{256000};   //!< static XOFF
        uint64_t hysteresisBytes{2 * 1100}; //!< XON = XOFF - hysteresis
        uint32_t mtuBytes{4200};            //!< largest frame incl. framing (headroom)
        double responseTimeS{0};            //!< pause response time of the upstream (s)
        uint8_t losslessMask{0xff};         //!< priorities with PFC (headroom reserved)
        bool pfcEnabled{true};              //!< headroom and pause only with PFC
        double headroomScale{1.0};          //!< headroom = scale x formula (studies of undersizing)
        uint64_t queueReserveBytes{0};      //!< private bytes per lossless port-priority
        double headroomBdps{0};             //!< > 0: headroom = this x one-way BDP (bytes)
        double alphaReferenceRateBps{0};    //!< > 0: alpha doubles per rate doubling above it
    };

    /// \brief Result of Admit.
    enum Admission
    {
        SHARED,   //!< stored in the shared pool (or the port-priority's reserve)
        HEADROOM, //!< stored in the headroom of its port-priority
        DROP      //!< no room: dropped and counted
    };

    /// \brief An MMU with the given settings and no ports yet.
    explicit SharedBufferMmu(const Config& config);

    /// \brief Add a port with its link rate (bit/s), one-way delay (s) and its upstream's
    /// pause response time (s, added to Config::responseTimeS); returns its index.
    uint32_t AddPort(double rateBps, double delayS, double responseS = 0);
    /**
     * \brief Reserve headroom and size the shared pool. Throws std::invalid_argument naming
     * the numbers when the headroom does not fit the buffer.
     */
    void Finalize();

    /// \brief Headroom bytes of one port-priority (formula above).
    uint64_t HeadroomBytes(uint32_t port) const;
    /// \brief Dynamic threshold factor of a port (Config::alpha, doubled on fast ports).
    double Alpha(uint32_t port) const;
    /// \brief Reserve bytes held by a port-priority (up to Config::queueReserveBytes).
    uint64_t ReservedBytes(uint32_t port, uint8_t priority) const;
    /// \brief Shared pool size after Finalize.
    uint64_t
    SharedPoolBytes() const
    {
        return m_sharedPool;
    }
    /// \brief Current XOFF of a port-priority (of a lossy class under the dynamic threshold:
    /// its shared limit, lossyAlpha x free, as LossyLimit).
    uint64_t Xoff(uint32_t port, uint8_t priority) const;
    /// \brief Shared bytes a lossy port-priority may hold now (lossyAlpha x free).
    uint64_t LossyLimit() const;
    /// \brief Current XON of a port-priority.
    uint64_t Xon(uint32_t port, uint8_t priority) const;

    /// \brief Account an arriving frame of `bytes` on ingress (port, priority).
    Admission Admit(uint32_t port, uint8_t priority, uint32_t bytes);
    /// \brief The frame left the egress: release its bytes from its ingress (port, priority).
    void Release(uint32_t port, uint8_t priority, uint32_t bytes);
    /// \brief Whether (port, priority) should be paused now.
    bool ShouldPause(uint32_t port, uint8_t priority) const;
    /// \brief Whether a paused (port, priority) may resume now.
    bool ShouldResume(uint32_t port, uint8_t priority) const;
    /// \brief Whether the upstream of (port, priority) is paused: set by the switch when it
    /// sends XOFF, cleared when it sends XON. Kept with the class's counts, the line every
    /// admission, release and pause check of the class reads anyway (a flag array of the
    /// switch cost a line of its own per check in a network larger than the cache).
    bool
    IsPaused(uint32_t port, uint8_t priority) const
    {
        return AccountOf(port, priority).paused;
    }
    /// \brief Record that the upstream of (port, priority) was paused (true) or resumed.
    void
    SetPaused(uint32_t port, uint8_t priority, bool paused)
    {
        AccountOf(port, priority).paused = paused;
    }

    /// \brief Shared bytes held by a port-priority.
    uint64_t SharedBytes(uint32_t port, uint8_t priority) const;
    /// \brief Headroom bytes held by a port-priority.
    uint64_t HeadroomUsed(uint32_t port, uint8_t priority) const;
    /// \brief Shared pool bytes in use.
    uint64_t
    SharedUsed() const
    {
        return m_sharedUsed;
    }
    /// \brief Drops on a port-priority.
    uint64_t Drops(uint32_t port, uint8_t priority) const;
    /// \brief Dropped bytes on a port-priority.
    uint64_t DroppedBytes(uint32_t port, uint8_t priority) const;
    /// \brief All drops.
    uint64_t TotalDrops() const;
    /// \brief Number of ports.
    uint32_t
    GetNPorts() const
    {
        return static_cast<uint32_t>(m_ports.size());
    }
    /// \brief The settings.
    const Config&
    GetConfig() const
    {
        return m_config;
    }

    /**
     * \brief Prefetch what Admit / Release of (port, priority) will read, at depth `stage`
     * (model/warmable-event.h): 1 this object's per-frame line, 2 the account. Changes
     * nothing.
     */
    void
    WarmAccount(int stage, uint32_t port, uint8_t priority) const
    {
        if (stage <= 1)
        {
            PrefetchLine(&m_accounts);
        }
        else if (8 * static_cast<std::size_t>(port) + priority < m_accounts.size())
        {
            PrefetchLine(&AccountOf(port, priority));
        }
    }

    /// \brief The address of ingress port `port`'s accounts (null if there is no such port),
    /// for a warming hint (PortWarmHints): WarmAccountAt finds a priority's from it.
    const void*
    AccountsOf(uint32_t port) const
    {
        const std::size_t first = 8 * static_cast<std::size_t>(port);
        return first < m_accounts.size() ? &m_accounts[first] : nullptr;
    }
    /// \brief Prefetch the account of `priority` of the port whose accounts are at `accounts`
    /// (AccountsOf; nothing if null), without reading this object.
    static void
    WarmAccountAt(const void* accounts, uint8_t priority)
    {
        if (accounts != nullptr && priority < 8)
        {
            PrefetchLine(static_cast<const Account*>(accounts) + priority);
        }
    }

  private:
    /// The counts of one (ingress port, priority) and the threshold factor they are checked
    /// against: one 32-byte record, two to a cache line. Admit, Release and the pause checks
    /// of a frame read and write this one line; as three arrays of a port record they touched
    /// three, each a cache miss in a network larger than the cache (bench/README.md, Scaling).
    struct alignas(32) Account
    {
        uint64_t shared{0};   //!< shared bytes
        uint64_t hdrm{0};     //!< headroom bytes
        uint32_t reserved{0}; //!< reserve bytes (at most Config::queueReserveBytes < 4 GiB)
        bool paused{false};   //!< its upstream is paused (SetPaused)
        /// Dynamic threshold factor it is checked against: the port's for a lossless class
        /// (a copy per priority), Config::lossyAlpha for a lossy one.
        double alpha{0};
    };
    /// What only set-up, a frame bound for headroom or a drop reads, per ingress port.
    struct Port
    {
        double rateBps;           //!< link rate
        double delayS;            //!< link delay
        uint64_t headroom;        //!< headroom per lossless priority
        double alpha;             //!< dynamic threshold factor of this port
        uint64_t drops[8];        //!< dropped frames per priority
        uint64_t droppedBytes[8]; //!< dropped bytes per priority
    };

    /// \brief The account of (port, priority).
    Account&
    AccountOf(uint32_t port, uint8_t priority)
    {
        return m_accounts[8 * static_cast<std::size_t>(port) + priority];
    }
    /// \brief The account of (port, priority).
    const Account&
    AccountOf(uint32_t port, uint8_t priority) const
    {
        return m_accounts[8 * static_cast<std::size_t>(port) + priority];
    }

    /// \brief Shared bytes an account may hold under the dynamic threshold: its alpha x the
    /// free shared buffer.
    uint64_t DynamicLimit(const Account& a) const;
    /// \brief Whether priority p is lossless.
    bool
    Lossless(uint8_t p) const
    {
        return (m_losslessMask >> p) & 1;
    }

    // What every frame reads, in one cache line (Admit, Release, the pause checks): the
    // settings it needs are copied here from m_config, which spans two other lines.
    alignas(64)
        ArenaVector<Account> m_accounts; //!< per (ingress port, priority): port * 8 + priority
    uint64_t m_sharedPool{0};            //!< shared pool size
    uint64_t m_sharedUsed{0};            //!< shared bytes in use
    uint64_t m_queueReserveBytes;        //!< Config::queueReserveBytes
    uint64_t m_hysteresisBytes;          //!< Config::hysteresisBytes
    uint8_t m_losslessMask;              //!< Config::losslessMask, 0 without PFC
    bool m_dynamicThreshold;             //!< Config::dynamicThreshold

    Config m_config;           //!< settings
    std::vector<Port> m_ports; //!< per ingress port
    bool m_finalized{false};   //!< Finalize called
};

} // namespace ns3

#endif // PARAMSYNC_SHARED_BUFFER_MMU_H
