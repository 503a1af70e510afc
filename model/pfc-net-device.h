/*
 * The device's interface, in short:
 *  - SetFrameSource is the NIC's slot (SetTxPuller: the same as a callback returning
 *    Packets); PfcSwitch uses SetFrameRelay, so a relaying host's NIC and switch share a
 *    port in any wiring order (frames alternate within a priority).
 *  - The control priority (ControlPriority, default kDefaultControlPriority = 7: ACK, NAK,
 *    CNP; RoceNic sends them on ControlFramePriority(), so the NIC follows it) is served
 *    first under every scheduling and is never paused.
 *  - Counters: GetPauseFramesSent/Received, GetResumeFramesReceived, GetPausedTime,
 *    GetTxFrames; PauseDuration(quanta) gives Q x 512 bit times at our rate.
 *  - EnablePcap(filename) captures both directions of this port (DLT_EN10MB, nanosecond
 *    timestamps).
 *
 * A full-duplex Ethernet port with 8 egress priority queues and 802.1Qbb PFC (ARCHITECTURE.md,
 * Network model).
 *
 * Contract with its owners (switch: PfcSwitch, host: RoceNic):
 *  - Enqueue() never drops: admission is the owner's job (the switch MMU).
 *  - Frames can also be made on demand: when the transmitter is idle and the queue of a
 *    non-paused priority is empty, the device asks the frame source (or TxPuller) for a
 *    frame of that priority (in scheduling order). It returns no frame when it has nothing
 *    now and calls Wake() later.
 *  - Two on-demand sources may share a port: the frame source (the host's NIC) and the frame
 *    relay (the PfcSwitch of a relaying BCube/Torus server, set by PfcSwitch::AddPort).
 *    Within a priority they alternate frame by frame when both have one, so relayed and own
 *    traffic share the port fairly whatever the order of wiring.
 *  - Scheduling order: PFC frames, then the control priority, then the data priorities by
 *    TxScheduling: DeficitRoundRobin (default; Shreedhar & Varghese, SIGCOMM'95, in the
 *    surplus form that charges a frame after it is sent, since a pulled frame's size is
 *    known only then: each turn adds DrrQuantum bytes of credit, a priority sends while its
 *    credit is positive, and an empty priority's credit is cleared), StrictPriority (7..0)
 *    or RoundRobin (cyclic, one frame each, starting after the last one served).
 *  - Every received non-PFC frame goes to the FrameReceiveCallback with its priority (PCP of
 *    the 802.1Q tag, else IPv4 DSCP >> 3). Received PFC frames pause/resume our egress.
 *  - Parse once (ARCHITECTURE.md, Performance): whoever makes or forwards a RoCE frame may hand its
 *    parsed header (RoceFrameInfo) along: EnqueueRoce(frame, p, info), SetPulledFrameInfo
 *    from a TxPuller, a PfcFrameSource's pull. The header then travels with the frame in the
 *    channel's event, and the receiving owner reads it with GetRxInfo() instead of parsing
 *    the frame's bytes again at every hop (in a large topology that first read of the bytes
 *    is a cache miss per hop). Frames without it are parsed as before. A header-only frame
 *    (EnqueueRoce(p, info), a frame source's FrameRef::HeaderOnly) has no bytes until
 *    pcap, a trace with a sink or a sink that parses frames reads them (model/frame-ref.h).
 *  - PFC frames we send leave ahead of all data (after the frame in progress) and are never
 *    paused.
 *  - Serialization time = (frame bytes + 20 B preamble/SFD/IFG) * 8 / DataRate, exact in the
 *    long run (sub-time-step remainders carry to the next frame). The peer receives a frame
 *    at the end of its slot (IFG included) plus the channel delay.
 *  - A received PFC frame takes effect PfcReactionBitTimes after its last bit (802.3's
 *    bound on how long a MAC may take to act on a pause, Annex 31B; see the attribute);
 *    a pause of quanta Q then lasts Q * 512 bit times at our DataRate; quanta 0 resumes; a
 *    new pause replaces the remaining time. A frame already being sent completes. Pauses
 *    for the control priority are counted and ignored.
 */
#ifndef PARAMSYNC_PFC_NET_DEVICE_H
#define PARAMSYNC_PFC_NET_DEVICE_H

#include "flagged-traced-callback.h"
#include "frame-ref.h"
#include "network-arena.h"
#include "pfc-channel.h"
#include "prefetch-line.h"
#include "ring-fifo.h"
#include "roce-frame.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <memory>
#include <string>

