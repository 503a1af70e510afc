/**
 * \file
 * first-experiment: the paramsync tutorial. Builds a BCube(3,1) data-center network of
 * RoCEv2 NICs and PFC switches with ParamsyncHelper, replays one ring allreduce of a
 * gradient over it packet by packet, counts PFC pause frames through a Config path, and
 * prints the gradient synchronization time (GST).
 *
 *     build/first-experiment                          # ring, bytes:10MB, bcube:n=3,k=1
 *     build/first-experiment --algorithm=hd --model=vgg16 --rate=100Gbps
 *     build/first-experiment --out=results/first      # also writes transfers.csv there
 *     build/first-experiment --help                   # every option with its default
 * In an ns-3 tree (contrib/paramsync): ./ns3 run "first-experiment --algorithm=hd".
 * Exit codes: 0 ok; 2 bad input (one stderr line naming it); 3 the sync did not complete.
 */
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/paramsync-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

using namespace ns3;

/// Counts pause frames of every port (trace source PfcNetDevice::PauseSent).
static uint64_t g_pauses = 0;

static void
OnPauseSent(uint8_t priority, uint16_t quanta)
{
    g_pauses += quanta > 0 ? 1 : 0; // quanta 0 is a resume, not a pause
}

int
main(int argc, char* argv[])
{
    std::string topology = "bcube:n=3,k=1";
    std::string algorithm = "ring";
    std::string model = "bytes:10MB";
    std::string rate = "40Gbps";
    uint32_t delayNs = 1000;
    uint32_t bufferKb = 32 * 1024;
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology spec (topologies/README.md), e.g. fattree:k=4", topology);
    cmd.AddValue("algorithm", "sync algorithm: ring, hd, dbtree, mesh, ps, ...", algorithm);
    cmd.AddValue("model", "model profile: vgg16, resnet50, ... or bytes:SIZE", model);
    cmd.AddValue("rate", "link rate, e.g. 40Gbps", rate);
    cmd.AddValue("delay", "link propagation delay in ns", delayNs);
    cmd.AddValue("buffer", "shared buffer of each switch in KiB", bufferKb);
    cmd.AddValue("out", "directory for transfers.csv (empty: none)", out);
    cmd.Parse(argc, argv);

    DataRateValue linkRate;
    if (!linkRate.DeserializeFromString(rate, nullptr))
    {
        std::cerr << "first-experiment: --rate '" << rate << "': allowed a rate like 40Gbps\n";
        return 2;
    }
    ParamsyncHelper helper;
    helper.SetSwitchAttribute("BufferSize", UintegerValue(uint64_t{bufferKb} * 1024));
    try
    {
        helper.SetTopology(topology, linkRate.Get(), NanoSeconds(delayNs));
        // Nothing scheduled yet: ns-3 need not record the Times the build creates.
        ParamsyncHelper::EndTimeMarking();
        helper.Install();
        helper.InstallSyncJob(algorithm, model);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "first-experiment: " << e.what() << "\n";
        return 2;
    }
    Config::ConnectWithoutContext(ParamsyncHelper::PauseSentPath(), MakeCallback(&OnPauseSent));

    RunResult r = helper.Run(Seconds(10));
    Simulator::Destroy();

    std::cout << r.algorithm << " on " << r.topology << ", " << r.gradientBytes << " B per worker, "
              << r.workers << " workers\n"
              << "GST " << r.gstS * 1e3 << " ms, " << r.transfers.size() << " transfers, "
              << g_pauses << " PFC pause frames, " << r.drops << " drops\n";
    if (!out.empty())
    {
        std::filesystem::create_directories(out);
        std::ofstream csv(out + "/transfers.csv");
        csv << "src,dst,bytes,start_s,end_s\n";
        for (const TransferRecord& t : r.transfers)
        {
            csv << t.src << "," << t.dst << "," << t.bytes << "," << t.startS << "," << t.endS
                << "\n";
        }
    }
    return r.completed ? 0 : 3;
}
