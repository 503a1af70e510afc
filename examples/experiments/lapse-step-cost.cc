/*
 * lapse-step-cost: measures the compute of one SGD step of Lapse's workloads, the source of
 * the per-step compute of `lapse:preset=paper`.
 *
 * rescal: one RESCAL SGD step (Nickel, Tresp, Kriegel,
 * "A Three-Way Model for Collective Learning on Multi-Relational Data", ICML 2011) at the
 * dimension of Lapse's knowledge-graph experiment (Renz-Wieland et al., VLDB 2020: entity
 * vectors of d floats, relation matrices of d x d floats, d = 100).
 *
 * One step on a triple (h, r, t): x = R t, score = h . x, logistic loss gradient
 * g = sigmoid(score) - label; h -= lr g x; t -= lr g R^T h; R -= lr g h t^T (3 d^2 + 2 d
 * multiply-adds). The triples are drawn uniformly over E entities and Rn relations so that
 * the parameters do not all stay in the cache; the fastest of `repeats` timed runs is
 * reported, in thread CPU time (the machine is shared: time scheduled out does not
 * count, and the minimum is the least disturbed run).
 *
 * sgns: one skip-gram pair with k negative samples (Mikolov et al., NIPS 2013, as word2vec
 * computes it): for the context's and each negative's output vector o, g = lr (label -
 * sigmoid(v . o)); acc += g o; o += g v; then v += acc (3 (k + 1) d multiply-adds) over a
 * vocabulary of 10,000 words drawn uniformly.
 *
 *   g++ -O3 -march=native -DNDEBUG -I/usr/include/eigen3 lapse-step-cost.cc -o step-cost
 *   ./step-cost rescal|sgns [dim=100] [steps=20000] [repeats=5] [negatives=5]
 * Prints "model,dim,negatives,steps,ns_per_step".
 */
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <time.h>
#include <vector>

/// CPU time of this thread (ns): time the thread was scheduled out on the shared machine
/// does not count.
static double
ThreadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

namespace
{

/// Times `steps` RESCAL steps; returns the thread CPU ns.
double
TimeRescal(int dim, int steps, std::mt19937_64& rng, double& sink)
{
    const int entities = 10000;
    const int relations = 100;
    static std::vector<Eigen::VectorXf> e;
    static std::vector<Eigen::MatrixXf> r;
    if (e.empty())
    {
        for (int i = 0; i < entities; ++i)
        {
            e.push_back(Eigen::VectorXf::Random(dim) * 0.1f);
        }
        for (int i = 0; i < relations; ++i)
        {
            r.push_back(Eigen::MatrixXf::Random(dim, dim) * 0.1f);
        }
    }
    const float lr = 0.01f;
    const double start = ThreadCpuNs();
    for (int s = 0; s < steps; ++s)
    {
        const size_t h = rng() % entities;
        const size_t t = rng() % entities;
        const size_t rel = rng() % relations;
        const float label = (s % 2) ? 1.0f : 0.0f;
        const Eigen::VectorXf x = r[rel] * e[t];
        const float score = e[h].dot(x);
        const float g = lr * (1.0f / (1.0f + std::exp(-score)) - label);
        const Eigen::VectorXf gt = r[rel].transpose() * e[h];
        r[rel].noalias() -= g * e[h] * e[t].transpose();
        e[h] -= g * x;
        e[t] -= g * gt;
        sink += score;
    }
    return ThreadCpuNs() - start;
}

/// Times `steps` skip-gram pairs with k negatives; returns the thread CPU ns.
double
TimeSgns(int dim, int steps, int k, std::mt19937_64& rng, double& sink)
{
    const int vocab = 10000;
    static std::vector<Eigen::VectorXf> in;
    static std::vector<Eigen::VectorXf> out;
    if (in.empty())
    {
        for (int i = 0; i < vocab; ++i)
        {
            in.push_back(Eigen::VectorXf::Random(dim) * 0.1f);
            out.push_back(Eigen::VectorXf::Zero(dim));
        }
    }
    const float lr = 0.025f;
    Eigen::VectorXf acc(dim);
    const double start = ThreadCpuNs();
    for (int s = 0; s < steps; ++s)
    {
        Eigen::VectorXf& v = in[rng() % vocab];
        acc.setZero();
        for (int n = 0; n <= k; ++n)
        {
            Eigen::VectorXf& o = out[rng() % vocab];
            const float label = n == 0 ? 1.0f : 0.0f;
            const float dot = v.dot(o);
            const float g = lr * (label - 1.0f / (1.0f + std::exp(-dot)));
            acc += g * o;
            o += g * v;
            sink += dot;
        }
        v += acc;
    }
    return ThreadCpuNs() - start;
}

} // namespace

int
main(int argc, char** argv)
{
    const std::string model = argc > 1 ? argv[1] : "rescal";
    const int dim = argc > 2 ? std::atoi(argv[2]) : 100;
    const int steps = argc > 3 ? std::atoi(argv[3]) : 20000;
    const int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
    const int k = argc > 5 ? std::atoi(argv[5]) : 5;
    if ((model != "rescal" && model != "sgns") || dim < 1 || steps < 1 || repeats < 1 || k < 0)
    {
        std::fprintf(stderr,
                     "lapse-step-cost: model must be rescal or sgns, dim, steps and repeats "
                     ">= 1, negatives >= 0\n");
        return 2;
    }
    std::mt19937_64 rng(1);
    double best = 1e300;
    double sink = 0;
    for (int rep = 0; rep < repeats; ++rep)
    {
        best = std::min(best,
                        model == "rescal" ? TimeRescal(dim, steps, rng, sink)
                                          : TimeSgns(dim, steps, k, rng, sink));
    }
    std::printf("model,dim,negatives,steps,ns_per_step\n%s,%d,%d,%d,%.0f\n",
                model.c_str(),
                dim,
                model == "rescal" ? 0 : k,
                steps,
                best / steps);
    return sink == 12345.678 ? 1 : 0; // keeps the loops from being optimized away
}