namespace ns3
{

class Node;
class PcapFileWrapper;

/// \brief Number of PFC priorities.
constexpr uint8_t kPfcPriorities = 8;
/// \brief The control class (ACK, NAK, CNP) by default: PfcNetDevice::ControlPriority's
/// default and the priority RoceNic sends them on when a port has no control class. RoceNic
/// sends its control frames on its port's ControlFramePriority(), so the two cannot differ.
constexpr uint8_t kDefaultControlPriority = 7;
/// \brief The largest DrrQuantum (1 GiB): a credit (at most one quantum) fits 32 bits.
constexpr uint32_t kMaxDrrQuantum = uint32_t{1} << 30;
/// Largest port index a device may have at its frame relay or frame source (SetFrameRelay,
/// SetFrameSource): the transmit path keeps it in 16 bits.
constexpr uint32_t kMaxFrameSourcePorts = 0xffff;

class PfcNetDevice;

/**
 * \brief Where a receiver keeps what it reads for each frame of one of its ports, besides its
 * own lines (PfcFrameRelay::ReceiveWarmHints): the device keeps these addresses in its
 * receive line and hands them to the receiver's first warming stage, which prefetches them
 * beside the receiver's own lines. Without them, a stage had to load the receiver's line to
 * find them, and a later stage what they point to: one stage per level of pointers
 * (warmable-event.h). Only ever prefetched: an address out of date costs a wasted prefetch.
 */
struct PortWarmHints
{
    const void* port{nullptr};   //!< state of this port (a switch: its ingress accounts)
    const void* shared{nullptr}; //!< state every port reads (a switch: its forwarding table)
};

/**
 * \brief A receiver's warming of a frame's arrival (PfcFrameRelay::WarmRelayReceive,
 * PfcFrameSink::WarmSinkReceive) as a plain function of the receiver's address (the relay or
 * sink pointer the device holds), its port there (a sink ignores it), the stage, the
 * frame's header and the port's warming hints (PortWarmHints; a sink ignores them).
 *
 * Why not the virtual call: a virtual call reads the receiver's vptr first, in its object's
 * first line, and nothing can prefetch that line a stage earlier (its address is in the
 * device's receive line, which that stage is loading: warmable-event.h). In the 8,192-host
 * permutation that load missed for most frames arriving at a host (the NIC's line) and cost
 * ~5 % of the run. PfcNetDevice keeps this pointer in its receive line instead (taken once,
 * when the receiver is set).
 */
using FrameReceiveWarmer = void (*)(const void* receiver,
                                    int stage,
                                    uint32_t port,
                                    const RoceFrameInfo& info,
                                    const PortWarmHints& hints);

/**
 * \brief The switch side of a port (PfcSwitch; SetFrameRelay): takes the frames the port
 * receives and gives the frames it relays. Frames move in and out as FrameRefs with their
 * header and size beside them, so that a frame crosses the switch without its Packet being
 * read (a direct call also saves the Callback and std::function layers, twice per hop).
 */
class PfcFrameRelay
{
  public:
    virtual ~PfcFrameRelay() = default;
    /**
     * \brief A data frame arrived on our port `port` of device dev, with its priority, size
     * and, when the sender handed it along, its header (else nullptr: parse the frame).
     */
    virtual void RelayReceive(uint32_t port,
                              PfcNetDevice& dev,
                              FrameRef frame,
                              uint8_t priority,
                              const RoceFrameInfo* info,
                              uint32_t bytes) = 0;
    /**
     * \brief The next frame of a priority to send on port `port`, or an empty FrameRef;
     * fills its header and size.
     */
    virtual FrameRef RelayPull(uint32_t port,
                               uint8_t priority,
                               RoceFrameInfo& info,
                               uint32_t& bytes) = 0;
    /**
     * \brief Prefetch what RelayReceive will read for a frame with header info arriving on
     * port `port`, at depth `stage` (1: the relay's own lines and the hints its
     * ReceiveWarmHints gave for the port; each later stage what the lines of the stage
     * before point to: warmable-event.h). Reads only lines earlier stages prefetched;
     * changes nothing RelayReceive could tell (a switch's table remembers the route it
     * found: ForwardingTable::PeekedRoute). By default nothing.
     */
    virtual void
    WarmRelayReceive(int /* stage */,
                     uint32_t /* port */,
                     const RoceFrameInfo& /* info */,
                     const PortWarmHints& /* hints */) const
    {
    }
    /// \brief What the relay reads for each frame arriving on port `port` besides its own
    /// lines, for its first warming stage (PortWarmHints). By default nothing.
    virtual PortWarmHints
    ReceiveWarmHints(uint32_t /* port */) const
    {
        return {};
    }
    /// \brief Likewise for RelayPull on port `port` when it has frames of the priorities in
    /// `backlog` (bit p); hint: what PullWarmHint gave for the port.
    virtual void
    WarmRelayPull(int /* stage */,
                  uint32_t /* port */,
                  uint8_t /* backlog */,
                  const void* /* hint */) const
    {
    }
    /// \brief What RelayPull reads of port `port` besides the relay's own lines (a switch:
    /// the port's egress queues), for WarmRelayPull's first stage. By default nothing.
    virtual const void*
    PullWarmHint(uint32_t /* port */) const
    {
        return nullptr;
    }
    /// \brief WarmRelayReceive as a plain function of this relay's address (FrameReceiveWarmer).
    /// By default one that makes the virtual call; a relay with warming of its own returns
    /// WarmReceiveOf<itself>.
    virtual FrameReceiveWarmer
    GetReceiveWarmer() const
    {
        return &WarmByVirtualCall;
    }

  protected:
    /// \brief Relay::WarmRelayReceive called without a virtual call (the address is the
    /// PfcFrameRelay subobject of a Relay).
    template<class Relay>
    static void
    WarmReceiveOf(const void* relay,
                  int stage,
                  uint32_t port,
                  const RoceFrameInfo& info,
                  const PortWarmHints& hints)
    {
        static_cast<const Relay*>(static_cast<const PfcFrameRelay*>(relay))
            ->Relay::WarmRelayReceive(stage, port, info, hints);
    }

