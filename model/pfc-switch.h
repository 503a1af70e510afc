/*
 * Shared-buffer PFC switch, aggregated to a plain ns3::Node (ARCHITECTURE.md, Network model). Also
 * used by relaying hosts (BCube/Torus servers) with SetLocalDelivery.
 *
 * Per frame and hop: the ingress device hands the frame (PfcFrameRelay::RelayReceive) with
 * its priority, size and, when the previous hop handed it along, its parsed header (else
 * ReadRoceFrame decodes the bytes once: fixed offsets, no Tag); the frame's Packet is not
 * read on the way through (FrameRef); the ForwardingTable picks (port, lane); the MMU
 * admits it on (ingress port, priority) or drops it (counted, Drop trace); the frame waits
 * in the switch's own egress FIFO of (egress port, egress priority) with its ingress port;
 * the egress device pulls it (RelayPull) when that priority may send, at which moment its
 * bytes are released from the ingress accounting and ECN marking is decided RED-style from
 * the egress queue bytes (mark at dequeue, as HPCC does: the freshest queue state).
 * Pause: when an ingress (port, priority) must pause (MMU), the switch sends PFC with
 * PauseQuanta upstream and refreshes it every half pause unless the MMU says XON by then
 * (then it resumes instead); when it may resume it sends quanta 0.
 * Lossless classes: LosslessPriorities, by default the data lanes of the ForwardingTable.
 * Other classes (the control class of ACK/NAK/CNP) are lossy: no headroom, no pause, admitted
 * to the shared pool under the same dynamic threshold (shared-buffer-mmu.h).
 *
 * Priorities in [BasePriority, BasePriority + lanes) of the ForwardingTable are lanes: the
 * egress priority is BasePriority + the route's lane (the frame is rewritten if it changes).
 * Other priorities (e.g. ACK/CNP) keep their priority and use lane-0 routes.
 */
#ifndef PARAMSYNC_PFC_SWITCH_H
#define PARAMSYNC_PFC_SWITCH_H

