#include "ethernet-crc.h"

#include <array>

namespace ns3
{

namespace
{

/// The generator 0x04C11DB7 with its bits in reverse order (x^0 in bit 31, x^31 in bit 0).
constexpr uint32_t kReflectedPoly = 0xEDB88320u;

/// Register times x, modulo the generator (reflected form: a right shift raises powers).
constexpr uint32_t
TimesX(uint32_t r)
{
    return (r & 1u) ? (r >> 1) ^ kReflectedPoly : r >> 1;
}

/// a * b modulo the generator, both in reflected form (without branches on the data: they
/// would be mispredicted half the time).
constexpr uint32_t
MultiplyModP(uint32_t a, uint32_t b)
{
    uint32_t product = 0;
    for (int bit = 31; bit >= 0; --bit)
    {
        product ^= b & (0u - ((a >> bit) & 1u));
        b = (b >> 1) ^ (kReflectedPoly & (0u - (b & 1u)));
    }
    return product;
}

/// Byte tables: entry v of table j is the register contribution of byte value v followed
/// by j zero bytes (table 0: the classic byte-at-a-time table); four at once consume a
/// 32-bit word per step ("slicing by 4").
constexpr std::array<std::array<uint32_t, 256>, 4>
MakeByteTables()
{
    std::array<std::array<uint32_t, 256>, 4> t{};
    for (uint32_t v = 0; v < 256; ++v)
    {
        uint32_t r = v;
        for (int k = 0; k < 8; ++k)
        {
            r = TimesX(r);
        }
        t[0][v] = r;
    }
    for (std::size_t j = 1; j < t.size(); ++j)
    {
        for (uint32_t v = 0; v < 256; ++v)
        {
            t[j][v] = (t[j - 1][v] >> 8) ^ t[0][t[j - 1][v] & 0xffu];
        }
    }
    return t;
}

/// x^(2^k) mod P for k = 0..63 (entry 0 is x itself: bit 30 in reflected form).
constexpr std::array<uint32_t, 64>
MakePowerTable()
{
    std::array<uint32_t, 64> t{};
    t[0] = 0x40000000u;
    for (std::size_t k = 1; k < t.size(); ++k)
    {
        t[k] = MultiplyModP(t[k - 1], t[k - 1]);
    }
    return t;
}

/// Zero runs up to this many bytes (jumbo frames' 9000 B payload and more) take one lookup.
constexpr std::size_t kZeroRunTableSize = 9216;

/// x^(8n) mod P for n = 0 .. kZeroRunTableSize - 1: the factor of a run of n zero bytes.
constexpr std::array<uint32_t, kZeroRunTableSize>
MakeZeroRunTable()
{
    std::array<uint32_t, kZeroRunTableSize> t{};
    t[0] = 0x80000000u;                  // x^0
    constexpr uint32_t x8 = 0x00800000u; // x^8: bit 31 - 8
    for (std::size_t n = 1; n < t.size(); ++n)
    {
        t[n] = MultiplyModP(t[n - 1], x8);
    }
    return t;
}

constexpr std::array<std::array<uint32_t, 256>, 4> kByteTables = MakeByteTables();
constexpr std::array<uint32_t, 64> kPowers = MakePowerTable();
constexpr std::array<uint32_t, kZeroRunTableSize> kZeroRuns = MakeZeroRunTable();

} // namespace

uint32_t
Crc32Update(uint32_t reg, const uint8_t* bytes, std::size_t n)
{
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4)
    {
        reg ^= uint32_t(bytes[i]) | (uint32_t(bytes[i + 1]) << 8) | (uint32_t(bytes[i + 2]) << 16) |
               (uint32_t(bytes[i + 3]) << 24);
        reg = kByteTables[3][reg & 0xffu] ^ kByteTables[2][(reg >> 8) & 0xffu] ^
              kByteTables[1][(reg >> 16) & 0xffu] ^ kByteTables[0][reg >> 24];
    }
    for (; i < n; ++i)
    {
        reg = kByteTables[0][(reg ^ bytes[i]) & 0xffu] ^ (reg >> 8);
    }
    return reg;
}

uint32_t
Crc32SkipZeros(uint32_t reg, uint64_t n)
{
    // n zero bytes = 8n zero bits = multiplication by x^(8n) mod P.
    if (n < kZeroRunTableSize)
    {
        return MultiplyModP(reg, kZeroRuns[n]);
    }
    uint64_t bits = n * 8;
    for (std::size_t k = 0; bits != 0 && k < kPowers.size(); ++k, bits >>= 1)
    {
        if (bits & 1u)
        {
            reg = MultiplyModP(reg, kPowers[k]);
        }
    }
    return reg;
}

uint32_t
Crc32(const uint8_t* bytes, std::size_t n)
{
    return ~Crc32Update(kCrc32Preset, bytes, n);
}

} // namespace ns3
