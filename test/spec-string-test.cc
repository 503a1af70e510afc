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
