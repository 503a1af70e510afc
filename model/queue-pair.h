/*
 * QueuePair: the requester side of one RoCEv2 reliable connection (RC) of a RoceNic
 * (ARCHITECTURE.md, Network model). It holds the messages posted on it (in order), the go-back-N
 * send state and its congestion control; RoceNic drives it. The responder side lives in the peer's
 * RoceNic, keyed by (source host, QP number): the two ends of a connection share the
 * number (an assumption of paramsync; real RC QPs exchange their numbers at connection
 * set-up, which is not modelled).
 *
 * Sequence numbers: internally 64-bit packet counters that never wrap; the BTH carries the
 * low 24 bits, and the receiver of an ACK/NACK reconstructs the 64-bit value relative to
 * the oldest unacknowledged packet.
 */
#ifndef PARAMSYNC_QUEUE_PAIR_H
#define PARAMSYNC_QUEUE_PAIR_H

#include "network-arena.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>

namespace ns3
{

class CongestionControl;
class RoceNic;

/**
 * \brief PFC priority index 0..7. A distinct type from QpNumber: mixing the two up is a known
 * crash in other simulators, so the compiler refuses it here.
 */
struct PfcPriority
{
    uint8_t value{0}; //!< 0..7
};

/// \brief A queue-pair number (24 bit in the BTH), distinct from PfcPriority.
struct QpNumber
{
    uint32_t value{0}; //!< 1..2^24-1 (0 is not used)
};

/**
 * \brief One reliable-connection queue pair (requester side).
 */
class QueuePair : public Object, public NetworkArenaAllocated
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    QueuePair();
    ~QueuePair() override;

    /// \brief The QP number (also the destination QP in the BTH of its packets).
    uint32_t GetNumber() const;
    /// \brief The same as a typed value.
    QpNumber GetQpNumber() const;
    /// \brief Rank of the sending host (this NIC).
    uint32_t GetSrcHost() const;
    /// \brief Rank of the destination host.
    uint32_t GetDstHost() const;
    /// \brief UDP source port of its packets (ECMP entropy).
    uint16_t GetUdpSrcPort() const;
    /// \brief NIC port its data leaves by (fixed for the QP).
    uint32_t GetPort() const;
    /// \brief PFC priority of its data packets (NIC Priority + route lane).
    PfcPriority GetPriority() const;
    /// \brief An owner's value (e.g. the sync transport's QP index); ~0 until set.
    void SetTag(uint32_t tag);
    /// \brief The owner's value.
    uint32_t GetTag() const;
    /// \brief Its congestion control.
    Ptr<CongestionControl> GetCongestionControl() const;

    /// \brief Data packets sent, retransmissions included.
    uint64_t GetPacketsSent() const;
    /// \brief Data packets sent again (go-back-N after a NACK or a timeout).
    uint64_t GetRetransmittedPackets() const;
    /// \brief Payload bytes acknowledged.
    uint64_t GetBytesAcked() const;
    /// \brief Messages fully acknowledged.
    uint64_t GetMessagesCompleted() const;
    /// \brief Messages posted and not yet fully acknowledged.
    uint64_t GetMessagesPending() const;
    /// \brief Retransmission timeouts that fired with packets outstanding.
    uint64_t GetTimeouts() const;
    /// \brief NACKs received.
    uint64_t GetNacksReceived() const;
    /// \brief CNPs received.
    uint64_t GetCnpsReceived() const;

  protected:
    void DoDispose() override;

  private:
    friend class RoceNic;

    /// A posted message: packets [firstPsn, endPsn).
    struct Message
    {
        uint64_t bytes;                   //!< payload bytes
        uint64_t firstPsn;                //!< PSN of its first packet
        uint64_t endPsn;                  //!< one past the PSN of its last packet
        Time postedAt;                    //!< when PostSend was called
        std::function<void()> onComplete; //!< fired when fully acknowledged
    };

    /// \brief Whether a packet is waiting to be sent (new or go-back-N).
    bool
    HasDataToSend() const
    {
        return m_nextPsn < m_postedEndPsn;
    }

    // A data packet reads and writes two lines of its QP (the object is 64-byte aligned):
    // pacing and sequence numbers in the first, identity and the message being sent in the
    // second. The message's range and size are copied from m_messages (RoceNic::
    // LoadTxMessage) whenever m_txMsg changes, so that a packet does not walk the deque's
    // map to its element (three more lines), and the retransmission timer's state is a flag
    // instead of asking the timer's event (one more line, per packet). Spread over the
    // object they were seven or eight lines, a cache miss each in a large network.

    // Line 1: sequence numbers, pacing, congestion control, the message of m_nextPsn.
    alignas(64) uint64_t m_nextPsn{0}; //!< next PSN to put on the wire
    uint64_t m_postedEndPsn{0};        //!< one past the last PSN of all posted messages
    uint64_t m_maxSentPsn{0};          //!< one past the highest PSN ever sent
    Time m_nextSendTime;               //!< pacing: earliest time of the next data packet
    uint64_t m_paceCarry{0};           //!< pacing: sub-nanosecond remainder (bit*1e9 mod rate)
    Ptr<CongestionControl> m_cc;       //!< per-QP rate
    uint64_t m_txFirstPsn{0};          //!< m_messages[m_txMsg].firstPsn
    uint64_t m_txEndPsn{0};            //!< m_messages[m_txMsg].endPsn
    // Line 2: identity, the message cursor, the timer and the send counter.
    alignas(64) uint64_t m_txBytes{0}; //!< m_messages[m_txMsg].bytes
    std::size_t m_txMsg{0};            //!< index in m_messages of the message of m_nextPsn
    uint32_t m_number{0};              //!< QP number
    uint32_t m_dstHost{0};             //!< peer rank
    uint16_t m_udpSrcPort{0};          //!< ECMP entropy
    uint8_t m_priority{0};             //!< data priority
    bool m_active{false};              //!< in its port's round-robin list
    bool m_rtoArmed{false};            //!< m_rtoEvent is pending
    uint32_t m_port{0};                //!< NIC port index
    uint64_t m_packetsSent{0};         //!< counter
    Time m_lastProgress;               //!< last ACK progress (or first send after idle)
    uint64_t m_unackedPsn{0};          //!< oldest PSN not acknowledged

    // Per message, per ACK or rarer.
    std::deque<Message> m_messages; //!< unacknowledged messages, oldest first
    EventId m_rtoEvent;             //!< retransmission timer (lazy, one per RTO period)
    uint32_t m_srcHost{0};          //!< our rank
    int32_t m_routeIndex{-1};       //!< pinned equal-cost route (-1: hashed)
    uint32_t m_tag{~0u};            //!< owner's value
    uint64_t m_retransmits{0};      //!< counter
    uint64_t m_bytesAcked{0};       //!< counter
    uint64_t m_completed{0};        //!< counter
    uint64_t m_timeouts{0};         //!< counter
    uint64_t m_nacksRecv{0};        //!< counter
    uint64_t m_cnpsRecv{0};         //!< counter
};

} // namespace ns3

#endif // PARAMSYNC_QUEUE_PAIR_H
