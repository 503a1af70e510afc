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

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    /// \brief The device at end i (0 or 1).
    Ptr<PfcNetDevice> GetPfcDevice(std::size_t i) const;
    /// \brief Propagation delay of each direction.
    Time GetDelay() const;
    /**
     * \brief Link failure (false) and repair (true). While down, every frame sent on
     * either direction is lost (LinkDrop trace); frames already propagating arrive.
     */
    void
    SetUp(bool up)
    {
        m_up = up;
    }
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
