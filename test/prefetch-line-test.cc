// PrefetchLines' arithmetic (model/prefetch-line.h, ForEachLine): which 64-byte lines of an
// array a warming stage asks for. A prefetch changes no result, so the lines are recorded.
#include "ns3/prefetch-line.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

/// The line addresses ForEachLine visits for [base + from, base + to), at most maxLines.
std::vector<uintptr_t>
LinesOf(uintptr_t from, uintptr_t to, unsigned maxLines)
{
    alignas(64) static const char block[16 * 64] = {};
    const uintptr_t base = reinterpret_cast<uintptr_t>(block);
    std::vector<uintptr_t> lines;
    ForEachLine(block + from, block + to, maxLines, [&](const void* line) {
        lines.push_back(reinterpret_cast<uintptr_t>(line) - base);
    });
    return lines;
}

TEST(PrefetchLines, EveryLineHoldingAByteOnceFromTheFirstLinesStart)
{
    // Bytes 70 .. 199 lie on lines 64, 128 and 192 (the last holds bytes 192 .. 199).
    EXPECT_EQ(LinesOf(70, 200, 8), (std::vector<uintptr_t>{64, 128, 192}));
    // An array ending at a line's start does not touch that line: 64 .. 191 is two lines.
    EXPECT_EQ(LinesOf(64, 192, 8), (std::vector<uintptr_t>{64, 128}));
    // One byte: its line.
    EXPECT_EQ(LinesOf(130, 131, 8), (std::vector<uintptr_t>{128}));
}

TEST(PrefetchLines, AnEmptyRangeNoneAndALongOneAtMostTheLimit)
{
    EXPECT_TRUE(LinesOf(100, 100, 8).empty());
    EXPECT_TRUE(LinesOf(0, 640, 0).empty());
    // 10 lines (0 .. 639), limited to the first 3.
    EXPECT_EQ(LinesOf(0, 640, 3), (std::vector<uintptr_t>{0, 64, 128}));
}

} // namespace
} // namespace ns3
