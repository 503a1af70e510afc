// RankResults (helper/rank-results.h): one run's measurements as two MPI ranks saw them,
// packed, unpacked and merged into what one process measures. The values are made up by
// hand; the expected merges follow from the rules in the header.
#include "ns3/rank-results.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A line a - b - c: a's port 0 leads to b, b's ports 0 and 1 to a and c, c's port 0 to b.
const std::vector<std::string> kNames = {"a", "b", "c"};
const std::vector<std::vector<uint32_t>> kPeers = {{1}, {0, 2}, {1}};

/// Two flows, 0: a -> c and 1: c -> a; each rank knows the end of the flow delivered to it.
RunResult
Rank(uint32_t rank)
{
    RunResult r;
    r.flows = {{0, 0, 2, 1000, 0.0, -1}, {1, 2, 0, 2000, 0.0, -1}};
    r.flows[rank == 0 ? 1 : 0].endS = rank == 0 ? 4e-6 : 3e-6;
    r.pfcPauseFrames = rank == 0 ? 2 : 5;
    r.pfcPausedS = rank == 0 ? 1e-6 : 2e-6;
    r.ecnMarks = rank == 0 ? 7 : 0;
    r.events = rank == 0 ? 100 : 150;
    r.simS = rank == 0 ? 4e-6 : 3e-6;
    r.completed = true;
    return r;
}

} // namespace

