/*
 * Fluid estimator benchmark: times FluidEstimator::Estimate alone (plan compiled first) on
 * the cases that used to be slow, and prints one JSON line per case with the GST, wall and
 * CPU seconds of the estimate, the process's peak RSS before it (topology and plan) and
 * after it.
 * Usage: fluid-bench [CASE...]   cases: trees-fattree8 (trees, fattree:k=8, 32 MB),
 * mesh-1024 (mesh shape on fattree:k=16, 100 MB), ring-1024 (ring shape on fattree:k=16,
 * 100 MB), mesh-2000 (mesh shape on fattree:k=20, 100 MB: 4 M transfers, about 1 min),
 * trees-fattree12 (trees, fattree:k=12, 432 hosts, 32 MB: the packing takes seconds before
 * the timed estimate); default: the first three.
 */
#include "ns3/fluid-estimator.h"
#include "ns3/model-profile.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// The mesh plan's shape (workloads/mesh-algorithm.cc: reduce-scatter of N-1 transfers into
/// each host, then each host copies its reduced chunk to the N-1 others) without contributor
/// sets, and with each host's N-1 collect transfers gated by one co-located zero-time join
/// instead of N-1 dependencies each: the algorithm's own plan holds N^3 dependencies (4 GB
/// at 1,024 hosts), which is the plan's size, not the estimator's.
SyncPlan
MeshShape(uint32_t n, uint64_t w)
{
    SyncPlan plan;
    plan.algorithm = "mesh (bench shape)";
    plan.gradientBytes = w;
    plan.workers = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        plan.hostOf.push_back(i);
    }
    const ContributorSet any;
    std::vector<std::vector<TransferId>> received(n);
    const uint64_t chunk = w / n;
    for (uint32_t j = 0; j < n; ++j)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (i != j)
            {
                received[i].push_back(
                    plan.Add({0, j, i, 0, chunk, TransferOp::Reduce, any, {}, i, 0}));
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        const TransferId join = plan.Add(
            {0, i, i, 0, 1, TransferOp::Copy, any, std::move(received[i]), i, 1});
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i != j)
            {
                plan.Add({0, i, j, 0, chunk, TransferOp::Copy, any, {join}, i, 1});
            }
        }
    }
    return plan;
}

/// The ring plan's shape (as test/fluid-estimator-test.cc RingOn1024HostFatTree builds it).
SyncPlan
RingShape(uint32_t n, uint64_t w)
{
    SyncPlan plan;
    plan.algorithm = "ring (bench shape)";
    plan.gradientBytes = w;
    plan.workers = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        plan.hostOf.push_back(i);
    }
    const ContributorSet any;
    std::vector<TransferId> lastSend(n, kNoIndex);
    std::vector<TransferId> lastRecv(n, kNoIndex);
    for (uint32_t step = 0; step < 2 * (n - 1); ++step)
    {
        std::vector<TransferId> received = lastRecv;
        for (uint32_t i = 0; i < n; ++i)
        {
            std::vector<TransferId> deps;
            for (TransferId d : {lastSend[i], lastRecv[i]})
            {
                if (d != kNoIndex)
                {
                    deps.push_back(d);
                }
            }
            lastSend[i] = plan.Add(
                {0, i, (i + 1) % n, 0, w / n, TransferOp::Copy, any, deps, 0, step});
            received[(i + 1) % n] = lastSend[i];
        }
        lastRecv = received;
    }
    return plan;
}

double
CpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

void
Run(const std::string& name, const Topology& topology, const SyncPlan& plan)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    const long planRssKb = usage.ru_maxrss; // the topology and the plan, before the estimate
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();
    FluidResult r = FluidEstimator().Estimate(topology, plan);
    const double cpu = CpuSeconds() - cpu0;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    getrusage(RUSAGE_SELF, &usage);
    std::cout << std::setprecision(17) << "{\"case\":\"" << name
              << "\",\"transfers\":" << plan.transfers.size() << ",\"gst_s\":" << r.gstS
              << ",\"fluid_wall_s\":" << wall << ",\"fluid_cpu_s\":" << cpu
              << ",\"refills\":" << r.events << ",\"queue_pairs\":" << r.queuePairs
              << ",\"plan_rss_kb\":" << planRssKb << ",\"peak_rss_kb\":" << usage.ru_maxrss << "}"
              << std::endl;
}

} // namespace

int
main(int argc, char** argv)
{
    std::vector<std::string> cases(argv + 1, argv + argc);
    if (cases.empty())
    {
        cases = {"trees-fattree8", "mesh-1024", "ring-1024"};
    }
    for (const std::string& c : cases)
    {
        if (c == "trees-fattree8" || c == "trees-fattree12")
        {
            auto topo = MakeTopology(
                c == "trees-fattree8" ? "fattree:k=8" : "fattree:k=12", 40e9, 1e-6);
            SyncPlan plan = MakeSyncAlgorithm("trees")->Compile(
                *topo, ModelProfile::Load("bytes:32MB", "."));
            Run(c, *topo, plan);
        }
        else if (c == "mesh-1024" || c == "ring-1024" || c == "mesh-2000")
        {
            auto topo = MakeTopology(
                c == "mesh-2000" ? "fattree:k=20" : "fattree:k=16", 40e9, 1e-6);
            const uint64_t w = 100000000;
            const uint32_t n = topo->Graph().HostCount();
            Run(c, *topo, c == "ring-1024" ? RingShape(n, w) : MeshShape(n, w));
        }
        else
        {
            std::cerr << "fluid-bench: case '" << c
                      << "'; allowed: trees-fattree8, trees-fattree12, mesh-1024, ring-1024, "
                         "mesh-2000\n";
            return 2;
        }
    }
    return 0;
}
