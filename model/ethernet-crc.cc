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

/// a * b modulo the generator, both in reflected form.
constexpr uint32_t
MultiplyModP(uint32_t a, uint32_t b)
{
    uint32_t product = 0;
    for (uint32_t bit = 0x80000000u; bit != 0; bit >>= 1)
    {
        if (a & bit)
        {
            product ^= b;
        }
        b = TimesX(b);
    }
    return product;
}

/// Byte table: the register contribution of one byte value after 8 steps.
constexpr std::array<uint32_t, 256>
MakeByteTable()
{
    std::array<uint32_t, 256> t{};
    for (uint32_t v = 0; v < 256; ++v)
    {
        uint32_t r = v;
        for (int k = 0; k < 8; ++k)
        {
            r = TimesX(r);
        }
        t[v] = r;
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

constexpr std::array<uint32_t, 256> kByteTable = MakeByteTable();
constexpr std::array<uint32_t, 64> kPowers = MakePowerTable();

} // namespace

uint32_t
Crc32Update(uint32_t reg, const uint8_t* bytes, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
    {
        reg = kByteTable[(reg ^ bytes[i]) & 0xffu] ^ (reg >> 8);
    }
    return reg;
}

uint32_t
Crc32SkipZeros(uint32_t reg, uint64_t n)
{
    // n zero bytes = 8n zero bits = multiplication by x^(8n) mod P.
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