TEST(RankResultsTest, PackThenUnpackGivesTheSameFields)
{
    RunResult r = Rank(0);
    r.invariant = "drops with PFC on (3 frames): the configuration is not lossless";
    r.transfers = {{0, 4, 0, 2, 512, 1e-6, 2e-6, 1, 0}};
    r.pfc = {{"b", 1, 3, 2, 0, 1e-6, 1}};
    r.pauses = {{"b/1", 3, 0.5e-6, 1.5e-6}};
    r.drops = 3;
    const RunResult back = RankResults::Unpack(RankResults::Pack(r));
    EXPECT_EQ(back.pfcPauseFrames, 2u);
    EXPECT_EQ(back.ecnMarks, 7u);
    EXPECT_EQ(back.drops, 3u);
    EXPECT_EQ(back.invariant, r.invariant);
    ASSERT_EQ(back.flows.size(), 2u);
    EXPECT_EQ(back.flows[1].endS, 4e-6);
    ASSERT_EQ(back.transfers.size(), 1u);
    EXPECT_EQ(back.transfers[0].id, 4u);
    EXPECT_EQ(back.transfers[0].bytes, 512u);
    ASSERT_EQ(back.pfc.size(), 1u);
    EXPECT_EQ(back.pfc[0].node, "b");
    EXPECT_EQ(back.pfc[0].drops, 1u);
    ASSERT_EQ(back.pauses.size(), 1u);
    EXPECT_EQ(back.pauses[0].port, "b/1");
    // Bytes cut short are refused, not read past their end.
    const std::string bytes = RankResults::Pack(r);
    EXPECT_THROW(RankResults::Unpack(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
}

TEST(RankResultsTest, CountersAddFlowsTakeTheDestinationsEnd)
{
    const RunResult m = RankResults::Merge({Rank(0), Rank(1)}, kNames, kPeers);
    EXPECT_EQ(m.pfcPauseFrames, 7u); // 2 + 5
    EXPECT_DOUBLE_EQ(m.pfcPausedS, 3e-6);
    EXPECT_EQ(m.ecnMarks, 7u); // 7 + 0
    EXPECT_EQ(m.events, 250u); // 100 + 150
    EXPECT_EQ(m.simS, 4e-6);   // the later of the ranks' last ends
    ASSERT_EQ(m.flows.size(), 2u);
    EXPECT_EQ(m.flows[0].endS, 3e-6); // flow 0 ends at c, on rank 1
    EXPECT_EQ(m.flows[1].endS, 4e-6); // flow 1 ends at a, on rank 0
    EXPECT_TRUE(m.completed);
    // A flow that no rank saw end leaves the run incomplete.
    RunResult late = Rank(1);
    late.flows[0].endS = -1;
    EXPECT_FALSE(RankResults::Merge({Rank(0), late}, kNames, kPeers).completed);
}

TEST(RankResultsTest, TransfersJoinStartAndEndInPostingOrder)
{
    // Transfer 1 (a -> c) posted at 1 us on rank 0, ended at 5 us on rank 1; transfer 0
    // (c -> a) posted at 0.5 us on rank 1, ended at 3 us on rank 0.
    RunResult r0 = Rank(0);
    RunResult r1 = Rank(1);
    r0.transfers = {{0, 1, 0, 2, 100, 1e-6, -1, 0, 0}, {0, 0, 2, 0, 100, 0.5e-6, 3e-6, 0, 0}};
    r1.transfers = {{0, 0, 2, 0, 100, 0.5e-6, -1, 0, 0}, {0, 1, 0, 2, 100, 1e-6, 5e-6, 0, 0}};
    const RunResult m = RankResults::Merge({r0, r1}, kNames, kPeers);
    ASSERT_EQ(m.transfers.size(), 2u);
    EXPECT_EQ(m.transfers[0].id, 0u); // posted first
    EXPECT_EQ(m.transfers[0].endS, 3e-6);
    EXPECT_EQ(m.transfers[1].id, 1u);
    EXPECT_EQ(m.transfers[1].startS, 1e-6);
    EXPECT_EQ(m.transfers[1].endS, 5e-6);
    EXPECT_TRUE(m.completed);
}

TEST(RankResultsTest, PfcRowsSumInPortOrderAndInvariantsOnce)
{
    RunResult r0 = Rank(0);
    RunResult r1 = Rank(1);
    // Rank 1 owns c and reports c/0; both report b/1 (pauses sent there on rank 0's side,
    // received on rank 1's: made up to check the sum); rank 0 reports a/0.
    r0.pfc = {{"a", 0, 3, 1, 0, 0, 0}, {"b", 1, 3, 1, 0, 0, 0}};
    r1.pfc = {{"b", 1, 3, 0, 2, 1e-6, 0}, {"c", 0, 3, 4, 0, 0, 0}};
    r0.invariant = "x; y";
    r1.invariant = "y; z";
    const RunResult m = RankResults::Merge({r1, r0}, kNames, kPeers);
    ASSERT_EQ(m.pfc.size(), 3u);
    EXPECT_EQ(m.pfc[0].node, "a"); // node index order a, b, c whatever rank listed them
    EXPECT_EQ(m.pfc[1].node, "b");
    EXPECT_EQ(m.pfc[1].pausesSent, 1u);
    EXPECT_EQ(m.pfc[1].pausesReceived, 2u);
    EXPECT_EQ(m.pfc[2].node, "c");
    EXPECT_EQ(m.invariant, "y; z; x"); // rank order (r1 first here), each line once
    RunResult wrong = Rank(1);
    wrong.pfc = {{"d", 0, 3, 1, 0, 0, 0}};
    EXPECT_THROW(RankResults::Merge({r0, wrong}, kNames, kPeers), std::runtime_error);
}

TEST(RankResultsTest, PauseDepthOfACascadeAcrossRanks)
{
    // c pauses b's port 1 over [0, 10] us (seen by b's rank 1); b, paused and filling,
    // pauses a's port 0 over [1, 5] us (seen by a's rank 0). Each rank alone: depth 1 (the
    // pauser one hop away). Together a cascade from c to a: 2 hops (PauseSpread).
    RunResult r0 = Rank(0);
    RunResult r1 = Rank(1);
    r0.pauses = {{"a/0", 3, 1e-6, 5e-6}};
    r0.pfcPauseDepth = 1;
    r1.pauses = {{"b/1", 3, 0, 10e-6}};
    r1.pfcPauseDepth = 1;
    const RunResult m = RankResults::Merge({r0, r1}, kNames, kPeers);
    EXPECT_EQ(m.pfcPauseDepth, 2u);
    ASSERT_EQ(m.pauses.size(), 2u);
    EXPECT_EQ(m.pauses[0].port, "a/0"); // ends first (5 us before 10 us)
}

TEST(RankResultsTest, PathsOfEveryRankJoinedOnRankZero)
{
    // Rank 0 traced host 0's QPs to host 2 (stripes 0 and 1), rank 1 host 2's QP to host 0;
    // joined, all three with their links in order.
    const RankResults::QueuePairPaths r0 = {{{0, 2, 0}, {0, 3, 5}}, {{0, 2, 1}, {0, 4, 5}}};
    const RankResults::QueuePairPaths r1 = {{{2, 0, 0}, {6, 2, 1}}};
    const auto joined = RankResults::JoinPaths(
        {RankResults::PackPaths(true, r0), RankResults::PackPaths(true, r1)});
    ASSERT_TRUE(joined.has_value());
    ASSERT_EQ(joined->size(), 3u);
    EXPECT_EQ(joined->at({0, 2, 1}), (std::vector<uint32_t>{0, 4, 5}));
    EXPECT_EQ(joined->at({2, 0, 0}), (std::vector<uint32_t>{6, 2, 1}));
    // A rank whose job did not finish: no paths (one process computes no bound then).
    EXPECT_FALSE(RankResults::JoinPaths(
                     {RankResults::PackPaths(true, r0), RankResults::PackPaths(false, r1)})
                     .has_value());
    // A QP traced on two ranks, or bytes cut short, are refused.
    EXPECT_THROW(RankResults::JoinPaths(
                     {RankResults::PackPaths(true, r0), RankResults::PackPaths(true, r0)}),
                 std::runtime_error);
    const std::string bytes = RankResults::PackPaths(true, r0);
    EXPECT_THROW(RankResults::JoinPaths({bytes.substr(0, bytes.size() - 1)}), std::runtime_error);
}