  private:
    /// \brief The default warmer: the virtual call.
    static void
    WarmByVirtualCall(const void* relay,
                      int stage,
                      uint32_t port,
                      const RoceFrameInfo& info,
                      const PortWarmHints& hints)
    {
        static_cast<const PfcFrameRelay*>(relay)->WarmRelayReceive(stage, port, info, hints);
    }
};

/**
 * \brief A host's side of a port (RoceNic; SetFrameSource): RoCE frames made when the
 * transmitter asks, each with its header and size; header-only (FrameRef::HeaderOnly) or with
 * its Packet. A direct call: no Callback layer and no Packet in the interface.
 */
class PfcFrameSource
{
  public:
    virtual ~PfcFrameSource() = default;
    /**
     * \brief The next frame of a priority to send on our port `port`, or an empty FrameRef
     * (nothing now: the source calls Wake() when it has one); fills its header and size.
     */
    virtual FrameRef SourcePull(uint32_t port,
                                uint8_t priority,
                                RoceFrameInfo& info,
                                uint32_t& bytes) = 0;
    /// \brief Prefetch what SourcePull on port `port` will read, at depth `stage` (as
    /// PfcFrameRelay::WarmRelayPull; hint: what PullWarmHint gave for the port). By default
    /// nothing.
    virtual void
    WarmSourcePull(int /* stage */, uint32_t /* port */, const void* /* hint */) const
    {
    }
    /// \brief What SourcePull reads of port `port` besides the source's own lines (a NIC:
    /// its record of the port), for WarmSourcePull's first stage. By default nothing.
    virtual const void*
    PullWarmHint(uint32_t /* port */) const
    {
        return nullptr;
    }
};

/**
 * \brief Where a host's received data frames go (RoceNic; SetFrameSink): a direct call with
 * the frame and its header, instead of a FrameReceiveCallback (whose std::function object is
 * one more cache line per frame) and GetRxInfo.
 */
class PfcFrameSink
{
  public:
    virtual ~PfcFrameSink() = default;
    /**
     * \brief A data frame for this host arrived on dev with its priority and, when the
     * sender handed it along, its header (else nullptr: parse the frame's bytes).
     */
    virtual void SinkReceive(PfcNetDevice& dev,
                             FrameRef frame,
                             uint8_t priority,
                             const RoceFrameInfo* info) = 0;
    /// \brief Prefetch what SinkReceive of a frame with header info will read, at depth
    /// `stage` (as PfcFrameRelay::WarmRelayReceive). By default nothing.
    virtual void
    WarmSinkReceive(int /* stage */, const RoceFrameInfo& /* info */) const
    {
    }
    /// \brief WarmSinkReceive as a plain function of this sink's address (FrameReceiveWarmer;
    /// as PfcFrameRelay::GetReceiveWarmer).
    virtual FrameReceiveWarmer
    GetReceiveWarmer() const
    {
        return &WarmByVirtualCall;
    }

  protected:
    /// \brief Sink::WarmSinkReceive called without a virtual call (the address is the
    /// PfcFrameSink subobject of a Sink).
    template<class Sink>
    static void
    WarmReceiveOf(const void* sink,
                  int stage,
                  uint32_t /* port */,
                  const RoceFrameInfo& info,
                  const PortWarmHints& /* hints */)
    {
        static_cast<const Sink*>(static_cast<const PfcFrameSink*>(sink))
            ->Sink::WarmSinkReceive(stage, info);
    }

  private:
    /// \brief The default warmer: the virtual call.
    static void
    WarmByVirtualCall(const void* sink,
                      int stage,
                      uint32_t /* port */,
                      const RoceFrameInfo& info,
                      const PortWarmHints& /* hints */)
    {
        static_cast<const PfcFrameSink*>(sink)->WarmSinkReceive(stage, info);
    }
};

/**
 * \brief Full-duplex point-to-point Ethernet port with per-priority queues and PFC.
 */
class PfcNetDevice : public NetDevice, public NetworkArenaAllocated
{
  public:
    /// \brief Transmit scheduling among the 8 priorities.
    enum TxScheduling : uint8_t
    {
        STRICT_PRIORITY,    //!< always the highest non-empty, non-paused priority (7 first)
        ROUND_ROBIN,        //!< cyclic over non-empty, non-paused priorities (one frame each)
        DEFICIT_ROUND_ROBIN //!< byte-fair turns of DrrQuantum credit (see the file comment)
    };

    /// \brief Trace: a frame and its priority (enqueue, dequeue = transmission start).
    typedef void (*FrameTracedCallback)(Ptr<const Packet> frame, uint8_t priority);
    /// \brief Trace: a pause frame sent or received for one priority (quanta 0 = resume).
    typedef void (*PauseTracedCallback)(uint8_t priority, uint16_t quanta);
    /// \brief Trace: our egress priority resumed after being paused for `paused`.
    typedef void (*ResumeTracedCallback)(uint8_t priority, Time paused);

    /// \brief Pulls a frame of a priority from the owner, or nullptr.
    typedef Callback<Ptr<Packet>, Ptr<PfcNetDevice>, uint8_t> TxPuller;
    /// \brief Receives a data frame with its priority.
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t> FrameReceiveCallback;

    /// \brief Register the type.
    static TypeId GetTypeId();
    PfcNetDevice();
    ~PfcNetDevice() override;

    /// \brief Connect to a channel (the device attaches itself).
    void Attach(Ptr<PfcChannel> channel);

