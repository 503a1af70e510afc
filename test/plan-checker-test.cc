#include "ns3/plan-checker.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Two workers, W = 10: exchange halves (reduce), then copy the sums back.
SyncPlan
TwoWorkerPlan()
{
    SyncPlan p;
    p.algorithm = "test";
    p.gradientBytes = 10;
    p.workers = 2;
    p.hostOf = {0, 1};
    TransferId a = p.Add(
        {0, 0, 1, 5, 5, TransferOp::Reduce, ContributorSet::Single(2, 0), {}, 0, 0});
    TransferId b = p.Add(
        {0, 1, 0, 0, 5, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 0});
    p.Add({0, 0, 1, 0, 5, TransferOp::Copy, ContributorSet::All(2), {b}, 0, 1});
    p.Add({0, 1, 0, 5, 5, TransferOp::Copy, ContributorSet::All(2), {a}, 0, 1});
    return p;
}
} // namespace

TEST(PlanChecker, AcceptsCorrectPlanAndCountsVolumes)
{
    PlanCheckResult r = PlanChecker().Check(TwoWorkerPlan());
    EXPECT_TRUE(r.Ok()) << r.Summary();
    // Each worker sends 5 + 5 = 10 bytes = 2(N-1)W/N with N=2, W=10.
    EXPECT_EQ(r.sentBytes[0], 10u);
    EXPECT_EQ(r.receivedBytes[1], 10u);
}

TEST(PlanChecker, RejectsMutations)
{
    SyncPlan dropped = TwoWorkerPlan();
    dropped.transfers.pop_back();
    EXPECT_FALSE(PlanChecker().Check(dropped).Ok()); // worker 0 misses [5,10)

    SyncPlan early = TwoWorkerPlan();
    early.transfers[2].deps.clear();
    PlanCheckResult r = PlanChecker().Check(early);
    ASSERT_FALSE(r.Ok());
    EXPECT_NE(r.Summary().find("missing dependency"), std::string::npos);

    SyncPlan size = TwoWorkerPlan();
    size.transfers[0].bytes = 4; // byte 9 of worker 1 then lacks worker 0's share
    EXPECT_FALSE(PlanChecker().Check(size).Ok());

    SyncPlan twice = TwoWorkerPlan();
    Transfer again = twice.transfers[0];
    twice.Add(again);
    r = PlanChecker().Check(twice);
    ASSERT_FALSE(r.Ok());
    EXPECT_NE(r.Summary().find("double counting"), std::string::npos);
}

namespace
{
/// Two workers and W = 10 (with `extra` dedicated participants): an empty plan.
SyncPlan
EmptyPlan(uint32_t extra = 0)
{
    SyncPlan p;
    p.algorithm = "test";
    p.gradientBytes = 10;
    p.workers = 2;
    p.hostOf = {0, 1};
    for (uint32_t e = 0; e < extra; ++e)
    {
        p.hostOf.push_back(2 + e);
    }
    return p;
}

/// The message the checker gives for a writer missing from a transfer's closure, spelled
/// from its definition in workloads/plan-checker.cc (Describe, CheckClosure).
std::string
MissingDependency(const SyncPlan& p, TransferId t, TransferId writer)
{
    auto describe = [&p](TransferId id) {
        const Transfer& x = p.transfers[id];
        return "transfer #" + std::to_string(x.id) + " (p" + std::to_string(x.src) + "->p" +
               std::to_string(x.dst) + " [" + std::to_string(x.offset) + "," +
               std::to_string(x.offset + x.bytes) + ") phase " + std::to_string(x.phase) +
               " chunk " + std::to_string(x.chunk) + ")";
    };
    return describe(t) + ": missing dependency: it sends data written by " + describe(writer) +
           ", which is not in its dependency closure";
}

/**
 * p1 reduces all of its data into p0 (#0); p0 copies [0,5) to p1 (#1), p1 forwards it to the
 * server p2 (#2), p2 copies it back to p0 (#3), and p0 then copies [5,10) to p1 (#4). #4
 * reads the data #0 wrote, and reaches #0 only through the other participants:
 * #4 -> #3 -> #2 -> #1 -> #0.
 */
SyncPlan
RoundTripPlan()
{
    SyncPlan p = EmptyPlan(1);
    const ContributorSet all = ContributorSet::All(2);
    p.Add({0, 1, 0, 0, 10, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 0});
    p.Add({0, 0, 1, 0, 5, TransferOp::Copy, all, {0}, 0, 0});
    p.Add({0, 1, 2, 0, 5, TransferOp::Copy, all, {1}, 0, 0});
    p.Add({0, 2, 0, 0, 5, TransferOp::Copy, all, {2}, 0, 0});
    p.Add({0, 0, 1, 5, 5, TransferOp::Copy, all, {3}, 0, 0});
    return p;
}
} // namespace

