/*
 * RoceNic: the RoCEv2 NIC of a host (ARCHITECTURE.md, Network model), aggregated to the host's
 * Node. It owns the host's queue pairs (requester side), answers as responder for the peers' queue
 * pairs, and feeds its PfcNetDevice ports on demand.
 *
 * Sender. PostSend(qp, bytes, cb) only appends {bytes, PSN range} to the QP: packets are
 * made one by one when a port's transmitter asks (PfcFrameSource), so memory grows with
 * packets in flight, never with message size. A packet is its header (header-only FrameRef:
 * its bytes are built only where something reads them) unless BuildFrameBytes. Per port, the QPs
 * with something to send form a round-robin list; a QP is eligible when its pacing time (one data
 * frame's wire bytes at its CongestionControl rate after the previous one) has come. When nothing
 * is eligible now, the port gets ONE Wake() event at the earliest eligible time. Go-back-N: a
 * NACK(psn) resends from psn; a retransmission timeout resends from the oldest unacknowledged
 * packet.
 *
 * Responder. Per (source host, QP number): the expected PSN (a hash-map entry made at the
 * QP's first packet; consecutive packets of one QP skip the lookup). An in-order packet
 * advances it; the last packet of a message fires the MessageReceived callback and is ACKed at
 * once; otherwise an ACK goes every AckInterval in-order packets. A packet beyond the
 * expected PSN is dropped and answered by ONE NACK(expected) per gap (the next NACK only
 * after the gap closed). A duplicate (below the expected PSN) is dropped and answered by
 * one ACK until the expected PSN advances again (the sender may have lost our ACK). A
 * CE-marked data packet triggers a CNP to its QP, at most one per CnpInterval per QP
 * (DCQCN's notification point, Zhu et al. SIGCOMM'15 §3.2: 50 us), unless CnpEnabled is off.
 *
 * Assumptions where the RoCEv2 annex leaves a choice:
 *  - Opcodes: a one-packet message is SEND Only; longer ones First, Middle..., Last. The
 *    BTH A bit is set on the last packet of a message. A zero-byte message is one SEND Only
 *    packet with no payload.
 *  - ACK and NACK share opcode Acknowledge with an AETH: syndrome 0x00 = ACK (PSN = last
 *    PSN received in order, cumulative), 0x60 = NAK "PSN sequence error" (PSN = the
 *    expected one), as IBA Vol. 1 §9.7.5.1. AETH MSN = messages completed on the QP.
 *  - The destination QP of every frame of a connection is the requester's QP number.
 *  - ACK/NACK/CNP frames leave by the port and lane-0 route the ForwardingTable gives for
 *    the peer (hashed with the data's UDP source port) on that port's control class
 *    (PfcNetDevice ControlPriority, default 7; AckPriority reads it). The device serves that
 *    class before every data priority and never pauses it.
 *  - No window: a QP sends as fast as its rate and PFC allow (as DCQCN NICs do).
 */
#ifndef PARAMSYNC_ROCE_NIC_H
#define PARAMSYNC_ROCE_NIC_H

#include "network-arena.h"
#include "queue-pair.h"

#include "ns3/attribute.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/pfc-net-device.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class ForwardingTable;
struct ForwardingRoute;
struct RoceFrameInfo;

/**
 * \brief A RoCEv2 NIC with reliable-connection queue pairs over one or more PFC ports.
 */
