// SyncJob + SyncApplication over a fake transport (no network): dependencies, iterations,
// compute time, straggler and layer-wise overlap, with every time derived by hand.
#include "ns3/node-container.h"
#include "ns3/rank-iteration-barrier.h"
#include "ns3/simulator.h"
#include "ns3/sync-application.h"
#include "ns3/sync-job.h"

#include <gtest/gtest.h>
#include <memory>

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
        SyncJob* self = jobs[r];
        SyncJob* other = jobs[1 - r];
        jobs[r]->SetTransport(&transport);
        jobs[r]->SetLocalHosts(
            local,
            [self, other](uint32_t src, uint32_t dst, uint32_t qp, TransferId id, uint32_t parts) {
                other->RemotePosted(src, dst, qp, id, parts, self->Iteration(), Simulator::Now());
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

namespace
{

/// Over ranks with iterations: as TwoRankTransport's test, but a post to the other rank's
/// host is announced there after a lookahead L = 1 us, and the ranks' RankIterationBarriers
/// (helper/rank-iteration-barrier.h) exchange their ends with the same delay, as
/// RankPostNotices does between processes.

const Time kLookahead = MicroSeconds(1);

/// Host 0 sends 1000 B to host 1 and host 1 1000 B to host 0, both at the start of each
/// iteration (no dependency): each delivered 1000 ns + 1 us after its post.
SyncPlan
CrossingPlan()
{
    SyncPlan plan;
    plan.algorithm = "hand";
    plan.gradientBytes = 1000;
    plan.workers = 2;
    plan.hostOf = {0, 1};
    for (TransferId id : {0u, 1u})
    {
        Transfer t{};
        t.id = id;
        t.src = id;
        t.dst = 1 - id;
        t.bytes = 1000;
        t.op = TransferOp::Reduce;
        plan.transfers.push_back(t);
    }
    return plan;
}

/// GST of each iteration (max over the two ranks) and each transfer's post time in
/// iteration order, posted on the source's rank.
struct TwoRankRun
{
    std::vector<Time> gst;
    std::vector<Time> starts;
};

TwoRankRun
RunOnTwoRanks(const SyncPlan& plan, SyncJobConfig config)
{
    NodeContainer nodes;
    nodes.Create(2);
    TwoRankTransport transport;
    std::vector<std::unique_ptr<SyncJob>> jobs;
    std::vector<std::unique_ptr<RankIterationBarrier>> barriers(2);
    for (uint32_t r = 0; r < 2; ++r)
    {
        jobs.push_back(std::make_unique<SyncJob>(plan, std::vector<GradientTensor>{}, config));
    }
    transport.m_jobs = {jobs[0].get(), jobs[1].get()};
    for (uint32_t r = 0; r < 2; ++r)
    {
        SyncJob& job = *jobs[r];
        job.SetTransport(&transport);
        job.SetLocalHosts(
            {r == 0, r == 1},
            [&jobs](uint32_t src, uint32_t dst, uint32_t qp, TransferId id, uint32_t parts) {
                const uint32_t iteration = jobs[src]->Iteration();
                const Time start = Simulator::Now();
                Simulator::Schedule(
                    kLookahead, [&jobs, src, dst, qp, id, parts, iteration, start]() {
                        jobs[dst]->RemotePosted(src, dst, qp, id, parts, iteration, start);
                    });
            });
        barriers[r] = std::make_unique<RankIterationBarrier>(
            2,
            r,
            [&barriers, r](uint32_t to, uint32_t iteration, Time end) {
                Simulator::Schedule(kLookahead, [&barriers, to, r, iteration, end]() {
                    barriers[to]->RemoteEnd(r, iteration, end);
                });
            },
            [&job](uint32_t, Time end) { job.BeginNextIteration(end); });
        job.SetIterationBarrier([&barriers, r](uint32_t iteration, Time end) {
            barriers[r]->LocalEnd(iteration, end);
        });
        job.InstallApplications([&nodes](uint32_t host) { return nodes.Get(host); });
        job.Start(Seconds(0));
    }
    Simulator::Run();
    TwoRankRun run;
    for (uint32_t i = 0; i < config.iterations; ++i)
    {
        EXPECT_TRUE(jobs[0]->Finished() && jobs[1]->Finished());
        run.gst.push_back(std::max(jobs[0]->Gst().at(i), jobs[1]->Gst().at(i)));
    }
    for (uint32_t r = 0; r < 2; ++r)
    {
        for (const SyncTransferTimes& t : jobs[r]->Transfers())
        {
            if (t.id == r) // posted on this rank
            {
                run.starts.push_back(t.start);
            }
        }
    }
    Simulator::Destroy();
    return run;
}

} // namespace

TEST(SyncApplicationLogic, OverRanksComputeOfALookaheadRunsIterationsAsOneProcess)
{
    // One process, compute C = 1 us: iteration i begins at T_i, both transfers post at
    // T_i + C and are delivered 2 us later: GST 2 us, T_{i+1} = T_i + 3 us (0, 3, 6 us).
    // Over the two ranks each rank ends at T_i + 3 us and learns the other's end L = 1 us
    // later, = T_i + 4 us, exactly when its posts are due: the same times.
    SyncJobConfig config;
    config.iterations = 3;
    config.compute = MicroSeconds(1);
    const TwoRankRun run = RunOnTwoRanks(CrossingPlan(), config);
    ASSERT_EQ(run.gst.size(), 3u);
    for (const Time& g : run.gst)
    {
        EXPECT_EQ(g, MicroSeconds(2));
    }
    // Rank 0's posts (iterations 0, 1, 2), then rank 1's.
    const std::vector<Time> want = {MicroSeconds(1), MicroSeconds(4), MicroSeconds(7)};
    ASSERT_EQ(run.starts.size(), 6u);
    for (size_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(run.starts[i], want[i % 3]) << "post " << i;
    }
}

TEST(SyncApplicationLogic, OverRanksWithoutComputeEachIterationPostsOneLookaheadLate)
{
    // Compute 0: one process posts iteration i+1 at T_end(i), the ranks at T_end(i) + L,
    // when they learn it. Iteration 0 posts at 0, ends at 2 us; iteration 1 posts at 3 us
    // (as of T = 2 us: its GST is 5 - 2 = 3 us, one L above one process's 2 us) and ends at
    // 5 us; iteration 2 posts at 6 us, ends at 8 us (GST 3 us).
    SyncJobConfig config;
    config.iterations = 3;
    const TwoRankRun run = RunOnTwoRanks(CrossingPlan(), config);
    ASSERT_EQ(run.gst.size(), 3u);
    EXPECT_EQ(run.gst[0], MicroSeconds(2));
    EXPECT_EQ(run.gst[1], MicroSeconds(3));
    EXPECT_EQ(run.gst[2], MicroSeconds(3));
    const std::vector<Time> want = {Seconds(0), MicroSeconds(3), MicroSeconds(6)};
    ASSERT_EQ(run.starts.size(), 6u);
    for (size_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(run.starts[i], want[i % 3]) << "post " << i;
    }
}