TEST(PlanChecker, AcceptsWriterReachedOnlyThroughOtherParticipants)
{
    PlanCheckResult r = PlanChecker().Check(RoundTripPlan());
    EXPECT_TRUE(r.Ok()) << r.Summary();
    // p0 sends #1 and #4 (5 B each); p1 sends #0 (10 B) and #2 (5 B); p2 sends #3 (5 B).
    EXPECT_EQ(r.sentBytes, (std::vector<uint64_t>{10, 15, 5}));
}

TEST(PlanChecker, NamesEachWriterMissingFromTheClosure)
{
    // Without #2's dependency on #1, #2 sends what #1 wrote into p1 without waiting for
    // it, and #4's only path to #0 (through #2) is cut as well: two errors, in id order.
    SyncPlan p = RoundTripPlan();
    p.transfers[2].deps.clear();
    PlanCheckResult r = PlanChecker().Check(p);
    EXPECT_EQ(r.errors,
              (std::vector<std::string>{MissingDependency(p, 2, 1), MissingDependency(p, 4, 0)}));
}

TEST(PlanChecker, AnEarlierSendOfTheSourceDoesNotStandInForADependency)
{
    // p0 receives p1's data (#0), copies the sum to p1 (#1, after #0) and copies it again
    // without waiting for #0 (#2). #1 proved that #0 precedes #1, which says nothing about
    // #2: the checker must still name #0 as missing.
    SyncPlan p = EmptyPlan();
    const ContributorSet all = ContributorSet::All(2);
    p.Add({0, 1, 0, 0, 10, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 0});
    p.Add({0, 0, 1, 0, 10, TransferOp::Copy, all, {0}, 0, 0});
    p.Add({0, 0, 1, 0, 10, TransferOp::Copy, all, {}, 0, 1});
    PlanCheckResult r = PlanChecker().Check(p);
    EXPECT_EQ(r.errors, (std::vector<std::string>{MissingDependency(p, 2, 0)}));

    // With #2 waiting for #1 instead, #0 is in its closure (#2 -> #1 -> #0).
    p.transfers[2].deps = {1};
    EXPECT_TRUE(PlanChecker().Check(p).Ok());
}

TEST(PlanChecker, MalformedDependenciesNameTheOldestWriterNotListed)
{
    // #2 lists #1 (whose closure holds #0) and #7, which does not precede it. With a
    // dependency pointing forwards no closure is trusted, so #2 reads #0's data with
    // malformed dependencies.
    SyncPlan p = EmptyPlan();
    const ContributorSet all = ContributorSet::All(2);
    p.Add({0, 1, 0, 0, 10, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 0});
    p.Add({0, 0, 1, 0, 10, TransferOp::Copy, all, {0}, 0, 0});
    p.Add({0, 0, 1, 0, 10, TransferOp::Copy, all, {1, 7}, 0, 1});
    const std::string t2 = "transfer #2 (p0->p1 [0,10) phase 1 chunk 0)";
    PlanCheckResult r = PlanChecker().Check(p);
    EXPECT_EQ(r.errors,
              (std::vector<std::string>{
                  t2 + ": dependency #7 is not an earlier transfer (deps must point backwards)",
                  t2 + ": reads data written by transfer #0 (p1->p0 [0,10) phase 0 chunk 0) but "
                       "its dependencies are malformed"}));
}

TEST(PlanChecker, FollowsAChainOfSendsLongerThanAnyShortcut)
{
    // p1 reduces [0,5) into p0 (#0). p0 then sends its own [5,10) to the server p2 1,100
    // times in a row, each send after the previous one (the first after #0), and finally
    // copies [0,5) to p1 after the last send only: #0 is in that copy's closure through the
    // whole chain, longer than the 1,024 links the checker follows before it searches.
    // p1 then adds its [5,10) into p0, which copies the sum back.
    const uint32_t chain = 1100;
    SyncPlan p = EmptyPlan(1);
    const ContributorSet all = ContributorSet::All(2);
    const ContributorSet p0Only = ContributorSet::Single(2, 0);
    TransferId last = p.Add(
        {0, 1, 0, 0, 5, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 0});
    for (uint32_t k = 0; k < chain; ++k)
    {
        last = p.Add({0, 0, 2, 5, 5, TransferOp::Copy, p0Only, {last}, 0, 1});
    }
    const TransferId copy = p.Add({0, 0, 1, 0, 5, TransferOp::Copy, all, {last}, 0, 2});
    const TransferId reduce = p.Add(
        {0, 1, 0, 5, 5, TransferOp::Reduce, ContributorSet::Single(2, 1), {}, 0, 3});
    p.Add({0, 0, 1, 5, 5, TransferOp::Copy, all, {reduce}, 0, 4});
    PlanCheckResult r = PlanChecker().Check(p);
    EXPECT_TRUE(r.Ok()) << r.Summary();
    // p0 sends 5 B per chain link, the copy and the final copy: 5 (1,100 + 2) = 5,510 B.
    EXPECT_EQ(r.sentBytes[0], 5u * (chain + 2));

    // Waiting for nothing, the copy may start before #0 lands.
    p.transfers[copy].deps.clear();
    r = PlanChecker().Check(p);
    EXPECT_EQ(r.errors, (std::vector<std::string>{MissingDependency(p, copy, 0)}));
}
