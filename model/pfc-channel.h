/*
 * Full-duplex point-to-point channel between two PfcNetDevices.
 */
#ifndef PARAMSYNC_PFC_CHANNEL_H
#define PARAMSYNC_PFC_CHANNEL_H

#include "frame-ref.h"
#include "pfc-channel-crossing.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class PfcNetDevice;
struct RoceFrameInfo;

/**
 * \brief Full-duplex link: each direction delivers a frame to the peer at the end of its
 * serialization plus the propagation Delay (attribute).
 */
class PfcChannel : public Channel
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    PfcChannel();

    /// \brief Attach a device (at most two).
    void Attach(Ptr<PfcNetDevice> device);
    /**
     * \brief Start sending a frame (bytes: its size) from src; the peer receives it after
     * txTime + Delay, with its header when info is given (PfcNetDevice::ReceiveFrame). The
     * reference moves into the arrival event without touching the Packet.
     * \return false if the channel has no peer for src.
     */
    bool TransmitFrame(FrameRef frame,
                       uint32_t bytes,
                       const PfcNetDevice* src,
                       Time txTime,
                       const RoceFrameInfo* info);

    /// What a device needs to hand a frame with its header to its peer without reading the
    /// channel (PfcNetDevice keeps it in a line it reads per frame anyway).
    struct DirectPath
    {
        PfcNetDevice* peer{nullptr}; //!< the receiving device (null: use TransmitFrame)
        Time delay;                  //!< propagation delay
        uint32_t context{0};         //!< the receiver's node id (the event context)
    };
    /**
     * \brief The direct path from src to its peer: set while the link is up, both ends are in
     * this process and the peer has a node; else peer is null. The channel tells both ends
     * to ask again (PfcNetDevice::ForgetDirectPath) when any of that or the delay changes.
     */
    DirectPath GetDirectPath(const PfcNetDevice* src) const;
    /**
     * \brief The arrival of a frame with its header at dst (node id context) after `after`:
     * what TransmitFrame schedules on an up, local link.
     */
    static void ScheduleArrival(
        PfcNetDevice* dst, uint32_t context, Time after, FrameRef frame, const RoceFrameInfo& info);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    /// \brief The device at end i (0 or 1).
    Ptr<PfcNetDevice> GetPfcDevice(std::size_t i) const;
    /// \brief Propagation delay of each direction.
    Time GetDelay() const;
    /// \brief Set the propagation delay (attribute Delay).
    void SetDelay(Time delay);
    /**
     * \brief Link failure (false) and repair (true). While down, every frame sent on
     * either direction is lost (LinkDrop trace); frames already propagating arrive.
     */
    void SetUp(bool up);
    /// \brief Whether the link is up.
    bool
    IsUp() const
    {
        return m_up;
    }
    /**
     * \brief The end (0 or 1) lives in another process: frames towards it go through
     * crossing (model/pfc-mpi-crossing.h) instead of this process's event queue. Null
     * crossing: both ends local (the default).
     */
    void SetCrossing(Ptr<PfcChannelCrossing> crossing, std::size_t remoteEnd);
    /// \brief Frames lost because the link was down.
    uint64_t
    GetLinkDrops() const
    {
        return m_linkDrops;
    }

  private:
    /// \brief The ends' direct paths changed: they ask again before their next frame.
    void ForgetDirectPaths();

    // What every frame reads, in one cache line (a cold line per hop otherwise).
    alignas(64) Ptr<PfcNetDevice> m_ends[2];           //!< the two devices
    Time m_delay;                                      //!< propagation delay
    uint32_t m_context[2]{kNoContext, kNoContext};     //!< node id of each end, once known
    std::size_t m_nDevices{0};                         //!< attached devices
    std::size_t m_remoteEnd{2};                        //!< the end in another process (2: none)
    Ptr<PfcChannelCrossing> m_crossing;                //!< set when one end is remote
    bool m_up{true};                                   //!< link state (SetUp)
    uint64_t m_linkDrops{0};                           //!< frames lost while down
    TracedCallback<Ptr<const Packet>> m_linkDropTrace; //!< LinkDrop
    /// \brief Context not looked up yet.
    static constexpr uint32_t kNoContext = 0xffffffff;
};

} // namespace ns3

#endif // PARAMSYNC_PFC_CHANNEL_H
