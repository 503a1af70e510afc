/*
 * A program a user writes against the installed paramsync (test/consumer/CMakeLists.txt and
 * the pkg-config build of run-consumer-test.sh): loads a built-in model profile with no
 * directory given (the installed data must be found), and runs a ring allreduce through
 * ParamsyncHelper. Prints "consumer ok" and exits 0 when every check holds, else exits 1.
 */
#include "ns3/core-module.h"
#include "ns3/model-profile.h"
#include "ns3/paramsync-helper.h"

#include <iostream>
#include <string>

using namespace ns3;

namespace
{

int g_failures = 0;

void
Check(bool ok, const std::string& what)
{
    if (!ok)
    {
        std::cerr << "consumer: FAILED " << what << "\n";
        ++g_failures;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string prefix;
    CommandLine cmd(__FILE__);
    cmd.AddValue("prefix", "install prefix the model profiles must come from", prefix);
    cmd.Parse(argc, argv);

    // Found relative to the installed library: PREFIX/share/paramsync/models.
    const std::string models = ModelProfile::DefaultModelsDir();
    Check(models.find(prefix) == 0 && models.find("share/paramsync/models") != std::string::npos,
          "models directory '" + models + "' under " + prefix + "/share/paramsync/models");
    // VGG-16 has 138,357,544 fp32 parameters (Simonyan & Zisserman 2015, configuration D;
    // the Keras count), 4 bytes each = 553,430,176 bytes.
    ModelProfile vgg = ModelProfile::Load("vgg16", "");
    Check(vgg.TotalParams() == 138357544 && vgg.TotalBytes() == 553430176,
          "vgg16 totals " + std::to_string(vgg.TotalParams()) + " params, " +
              std::to_string(vgg.TotalBytes()) + " B");

    ParamsyncHelper helper;
    helper.SetTopology("star:n=4", DataRate("40Gbps"), MicroSeconds(1));
    helper.Install();
    helper.InstallSyncJob("ring", "bytes:1MB");
    RunResult r = helper.Run(Seconds(1));
    Simulator::Destroy();
    // A ring allreduce of N = 4 workers: 2 (N - 1) steps, each worker sends one chunk per
    // step: 2 x 4 x 3 = 24 transfers of W / N = 250,000 B (bytes:1MB = 10^6 B).
    Check(r.completed, "ring on star:n=4 completed");
    Check(r.transfers.size() == 24, "24 transfers, got " + std::to_string(r.transfers.size()));
    Check(!r.transfers.empty() && r.transfers.front().bytes == 250000, "250000 B per transfer");
    // Lower bound: every worker sends 2 (N - 1) / N x W = 1.5 MB through its one 40 Gb/s
    // link, 1.5e6 x 8 / 40e9 = 300 us, so GST > 300 us.
    Check(r.gstS > 300e-6, "GST " + std::to_string(r.gstS) + " s above the 300 us bound");
    if (g_failures == 0)
    {
        std::cout << "consumer ok: GST " << r.gstS * 1e6 << " us\n";
    }
    return g_failures == 0 ? 0 : 1;
}
