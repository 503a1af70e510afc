#include "topology-counts.h"

#include <algorithm>

namespace ns3
{

uint64_t
SaturatingMul(uint64_t a, uint64_t b)
{
    return (b != 0 && a > kCountCap / b) ? kCountCap : std::min(a * b, kCountCap);
}

uint64_t
SaturatingPow(uint64_t x, uint64_t e)
{
    uint64_t r = 1;
    for (uint64_t i = 0; i < e && r < kCountCap; ++i)
    {
        r = SaturatingMul(r, x);
    }
    return r;
}

} // namespace ns3
