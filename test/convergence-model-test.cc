// ConvergenceModel: logistic regression replayed at the versions of a schedule. Schedules
// are written by hand here; the reference is the same SGD written plainly in this file
// (std::vector loops, its own random numbers), so that a wrong gradient, slice, version or
// step in the model shows as a different loss.
#include "fixed-latency-transport.h"

#include "ns3/async-ps-job.h"
#include "ns3/async-ps-spec.h"
#include "ns3/convergence-live.h"
#include "ns3/convergence-model.h"
#include "ns3/simulator.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

namespace
{

using Versions = std::vector<std::vector<std::vector<uint64_t>>>;

/// The documented generator, written again: uniforms from the top 53 bits, Box-Muller.
struct PlainData
{
    std::vector<std::vector<double>> x;
    std::vector<double> y;

    explicit PlainData(const ConvergenceConfig& c)
    {
        std::mt19937_64 rng(c.seed);
        auto uniform = [&]() { return static_cast<double>(rng() >> 11) / 9007199254740992.0; };
        auto normal = [&]() {
            const double a = uniform();
            const double b = uniform();
            return std::sqrt(-2.0 * std::log(1.0 - a)) * std::cos(2.0 * M_PI * b);
        };
        std::vector<double> truth(c.features);
        for (double& t : truth)
        {
            t = normal();
        }
        for (uint32_t i = 0; i < c.samples; ++i)
        {
            std::vector<double> row(c.features);
            double dot = 0;
            for (uint32_t j = 0; j < c.features; ++j)
            {
                row[j] = normal();
                dot += row[j] * truth[j];
            }
            const bool flip = uniform() < c.labelNoise;
            x.push_back(row);
            y.push_back((dot > 0) != flip ? 1.0 : 0.0);
        }
    }

    double
    Loss(const std::vector<double>& theta) const
    {
        double sum = 0;
        for (size_t i = 0; i < x.size(); ++i)
        {
            double z = 0;
            for (size_t j = 0; j < theta.size(); ++j)
            {
                z += x[i][j] * theta[j];
            }
            sum += std::log(1.0 + std::exp(z)) - y[i] * z;
        }
        return sum / static_cast<double>(x.size());
    }
};

/// Plain replay: workers own samples i mod N, minibatches cycle, shards are equal ranges.
std::vector<double>
PlainReplay(const ConvergenceConfig& c,
            uint32_t workers,
            uint32_t shards,
            const std::vector<AppliedUpdate>& updates,
            const Versions& on)
{
    PlainData data(c);
    const uint32_t d = c.features;
    std::vector<uint32_t> shardOf(d);
    for (uint32_t j = 0, s = 0, left = d / shards + (0 < d % shards ? 1 : 0); j < d; ++j)
    {
        if (left == 0)
        {
            ++s;
            left = d / shards + (s < d % shards ? 1 : 0);
        }
        shardOf[j] = s;
        --left;
    }
    std::vector<double> theta(d, 0.0);
    // snapshots[s][v]: the whole theta when shard s had v updates (only s's part is read).
    std::vector<std::vector<std::vector<double>>> snapshots(shards, {theta});
    std::vector<double> losses;
    for (const AppliedUpdate& u : updates)
    {
        std::vector<double> model(d);
        for (uint32_t j = 0; j < d; ++j)
        {
            model[j] = snapshots[shardOf[j]][on[u.worker][u.iteration][shardOf[j]]][j];
        }
        std::vector<uint32_t> mine;
        for (uint32_t i = u.worker; i < c.samples; i += workers)
        {
            mine.push_back(i);
        }
        std::vector<double> g(d, 0.0);
        for (uint32_t b = 0; b < c.batch; ++b)
        {
            const uint32_t i = mine[(u.iteration * c.batch + b) % mine.size()];
            double z = 0;
            for (uint32_t j = 0; j < d; ++j)
            {
                z += data.x[i][j] * model[j];
            }
            const double p = 1.0 / (1.0 + std::exp(-z));
            for (uint32_t j = 0; j < d; ++j)
            {
                g[j] += (p - data.y[i]) * data.x[i][j] / c.batch;
            }
        }
        for (uint32_t j = 0; j < d; ++j)
        {
            if (shardOf[j] == u.shard)
            {
                theta[j] -= c.learningRate / workers * g[j];
            }
        }
        snapshots[u.shard].push_back(theta);
        losses.push_back(data.Loss(theta));
    }
    return losses;
}

/// Bulk-synchronous: iteration k of every worker computed on version k x N of every shard;
/// updates applied worker by worker, each to every shard.
void
Synchronous(uint32_t workers,
            uint32_t shards,
            uint32_t iterations,
            std::vector<AppliedUpdate>& updates,
            Versions& on)
{
    on.assign(workers, {});
    for (uint32_t k = 0; k < iterations; ++k)
    {
        for (uint32_t w = 0; w < workers; ++w)
        {
            on[w].push_back(std::vector<uint64_t>(shards, uint64_t{k} * workers));
            for (uint32_t s = 0; s < shards; ++s)
            {
                updates.push_back({w, k, s, w, Seconds(0)});
            }
        }
    }
}

ConvergenceConfig
Small()
{
    ConvergenceConfig c;
    c.samples = 256;
    c.features = 7; // over 2 shards: 4 + 3
    c.batch = 64;   // = 256 / 4 workers: each minibatch is the worker's whole share
    c.learningRate = 1.0;
    c.labelNoise = 0.1;
    c.seed = 7;
    return c;
}

} // namespace

