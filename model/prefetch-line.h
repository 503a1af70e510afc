/*
 * PrefetchLine: ask for the cache line at an address, in a way the compiler keeps.
 *
 * Why not __builtin_prefetch alone: GCC counts it as free of side effects. A function whose
 * only effects are prefetches is then found `const` (-fipa-pure-const), and a call to it,
 * whose result is void and so unused, is deleted with its prefetches. GCC 12 -O3 split the
 * later stages of SharedBufferMmu::WarmAccount and ForwardingTable::WarmLookup into such
 * functions (fnsplit's `.part.0`) and dropped their calls from PfcSwitch::WarmRelayReceive:
 * the ingress account and the forwarding runs of a switch arrival were never warmed in the
 * product, though the diagnostic build (bench/touch-build.sh, whose prefetches are loads)
 * showed them warmed (bench/README.md, "Prefetches the compiler deleted"). An empty volatile
 * asm that takes the address is a side effect: no function that prefetches is `const`.
 * ctest `warm-prefetches-kept` checks the built library.
 */
#ifndef PARAMSYNC_PREFETCH_LINE_H
#define PARAMSYNC_PREFETCH_LINE_H

#include <cstdint>

namespace ns3
{

/// \brief Prefetch the line holding p for reading (a hint: never faults, changes nothing).
[[gnu::always_inline]] inline void
PrefetchLine(const void* p)
{
    __builtin_prefetch(p);
#if defined(__GNUC__)
    asm volatile("" : : "r"(p));
#endif
}

/**
 * \brief Call f(line address) for each 64-byte line holding a byte of [begin, end), in
 * order, at most maxLines of them from begin's line.
 */
template<class F>
[[gnu::always_inline]] inline void
ForEachLine(const void* begin, const void* end, unsigned maxLines, F f)
{
    constexpr uintptr_t kLine = 64;
    const uintptr_t first = reinterpret_cast<uintptr_t>(begin);
    const uintptr_t last = reinterpret_cast<uintptr_t>(end);
    if (first >= last)
    {
        return; // no byte, no line
    }
    // One bound, the nearer of the range's end and the maxLines-th line: a loop step is the
    // call, an add, a compare (a switch arrival's warming walks ~7 lines in one stage).
    const uintptr_t start = first & ~(kLine - 1);
    const uintptr_t limit = start + uintptr_t{maxLines} * kLine;
    const uintptr_t stop = last < limit ? last : limit;
    for (uintptr_t line = start; line < stop; line += kLine)
    {
        f(reinterpret_cast<const void*>(line));
    }
}

/**
 * \brief Prefetch the lines of [begin, end), at most maxLines of them from begin (an array a
 * later stage will search: its lines are asked for together, not one miss after another).
 */
[[gnu::always_inline]] inline void
PrefetchLines(const void* begin, const void* end, unsigned maxLines)
{
    ForEachLine(begin, end, maxLines, [](const void* line) { PrefetchLine(line); });
}

} // namespace ns3

#endif // PARAMSYNC_PREFETCH_LINE_H
