#include "digit-walk.h"

#include <cstddef>

namespace ns3
{

std::vector<uint32_t>
WalkDigits(const std::vector<uint32_t>& radix, DigitWalk walk, uint64_t i)
{
    const size_t d = radix.size();
    std::vector<uint32_t> counted(d);
    uint64_t rest = i;
    for (size_t q = 0; q < d; ++q)
    {
        counted[q] = static_cast<uint32_t>(rest % radix[q]);
        rest /= radix[q];
    }
    if (walk == DigitWalk::Count)
    {
        return counted;
    }
    std::vector<uint32_t> out(d);
    uint64_t stride = 1;
    for (size_t q = 0; q < d; ++q)
    {
        if (walk == DigitWalk::Reflect)
        {
            const uint64_t slower = i / (stride * radix[q]);
            out[q] = slower % 2 == 1 ? radix[q] - 1 - counted[q] : counted[q];
            stride *= radix[q];
        }
        else
        {
            // Incrementing i changes d_0..d_m (a carry chain) by -(n-1) each below m and by
            // +1 at m: the differences below m are unchanged and only g_m moves. From the
            // last element back to 0 only the slowest digit changes.
            const uint32_t above = q + 1 == d ? 0 : counted[q + 1];
            out[q] = (counted[q] + radix[q] - above) % radix[q];
        }
    }
    return out;
}

} // namespace ns3