    /// \brief Queue a frame on an egress priority; never drops.
    void Enqueue(Ptr<Packet> frame, uint8_t priority);
    /// \brief Queue a RoCE frame whose header is known (info as ReadRoceFrame would give it).
    void EnqueueRoce(Ptr<Packet> frame, uint8_t priority, const RoceFrameInfo& info);
    /// \brief Queue a header-only RoCE frame (FrameRef::HeaderOnly): info is the frame, its
    /// bytes are built only if something reads them (info as ReadRoceFrame would give it).
    void EnqueueRoce(uint8_t priority, const RoceFrameInfo& info);
    /**
     * \brief Called by a TxPuller just before it returns a RoCE frame: its parsed header (as
     * ReadRoceFrame would give it), carried to the peer with the frame.
     */
    void
    SetPulledFrameInfo(const RoceFrameInfo& info)
    {
        m_cold->m_pulledInfo = info;
        m_cold->m_pulledInfoSet = true;
    }
    /**
     * \brief While a frame is being delivered to the FrameReceiveCallback: its parsed RoCE
     * header if the sender handed one along, else nullptr (then parse the frame).
     */
    const RoceFrameInfo*
    GetRxInfo() const
    {
        return m_cold->m_rxInfo;
    }
    /// \brief Bytes waiting in the egress queue of a priority (not counting a TxPuller's).
    uint64_t QueuedBytes(uint8_t priority) const;
    /// \brief Whether the peer paused this priority of our egress (inline: the deadlock
    /// detector asks it for every port and priority at every look).
    bool
    IsPaused(uint8_t priority) const
    {
        return (m_pausedMask >> priority) & 1;
    }
    /// \brief Frames waiting in our queues (data and PFC; not counting a TxPuller's).
    uint64_t QueuedFrames() const;
    /// \brief Install the on-demand frame source as a callback (frames with their Packet,
    /// their header handed along with SetPulledFrameInfo or parsed downstream).
    void SetTxPuller(TxPuller puller);
    /// \brief Install the on-demand frame source (the NIC), our port being its `port`;
    /// replaces a TxPuller. nullptr removes it.
    void SetFrameSource(PfcFrameSource* source, uint32_t port);
    /**
     * \brief Install the switch side of this port (PfcSwitch::AddPort does it): the relay
     * frame source, and the sink of every received data frame until SetFrameReceiveCallback
     * names another. nullptr removes it.
     */
    void SetFrameRelay(PfcFrameRelay* relay, uint32_t port);
    /// \brief Ask the relay and the frame source again for their warming hints of our port
    /// (ReceiveWarmHints, PullWarmHint): their owner calls it when the state the hints name
    /// has moved (PfcSwitch::Initialize, RoceNic::AddPort). Set-up only.
    void RefreshWarmHints();
    /// \brief The channel's link state, ends or delay changed: ask it for the direct path
    /// to the peer again (PfcChannel::GetDirectPath) before the next frame.
    void
    ForgetDirectPath()
    {
        m_pathKnown = false;
        m_peer = nullptr;
    }
    /**
     * \brief The relay source has (true) or has no (false) frame of a priority: the device
     * only asks it for backlogged priorities (saves a callback per priority and idle scan).
     */
    void
    SetRelayBacklog(uint8_t priority, bool backlog)
    {
        m_relayBacklog = static_cast<uint8_t>(backlog ? (m_relayBacklog | (1u << priority))
                                                      : (m_relayBacklog & ~(1u << priority)));
    }
    /// \brief What SetRelayBacklog last said of a priority (PfcSwitch keeps it exact: true
    /// while its egress queue of that priority holds a frame).
    bool
    HasRelayBacklog(uint8_t priority) const
    {
        return (m_relayBacklog >> priority) & 1;
    }
    /**
     * \brief The TxPuller has (true) or has no (false) frame of a priority. Every priority is
     * backlogged until the owner says otherwise, so a puller that never reports is asked for
     * every priority; one that does (the NIC) saves a callback per idle priority and scan.
     */
    void
    SetTxBacklog(uint8_t priority, bool backlog)
    {
        m_txBacklog = static_cast<uint8_t>(backlog ? (m_txBacklog | (1u << priority))
                                                   : (m_txBacklog & ~(1u << priority)));
    }
    /// \brief Try to transmit now if idle.
    void Wake();
    /// \brief Wake() after delay, as a pooled event the event queue can warm (a frame
    /// source's pacing: one per paced packet).
    EventId ScheduleWake(Time delay);
    /**
     * \brief Where received data frames go (instead of the frame relay, if any). A sink
     * that reads a RoCE frame's header with GetRxInfo alone (RoceNic::Receive) says so with
     * takesHeaderOnly: a frame whose bytes were never built (FrameRef::HeaderOnly) then
     * reaches it as a null Packet; any other sink gets every frame as a Packet, built from
     * its header where it had none.
     */
    void SetFrameReceiveCallback(FrameReceiveCallback cb, bool takesHeaderOnly = false);
    /**
     * \brief Where received data frames go (instead of the frame relay, if any): a direct
     * sink, which replaces a FrameReceiveCallback (and SetFrameReceiveCallback replaces it).
     * nullptr removes it.
     */
    void SetFrameSink(PfcFrameSink* sink);
    /**
     * \brief Hand a frame this device received to cb, with its header readable through
     * GetRxInfo during the call (a frame relay's local delivery to its host's NIC).
     */
    void DeliverTo(const FrameReceiveCallback& cb,
                   const Ptr<Packet>& frame,
                   uint8_t priority,
                   const RoceFrameInfo* info);
    /// \brief Send a PFC frame for one priority ahead of all data (quanta 0 = resume).
    void SendPause(uint8_t priority, uint16_t quanta);
    /// \brief Line rate.
    DataRate GetDataRate() const;
    /// \brief Set the line rate.
    void SetDataRate(DataRate rate);
    /// \brief Duration of a pause of `quanta` at our rate (quanta * 512 bit times).
    Time PauseDuration(uint16_t quanta) const;
    /// \brief Time from a PFC frame's last bit to its effect (PfcReactionBitTimes at our rate).
    Time GetPfcReactionDelay() const;
    /**
     * \brief 802.3's largest pause reaction at a line rate, in bit times (Annex 31B, as
     * quoted by switch vendors: 394 quanta = 201,728 at 100 Gb/s and above, 118 quanta =
     * 60,416 at 40 Gb/s; below 40 Gb/s the 40 Gb/s figure, the smallest we can cite).
     */
    static uint32_t PfcReactionBitTimesFor(uint64_t bitRate);
    /// \brief The priority served first and never paused (kPfcPriorities: none).
    uint8_t
    GetControlPriority() const
    {
        return m_controlPriority;
    }
    /// \brief The priority ACK, NAK and CNP frames leave this port on: ControlPriority, or
    /// kDefaultControlPriority (as an ordinary class) when there is no control class.
    uint8_t
    ControlFramePriority() const
    {
        return m_controlPriority < kPfcPriorities ? m_controlPriority : kDefaultControlPriority;
    }
    /// \brief The channel.
    Ptr<PfcChannel> GetPfcChannel() const;
    /// \brief Whether the transmitter is idle.
    bool IsTxIdle() const;

