/*
 * paramsync-mpi-check: one flow pattern on one topology, run in one process or partitioned
 * over the ranks of MPI_COMM_WORLD (ParamsyncHelper::SetRanks), printing on rank 0 what the
 * equivalence tests compare (test/mpi/run-mpi-tests.sh): each flow's completion time, the
 * last completion, PFC pause frames, drops and ECN marks summed over the ranks.
 *
 *   paramsync-mpi-check --topology=fattree:k=4 --pattern=shift --bytes=1000000 [--mpi=1]
 *   paramsync-mpi-check --topology=fattree:k=4 --sync=ring --bytes=1000000 --iterations=3
 *
 * With --sync, a ParamsyncHelper sync job (InstallSyncJob, a plan of --bytes of gradient;
 * no compute time) run by ParamsyncHelper::Run, which gathers on rank 0: each iteration's
 * GST, the routed bound and fair figure, the last delivery and the counters. --misuse=1
 * adds a flow beside the plan, which ParamsyncHelper refuses over ranks: the refusal's line
 * on stderr (rank 0's) and exit 2.
 *
 * Patterns: shift (host i sends to host (i + H/2) mod H: a permutation whose every flow
 * crosses between the halves the partition puts on two ranks), incast (hosts 1..H-1 send to
 * host 0 at once: PFC pauses on a lossless fabric).
 */
#include "ns3/core-module.h"
#include "ns3/mpi-interface.h"
#include "ns3/network-recorder.h"
#include "ns3/paramsync-helper.h"
#include "ns3/roce-sync-transport.h"
#include "ns3/topology.h"

#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{
/// (src, dst) of every flow of a pattern over `hosts` hosts.
std::vector<std::pair<uint32_t, uint32_t>>
Pattern(const std::string& pattern, uint32_t hosts)
{
    std::vector<std::pair<uint32_t, uint32_t>> flows;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        if (pattern == "shift")
        {
            flows.emplace_back(h, (h + hosts / 2) % hosts);
        }
        else if (pattern == "incast" && h > 0)
        {
            flows.emplace_back(h, 0);
        }
    }
    return flows;
}

/// Sums (or takes the max of) values over the ranks onto rank 0; the values as they are
/// on one rank.
template<typename T>
void
Reduce(std::vector<T>& values, MPI_Datatype type, MPI_Op op, bool mpi)
{
    if (!mpi)
    {
        return;
    }
    std::vector<T> out(values.size());
    MPI_Reduce(values.data(),
               out.data(),
               static_cast<int>(values.size()),
               type,
               op,
               0,
               MpiInterface::GetCommunicator());
    values = out;
}

/// Nanoseconds of seconds (-1 stays -1).
long long
Ns(double seconds)
{
    return seconds < 0 ? -1 : std::llround(seconds * 1e9);
}

