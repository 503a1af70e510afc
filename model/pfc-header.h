/*
 * 802.1Qbb Priority Flow Control frame: MAC control (EtherType 0x8808), opcode 0x0101,
 * class-enable vector, 8 quanta (one per priority, in units of 512 bit times), padded to
 * the 64 B minimum frame (incl. the 4 B FCS, computed as 802.3 does).
 */
#ifndef PARAMSYNC_PFC_HEADER_H
#define PARAMSYNC_PFC_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \brief The whole PFC frame (64 B): Ethernet header to FCS.
 *
 * Bytes: dst 01:80:C2:00:00:01 (6), src (6), 0x8808 (2), opcode 0x0101 (2), class-enable
 * vector (2), 8 x quanta (16), 26 B padding, FCS (4) = 64.
 */
class PfcHeader : public Header
{
  public:
    /// \brief PFC frame size incl. padding and FCS.
    static constexpr uint32_t kFrameBytes = 64;
    /// \brief MAC control EtherType.
    static constexpr uint16_t kEtherType = 0x8808;
    /// \brief PFC opcode.
    static constexpr uint16_t kOpcode = 0x0101;

    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \brief Enable priority p with the given quanta (0 = resume).
    void SetQuanta(uint8_t priority, uint16_t quanta);
    /// \brief Whether priority p is in the class-enable vector.
    bool
    IsEnabled(uint8_t priority) const
    {
        return (classEnable >> priority) & 1;
    }

    std::array<uint8_t, 6> src{};     //!< source MAC of the sending port
    uint16_t opcode{kOpcode};         //!< MAC control opcode (0x0101 after Deserialize if PFC)
    uint16_t classEnable{0};          //!< bit p set: quanta[p] applies
    std::array<uint16_t, 8> quanta{}; //!< pause time per priority in 512 bit times
};

/// \brief A PFC frame packet pausing (quanta > 0) or resuming (0) one priority.
Ptr<Packet> BuildPfcFrame(uint8_t priority, uint16_t quanta, const std::array<uint8_t, 6>& src);

/// \brief True when the frame's EtherType (offset 12) is MAC control 0x8808.
bool IsPfcFrame(Ptr<const Packet> frame);

} // namespace ns3

#endif // PARAMSYNC_PFC_HEADER_H