    /// \brief Pause frames sent for a priority.
    uint64_t GetPauseFramesSent(uint8_t priority) const;
    /// \brief Pause frames (quanta > 0) received for a priority.
    uint64_t GetPauseFramesReceived(uint8_t priority) const;
    /// \brief Resume frames (quanta 0) received for a priority.
    uint64_t GetResumeFramesReceived(uint8_t priority) const;
    /// \brief Total time our egress priority was paused (ongoing pause counted up to now).
    Time GetPausedTime(uint8_t priority) const;
    /**
     * \brief Whether this port ever sent or received a PFC frame: only then does it hold
     * the pause timers and counters (before, the getters above report zeros).
     */
    bool
    HasPauseState() const
    {
        return m_cold->m_pause != nullptr;
    }
    /// \brief Frames sent per priority (data and PFC).
    uint64_t GetTxFrames(uint8_t priority) const;
    /// \brief Data frames received (handed to the owner or dropped for want of one); a peer's
    /// GetTxFrames minus these are the data frames on the wire towards us.
    uint64_t
    GetRxFrames() const
    {
        return m_rxFrames;
    }

    /**
     * \brief Write every frame this device sends and receives to a PCAP file (DLT_EN10MB).
     * The FCS bytes are part of the frames.
     */
    void EnablePcap(const std::string& filename);

    /// \brief Called by the channel when a frame has fully arrived.
    void Receive(Ptr<Packet> frame);
    /// \brief Called by the channel when a RoCE frame with a known header has fully arrived:
    /// our reference to it (header-only or not) and its size.
    void ReceiveFrame(FrameRef frame, const RoceFrameInfo& info, uint32_t bytes);
    /// \brief Prefetch what ReceiveFrame of a frame with header info will read, at depth
    /// `stage` (warmable-event.h): 1 this device's receive line, later stages its relay's or
    /// sink's lines. Changes nothing.
    void
    WarmReceive(int stage, const RoceFrameInfo& info) const
    {
        if (stage <= 1)
        {
            PrefetchLine(&m_relay);
        }
        else if (m_receiveWarmer != nullptr)
        {
            const void* receiver = m_relayReceives ? static_cast<const void*>(m_relay)
                                                   : m_frameSink;
            m_receiveWarmer(receiver, stage - 1, m_relayPort, info, m_receiveHints);
        }
    }
    /// \brief The pull hint (m_pullHintOffset) as an address, from the puller's pointer.
    const void*
    PullHint(const void* puller) const
    {
        // In integers: the hint is another object's address, not one within the puller's.
        return m_pullHintOffset != 0
                   ? reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(puller) +
                                                   static_cast<uintptr_t>(m_pullHintOffset))
                   : nullptr;
    }
    /// \brief The relay or frame source (its interface's subobject, where its vptr is) that
    /// WarmTransmit's second stage would call now, or null (TransmitEvent).
    const void*
    LikelyPuller() const
    {
        if (m_hasRelay && m_relayBacklog != 0)
        {
            return m_txRelay;
        }
        return m_source;
    }
    /// \brief Prefetch what starting the next frame will read (after TransmitComplete, or a
    /// Wake), at depth `stage`: 1 this device's transmit lines, later stages its relay's or
    /// frame source's lines. Changes nothing.
    void
    WarmTransmit(int stage) const
    {
        if (stage <= 1)
        {
            PrefetchLine(&m_txState);
            PrefetchLine(&m_txRelay);
        }
        else if (m_hasRelay && m_relayBacklog != 0)
        {
            m_txRelay->WarmRelayPull(stage - 1, m_txRelayPort, m_relayBacklog, PullHint(m_txRelay));
        }
        else if (m_source != nullptr)
        {
            // A relaying host's own frames: the hint is the relay's, its source goes without.
            m_source->WarmSourcePull(
                stage - 1, m_sourcePort, m_hasRelay ? nullptr : PullHint(m_source));
        }
    }

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /// Sends a complete frame on priority 0 (protocolNumber and dest are ignored).
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// Transmitter state (as PointToPointNetDevice).
    enum TxState : uint8_t
    {
        READY, //!< idle
        BUSY   //!< serializing a frame
    };

