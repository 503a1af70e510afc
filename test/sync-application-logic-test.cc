// SyncJob + SyncApplication over a fake transport (no network): dependencies, iterations,
// compute time, straggler and layer-wise overlap, with every time derived by hand.
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/sync-application.h"
#include "ns3/sync-job.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// One FIFO sender per host at 1 byte/ns, then 1 us to deliver; the sender completion
/// (ACK) comes 1 us after delivery.
class FakeTransport : public SyncTransport
{
  public:
    explicit FakeTransport(SyncJob* job)
        : m_job(job)
    {
    }
    uint32_t
    QueuePairs(uint32_t, uint32_t) const override
    {
        return 1;
    }
    void
    Send(uint32_t src, uint32_t dst, uint32_t qp, uint64_t bytes, std::function<void()> onSent)
        override
    {
        Time& free = m_senderFree[src];
        Time start = std::max(free, Simulator::Now());
        free = start + NanoSeconds(bytes);
        Time delivered = free + MicroSeconds(1);
        Simulator::Schedule(delivered - Simulator::Now(), &SyncJob::Delivered, m_job, src, dst, qp);
        Simulator::Schedule(delivered + MicroSeconds(1) - Simulator::Now(), onSent);
        ++m_sent;
    }
    uint32_t m_sent{0};

  private:
    SyncJob* m_job;
    std::map<uint32_t, Time> m_senderFree;
};

Transfer
Make(TransferId id,
     ParticipantIndex src,
     ParticipantIndex dst,
     uint64_t offset,
     uint64_t bytes,
     std::vector<TransferId> deps)
{
    Transfer t{};
    t.id = id;
    t.src = src;
    t.dst = dst;
    t.offset = offset;
    t.bytes = bytes;
    t.op = TransferOp::Reduce;
    t.deps = std::move(deps);
    return t;
}

struct JobRun
{
    std::vector<Time> gst;
    std::vector<Time> iteration;
    std::vector<SyncTransferTimes> transfers;
    uint32_t sent;
};

JobRun
Execute(const SyncPlan& plan, std::vector<GradientTensor> tensors, SyncJobConfig config)
{
    NodeContainer nodes;
    nodes.Create(plan.ParticipantCount());
    SyncJob job(plan, std::move(tensors), config);
    FakeTransport transport(&job);
    job.SetTransport(&transport);
    job.InstallApplications([&](uint32_t host) { return nodes.Get(host); });
    job.Start(Seconds(0));
    Simulator::Run();
    EXPECT_TRUE(job.Finished());
    JobRun r{job.Gst(), job.IterationTime(), job.Transfers(), transport.m_sent};
    Simulator::Destroy();
    return r;
}

SyncPlan
TwoWorkerPlan(std::vector<Transfer> transfers)
{
    SyncPlan plan;
    plan.algorithm = "hand";
    plan.gradientBytes = 1000;
    plan.workers = 2;
    plan.hostOf = {0, 1};
    plan.transfers = std::move(transfers);
    return plan;
}

} // namespace

TEST(SyncApplicationLogic, ADependencyWaitsForDeliveryAndIterationsRepeat)
{
    // t0: 0->1 1000 B; t1: 1->0 after t0 (1 learns of t0 when it arrives).
    SyncPlan plan = TwoWorkerPlan({Make(0, 0, 1, 0, 1000, {}), Make(1, 1, 0, 0, 1000, {0})});
    SyncJobConfig config;
    config.iterations = 2;
    JobRun r = Execute(plan, {}, config);
    // t0: 1000 ns serialization + 1 us -> delivered at 2 us; t1 then posts, delivered at 4 us.
    ASSERT_EQ(r.gst.size(), 2u);
    EXPECT_EQ(r.gst[0], MicroSeconds(4));
    EXPECT_EQ(r.gst[1], MicroSeconds(4));
    EXPECT_EQ(r.iteration[1], MicroSeconds(4));
    ASSERT_EQ(r.transfers.size(), 4u);
    EXPECT_EQ(r.transfers[1].start, MicroSeconds(2));
    EXPECT_EQ(r.transfers[3].start, MicroSeconds(6)); // iteration 2 begins at 4 us
    EXPECT_EQ(r.sent, 4u);
}

TEST(SyncApplicationLogic, ASenderSideDependencyWaitsForTheAck)
{
    // t1: 0->1 depends on t0: 0->1 (same source): 0 learns of t0 by its ACK, 1 us later.
    SyncPlan plan = TwoWorkerPlan({Make(0, 0, 1, 0, 500, {}), Make(1, 0, 1, 500, 500, {0})});
    JobRun r = Execute(plan, {}, SyncJobConfig{});
    // t0 delivered 0.5 + 1 = 1.5 us, acked 2.5 us; t1 delivered 2.5 + 0.5 + 1 = 4 us.
    EXPECT_EQ(r.transfers[1].start, NanoSeconds(2500));
    EXPECT_EQ(r.gst[0], MicroSeconds(4));
}

TEST(SyncApplicationLogic, GstStartsWhenTheStragglerFinishesBackprop)
{
    SyncPlan plan = TwoWorkerPlan({Make(0, 0, 1, 0, 1000, {}), Make(1, 1, 0, 0, 1000, {})});
    SyncJobConfig config;
    config.compute = MicroSeconds(10);
    config.straggler = 1;
    config.stragglerFactor = 2;
    JobRun r = Execute(plan, {}, config);
    // Worker 0 done at 10 us -> t0 delivered 12 us; worker 1 done at 20 us -> t1 at 22 us.
    // GST = 22 - 20 = 2 us; iteration = 22 us.
    EXPECT_EQ(r.transfers[0].end, MicroSeconds(12));
    EXPECT_EQ(r.gst[0], MicroSeconds(2));
    EXPECT_EQ(r.iteration[0], MicroSeconds(22));
}