#include "network-arena.h"
#include "pfc-net-device.h"
#include "ring-fifo.h"
#include "shared-buffer-mmu.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace ns3
{

class ForwardingTable;
class PfcWatchdog;

/// \brief A shared-buffer PFC switch (or the relay function of a host).
class alignas(64) PfcSwitch : public Object, public PfcFrameRelay, public NetworkArenaAllocated
{
  public:
    /// \brief Trace: frame dropped at admission, with ingress port and priority.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, uint32_t port, uint8_t priority);
    /// \brief Trace: frame marked CE at egress port and priority.
    typedef void (*MarkTracedCallback)(Ptr<const Packet> frame, uint32_t port, uint8_t priority);
    /// \brief Trace: pause (quanta > 0) or resume (0) sent upstream on ingress port/priority.
    typedef void (*PauseTracedCallback)(uint32_t port, uint8_t priority, uint16_t quanta);
    /// \brief Trace: the watchdog declared (true) or ended (false) a storm on an egress.
    typedef void (*StormTracedCallback)(uint32_t port, uint8_t priority, bool storm);
    /// \brief Trace: a frame with no route to its host dropped, with its ingress port.
    typedef void (*NoRouteDropTracedCallback)(Ptr<const Packet> frame, uint32_t port);

    /// \brief Register the type.
    static TypeId GetTypeId();
    PfcSwitch();
    ~PfcSwitch() override;

    /**
     * \brief Add a port (index = order of AddPort); the switch becomes its frame relay
     * (source of relayed frames and sink of received ones). On a relaying host the NIC stays
     * the device's frame source (own traffic): the device alternates between the two (see
     * PfcNetDevice), in any wiring order.
     */
    void AddPort(Ptr<PfcNetDevice> device);
    /// \brief The forwarding table.
    void SetForwardingTable(Ptr<ForwardingTable> table);
    /// \brief Frames for `hostRank` go to `up` instead of being forwarded (relaying hosts);
    /// takesHeaderOnly as PfcNetDevice::SetFrameReceiveCallback's.
    void SetLocalDelivery(uint32_t hostRank,
                          PfcNetDevice::FrameReceiveCallback up,
                          bool takesHeaderOnly = false);
    /// \brief Frames for `hostRank` go to `sink` (the host's NIC) instead of being forwarded;
    /// replaces a SetLocalDelivery callback (and SetLocalDelivery replaces it).
    void SetLocalSink(uint32_t hostRank, PfcFrameSink* sink);
    /**
     * \brief Build the MMU from the attributes and the ports' rates and delays. Called
     * automatically at the first frame; call it after wiring to get configuration errors
     * (std::invalid_argument: headroom does not fit the buffer) at start-up.
     */
    void Initialize();

    /// \brief Number of ports.
    uint32_t GetNPorts() const;
    /// \brief Port i.
    Ptr<PfcNetDevice> GetPort(uint32_t i) const;
    /// \brief The MMU (after Initialize).
    const SharedBufferMmu& GetMmu() const;
    /// \brief Egress bytes queued in the switch for (port, priority).
    uint64_t EgressBytes(uint32_t port, uint8_t priority) const;
    /// \brief Frames waiting in all the switch's egress FIFOs.
    uint64_t EgressFrames() const;
    /// \brief Frames dropped at admission on ingress (port, priority).
    uint64_t GetDrops(uint32_t port, uint8_t priority) const;
    /// \brief All admission drops.
    uint64_t GetTotalDrops() const;
    /// \brief Frames the PFC watchdog dropped (stormed egress queues).
    uint64_t
    GetWatchdogDrops() const
    {
        return m_watchdogDrops;
    }
    /// \brief Frames dropped for want of a route: link failures cut their destination off.
    uint64_t
    GetNoRouteDrops() const
    {
        return m_noRouteDrops;
    }
    /// \brief Storms the PFC watchdog detected.
    uint64_t GetWatchdogStorms() const;
    /// \brief Frames marked CE.
    uint64_t
    GetEcnMarks() const
    {
        return m_ecnMarks;
    }
    /// \brief Frames forwarded (dequeued at an egress).
    uint64_t
    GetForwarded() const
    {
        return m_forwarded;
    }
    /// \brief ECN Kmin of a port in bytes (attribute or rate-scaled default).
    uint64_t EcnKmin(uint32_t port) const;
    /// \brief ECN Kmax of a port in bytes.
    uint64_t EcnKmax(uint32_t port) const;
    /**
     * \brief Assign a fixed stream to the ECN marking random variable.
     * \return the number of streams used (1).
     */
    int64_t AssignStreams(int64_t stream);

    // PfcFrameRelay's warming of an arrival (warmable-event.h); public, as PfcFrameRelay's,
    // so that the devices' FrameReceiveWarmer (WarmReceiveOf<PfcSwitch>) can call it directly.
    void WarmRelayReceive(int stage,
                          uint32_t inPort,
                          const RoceFrameInfo& info,
                          const PortWarmHints& hints) const override;
    FrameReceiveWarmer GetReceiveWarmer() const override;
    /// The port's ingress accounts and the forwarding table's lookup line (null before
    /// Initialize).
    PortWarmHints ReceiveWarmHints(uint32_t port) const override;
    /// The port's egress queues (their address moves while ports are added: Initialize
    /// gives the devices theirs again).
    const void* PullWarmHint(uint32_t port) const override;

  protected:
    void DoDispose() override;

  private:
    /// A frame waiting at an egress: 57 bytes in one 64-byte slot aligned to a cache line
    /// (unaligned, three slots in four straddled two lines, each written on arrival and read
    /// at departure, a cache miss each in a network larger than the cache).
    struct alignas(64) Queued
    {
        FrameRef frame;     //!< the frame
        RoceFrameInfo info; //!< its header (kept in step with CE marking and lane changes)
        uint32_t bytes;     //!< its size
        uint32_t inPort;    //!< ingress port (MMU release)
        uint8_t inPriority; //!< ingress priority (MMU release)
    };
    /// One egress priority of a port: everything the relay path reads and writes per frame
    /// at that egress, in one aligned cache line (64 B, asserted below), read when frames
    /// wait there: a frame that finds the queue empty (its device's relay backlog says so)
    /// and leaves at once reads none of it (m_staged), one that joins or leaves waiting
    /// frames reads this line and its slot. With the device and the thresholds in a port
    /// line of their own, a hop read two lines of the port, or three when the 40 B queue
    /// straddled two, a cache miss each in a network larger than the cache (bench/README.md,
    /// one line per switch egress). The device and thresholds are port-wide: each
    /// priority's line holds the same copies, set at AddPort and Initialize (8 x 24 B per
    /// port).
    struct alignas(64) EgressQueue
    {
        RingFifo<Queued> fifo;    //!< frames waiting (no memory while unused)
        uint64_t bytes{0};        //!< bytes in it
        uint64_t sent{0};         //!< frames it sent (PFC watchdog)
        Ptr<PfcNetDevice> device; //!< the port's device
        uint64_t kminBytes{0};    //!< the port's ECN Kmin
        uint64_t kmaxBytes{0};    //!< the port's ECN Kmax
    };
    static_assert(sizeof(EgressQueue) == 64, "an egress queue fills one cache line");
    /// Per-port state the relay path touches: one line per egress priority (512 B). What
    /// the ingress side reads per hop, "we paused this port's upstream", is kept by the MMU
    /// with the class's counts (SharedBufferMmu::IsPaused), and the pause timers in
    /// m_refresh.
    struct PortState
    {
        PortState() = default;
        /// Moved when m_ports grows at wiring (queues empty then); the queues hold move-only
        /// frames, which a vector could not copy instead.
        PortState(PortState&&) noexcept = default;

        /// \brief The port's device (each priority's line holds a copy).
        const Ptr<PfcNetDevice>&
        Device() const
        {
            return egress[0].device;
        }

        EgressQueue egress[kPfcPriorities]; //!< egress FIFOs, their counts, port copies
    };

    // PfcFrameRelay: a data frame arrived on port index `inPort`; the egress device asks for
    // a frame.
    void RelayReceive(uint32_t inPort,
                      PfcNetDevice& dev,
                      FrameRef frame,
                      uint8_t priority,
                      const RoceFrameInfo* info,
                      uint32_t bytes) override;
    FrameRef RelayPull(uint32_t port,
                       uint8_t priority,
                       RoceFrameInfo& info,
                       uint32_t& bytes) override;
    void WarmRelayPull(int stage, uint32_t port, uint8_t backlog, const void* hint) const override;
    /// \brief Tells the forwarding table the ports' devices (its hops carry them), and the
    /// devices their warming hints again (the table's and the MMU's addresses).
    void GiveTableThePorts();
    /// \brief Moves the frame in m_staged into its egress queue's ring (its device did not
    /// take it).
    void QueueStaged();
    /// \brief Whether priority is one of the table's data lanes; its lane in `lane` (0 if not).
    bool LaneOf(uint8_t priority, uint8_t& lane) const;
    /// \brief Pause / resume decisions for ingress (port, priority).
    void CheckPause(uint32_t port, uint8_t priority);
    /// \brief The data lanes' priorities of the forwarding table (all 8 without a table).
    uint8_t DataLaneMask() const;
    /// \brief Creates the watchdog and wakes it on every pause frame a port receives.
    void StartWatchdog();
    /// \brief The watchdog drops every frame waiting in egress (port, priority).
    void FlushEgress(uint32_t port, uint8_t priority);
    /// \brief Refresh a pause before it expires.
    void RefreshPause(uint32_t port, uint8_t priority);

    // What every relayed frame reads, first and together: with the class aligned to a cache
    // line, the base objects and m_ports fill line 0 and the rest line 1, so a hop touches
    // two lines of the switch object (it touched four or five when these were spread among
    // the attributes and traces, each a cache miss in a network larger than the cache). The
    // ECN draw and its counters, read only for frames above Kmin, are kept out of them.
    ArenaVector<PortState> m_ports; //!< ports
    /// The device of m_staged's egress port (the forwarding hop's: ForwardingHop::device).
    PfcNetDevice* m_stagedDevice{nullptr};
    Ptr<ForwardingTable> m_table;            //!< forwarding
    std::unique_ptr<SharedBufferMmu> m_mmu;  //!< buffer accounting
    std::unique_ptr<PfcWatchdog> m_watchdog; //!< the storm watchdog, if any
    bool m_hasLocal{false};                  //!< a host relays through us
    bool m_ecnEnabled;                       //!< EcnEnabled
    bool m_stagedActive{false};              //!< m_staged holds a frame (below)
    uint8_t m_stagedPriority{0};             //!< its egress priority
    uint32_t m_localHost{0};                 //!< that host's rank
    uint32_t m_stagedPort{0};                //!< its egress port
    uint64_t m_forwarded{0};                 //!< frames dequeued
    /// The smallest ECN Kmin of the ports: a frame that leaves a queue holding no more bytes
    /// is not marked, which RelayPull knows without reading the queue's line for its Kmin.
    uint64_t m_minKmin{0};
    /// The frame RelayReceive is handing to an empty egress queue while it wakes the
    /// device (m_stagedActive; the queue is m_stagedPort, m_stagedPriority): RelayPull takes
    /// it from here, or RelayReceive moves it into the queue's ring when the device did not
    /// (busy or paused). A line of this object, which the relay path keeps in cache, instead
    /// of a slot of the ring, cold in a large network.
    Queued m_staged;

    double m_pmax;                                              //!< EcnPmax
    Ptr<UniformRandomVariable> m_uniform;                       //!< ECN marking draws
    uint64_t m_ecnMarks{0};                                     //!< CE marks
    std::vector<std::array<EventId, kPfcPriorities>> m_refresh; //!< pause refresh timers per port
    PfcNetDevice::FrameReceiveCallback m_up;                    //!< local delivery
    bool m_upTakesHeaders{false};                               //!< m_up takes header-only frames
    PfcFrameSink* m_localSink{nullptr};                         //!< local delivery (direct)

    // Attributes
    uint64_t m_bufferBytes;        //!< BufferSize
    bool m_dynamicThreshold;       //!< DynamicThreshold
    double m_alpha;                //!< Alpha
    double m_lossyAlpha;           //!< LossyAlpha
    uint64_t m_staticXoff;         //!< StaticXoff
    uint64_t m_hysteresis;         //!< XonHysteresis
    uint32_t m_mtuBytes;           //!< MaxFrameBytes
    Time m_responseTime;           //!< ResponseTime
    double m_headroomScale;        //!< HeadroomScale
    uint8_t m_losslessMask;        //!< LosslessPriorities
    uint64_t m_queueReserve;       //!< QueueReserveBytes
    double m_headroomBdps;         //!< HeadroomOneWayBdps
    DataRate m_alphaReferenceRate; //!< AlphaReferenceRate
    bool m_pfcEnabled;             //!< PfcEnabled
    uint16_t m_pauseQuanta;        //!< PauseQuanta
    uint64_t m_kminAttr;           //!< EcnKmin (0 = scale with rate)
    uint64_t m_kmaxAttr;           //!< EcnKmax (0 = scale with rate)

    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace;         //!< Drop
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_markTrace;         //!< EcnMark
    TracedCallback<uint32_t, uint8_t, uint16_t> m_pauseTrace;                 //!< PauseSent
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_watchdogDropTrace; //!< WatchdogDrop
    TracedCallback<uint32_t, uint8_t, bool> m_watchdogStormTrace;             //!< WatchdogStorm
    Time m_watchdogDetection;                                       //!< WatchdogDetection (0: none)
    Time m_watchdogRestore;                                         //!< WatchdogRestore
    uint64_t m_watchdogDrops{0};                                    //!< frames it dropped
    TracedCallback<Ptr<const Packet>, uint32_t> m_noRouteDropTrace; //!< NoRouteDrop
    uint64_t m_noRouteDrops{0}; //!< frames with no route to their host
};

} // namespace ns3

#endif // PARAMSYNC_PFC_SWITCH_H
