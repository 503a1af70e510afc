/*
 * Walks over a mixed-radix digit space: the orders in which topology-aware rings visit the
 * hosts of a family whose ranks are digit vectors (BCube's server addresses a_k..a_0, a
 * torus' coordinates). One implementation, used by the families' RingOrder() and by the
 * ring algorithm's rotated rings (workloads/ring-algorithm.h).
 */
#ifndef PARAMSYNC_DIGIT_WALK_H
#define PARAMSYNC_DIGIT_WALK_H

#include <cstdint>
#include <vector>

namespace ns3
{

/// \brief How a sequence of digit vectors walks a mixed-radix space.
enum class DigitWalk
{
    Count,   //!< plain counting (fastest digit first)
    Reflect, //!< boustrophedon (reflected Gray code): a digit runs backwards while the
             //!< number formed by the slower digits is odd; one digit moves by one per step
    ModGray, //!< modular Gray code g_q = d_q - d_{q+1} mod n (equal radices only): one digit
             //!< changes per step, and from the last element back to the first
};

/**
 * \brief Digit vector (position q = q-th fastest digit) of the i-th element of a walk over
 * the radices `radix` (fastest first).
 */
std::vector<uint32_t> WalkDigits(const std::vector<uint32_t>& radix, DigitWalk walk, uint64_t i);

} // namespace ns3

#endif // PARAMSYNC_DIGIT_WALK_H
