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