/// The --sync run: InstallSyncJob and ParamsyncHelper::Run; prints rank 0's merged result.
int
RunSync(const std::string& topology,
        const std::string& algorithm,
        uint64_t bytes,
        uint32_t iterations,
        bool misuse,
        bool mpi)
{
    const uint32_t ranks = mpi ? MpiInterface::GetSize() : 1;
    const uint32_t self = mpi ? MpiInterface::GetSystemId() : 0;
    RunResult r;
    {
        ParamsyncHelper helper;
        helper.SetTopology(topology, DataRate("100Gbps"), MicroSeconds(1));
        helper.SetRanks(ranks, self);
        helper.Install();
        try
        {
            helper.InstallSyncJob(algorithm, "bytes:" + std::to_string(bytes), iterations);
            if (misuse)
            {
                helper.AddFlow(0, 1, bytes, Seconds(0));
            }
        }
        catch (const std::invalid_argument& e)
        {
            if (self == 0)
            {
                std::fprintf(stderr, "paramsync-mpi-check: %s\n", e.what());
            }
            Simulator::Destroy();
            return 2;
        }
        r = helper.Run(Seconds(1));
        Simulator::Destroy();
    }
    if (self == 0)
    {
        for (size_t i = 0; i < r.gstPerIterationS.size(); ++i)
        {
            std::printf("gst_iteration_%zu %lld\n", i, Ns(r.gstPerIterationS[i]));
        }
        std::printf("gst_ns %lld\nbound_ns %lld\nfair_ns %lld\nlast_ns %lld\ndelay_ns 1000\n"
                    "pause_frames %llu\ndrops %llu\necn_marks %llu\ncompleted %d\n",
                    Ns(r.gstS),
                    Ns(r.boundGstS),
                    Ns(r.fairGstS),
                    Ns(r.simS),
                    static_cast<unsigned long long>(r.pfcPauseFrames),
                    static_cast<unsigned long long>(r.drops),
                    static_cast<unsigned long long>(r.ecnMarks),
                    r.completed ? 1 : 0);
    }
    return 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string topology = "star:n=8";
    std::string pattern = "shift";
    uint64_t bytes = 1000000;
    bool mpi = false;
    std::string sync;
    uint32_t iterations = 1;
    bool misuse = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology spec", topology);
    cmd.AddValue("pattern", "shift or incast", pattern);
    cmd.AddValue("bytes", "bytes per flow", bytes);
    cmd.AddValue("mpi", "partition over the ranks of MPI_COMM_WORLD", mpi);
    cmd.AddValue("sync", "a sync plan's algorithm instead of the flow pattern", sync);
    cmd.AddValue("iterations", "the sync plan's iterations", iterations);
    cmd.AddValue("misuse", "a flow beside the sync plan (refused over ranks)", misuse);
    cmd.Parse(argc, argv);
    if (pattern != "shift" && pattern != "incast")
    {
        std::fprintf(stderr, "--pattern: '%s' is not one of shift, incast\n", pattern.c_str());
        return 2;
    }
    if (mpi)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
    }
    ObjectFactory scheduler("ns3::QuadHeapScheduler"); // the driver's scheduler
    Simulator::SetScheduler(scheduler);
    if (!sync.empty())
    {
        const int code = RunSync(topology, sync, bytes, iterations, misuse, mpi);
        if (mpi)
        {
            MpiInterface::Disable();
        }
        return code;
    }
    const uint32_t ranks = mpi ? MpiInterface::GetSize() : 1;
    const uint32_t self = mpi ? MpiInterface::GetSystemId() : 0;

    std::vector<int64_t> endNs;
    std::vector<uint64_t> counts;
    std::vector<std::pair<uint32_t, uint32_t>> flows;
    {
        ParamsyncHelper helper;
        helper.SetTopology(topology, DataRate("100Gbps"), MicroSeconds(1));
        helper.SetRanks(ranks, self);
        const PfcNetwork& net = helper.Install();
        const NetworkRecorder recorder(net);
        flows = Pattern(pattern, helper.GetTopology()->Graph().HostCount());
        endNs.assign(flows.size(), -1);
        RoceSyncTransport& transport = helper.Transport();
        for (size_t i = 0; i < flows.size(); ++i)
        {
            // Every rank posts every flow (the transport sends only a local source's);
            // the destination's rank sees it complete.
            Simulator::Schedule(Seconds(0), [&transport, &flows, &endNs, bytes, i]() {
                transport.SendFlow(flows[i].first, flows[i].second, bytes, [&endNs, i]() {
                    endNs[i] = Simulator::Now().GetNanoSeconds();
                });
            });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        counts = {recorder.PauseFrames(), recorder.Drops(), recorder.EcnMarks()};
        Simulator::Destroy();
    }
    Reduce(endNs, MPI_INT64_T, MPI_MAX, mpi);
    Reduce(counts, MPI_UINT64_T, MPI_SUM, mpi);
    if (self == 0)
    {
        int64_t last = -1;
        for (size_t i = 0; i < flows.size(); ++i)
        {
            std::printf("flow %zu %u->%u end_ns %lld\n",
                        i,
                        flows[i].first,
                        flows[i].second,
                        static_cast<long long>(endNs[i]));
            last = std::max(last, endNs[i]);
        }
        std::printf("last_ns %lld\npause_frames %llu\ndrops %llu\necn_marks %llu\n",
                    static_cast<long long>(last),
                    static_cast<unsigned long long>(counts[0]),
                    static_cast<unsigned long long>(counts[1]),
                    static_cast<unsigned long long>(counts[2]));
    }
    if (mpi)
    {
        MpiInterface::Disable();
    }
    return 0;
}
