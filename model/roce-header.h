/*
 * ns-3 Header classes for the exact bytes of a RoCEv2 frame (ARCHITECTURE.md, Network model).
 * Debian's ns-3.37 has an EthernetHeader without 802.1Q and an Ipv4Header in the internet module,
 * which the model does not link; these classes write the wire layout themselves.
 *
 * RoceFrameHeader writes all of them in one AddHeader (one Buffer growth per frame).
 */
#ifndef PARAMSYNC_ROCE_HEADER_H
#define PARAMSYNC_ROCE_HEADER_H

#include "ns3/header.h"
#include "ns3/trailer.h"

#include <array>
#include <cstdint>

namespace ns3
{

/// \brief Ethernet II header with an optional 802.1Q tag (14 or 18 B).
class RoceEthernetHeader : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    std::array<uint8_t, 6> dst{}; //!< destination MAC
    std::array<uint8_t, 6> src{}; //!< source MAC
    bool vlan{false};             //!< 802.1Q tag present
    uint8_t pcp{0};               //!< 802.1Q priority code point (3 bit)
    uint16_t vid{0};              //!< 802.1Q VLAN id (12 bit)
    uint16_t etherType{0x0800};   //!< EtherType after the tag
};

/// \brief IPv4 header without options (20 B), checksum computed on Serialize.
class RoceIpv4Header : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t dscp{0};            //!< DiffServ code point (6 bit)
    uint8_t ecn{0};             //!< ECN (2 bit): 0 not-ECT, 2 ECT(0), 1 ECT(1), 3 CE
    uint16_t totalLength{0};    //!< IP header + payload bytes
    uint16_t identification{0}; //!< identification
    uint8_t ttl{64};            //!< time to live
    uint8_t protocol{17};       //!< UDP
    uint32_t src{0};            //!< source address (host order)
    uint32_t dst{0};            //!< destination address (host order)
    bool checksumOk{true};      //!< after Deserialize: the header checksum verified

    /// \brief Internet checksum of a 20 B header whose checksum field is zero or filled.
    static uint16_t Checksum(const uint8_t* header20);
};

/// \brief UDP header (8 B); checksum 0 (allowed for IPv4, RoCEv2 relies on the ICRC).
class RoceUdpHeader : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint16_t srcPort{0};    //!< source port (per-QP entropy)
    uint16_t dstPort{4791}; //!< destination port
    uint16_t length{8};     //!< UDP header + payload bytes
};

/// \brief InfiniBand Base Transport Header (12 B).
class RoceBthHeader : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t opcode{0};          //!< opcode
    bool solicitedEvent{false}; //!< SE bit
    bool migReq{true};          //!< M bit
    uint8_t padCount{0};        //!< pad count (2 bit)
    uint8_t tver{0};            //!< transport version (4 bit)
    uint16_t pkey{0xffff};      //!< partition key
    uint32_t destQp{0};         //!< destination QP (24 bit)
    bool ackRequest{false};     //!< A bit
    uint32_t psn{0};            //!< packet sequence number (24 bit)
};

/// \brief ACK Extended Transport Header (4 B).
class RoceAethHeader : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t syndrome{0}; //!< syndrome (ACK 0x00.., NAK 0x60..)
    uint32_t msn{0};     //!< message sequence number (24 bit)
};

/// \brief ICRC (4 B) + Ethernet FCS (4 B) at the end of a RoCEv2 frame.
class RoceTrailer : public Trailer
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

    uint32_t icrc{0}; //!< invariant CRC value (the class only carries it; BuildRoceFrame computes)
    uint32_t fcs{0};  //!< frame check sequence value (as above)
};

/// \brief All headers of one RoCEv2 frame written in a single AddHeader.
class RoceFrameHeader : public Header
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    RoceEthernetHeader eth; //!< Ethernet (+802.1Q)
    RoceIpv4Header ip;      //!< IPv4
    RoceUdpHeader udp;      //!< UDP
    RoceBthHeader bth;      //!< BTH
    bool hasAeth{false};    //!< AETH present (ACK/NACK)
    RoceAethHeader aeth;    //!< AETH
};

} // namespace ns3

#endif // PARAMSYNC_ROCE_HEADER_H
