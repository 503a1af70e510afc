/*
 * paramsync-mpi-check: one flow pattern on one topology, run in one process or partitioned
 * over the ranks of MPI_COMM_WORLD (ParamsyncHelper::SetRanks), printing on rank 0 what the
 * equivalence tests compare (test/mpi/run-mpi-tests.sh): each flow's completion time, the
 * last completion, PFC pause frames, drops and ECN marks summed over the ranks.
 *
 *   paramsync-mpi-check --topology=fattree:k=4 --pattern=shift --bytes=1000000 [--mpi=1]
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

#include <cstdio>
#include <mpi.h>
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
} // namespace

int
main(int argc, char* argv[])
{
    std::string topology = "star:n=8";
    std::string pattern = "shift";
    uint64_t bytes = 1000000;
    bool mpi = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology spec", topology);
    cmd.AddValue("pattern", "shift or incast", pattern);
    cmd.AddValue("bytes", "bytes per flow", bytes);
    cmd.AddValue("mpi", "partition over the ranks of MPI_COMM_WORLD", mpi);
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