TEST(ConvergenceModel, DataIsTheDocumentedGenerator)
{
    const ConvergenceConfig c = Small();
    ConvergenceModel model(c, 4, 2);
    PlainData plain(c);
    for (uint32_t i = 0; i < c.samples; ++i)
    {
        for (uint32_t j = 0; j < c.features; ++j)
        {
            ASSERT_EQ(model.Features()(i, j), plain.x[i][j]) << i << "," << j;
        }
        ASSERT_EQ(model.Labels()[i], plain.y[i]) << i;
    }
    // Both classes present (the noise flips about 10 %, the rest follow the sign).
    EXPECT_GT(model.Labels().sum(), 0.2 * c.samples);
    EXPECT_LT(model.Labels().sum(), 0.8 * c.samples);
    // At theta = 0 every sample costs log 2.
    EXPECT_NEAR(model.Loss(Eigen::VectorXd::Zero(c.features)), std::log(2.0), 1e-13);
}

TEST(ConvergenceModel, SynchronousRunLossDecreasesMonotonically)
{
    // 4 workers, 2 shards, each minibatch the worker's whole quarter of the data: after an
    // iteration's 8 updates theta moved by -(1/4) x (sum of the 4 quarter gradients) = -1 x
    // the full-data gradient, i.e. one step of gradient descent with step 1. The logistic
    // loss is L-smooth with L = lambda_max(X^T X) / (4 n), so a step below 2 / L decreases
    // it at every iteration (descent lemma) — checked here as the precondition.
    const ConvergenceConfig c = Small();
    ConvergenceModel model(c, 4, 2);
    const Eigen::MatrixXd xtx = model.Features().transpose() * model.Features();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(xtx);
    const double smooth = eig.eigenvalues().maxCoeff() / (4.0 * c.samples);
    ASSERT_LT(c.learningRate, 2.0 / smooth);
    std::vector<AppliedUpdate> updates;
    Versions on;
    Synchronous(4, 2, 20, updates, on);
    const std::vector<double> losses = model.Replay(updates, on);
    ASSERT_EQ(losses.size(), 160u);
    double previous = std::log(2.0); // theta = 0
    for (uint32_t k = 0; k < 20; ++k)
    {
        const double loss = losses[8 * k + 7];
        EXPECT_LT(loss, previous) << "iteration " << k;
        previous = loss;
    }
}