class RoceNic : public Object,
                public PfcFrameSource,
                public PfcFrameSink,
                public NetworkArenaAllocated
{
  public:
    /// \brief Receiver side: a message's last byte arrived in order.
    typedef std::function<void(uint32_t srcHost, uint32_t qpNumber, uint64_t bytes)>
        MessageReceivedCallback;

    /// \brief Trace: a message was fully acknowledged (qp, bytes, time it was posted).
    typedef void (*MessageCompleteTracedCallback)(Ptr<const QueuePair> qp,
                                                  uint64_t bytes,
                                                  Time postedAt);
    /// \brief Trace: a message arrived at this receiver (source host, QP number, bytes).
    typedef void (*MessageReceivedTracedCallback)(uint32_t srcHost,
                                                  uint32_t qpNumber,
                                                  uint64_t bytes);
    /// \brief Trace: a data packet was sent again (qp, its 64-bit PSN).
    typedef void (*RetransmitTracedCallback)(Ptr<const QueuePair> qp, uint64_t psn);
    /// \brief Trace: a QP event (CNP received, timeout).
    typedef void (*QpTracedCallback)(Ptr<const QueuePair> qp);
    /// \brief Trace: a CNP was sent to (source host, QP number).
    typedef void (*CnpSentTracedCallback)(uint32_t srcHost, uint32_t qpNumber);

    /// \brief Register the type.
    static TypeId GetTypeId();
    RoceNic();
    ~RoceNic() override;

    /// \brief Add a port (index = order of AddPort); becomes the device's frame source.
    void AddPort(Ptr<PfcNetDevice> dev);
    /// \brief Number of ports.
    uint32_t GetNPorts() const;
    /**
     * \brief The priority of our ACK, NAK and CNP frames (attribute AckPriority, read-only):
     * the first port's PfcNetDevice::ControlFramePriority(), kDefaultControlPriority before
     * any port. Each control frame goes on the priority of the port it leaves by.
     */
    uint8_t GetAckPriority() const;
    /**
     * \brief The forwarding table used to pick a QP's port and lane; by default the
     * ForwardingTable aggregated to the node (NetworkBuilder does that).
     */
    void SetForwardingTable(Ptr<ForwardingTable> table);

    /// \brief A frame for this host (the FrameReceiveCallback of PfcNetwork::SetHostReceive).
    void Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t priority);
    /// \brief A frame for this host, as a direct sink (PfcNetwork::SetHostSink).
    void SinkReceive(PfcNetDevice& dev,
                     FrameRef frame,
                     uint8_t priority,
                     const RoceFrameInfo* info) override;
    void WarmSinkReceive(int stage, const RoceFrameInfo& info) const override;
    FrameReceiveWarmer GetReceiveWarmer() const override;

    /**
     * \brief A new RC queue pair to dstHost: next QP number (kFirstQpNumber, +1, ...), for
     * the k-th QP (k = 1, 2, ...) UDP source port 49152 + (k mod 16384), port and lane from
     * ForwardingTable::Lookup(dst, 0, self, udpSrcPort). A destination that link failures cut
     * off (no route now) gets a QP parked on port 0 until Reroute() finds it a route. Throws
     * std::invalid_argument for an unknown CongestionControl or a data priority above 7.
     */
    Ptr<QueuePair> CreateQueuePair(uint32_t dstHost);
    /**
     * \brief As CreateQueuePair(dstHost), but the QP leaves by the `routeIndex`-th of the
     * equal-cost first hops ForwardingTable::Routes(dstHost) lists rather than the hashed
     * one, so that a sender can stripe a message over all its equal-cost paths (a BCube
     * server's correction orders start on different ports). Throws std::invalid_argument
     * when there is no such route; with no route at all (a partition) the QP is parked as
     * above and keeps routeIndex for when routes return.
     */
    Ptr<QueuePair> CreateQueuePair(uint32_t dstHost, uint32_t routeIndex);
    /**
     * \brief After the ForwardingTable changed (a link failed or came back): every QP whose
     * route left its port or lane moves to its new route (a pinned QP keeps its route
     * index modulo the new number of routes) and resends from its oldest unacknowledged
     * packet, since what it sent on the old path may be lost.
     */
    void Reroute();
    /// \brief Number of equal-cost first hops towards dstHost (0: no route).
    uint32_t GetRouteCount(uint32_t dstHost);
    /// \brief QP number of a NIC's first QP. IBA reserves QP0 (SMI) and QP1 (GSI), so QP1
    /// would decode as management datagrams; 0x100 as the first number keeps clear of them.
    static constexpr uint32_t kFirstQpNumber = 0x100;
    /// \brief Mask of a BTH PSN (24 bits): the wire carries the low 24 bits of the QP's
    /// 64-bit PSN counters.
    static constexpr uint32_t kPsnMask = 0xFFFFFF;
    /// \brief The QP with a number (nullptr if none).
    Ptr<QueuePair> GetQueuePair(uint32_t number) const;

    /**
     * \brief Post a message of `bytes` on a QP (after the ones already posted on it);
     * onComplete (may be empty) fires here when the whole message is acknowledged.
     */
    void PostSend(Ptr<QueuePair> qp, uint64_t bytes, std::function<void()> onComplete);

    /**
     * \brief Set an attribute of the CongestionControl every later QP gets (e.g. "RpTimer");
     * the CongestionControl attribute chooses its type. Throws std::invalid_argument when the
     * current type has no such attribute or the value does not fit it.
     */
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief The same, keeping \p value itself when it already fits: NICs handed one parsed
     * value (CongestionControlPreset::ApplyTo) share it, and so share one configured
     * CongestionControl that their QPs' are copied from.
     */
    void SetCongestionControlAttribute(const std::string& name, Ptr<const AttributeValue> value);

    /// \brief Receiver side notification of every arrived message (replaces the previous).
    void SetMessageReceivedCallback(MessageReceivedCallback cb);

    /// \brief Data packets sent again, over all QPs.
    uint64_t GetRetransmittedPackets() const;
    /// \brief Data packets sent (retransmissions included).
    uint64_t GetDataPacketsSent() const;
    /// \brief Data packets received in order.
    uint64_t GetDataPacketsReceived() const;
    /// \brief Data packets dropped by the responder (out of order or duplicate).
    uint64_t GetDataPacketsDiscarded() const;
    /// \brief ACKs sent (NACKs excluded).
    uint64_t GetAcksSent() const;
    /// \brief NACKs sent.
    uint64_t GetNacksSent() const;
    /// \brief CNPs sent.
    uint64_t GetCnpsSent() const;
    /// \brief CNPs received.
    uint64_t GetCnpsReceived() const;
    /// \brief Retransmission timeouts.
    uint64_t GetTimeouts() const;
    /// \brief Messages fully acknowledged (sender side).
    uint64_t GetMessagesCompleted() const;
    /// \brief Messages received (receiver side).
    uint64_t GetMessagesReceived() const;
    /// \brief Payload bytes received in order (receiver side goodput).
    uint64_t GetBytesReceived() const;

  protected:
    void DoDispose() override;

  private:
    /// Responder state of one peer QP.
    struct RxState
    {
        uint32_t qp{0};          //!< peer's QP number
        uint16_t udpSrcPort{0};  //!< for the route of our ACKs
        uint64_t expected{0};    //!< next PSN in order
        uint64_t msgBytes{0};    //!< bytes of the current message so far
        uint32_t sinceAck{0};    //!< in-order packets since the last ACK
        uint32_t msn{0};         //!< messages completed
        bool nackSent{false};    //!< a NACK for the current gap went out
        bool dupAcked{false};    //!< a duplicate was answered since the last advance
        bool cnpSent{false};     //!< a CNP was ever sent
        bool becnPending{false}; //!< the next ACK carries BECN (CnpInAck)
        Time lastCnp;            //!< when
    };
    /// A QP of a port's round robin with its congestion control, whose first line (the
    /// vptr and the rates: GetRateBps, OnBytesSent) every data packet reads. Kept beside the
    /// QP so that warming asks for it in the stage that asks for the QP (WarmSourcePull):
    /// read from the QP's own line, it would need a stage after the last one.
    struct ActiveQp
    {
        QueuePair* qp;               //!< the QP
        const CongestionControl* cc; //!< its congestion control (read by warming only)
    };
    /// Per-port state. Aligned to a cache line so that what SourcePull reads per packet (the
    /// active list, its round-robin index, the data mask: the first 41 bytes) is one line;
    /// unaligned, half of the ports' records had it straddle two.
    struct alignas(64) Port
    {
        Ptr<PfcNetDevice> dev;                              //!< the device
        std::vector<ActiveQp> active;                       //!< QPs with data to send (round robin)
        std::size_t rr{0};                                  //!< next index to look at
        uint8_t dataMask{0};                                //!< priorities of its QPs' data
        std::array<uint32_t, kPfcPriorities> activeCount{}; //!< active QPs per priority
        EventId wake;                                       //!< pending pacing wake-up
    };

    /// \brief The device of port index `port` asks for a frame of priority p (PfcFrameSource).
    FrameRef SourcePull(uint32_t port, uint8_t p, RoceFrameInfo& info, uint32_t& bytes) override;
    void WarmSourcePull(int stage, uint32_t port, const void* hint) const override;
    /// The port's record (its address moves while ports are added: AddPort gives the
    /// devices theirs again).
    const void* PullWarmHint(uint32_t port) const override;
    /// \brief Prefetch a QP's per-packet lines (its two aligned lines, queue-pair.h).
    static void WarmQp(const QueuePair* qp);
    /// \brief Prefetch an active QP's per-packet lines and its congestion control's first.
    static void WarmActiveQp(const ActiveQp& active);
    /// \brief The data frame of the QP's next PSN (info: its header, as parsed; bytes: its
    /// size), header-only unless BuildFrameBytes; advances the send state.
    FrameRef MakeDataFrame(QueuePair* qp, RoceFrameInfo& info, uint32_t& bytes);
    /// \brief Put a QP in its port's round-robin list (if it has data) and wake the port.
    void Activate(QueuePair* qp);
    /// \brief Wake a port at time t (keeps an earlier pending wake-up).
    void ScheduleWake(Port& port, Time t);
    /// \brief Re-derive the QP's message cursor for m_nextPsn.
    void SeekCursor(QueuePair* qp);
    /// \brief Copy the range and size of the QP's message m_txMsg into its send line.
    static void LoadTxMessage(QueuePair* qp);
    /// \brief Sender: an ACK or NACK arrived.
    void ReceiveAck(const RoceFrameInfo& info);
    /// \brief A frame for this host with its header: to the ACK, CNP or data path.
    void Dispatch(const RoceFrameInfo& info);
    /// \brief Sender: a CNP arrived.
    void ReceiveCnp(const RoceFrameInfo& info);
    /// \brief Receiver: a data packet arrived.
    void ReceiveData(const RoceFrameInfo& info);
    /// \brief Responder state for (srcHost, qp), created on first use.
    RxState& Rx(uint32_t srcHost, uint32_t qp, uint16_t udpSrcPort);
    /// \brief Send ACK (syndrome 0) / NACK (0x60) / CNP to a peer QP.
    void SendControl(uint32_t peer, RxState& rx, uint8_t opcode, uint8_t syndrome, uint64_t psn);
    /// \brief Retransmission timer of a QP fired.
    void RtoExpired(QueuePair* qp);
    /// \brief Start the timer of a QP if packets are outstanding and none is running.
    void ArmRto(QueuePair* qp);
    /// \brief The QP with a number, nullptr if none (no reference counting).
    QueuePair* FindQp(uint32_t number) const;
    /// \brief The forwarding table (attribute-set or aggregated).
    Ptr<ForwardingTable> Table();
    /// \brief Checks a new QP to dstHost may be made; returns the CC type. \throws invalid_argument
    TypeId CheckQueuePairRequest(uint32_t dstHost) const;
    /// \brief UDP source port (ECMP entropy) of the next QP.
    uint16_t NextUdpSrcPort() const;
    /// \brief Where a QP to a host with no route now starts (port 0, lane 0).
    ForwardingRoute ParkedRoute() const;
    /// \brief Makes and registers a QP leaving by `route`.
    Ptr<QueuePair> MakeQueuePair(uint32_t dstHost,
                                 TypeId ccTid,
                                 uint16_t udpSrcPort,
                                 const ForwardingRoute& route);
    /// \brief A new, unstarted congestion control of type `ccTid` with m_ccAttributes.
    Ptr<CongestionControl> NewCongestionControl(TypeId ccTid);

    struct CcPrototype;
    /// \brief Checker of attribute `name` of the current CongestionControl type. \throws
    /// invalid_argument
    Ptr<const AttributeChecker> CcAttributeChecker(const std::string& name) const;

    /// \brief A congestion-control attribute set for new QPs, with the checker it passed.
    struct CcAttribute
    {
        std::string name;                    //!< attribute name
        Ptr<const AttributeValue> value;     //!< checked value
        Ptr<const AttributeChecker> checker; //!< its checker (serializes the value)
        bool shared;                         //!< value handed in by Ptr, kept as is
    };

    // What every packet reads and writes, in two lines (the object is 64-byte aligned):
    // sending reads the first, receiving (data, then its ACK) both. Spread among the
    // attributes and counters they were five or six lines per packet, each a cache miss in
    // a large network (bench/README.md, Scaling).
    alignas(64) ArenaVector<Port> m_ports; //!< ports, by AddPort order
    uint32_t m_hostRank;                   //!< our rank
    uint32_t m_mtu;                        //!< payload bytes per packet
    uint32_t m_ackInterval;                //!< packets per ACK
    bool m_vlan;                           //!< 802.1Q tag on our frames
    bool m_buildFrameBytes;                //!< BuildFrameBytes: a Packet per frame sent
    bool m_cnpEnabled;                     //!< notification point: CE-marked data triggers CNPs
    bool m_cnpInAck;         //!< notify by the BECN bit of the next ACK, not a CNP frame
    uint64_t m_dataSent{0};  //!< counter
    uint64_t m_dataRecv{0};  //!< counter
    uint64_t m_bytesRecv{0}; //!< counter
    alignas(64) uint64_t m_rxLastKey{~0ULL}; //!< key of the last looked-up responder state
    RxState* m_rxLast{nullptr};              //!< its state (node-based map: stable)
    std::vector<Ptr<QueuePair>> m_qps;       //!< by QP number - kFirstQpNumber
    uint64_t m_acksSent{0};                  //!< counter
    uint64_t m_received{0};                  //!< counter
    Time m_cnpInterval;                      //!< minimum time between CNPs per QP

    std::unordered_map<uint64_t, RxState> m_rx; //!< responder state by (srcHost, QP number)
    Ptr<ForwardingTable> m_table;               //!< routes
    MessageReceivedCallback m_onMessage;        //!< receiver notification

    // Attributes (the per-packet ones above)
    std::string m_ccName;                    //!< CongestionControl TypeId name
    uint8_t m_priority;                      //!< data priority of lane 0 (8 = table's BasePriority)
    Time m_rto;                              //!< retransmission timeout
    std::vector<CcAttribute> m_ccAttributes; //!< for new QPs
    CcPrototype* m_ccPrototype{nullptr};     //!< shared one for m_ccAttributes (null: look up)
    TypeId m_ccPrototypeTid;                 //!< the CC type m_ccPrototype is for

    uint64_t m_retransmits{0}; //!< counter
    uint64_t m_discarded{0};   //!< counter
    uint64_t m_nacksSent{0};   //!< counter
    uint64_t m_cnpsSent{0};    //!< counter
    uint64_t m_cnpsRecv{0};    //!< counter
    uint64_t m_timeouts{0};    //!< counter
    uint64_t m_completed{0};   //!< counter

    TracedCallback<Ptr<const QueuePair>, uint64_t, Time> m_messageCompleteTrace; //!< trace
    TracedCallback<uint32_t, uint32_t, uint64_t> m_messageReceivedTrace;         //!< trace
    TracedCallback<Ptr<const QueuePair>, uint64_t> m_retransmitTrace;            //!< trace
    TracedCallback<Ptr<const QueuePair>> m_timeoutTrace;                         //!< trace
    TracedCallback<uint32_t, uint32_t> m_cnpSentTrace;                           //!< trace
    TracedCallback<Ptr<const QueuePair>> m_cnpReceivedTrace;                     //!< trace
};

} // namespace ns3

#endif // PARAMSYNC_ROCE_NIC_H
