// RankIterationBarrier (helper/rank-iteration-barrier.h): when the next iteration of a sync
// job begins over MPI ranks, and as of which time. The notice channel is a fake that keeps
// what was sent; the tests deliver it by hand, as the MPI notices would arrive later. Two
// SyncJobs running iterations through it: test/sync-application-logic-test.cc.
#include "ns3/rank-iteration-barrier.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One rank's barrier with its sent notices and releases recorded.
struct Rank
{
    /// (to, iteration, end in ns) of every notice sent.
    std::vector<std::tuple<uint32_t, uint32_t, int64_t>> sent;
    /// (iteration, end in ns) of every release.
    std::vector<std::pair<uint32_t, int64_t>> released;
    RankIterationBarrier barrier;

    Rank(uint32_t ranks, uint32_t self)
        : barrier(
              ranks,
              self,
              [this](uint32_t to, uint32_t it, Time end) {
                  sent.emplace_back(to, it, end.GetNanoSeconds());
              },
              [this](uint32_t it, Time end) { released.emplace_back(it, end.GetNanoSeconds()); })
    {
    }
};

} // namespace

TEST(RankIterationBarrierTest, ReleasesAtTheLastRanksEndOnceEveryEndIsKnown)
{
    // Three ranks end iteration 0 at 5, 9 and 7 us: T_end = max = 9 us. Rank 0 tells ranks 1
    // and 2 its end, and releases only when it holds all three.
    Rank r(3, 0);
    r.barrier.LocalEnd(0, MicroSeconds(5));
    ASSERT_EQ(r.sent.size(), 2u);
    EXPECT_EQ(r.sent[0], std::make_tuple(1u, 0u, int64_t{5000}));
    EXPECT_EQ(r.sent[1], std::make_tuple(2u, 0u, int64_t{5000}));
    EXPECT_TRUE(r.released.empty());
    r.barrier.RemoteEnd(1, 0, MicroSeconds(9));
    EXPECT_TRUE(r.released.empty());
    r.barrier.RemoteEnd(2, 0, MicroSeconds(7));
    ASSERT_EQ(r.released.size(), 1u);
    EXPECT_EQ(r.released[0], std::make_pair(0u, int64_t{9000}));
}

TEST(RankIterationBarrierTest, TwoRanksExchangingNoticesReleaseAtTheSameTime)
{
    // Each rank's notices delivered to the other, in either order: both release iteration 0
    // as of the later end (12 us), then iteration 1 as of 30 us.
    Rank a(2, 0);
    Rank b(2, 1);
    a.barrier.LocalEnd(0, MicroSeconds(12));
    b.barrier.RemoteEnd(0, 0, NanoSeconds(std::get<2>(a.sent[0])));
    b.barrier.LocalEnd(0, MicroSeconds(10));
    a.barrier.RemoteEnd(1, 0, NanoSeconds(std::get<2>(b.sent[0])));
    ASSERT_EQ(a.released.size(), 1u);
    ASSERT_EQ(b.released.size(), 1u);
    EXPECT_EQ(a.released[0], std::make_pair(0u, int64_t{12000}));
    EXPECT_EQ(b.released[0], std::make_pair(0u, int64_t{12000}));
    b.barrier.LocalEnd(1, MicroSeconds(30));
    a.barrier.LocalEnd(1, MicroSeconds(25));
    a.barrier.RemoteEnd(1, 1, MicroSeconds(30));
    b.barrier.RemoteEnd(0, 1, MicroSeconds(25));
    EXPECT_EQ(a.released.back(), std::make_pair(1u, int64_t{30000}));
    EXPECT_EQ(b.released.back(), std::make_pair(1u, int64_t{30000}));
}

TEST(RankIterationBarrierTest, AnEndOfALaterIterationWaitsForItsOwnIteration)
{
    // A rank with no delivery ends iteration 1 as soon as it begins it, so its end of
    // iteration 1 (at 20 us) can reach rank 0 before rank 0 closed iteration 0 itself.
    Rank r(2, 0);
    r.barrier.RemoteEnd(1, 0, MicroSeconds(8));
    r.barrier.RemoteEnd(1, 1, MicroSeconds(20));
    EXPECT_TRUE(r.released.empty());
    r.barrier.LocalEnd(0, MicroSeconds(15));
    ASSERT_EQ(r.released.size(), 1u);
    EXPECT_EQ(r.released[0], std::make_pair(0u, int64_t{15000}));
    r.barrier.LocalEnd(1, MicroSeconds(18));
    ASSERT_EQ(r.released.size(), 2u);
    EXPECT_EQ(r.released[1], std::make_pair(1u, int64_t{20000}));
}

TEST(RankIterationBarrierTest, OneRankReleasesAtItsOwnEnd)
{
    Rank r(1, 0);
    r.barrier.LocalEnd(0, MicroSeconds(3));
    EXPECT_TRUE(r.sent.empty());
    ASSERT_EQ(r.released.size(), 1u);
    EXPECT_EQ(r.released[0], std::make_pair(0u, int64_t{3000}));
}

TEST(RankIterationBarrierTest, RefusesWrongRanksAndSecondEnds)
{
    EXPECT_THROW(Rank(2, 2), std::invalid_argument);
    Rank r(2, 0);
    EXPECT_THROW(r.barrier.RemoteEnd(2, 0, MicroSeconds(1)), std::invalid_argument);
    EXPECT_THROW(r.barrier.RemoteEnd(0, 0, MicroSeconds(1)), std::invalid_argument);
    EXPECT_THROW(r.barrier.RemoteEnd(1, 0, MicroSeconds(-1)), std::invalid_argument);
    r.barrier.RemoteEnd(1, 0, MicroSeconds(1));
    EXPECT_THROW(r.barrier.RemoteEnd(1, 0, MicroSeconds(2)), std::logic_error);
    r.barrier.LocalEnd(0, MicroSeconds(4));
    // Iteration 0 was released: a late end of it is a second one too.
    EXPECT_THROW(r.barrier.LocalEnd(0, MicroSeconds(4)), std::logic_error);
    EXPECT_THROW(r.barrier.RemoteEnd(1, 0, MicroSeconds(1)), std::logic_error);
}