    /// \brief Pick the next frame and start it, if idle and one is eligible.
    void TryTransmit();
    /// \brief Sets m_receiveWarmer from the receiver frames now go to (after a change of
    /// m_relay, m_relayReceives or m_frameSink).
    void UpdateReceiveWarmer();
    /// \brief Whether a frame is still on the line (makes its end an event when something
    /// waits); turns a transmitter whose frame has ended READY.
    bool LineBusy();
    /// \brief Start the first queued PFC frame; false when none is queued.
    bool SendQueuedControl();
    /// \brief Start the next data frame by the control class and the scheduling discipline;
    /// false when no eligible priority has one.
    bool SendNextDataFrame();
    /// \brief Take priority p's next frame (queued, else pulled) and start it; clears p in
    /// `ready`; false when p had none.
    bool SendFromPriority(uint8_t p, uint8_t& ready);
    /// A queued frame and, when known, its parsed header.
    struct TxFrame
    {
        FrameRef frame;     //!< the frame
        uint32_t bytes;     //!< its size
        RoceFrameInfo info; //!< its header, if known
        bool known;         //!< info is valid
    };
    /**
     * The state of the pauses this port received and sent, per priority: made by the first
     * PFC frame the port sends or receives (PauseStateForPfc), since most ports of a large
     * run never see one and it was 576 of the device's 1,472 B (28 MB of peak RSS at 8,192
     * hosts: bench/README.md, Scaling). Whether a priority is paused is m_pausedMask, in the
     * transmit line, which every frame reads.
     */
    struct PauseState
    {
        std::array<Time, kPfcPriorities> start{};        //!< when the current pause began
        std::array<EventId, kPfcPriorities> timer;       //!< expiry of the current pause
        RingFifo<EventId> pending;                       //!< received PFC not yet in effect
        std::array<Time, kPfcPriorities> pausedTime{};   //!< accumulated paused time
        std::array<uint64_t, kPfcPriorities> sent{};     //!< pause frames sent
        std::array<uint64_t, kPfcPriorities> received{}; //!< pause frames received (quanta>0)
        std::array<uint64_t, kPfcPriorities> resumes{};  //!< resume frames received
    };

    /// \brief A frame of priority p from the on-demand sources, or none: sets its size and,
    /// when known (known = true), its header.
    FrameRef PullFrom(uint8_t p, uint32_t& bytes, RoceFrameInfo& info, bool& known);
    /// \brief Start serializing a frame of `bytes` and the given priority (kPfcPriorities for
    /// PFC); info: its parsed header or nullptr.
    void TransmitStart(FrameRef frame, uint32_t bytes, uint8_t priority, const RoceFrameInfo* info);
    /// \brief Queue a frame of `bytes` (info: its header, or nullptr) and try to send.
    void EnqueueFrame(FrameRef frame, uint32_t bytes, uint8_t priority, const RoceFrameInfo* info);
    /// \brief Hand a received data frame of `bytes` to the owner (info: its header, or
    /// nullptr for a frame with a Packet whose header nobody handed along).
    void Deliver(FrameRef frame, uint32_t bytes, uint8_t priority, const RoceFrameInfo* info);
    /// \brief End of serialization (scheduled only when a frame may wait for the port).
    void TransmitComplete();
    /// \brief Schedule TransmitComplete after `delay` (none is pending).
    void ScheduleCompletion(Time delay);
    /// \brief Cancel the pending TransmitComplete, if any.
    void CancelCompletion();
    /// pfc-net-device-tx.cc: the TransmitComplete and Wake events, pooled and warmable.
    template<void (PfcNetDevice::*Step)()>
    class TransmitEvent;
    /// \brief Whether a frame could be sent now (control, queued or pullable, not paused).
    bool HasEligibleFrame() const;
    /// \brief Mask of the data priorities that may have a frame (queued or pullable, not paused).
    uint8_t EligiblePriorities() const;
    /// \brief Read a received PFC frame; its effect follows after the reaction delay.
    void ReceivePfc(Ptr<Packet> frame);
    /// \brief Apply the quanta of a received PFC frame (enabled: its class-enable vector).
    void ApplyPfc(uint8_t enabled, std::array<uint16_t, kPfcPriorities> quanta);
    /// \brief The next data priority under DeficitRoundRobin among `ready`, or none
    /// (kPfcPriorities); charges nothing (TryTransmit charges the frame sent).
    uint8_t DrrPick(uint8_t ready);
    /// \brief The pause timer of a priority expired.
    void PauseExpired(uint8_t priority);
    /// \brief End the pause of a priority now and account its duration.
    void EndPause(uint8_t priority);
    /// \brief The pause state, made now if this is the port's first PFC frame.
    PauseState& PauseStateForPfc();
    /// \brief Count a data frame of a priority as sent: in the run counter of its priority
    /// when one of the two has it; else the older run goes to m_txFrames and the frame starts
    /// a run in its place. Two runs because a switch port's frames alternate between two
    /// classes (data one way, the control class's ACK and CNP the other): with one run, every
    /// change of class added to m_txFrames, a line of its own (0.19 lines per packet-hop at
    /// 1,024 hosts, bench/README.md).
    void
    CountTxFrame(uint8_t priority)
    {
        std::size_t i = 0;
        if (priority == m_txRunPriority[1])
        {
            i = 1;
        }
        else if (priority != m_txRunPriority[0])
        {
            m_txFrames[m_txRunPriority[1]] += m_txRun[1];
            m_txRunPriority[1] = m_txRunPriority[0];
            m_txRun[1] = m_txRun[0];
            m_txRunPriority[0] = priority;
            m_txRun[0] = 0;
        }
        if (m_txRun[i] == UINT16_MAX)
        {
            m_txFrames[priority] += m_txRun[i];
            m_txRun[i] = 0;
        }
        ++m_txRun[i];
    }
    /// \brief Serialization time of wireBytes, carrying sub-step remainders between frames.
    Time SerializationTime(uint32_t wireBytes);
    /// \brief Our MAC address bytes.
    std::array<uint8_t, 6> MacBytes() const;

