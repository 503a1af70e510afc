/*
 * PfcFrameInfoTag: the parsed header (RoceFrameInfo) and wire size of a frame, as a packet
 * tag, so that a frame serialized to another process (model/pfc-mpi-crossing.h; ns-3's
 * Packet::Serialize carries packet tags) arrives with what PfcChannel's local path hands the
 * receiver beside the frame.
 */
#ifndef PARAMSYNC_PFC_FRAME_INFO_TAG_H
#define PARAMSYNC_PFC_FRAME_INFO_TAG_H

#include "roce-frame.h"

#include "ns3/tag.h"

namespace ns3
{

/**
 * \brief A frame's RoceFrameInfo and size (bytes) while it crosses to another process.
 */
class PfcFrameInfoTag : public Tag
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buf) const override;
    void Deserialize(TagBuffer buf) override;
    void Print(std::ostream& os) const override;

    RoceFrameInfo info; //!< the header the receiver is handed
    uint32_t bytes{0};  //!< the frame's size as PfcChannel::TransmitFrame was given it
};

} // namespace ns3

#endif // PARAMSYNC_PFC_FRAME_INFO_TAG_H
