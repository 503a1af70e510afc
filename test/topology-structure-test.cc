// The structure queries algorithms ask of a Topology instead of casting to a family
// (topologies/topology.h: RankRadices, NeighbourWalk, RankOfDigits, SwitchLevels, Bipartite)
// and the digit walks behind the topology-aware rings (topologies/digit-walk.h).
#include "ns3/digit-walk.h"
#include "ns3/topology.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <stdexcept>

namespace ns3
{
namespace
{

/// Number of positions where a and b differ.
uint32_t
Changed(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    uint32_t n = 0;
    for (size_t q = 0; q < a.size(); ++q)
    {
        n += a[q] != b[q];
    }
    return n;
}

TEST(DigitWalk, CountReflectAndModGrayByHand)
{
    // Radices {3, 2} (fastest first): i = 4 counts as 4 = 1 + 1 x 3 -> (1, 1).
    EXPECT_EQ(WalkDigits({3, 2}, DigitWalk::Count, 4), (std::vector<uint32_t>{1, 1}));
    // Reflect: the fast digit runs 0 1 2 while the slow one is 0, then 2 1 0.
    const std::vector<std::vector<uint32_t>> snake = {
        {0, 0}, {1, 0}, {2, 0}, {2, 1}, {1, 1}, {0, 1}};
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(WalkDigits({3, 2}, DigitWalk::Reflect, i), snake[i]) << "i = " << i;
    }
    // ModGray over {3, 3}: i = 3 counts (0, 1); g_0 = 0 - 1 mod 3 = 2, g_1 = 1 -> (2, 1).
    EXPECT_EQ(WalkDigits({3, 3}, DigitWalk::ModGray, 3), (std::vector<uint32_t>{2, 1}));
}

TEST(DigitWalk, ReflectAndModGrayChangeOneDigitPerStepModGrayAlsoWrappingAround)
{
    const std::vector<uint32_t> radix{4, 4, 4};
    for (uint32_t i = 0; i + 1 < 64; ++i)
    {
        EXPECT_EQ(Changed(WalkDigits(radix, DigitWalk::Reflect, i),
                          WalkDigits(radix, DigitWalk::Reflect, i + 1)),
                  1u);
        EXPECT_EQ(Changed(WalkDigits(radix, DigitWalk::ModGray, i),
                          WalkDigits(radix, DigitWalk::ModGray, (i + 1) % 64)),
                  1u);
    }
    EXPECT_EQ(Changed(WalkDigits(radix, DigitWalk::ModGray, 63),
                      WalkDigits(radix, DigitWalk::ModGray, 0)),
              1u);
}

TEST(TopologyStructure, BcubeRanksAreItsAddressDigitsLevelZeroFastest)
{
    auto t = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    EXPECT_EQ(t->RankRadices(), (std::vector<uint32_t>{3, 3}));
    EXPECT_EQ(t->NeighbourWalk(), DigitWalk::ModGray);
    // Server a_1 a_0 = 2 1 is rank a_0 + 3 a_1 = 7.
    EXPECT_EQ(t->RankOfDigits({1, 2}), 7u);
    // The Gray ring: consecutive servers (and the last and the first) differ in one digit.
    const std::vector<HostRank> ring = t->RingOrder();
    for (size_t i = 0; i < ring.size(); ++i)
    {
        const HostRank a = ring[i];
        const HostRank b = ring[(i + 1) % ring.size()];
        EXPECT_EQ((a % 3 != b % 3) + (a / 3 != b / 3), 1) << a << " -> " << b;
    }
}

TEST(TopologyStructure, TorusRanksAreItsCoordinatesLastDimensionFastest)
{
    auto t = MakeTopology("torus:dims=3x4", 40e9, 1e-6);
    EXPECT_EQ(t->RankRadices(), (std::vector<uint32_t>{4, 3}));
    EXPECT_EQ(t->NeighbourWalk(), DigitWalk::Reflect);
    // Coordinates (c0, c1) = (2, 1) -> rank c0 x 4 + c1 = 9; digits fastest first (1, 2).
    EXPECT_EQ(t->RankOfDigits({1, 2}), 9u);
    // Snake: each step moves one coordinate by one (consecutive servers are cabled).
    const std::vector<HostRank> ring = t->RingOrder();
    for (size_t i = 0; i + 1 < ring.size(); ++i)
    {
        const int d0 = std::abs(int(ring[i] / 4) - int(ring[i + 1] / 4));
        const int d1 = std::abs(int(ring[i] % 4) - int(ring[i + 1] % 4));
        EXPECT_EQ(d0 + d1, 1) << ring[i] << " -> " << ring[i + 1];
    }
}

TEST(TopologyStructure, FatTreeSwitchLevelsGroupHostsByEdgeSwitchAndBySlot)
{
    // fattree:k=4: 16 hosts, 2 per edge switch, ranked switch-major.
    auto t = MakeTopology("fattree:k=4", 40e9, 1e-6);
    const std::vector<HostDimension> levels = t->SwitchLevels();
    ASSERT_EQ(levels.size(), 2u);
    ASSERT_EQ(levels[0].size(), 8u);
    EXPECT_EQ(levels[0][3].members, (std::vector<HostRank>{6, 7}));
    ASSERT_EQ(levels[1].size(), 2u);
    EXPECT_EQ(levels[1][1].members, (std::vector<HostRank>{1, 3, 5, 7, 9, 11, 13, 15}));
    EXPECT_FALSE(t->Bipartite().has_value());
    EXPECT_TRUE(t->RankRadices().empty());
}

TEST(TopologyStructure, BigraphIsBipartiteAndItsSlotRingsAlternateParts)
{
    // bigraph:s=2,m=2: upper switches 0, 1 hold hosts {0,1}, {2,3}; lower 2, 3 hold
    // {4,5}, {6,7}. Slot i visits upper w then lower (w + i) mod 2: slot 0 = 0, 4, 2, 6;
    // slot 1 = 1, (2 + 1) x 2 + 1 = 7, 3, (2 + 0) x 2 + 1 = 5.
    auto t = MakeTopology("bigraph:s=2,m=2", 40e9, 1e-6);
    ASSERT_TRUE(t->Bipartite().has_value());
    EXPECT_EQ(t->Bipartite()->switchesPerPart, 2u);
    EXPECT_EQ(t->Bipartite()->hostsPerSwitch, 2u);
    const std::vector<HostDimension> levels = t->SwitchLevels();
    ASSERT_EQ(levels.size(), 2u);
    EXPECT_EQ(levels[1][0].members, (std::vector<HostRank>{0, 4, 2, 6}));
    EXPECT_EQ(levels[1][1].members, (std::vector<HostRank>{1, 7, 3, 5}));
}

TEST(TopologyStructure, AFamilyWithoutDigitsSaysSo)
{
    auto t = MakeTopology("star:n=4", 40e9, 1e-6);
    EXPECT_TRUE(t->RankRadices().empty());
    EXPECT_EQ(t->NeighbourWalk(), DigitWalk::Count);
    EXPECT_THROW(t->RankOfDigits({0}), std::logic_error);
    EXPECT_TRUE(t->SwitchLevels().empty());
}

} // namespace
} // namespace ns3