    // Fields every frame touches sit together in a few cache lines: in a large topology each
    // hop otherwise pays a cache miss per scattered field of the two devices it crosses (one
    // line on receive, two on transmit; the object is 64-byte aligned).

    // Receive: one line.
    alignas(64) PfcFrameRelay* m_relay{nullptr}; //!< switch side of the port
    uint32_t m_relayPort{0};                     //!< our port index at m_relay
    bool m_relayReceives{false};                 //!< received data frames go to m_relay
    bool m_rxPcap{false};                        //!< m_pcap is set
    bool m_rxTraced{false};                      //!< the Rx trace has a sink
    /// The Enqueue trace has a sink: here because a host pushes its ACK while the data frame
    /// it answers is delivered, with this line loaded.
    bool m_enqueueTraced{false};
    uint64_t m_rxFrames{0}; //!< data frames received
    /// The receiver's warming (m_relay's if m_relayReceives, else m_frameSink's), or null:
    /// UpdateReceiveWarmer keeps it in step.
    FrameReceiveWarmer m_receiveWarmer{nullptr};
    PfcFrameSink* m_frameSink{nullptr}; //!< data frame sink (direct)
    PortWarmHints m_receiveHints;       //!< m_relay's ReceiveWarmHints for our port

    // Transmit: two lines per frame sent, and per transmission end. A switch port's sent
    // frame read four before: the state line, the relay line, the DRR credit and peer line,
    // and the frame counts, and a transmission end a third for its event, each a cache miss
    // per hop in a network larger than the cache (bench/README.md, Scaling). The relay, its
    // port index and the capture are mirrored here from the receive line; the callback
    // puller, the channel, the frame source and the Dequeue trace are flags (bits where no
    // attribute or trace needs an address); the end event is its EventImpl alone; the frame
    // counts of runs of two priorities are kept in two counters (m_txRun) and added to
    // m_txFrames when a third priority takes one.

    // Line 1: the state, the end event, the line rate, the DRR quantum, the port indexes at
    // the frame sources and the direct path's node.
    alignas(64) TxState m_txState{READY};               //!< transmitter state
    TxScheduling m_scheduling{STRICT_PRIORITY};         //!< scheduling policy
    bool m_pfcEnabled{true};                            //!< honour received PFC frames
    uint8_t m_rrNext{0};                                //!< round-robin: priority to look at first
    uint8_t m_controlPriority{kDefaultControlPriority}; //!< served first, never paused (8: none)
    uint8_t m_drrCurrent{0};                            //!< DRR: priority whose turn it is
    uint8_t m_relayBacklog{0}; //!< priorities the relay source has frames of
    uint8_t m_txBacklog{0xff}; //!< priorities the frame source may have
    uint8_t m_queueMask{0};    //!< priorities with queued frames
    uint8_t m_pausedMask{0};   //!< priorities the peer paused
    uint8_t m_relayFirst{0};   //!< bit p: ask the relay before the local source for p
    std::array<uint8_t, 2> m_txRunPriority{0, 0}; //!< priorities of the frames in m_txRun
    bool m_dequeueTraced{false};                  //!< the Dequeue trace has a sink
    bool m_inTryTransmit : 1;                     //!< TryTransmit is running (a puller may Wake us)
    bool m_wakePending : 1;                       //!< Wake() arrived during the scan
    bool m_controlQueued : 1;                     //!< m_control is not empty
    bool m_hasPuller : 1;                         //!< m_puller is set
    bool m_hasRelay : 1;                          //!< m_txRelay is set
    bool m_hasSource : 1;                         //!< m_source is set
    bool m_hasChannel : 1;                        //!< m_channel is set
    bool m_txPcap : 1;                            //!< m_pcap is set (the capture of sent frames)
    bool m_pathKnown : 1;      //!< m_peer is up to date (PfcChannel::ForgetDirectPath)
    uint16_t m_txRelayPort{0}; //!< m_relayPort, for the transmit path (kMaxFrameSourcePorts)
    uint16_t m_sourcePort{0};  //!< our port index at m_source (kMaxFrameSourcePorts)
    uint32_t m_peerContext{0}; //!< the direct path's node id
    /// The pending TransmitComplete (cancelled through it), null when none is: an EventId
    /// would take 24 bytes, a line of its own.
    Ptr<EventImpl> m_completion;
    Time m_txEnd;          //!< end of the frame being (or last) serialized
    DataRate m_rate;       //!< line rate
    uint64_t m_txCarry{0}; //!< fraction of a time step (x rate) carried over
    /// The transmit path's puller's hint for our port (PullWarmHint: the relay's, or
    /// without one the frame source's), as its distance from the puller's pointer
    /// (PullHint); 0 when there is none or it is over 2 GiB away. An offset, not a pointer:
    /// the two transmit lines have 4 bytes to spare, and both the puller and the state the
    /// hint names live in the NetworkArena, a few hundred MB apart at most.
    int32_t m_pullHintOffset{0};
    std::array<uint16_t, 2> m_txRun{0, 0}; //!< frames of m_txRunPriority not in m_txFrames
    // Line 2: the frame sources, the DRR credit and the direct path to the peer (a frame
    // with its header is scheduled at the peer without reading the channel's line:
    // PfcChannel::GetDirectPath). A credit is at most DrrQuantum (at most kMaxDrrQuantum)
    // and at least minus one frame.
    alignas(64) PfcFrameRelay* m_txRelay{nullptr};     //!< m_relay, for the transmit path
    PfcFrameSource* m_source{nullptr};                 //!< on-demand frame source (NIC)
    std::array<int32_t, kPfcPriorities> m_drrCredit{}; //!< DRR: bytes it may still send
    PfcNetDevice* m_peer{nullptr}; //!< the direct path's receiver (null: through the channel)
    Time m_peerDelay;              //!< its propagation delay
    // Set-up and rarer.
    alignas(64) Ptr<PfcChannel> m_channel; //!< the link
    uint32_t m_drrQuantum{0};              //!< DRR: credit per turn (bytes; read per turn)
    // Per frame of a changed priority, or traced.
    std::array<uint64_t, kPfcPriorities> m_txFrames{}; //!< frames sent per priority (but m_txRun)
    TxPuller m_puller;                                 //!< on-demand frame source as a callback
    uint32_t m_reactionBits{0};                        //!< PfcReactionBitTimes (kAuto: by rate)
    uint16_t m_mtu{9000};                              //!< MTU (informative)

