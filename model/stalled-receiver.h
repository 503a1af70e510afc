/*
 * StalledReceiver: a receiver that stops draining (a stalled host, a NIC whose receive path
 * hangs) — the other usual origin of a PFC storm (Guo et al., "RDMA over Commodity Ethernet
 * at Scale", SIGCOMM'16, section 4.3: a NIC that cannot take frames pauses its switch
 * port for as long as it is stuck). From Start the host takes no frame off the wire; frames
 * wait in its receive buffer, and once more than XoffBytes wait it holds a pause on the
 * port and priority they came by, as any lossless receiver that cannot keep up. After
 * Duration (0: never) it processes every waiting frame in arrival order and releases its
 * pauses.
 *
 * It sits between a host's ports and its NIC: Wrap(nicReceive) returns the receive callback
 * to install on the host's ports instead of the NIC's.
 */
#ifndef PARAMSYNC_STALLED_RECEIVER_H
#define PARAMSYNC_STALLED_RECEIVER_H

#include "pfc-net-device.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

class PfcHeldPause;

/**
 * \brief A host receive path that stops draining for a while.
 */
class StalledReceiver : public Object
{
  public:
    /// \brief The TypeId, with attributes Start, Duration and XoffBytes.
    static TypeId GetTypeId();
    StalledReceiver();
    ~StalledReceiver() override;

    /// \brief The run is over once keepGoing() is false: held pauses stop refreshing
    /// (default: never, for tests that stop the simulator themselves).
    void SetKeepGoing(std::function<bool()> keepGoing);

    /**
     * \brief Schedules the stall (Start from now) and returns the callback that receives
     * the host's frames: it hands them to deliver while draining and holds them while stalled.
     * Call once.
     */
    PfcNetDevice::FrameReceiveCallback Wrap(PfcNetDevice::FrameReceiveCallback deliver);

    /// \brief Bytes of the frames waiting now.
    uint64_t
    HeldBytes() const
    {
        return m_bytes;
    }
    /// \brief Whether the receiver is stalled now.
    bool
    IsStalled() const
    {
        return m_stalled;
    }

  protected:
    void DoDispose() override;

  private:
    /// \brief One frame waiting in the receive buffer.
    struct Held
    {
        Ptr<PfcNetDevice> dev; //!< port it came by
        Ptr<Packet> frame;     //!< the frame
        uint8_t priority;      //!< its priority
    };

    void Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t priority);
    PfcHeldPause& PauseOf(const Ptr<PfcNetDevice>& dev, uint8_t priority);
    void Drain();

    Time m_start;                                        //!< Start attribute
    Time m_duration;                                     //!< Duration attribute (0: for good)
    uint64_t m_xoffBytes;                                //!< XoffBytes attribute
    PfcNetDevice::FrameReceiveCallback m_deliver;        //!< the NIC's receive
    std::function<bool()> m_keepGoing;                   //!< the run is not over
    bool m_stalled{false};                               //!< not draining
    std::deque<Held> m_held;                             //!< waiting frames
    uint64_t m_bytes{0};                                 //!< their bytes
    std::vector<std::unique_ptr<PfcHeldPause>> m_pauses; //!< upstream pauses held
    EventId m_begin;                                     //!< scheduled stall
    EventId m_drain;                                     //!< scheduled drain
};

} // namespace ns3

#endif // PARAMSYNC_STALLED_RECEIVER_H
