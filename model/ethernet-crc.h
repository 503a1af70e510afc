/**
 * \file
 * \brief CRC-32 as Ethernet computes its FCS (IEEE 802.3 §3.2.9: generator 0x04C11DB7,
 * register preset to all ones, bits taken least significant first, result complemented and
 * sent least significant byte first), with a fast step over a run of zero bytes.
 *
 * Pure functions. Frames here carry a payload of virtual zero bytes (ns-3's zero area), so
 * a CRC over "header, n zero bytes, trailer" must not cost n table steps per frame: over
 * zero bytes the register is only multiplied by x^(8n) modulo the generator, which
 * Crc32SkipZeros does with one multiplication by a compile-time table entry for runs up to
 * 9215 bytes (longer runs: square-and-multiply over a table of x^(2^k) mod P).
 */
#ifndef PARAMSYNC_ETHERNET_CRC_H
#define PARAMSYNC_ETHERNET_CRC_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/// \brief Register value before the first byte (all ones).
constexpr uint32_t kCrc32Preset = 0xFFFFFFFFu;

/**
 * \brief Feed n bytes into a CRC-32 register (reflected form; start from kCrc32Preset, or 0
 * for the CRC of a difference). \return the new register.
 */
uint32_t Crc32Update(uint32_t reg, const uint8_t* bytes, std::size_t n);

/// \brief Feed n zero bytes into a CRC-32 register: one multiplication (O(log n) beyond
/// 9215 bytes).
uint32_t Crc32SkipZeros(uint32_t reg, uint64_t n);

/// \brief The CRC-32 of n bytes (preset, complemented): the Ethernet FCS of those bytes.
uint32_t Crc32(const uint8_t* bytes, std::size_t n);

/// \brief Write a CRC value as Ethernet sends it: least significant byte first.
inline void
WriteCrc32(uint8_t* out, uint32_t crc)
{
    out[0] = static_cast<uint8_t>(crc);
    out[1] = static_cast<uint8_t>(crc >> 8);
    out[2] = static_cast<uint8_t>(crc >> 16);
    out[3] = static_cast<uint8_t>(crc >> 24);
}

/// \brief Read a CRC value written by WriteCrc32.
inline uint32_t
ReadCrc32(const uint8_t* in)
{
    return uint32_t(in[0]) | (uint32_t(in[1]) << 8) | (uint32_t(in[2]) << 16) |
           (uint32_t(in[3]) << 24);
}

} // namespace ns3

#endif // PARAMSYNC_ETHERNET_CRC_H