    /**
     * What a switch's relay path never reads: the set-up, the queues of frames the owner
     * pushed (hosts' ACK/NAK/CNP, frames without a source), the pause state, the capture,
     * the traces. Kept off the object, on the general heap, so that the devices in the
     * NetworkArena are 384 B instead of 896 B and the pages a large run's hops touch are
     * fewer: a hop's lines are spread over the pages of thousands of devices, switch ports,
     * accounts and events, and past the TLB's reach each page costs a walk (bench/README.md,
     * "Then: fewer pages a hop"). 1,024 hosts, a TLB model of this machine's core: 1.15 ->
     * 0.75 walks per packet-hop with the set-up, queues and pause state off the object.
     *
     * The traces are reached by the accessors ColdTraceAccessor makes (ns-3's own accessor
     * names a member of the object); the three a frame's path asks about keep a flag in the
     * device's lines (FlaggedTracedCallback): Rx and Enqueue in the receive line, Dequeue in
     * the transmit line.
     */
    struct alignas(64) ColdState
    {
        /// \brief The traces' flags are the device's (outliving this).
        ColdState(bool* rxTraced, bool* dequeueTraced, bool* enqueueTraced);
        ~ColdState();
        ColdState(const ColdState&) = delete;
        ColdState& operator=(const ColdState&) = delete;

        /// A queue of pushed frames and its bytes, in 32 B: two priorities to a line, so that
        /// a host's ACK pushed (and later sent) touches one line of this state besides its
        /// slot (the control class's queue and count were in two lines, and the Enqueue
        /// trace's emptiness in a third: bench/README.md, "Then: warming hints").
        struct PushQueue
        {
            RingFifo<TxFrame> frames; //!< the frames
            uint64_t bytes{0};        //!< their bytes
        };
        std::array<PushQueue, kPfcPriorities> m_queues; //!< data queues (the owner's pushes)
        Ptr<PcapFileWrapper> m_pcap;                    //!< capture (m_rxPcap, m_txPcap)
        RoceFrameInfo m_pulledInfo;              //!< header a TxPuller set (SetPulledFrameInfo)
        bool m_pulledInfoSet{false};             //!< the TxPuller set m_pulledInfo
        FrameReceiveCallback m_frameRx;          //!< data frame sink (callback)
        const RoceFrameInfo* m_rxInfo{nullptr};  //!< header of the frame being delivered to it
        bool m_frameRxTakesHeaders{false};       //!< m_frameRx takes header-only frames
        Ptr<Node> m_node;                        //!< owner node
        Mac48Address m_address;                  //!< our MAC
        uint32_t m_ifIndex{0};                   //!< interface index
        NetDevice::ReceiveCallback m_rxCallback; //!< NetDevice interface (unused)
        RingFifo<Ptr<Packet>> m_control;         //!< PFC frames to send (ahead of all)
        std::unique_ptr<PauseState> m_pause; //!< null until the first PFC frame sent or received

        FlaggedTracedCallback<Ptr<const Packet>, uint8_t> m_rxTrace;      //!< Rx (data frame)
        FlaggedTracedCallback<Ptr<const Packet>, uint8_t> m_dequeueTrace; //!< Dequeue (tx start)
        FlaggedTracedCallback<Ptr<const Packet>, uint8_t> m_enqueueTrace; //!< Enqueue
        TracedCallback<Ptr<const Packet>, uint8_t> m_dropTrace;           //!< Drop (no receiver)
        TracedCallback<uint8_t, uint16_t> m_pauseSentTrace;               //!< PauseSent
        TracedCallback<uint8_t, uint16_t> m_pauseRecvTrace;               //!< PauseReceived
        TracedCallback<uint8_t, Time> m_resumeTrace;                      //!< Resume
    };
    /// \brief An accessor of a trace in the cold state, for the TypeId (ns-3's
    /// MakeTraceSourceAccessor reaches members of the object only).
    template<class Source>
    static Ptr<const TraceSourceAccessor> ColdTraceAccessor(Source ColdState::*trace);
    std::unique_ptr<ColdState> m_cold; //!< never null
};

} // namespace ns3

#endif // PARAMSYNC_PFC_NET_DEVICE_H
