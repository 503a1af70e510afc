#include "ns3/spec-string.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SpecString, ParsesNameAndTypedValues)
{
    SpecString s("bcube:n=3,k=1,rate=40Gbps,delay=1us", "--topology");
    EXPECT_EQ(s.Name(), "bcube");
    EXPECT_EQ(s.GetUint("n", 0, 2, 64), 3u);
    EXPECT_EQ(s.GetUint("k", 0, 0, 8), 1u);
    EXPECT_DOUBLE_EQ(s.GetRate("rate", 1), 40e9);
    EXPECT_DOUBLE_EQ(s.GetTime("delay", 0), 1e-6);
    EXPECT_NO_THROW(s.Finish());
}

TEST(SpecString, RejectsOutOfRangeUnknownAndDuplicateKeys)
{
    SpecString low("bcube:n=1", "--topology");
    EXPECT_THROW(low.GetUint("n", 3, 2, 64), std::invalid_argument);
    SpecString typo("bcube:n=3,kk=1", "--topology");
    typo.GetUint("n", 3, 2, 64);
    EXPECT_THROW(typo.Finish(), std::invalid_argument);
    EXPECT_THROW(SpecString("ring:bidir=1,bidir=0", "--algorithm"), std::invalid_argument);
    EXPECT_THROW(SpecString(":n=3", "--topology"), std::invalid_argument);
    EXPECT_THROW(SpecString("ring:bidir", "--algorithm"), std::invalid_argument);
}

TEST(SpecString, ParsesUnits)
{
    EXPECT_DOUBLE_EQ(ParseRate("100Mbps", "x"), 1e8);
    EXPECT_DOUBLE_EQ(ParseTime("0.001ms", "x"), 1e-6);
    EXPECT_DOUBLE_EQ(ParseTime("1000ns", "x"), 1e-6);
    EXPECT_EQ(ParseBytes("100MB", "x"), 100000000u);
    EXPECT_EQ(ParseBytes("4KiB", "x"), 4096u);
    EXPECT_THROW(ParseRate("0Gbps", "x"), std::invalid_argument);
    EXPECT_THROW(ParseRate("fast", "x"), std::invalid_argument);
    EXPECT_THROW(ParseTime("-1us", "x"), std::invalid_argument);
    EXPECT_THROW(ParseTime("5", "x"), std::invalid_argument); // a time needs a unit
    EXPECT_THROW(ParseBytes("0", "x"), std::invalid_argument);
    EXPECT_THROW(ParseBytes("nan", "x"), std::invalid_argument);
}

TEST(SpecString, ParseUintTakesWholeUnsignedDecimalsOnly)
{
    uint64_t v = 7;
    ASSERT_TRUE(ParseUint("0", v));
    EXPECT_EQ(v, 0u);
    ASSERT_TRUE(ParseUint("00042", v)); // leading zeros are digits: 42
    EXPECT_EQ(v, 42u);
    // 2^64 - 1 = 18446744073709551615, the largest value that fits, is taken whole.
    ASSERT_TRUE(ParseUint("18446744073709551615", v));
    EXPECT_EQ(v, UINT64_MAX);
    v = 7;
    // One more (2^64) and a 21-digit number overflow: refused, v untouched.
    EXPECT_FALSE(ParseUint("18446744073709551616", v));
    EXPECT_FALSE(ParseUint("100000000000000000000", v));
    // Not the whole string, a sign, a space, a unit, empty: refused, v untouched.
    EXPECT_FALSE(ParseUint("", v));
    EXPECT_FALSE(ParseUint("+5", v));
    EXPECT_FALSE(ParseUint("-5", v));
    EXPECT_FALSE(ParseUint(" 5", v));
    EXPECT_FALSE(ParseUint("5 ", v));
    EXPECT_FALSE(ParseUint("5x", v));
    EXPECT_FALSE(ParseUint("1e3", v));
    EXPECT_FALSE(ParseUint("0x10", v));
    EXPECT_EQ(v, 7u);
}

TEST(SpecString, TrimSpaceDropsOuterWhitespaceOnly)
{
    EXPECT_EQ(TrimSpace(" \t a b\r\n"), "a b"); // inner space kept
    EXPECT_EQ(TrimSpace(" \t\r\n"), "");
    EXPECT_EQ(TrimSpace("x"), "x");
}