TEST(ConvergenceModel, SynchronousAndStaleRunsMatchPlainSgd)
{
    const ConvergenceConfig c = Small();
    std::vector<AppliedUpdate> updates;
    Versions on;
    Synchronous(4, 2, 5, updates, on);
    ConvergenceModel model(c, 4, 2);
    const std::vector<double> losses = model.Replay(updates, on);
    const std::vector<double> plain = PlainReplay(c, 4, 2, updates, on);
    ASSERT_EQ(losses.size(), plain.size());
    for (size_t i = 0; i < plain.size(); ++i)
    {
        EXPECT_NEAR(losses[i], plain[i], 1e-12) << "update " << i;
    }
    // A stale, unequal schedule: worker 3 computed every iteration on version 0 (it never
    // pulls), the shards stand at different versions (worker 1 skips shard 1: dropped),
    // minibatches of 16 so iterations move through each worker's samples.
    ConvergenceConfig m = c;
    m.batch = 16;
    std::vector<AppliedUpdate> stale;
    Versions son(4);
    uint64_t v0 = 0;
    uint64_t v1 = 0;
    for (uint32_t k = 0; k < 6; ++k)
    {
        for (uint32_t w = 0; w < 4; ++w)
        {
            son[w].push_back(w == 3 ? std::vector<uint64_t>{0, 0} : std::vector<uint64_t>{v0, v1});
            stale.push_back({w, k, 0, 0, Seconds(0)});
            if (w != 1)
            {
                stale.push_back({w, k, 1, 0, Seconds(0)});
            }
        }
        v0 += 4;
        v1 += 3;
    }
    ConvergenceModel staleModel(m, 4, 2);
    const std::vector<double> staleLosses = staleModel.Replay(stale, son);
    const std::vector<double> stalePlain = PlainReplay(m, 4, 2, stale, son);
    ASSERT_EQ(staleLosses.size(), stalePlain.size());
    for (size_t i = 0; i < stalePlain.size(); ++i)
    {
        EXPECT_NEAR(staleLosses[i], stalePlain[i], 1e-12) << "update " << i;
    }
    // Staleness matters: the two schedules' final losses differ.
    EXPECT_NE(staleLosses.back(), losses.back());
}

TEST(ConvergenceModel, AVersionNotReachedYetIsRefused)
{
    ConvergenceModel model(Small(), 4, 2);
    // Worker 0's first update claims it computed on version 1 of shard 0: none applied yet.
    std::vector<AppliedUpdate> updates{{0, 0, 0, 0, Seconds(0)}};
    Versions on{{{1, 0}}, {}, {}, {}};
    EXPECT_THROW(model.Replay(updates, on), std::invalid_argument);
}

TEST(ConvergenceModel, TheJobRecordsTheVersionsItsDelaysImply)
{
    // Two workers, ASP over the fixed-latency transport: each update's delay is its
    // shard's version at apply minus the version it was computed on, so the version at
    // apply (its position among its shard's updates) minus the delay must be what
    // ComputedOn() says, and the replay accepts the run.
    AsyncPsConfig c;
    c.workers = 2;
    c.servers = 2;
    c.modelBytes = 1000;
    c.iterations = 4;
    c.compute = MilliSeconds(1);
    AsyncPsJob job(c);
    FixedLatencyTransport transport(&job);
    job.SetTransport(&transport);
    job.Start(Seconds(0));
    Simulator::Run();
    std::vector<uint64_t> version(2, 0);
    for (const AppliedUpdate& u : job.Updates())
    {
        EXPECT_EQ(version[u.shard] - u.delay, job.ComputedOn()[u.worker][u.iteration][u.shard]);
        ++version[u.shard];
    }
    ConvergenceModel model(Small(), 2, 2);
    EXPECT_EQ(model.Replay(job.Updates(), job.ComputedOn()).size(), 16u);
    Simulator::Destroy();
}

TEST(ConvergenceModel, TrainIsAnOptionOfEveryAsyncSystem)
{
    // Defaults stay out of the canonical name; lr only with train.
    const AsyncPsSpec plain = AsyncPsSpec::Parse("asp", 11);
    EXPECT_EQ(plain.canonical, "asp:servers=1");
    EXPECT_FALSE(plain.train);
    const AsyncPsSpec m = AsyncPsSpec::Parse("mlfabric:delay=4,train=logreg,lr=8", 11);
    EXPECT_EQ(m.canonical, "mlfabric:servers=1,delay=4,train=logreg,lr=8");
    AsyncPsConfig c;
    m.ApplyTo(c, 11);
    EXPECT_TRUE(c.train);
    EXPECT_EQ(c.training.learningRate, 8.0);
    EXPECT_TRUE(c.normPriority); // mlfabric's default with train: norms weigh SJF
    // norms=0 (completion time alone) is named; norms is an mlfabric key, with train only.
    const AsyncPsSpec n = AsyncPsSpec::Parse("mlfabric:train=logreg,norms=0", 11);
    EXPECT_EQ(n.canonical, "mlfabric:servers=1,train=logreg,norms=0");
    n.ApplyTo(c, 11);
    EXPECT_FALSE(c.normPriority);
    EXPECT_THROW(AsyncPsSpec::Parse("asp:train=logreg,norms=0", 11), std::invalid_argument);
    EXPECT_THROW(AsyncPsSpec::Parse("mlfabric:norms=0", 11), std::invalid_argument);
    EXPECT_THROW(AsyncPsSpec::Parse("ssp:train=sgd", 11), std::invalid_argument);
    EXPECT_THROW(AsyncPsSpec::Parse("asp:lr=8", 11), std::invalid_argument);
    // 32 parameters cannot be split over 40 servers.
    EXPECT_THROW(AsyncPsSpec::Parse("asp:servers=40,train=logreg", 50), std::invalid_argument);
}