TEST(SyncApplicationLogic, OverlapStartsATensorsSyncWhenBackpropProducesIt)
{
    // Two tensors of 500 B; one transfer each from worker 0 to worker 1.
    SyncPlan plan = TwoWorkerPlan({Make(0, 0, 1, 0, 500, {}), Make(1, 0, 1, 500, 500, {})});
    plan.hostOf = {0, 1};
    std::vector<GradientTensor> tensors = {{"fc", 125, 500, 0}, {"conv", 125, 500, 500}};
    SyncJobConfig config;
    config.compute = MicroSeconds(30);
    config.overlap = true;
    JobRun overlapped = Execute(plan, tensors, config);
    // f = 1/3: the first tensor exists at 30 * (1/3 + 2/3 * 500/1000) = 20 us, delivered
    // 20.5 + 1 = 21.5 us; the second at 30 us, delivered 31.5 us. GST = 31.5 - 30 = 1.5 us.
    EXPECT_EQ(overlapped.transfers[0].start, MicroSeconds(20));
    EXPECT_EQ(overlapped.gst[0], NanoSeconds(1500));
    config.overlap = false;
    JobRun serial = Execute(plan, tensors, config);
    // Both post at 30 us; the second serializes after the first: delivered 31 + 1 = 32 us.
    EXPECT_EQ(serial.gst[0], MicroSeconds(2));
}

namespace
{

/// Two "ranks" in one simulator: job 0 owns host 0, job 1 host 1 (SyncJob::SetLocalHosts).
/// A message goes to the job of its destination's host, its sender completion to the
/// sender's job, with FakeTransport's times (1 byte/ns, 1 us to deliver, 1 us to ACK).
class TwoRankTransport : public SyncTransport
{
  public:
    uint32_t
    QueuePairs(uint32_t, uint32_t) const override
    {
        return 1;
    }
    void
    Send(uint32_t src, uint32_t dst, uint32_t qp, uint64_t bytes, std::function<void()> onSent)
        override
    {
        const Time delivered = NanoSeconds(bytes) + MicroSeconds(1);
        Simulator::Schedule(delivered, &SyncJob::Delivered, m_jobs[dst], src, dst, qp);
        Simulator::Schedule(delivered + MicroSeconds(1), onSent);
    }
    std::vector<SyncJob*> m_jobs; //!< by host
};

} // namespace

TEST(SyncApplicationLogic, OverRanksEachJobRunsItsHostsAndTheMaxIsTheGst)
{
    // As ADependencyWaitsForDeliveryAndIterationsRepeat, one iteration: t0 0->1 delivered at
    // 2 us (seen by job 1), t1 1->0 posted by job 1 then, delivered at 4 us (seen by job 0).
    // Each job learns of the other's posts by a notice (RemotePosted), here at once.
    SyncPlan plan = TwoWorkerPlan({Make(0, 0, 1, 0, 1000, {}), Make(1, 1, 0, 0, 1000, {0})});
    NodeContainer nodes;
    nodes.Create(2);
    SyncJob rank0(plan, {}, SyncJobConfig{});
    SyncJob rank1(plan, {}, SyncJobConfig{});
    TwoRankTransport transport;
    transport.m_jobs = {&rank0, &rank1};
    std::vector<SyncJob*> jobs = {&rank0, &rank1};
    for (uint32_t r = 0; r < 2; ++r)
    {
        std::vector<bool> local = {r == 0, r == 1};
        SyncJob* other = jobs[1 - r];
        jobs[r]->SetTransport(&transport);
        jobs[r]->SetLocalHosts(
            local, [other](uint32_t src, uint32_t dst, uint32_t qp, TransferId id, uint32_t parts) {
                other->RemotePosted(src, dst, qp, id, parts, Simulator::Now());
            });
        jobs[r]->InstallApplications([&](uint32_t host) { return nodes.Get(host); });
        jobs[r]->Start(Seconds(0));
    }
    Simulator::Run();
    EXPECT_TRUE(rank0.Finished());
    EXPECT_TRUE(rank1.Finished());
    // Each job's GST ends at its own last delivery; the run's is the larger, 4 us as in one
    // process.
    ASSERT_EQ(rank0.Gst().size(), 1u);
    ASSERT_EQ(rank1.Gst().size(), 1u);
    EXPECT_EQ(rank0.Gst()[0], MicroSeconds(4));
    EXPECT_EQ(rank1.Gst()[0], MicroSeconds(2));
    // Job 0: t0 posted (its end seen by job 1), t1 announced at 2 us and ended at 4 us.
    ASSERT_EQ(rank0.Transfers().size(), 2u);
    EXPECT_EQ(rank0.Transfers()[0].id, 0u);
    EXPECT_TRUE(rank0.Transfers()[0].end.IsNegative());
    EXPECT_EQ(rank0.Transfers()[1].id, 1u);
    EXPECT_EQ(rank0.Transfers()[1].start, MicroSeconds(2));
    EXPECT_EQ(rank0.Transfers()[1].end, MicroSeconds(4));
    // Job 1: t0 announced at 0 and ended at 2 us; t1 posted at 2 us.
    ASSERT_EQ(rank1.Transfers().size(), 2u);
    EXPECT_EQ(rank1.Transfers()[0].end, MicroSeconds(2));
    EXPECT_EQ(rank1.Transfers()[1].start, MicroSeconds(2));
    Simulator::Destroy();
}