TEST(ConvergenceModel, MlfabricGrantsTheLargestGradientNormFirst)
{
    // Four workers, one server, one iteration of 1 ms over the fixed-latency transport, no
    // paths and equal rates (every push costs the same time). At 1 ms w0 requests first and
    // is granted; w1..w3 wait. Their delays at the next slots are 1 and 2 < N - 1 = 3, so
    // only shortest-job-first decides: with norms, the most gradient norm per second of
    // link, i.e. the largest norm first; without, the tie goes to the earliest request.
    // Every worker computed on version 0 (theta = 0), where the gradient of worker w's
    // first minibatch is (1/b) sum_j x_i (1/2 - y_i), i = w + 4 j, j < b (written plainly
    // here from the documented generator).
    AsyncPsConfig c;
    c.workers = 4;
    c.servers = 1;
    c.modelBytes = 1000;
    c.iterations = 1;
    c.compute = MilliSeconds(1);
    c.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    c.train = true;
    const PlainData data(c.training);
    std::vector<std::pair<double, uint32_t>> norms;
    for (uint32_t w = 1; w < 4; ++w)
    {
        std::vector<double> g(c.training.features, 0.0);
        for (uint32_t j = 0; j < c.training.batch; ++j)
        {
            const uint32_t i = w + 4 * j;
            for (uint32_t f = 0; f < c.training.features; ++f)
            {
                g[f] += data.x[i][f] * (0.5 - data.y[i]) / c.training.batch;
            }
        }
        double sq = 0;
        for (double v : g)
        {
            sq += v * v;
        }
        norms.push_back({-std::sqrt(sq), w}); // sorts the largest first
    }
    std::sort(norms.begin(), norms.end());
    const std::vector<uint32_t> expected{0, norms[0].second, norms[1].second, norms[2].second};
    // The data must make the two orders differ, or the test could not tell them apart.
    ASSERT_NE(expected, (std::vector<uint32_t>{0, 1, 2, 3}));
    for (bool byNorm : {true, false})
    {
        c.normPriority = byNorm;
        AsyncPsJob job(c);
        FixedLatencyTransport transport(&job);
        job.SetTransport(&transport);
        job.Start(Seconds(0));
        Simulator::Run();
        std::vector<uint32_t> order;
        for (const PushSlot& slot : job.Slots()[0])
        {
            order.push_back(slot.worker);
        }
        EXPECT_EQ(order, byNorm ? expected : (std::vector<uint32_t>{0, 1, 2, 3})) << byNorm;
        Simulator::Destroy();
    }
}

TEST(ConvergenceModel, TheLiveModelFollowsTheSameSgdAsTheReplay)
{
    // LiveGradientNorms applies each update when the job applies it; after a stale,
    // sharded schedule its model must be the one Replay() computes after the run.
    const ConvergenceConfig c = Small();
    std::vector<AppliedUpdate> updates;
    Versions on;
    Synchronous(4, 2, 3, updates, on);
    // Make it stale: worker 3 computed every iteration on version 0 of shard 1.
    for (auto& v : on[3])
    {
        v[1] = 0;
    }
    LiveGradientNorms live(c, 4, 2);
    for (const AppliedUpdate& u : updates)
    {
        live.Norms(u.worker, u.iteration, on[u.worker][u.iteration]);
        live.Applied(u.worker, u.iteration, u.shard, on[u.worker][u.iteration]);
    }
    ConvergenceModel model(c, 4, 2);
    model.Replay(updates, on);
    EXPECT_LT((live.Theta() - model.Theta()).norm(), 1e-12);
    EXPECT_GT(model.Theta().norm(), 0.1); // it moved
}
