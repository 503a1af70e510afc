// The registry of --algorithm (helper/job-registry.h) and the backends' refusals
// (helper/backend.h): what the help says, what "all" runs, what a backend cannot serve.
#include "ns3/backend.h"
#include "ns3/driver-options.h"
#include "ns3/job-registry.h"
#include "ns3/option-values.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Options as the driver holds them after Validate(), for a 1 MB model.
DriverOptions
Options(const std::string& algorithm, const std::string& backend)
{
    DriverOptions o;
    o.algorithm = algorithm;
    o.backend = backend;
    o.model = "bytes:1MB";
    return o;
}

/// The message of the OptionError that preparing `algorithm` on `backend` throws ("" if none).
std::string
PrepareError(const std::string& algorithm, const std::string& backend)
{
    const auto topology = MakeTopology("star:n=4", 40e9, 1e-6);
    const DriverOptions o = Options(algorithm, backend);
    const FlowInput flows;
    const auto b = Backend::Make(o, *topology, flows);
    try
    {
        JobRegistry::Prepare({o, *topology, *b, false});
    }
    catch (const OptionError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(JobRegistry, HelpNamesEverySystemTheRegistryRuns)
{
    const std::string help = JobRegistry::Help();
    // Every sync algorithm of workloads/sync-algorithm.cc, each asynchronous system, Lapse,
    // none and all: the help is generated, so a new registry line shows in it.
    for (const std::string& name : SyncAlgorithmNames())
    {
        EXPECT_NE(help.find(name), std::string::npos) << name;
    }
    for (const char* name : {"asp", "ssp", "mlfabric", "lapse", "none", "'all'"})
    {
        EXPECT_NE(help.find(name), std::string::npos) << name;
    }
}

TEST(JobRegistry, AllIsEverySyncPlanThatAppliesAndNothingElse)
{
    const auto topology = MakeTopology("star:n=4", 40e9, 1e-6);
    const DriverOptions o = Options("all", "fluid");
    const FlowInput flows;
    const auto backend = Backend::Make(o, *topology, flows);
    const PreparedSystems systems = JobRegistry::Prepare({o, *topology, *backend, false});
    // "all" is the sync-plans row alone: one system per algorithm that applies to the star,
    // each with a plan over its 4 hosts (ps dedicates one host to the server: 3 workers),
    // and no asynchronous system, Lapse or "none".
    size_t applies = 0;
    for (const std::string& name : SyncAlgorithmNames())
    {
        std::string why;
        applies += MakeSyncAlgorithm(name)->AppliesTo(*topology, why) ? 1 : 0;
    }
    ASSERT_EQ(systems.size(), applies);
    for (const auto& s : systems)
    {
        ASSERT_NE(s->Plan(), nullptr) << s->Spec();
        EXPECT_GE(s->Plan()->workers, 3u) << s->Spec();
        EXPECT_LE(s->Plan()->workers, 4u) << s->Spec();
        EXPECT_EQ(s->ModelName(), "bytes:1MB");
        EXPECT_NE(s->MakeJob(), nullptr) << s->Spec();
    }
}

TEST(JobRegistry, PacketOnlySystemsAreRefusedByTheFluidBackendAndNoneNeedsFlows)
{
    EXPECT_NE(PrepareError("asp", "fluid").find("--backend: asp"), std::string::npos);
    EXPECT_NE(PrepareError("lapse", "fluid").find("--backend: lapse"), std::string::npos);
    EXPECT_EQ(PrepareError("asp", "packet"), "");
    EXPECT_NE(PrepareError("none", "packet").find("allowed only with --flows"), std::string::npos);
    // An unknown name goes to the sync-plans row, which lists the algorithms.
    EXPECT_NE(PrepareError("nosuch", "packet").find("allowed: "), std::string::npos);
}

TEST(Backend, EachNameMakesItsBackendAndFluidRefusesPacketEvents)
{
    const auto topology = MakeTopology("star:n=4", 40e9, 1e-6);
    const FlowInput flows;
    DriverOptions o = Options("ring", "fluid");
    auto fluid = Backend::Make(o, *topology, flows);
    EXPECT_EQ(fluid->Name(), "fluid");
    EXPECT_FALSE(fluid->SimulatesPackets());
    EXPECT_TRUE(fluid->UsesRoundForms());
    o.pauseStorm.host = 1; // a pause storm is made of frames: nothing the estimator has
    try
    {
        fluid->Check();
        FAIL() << "--pause-storm accepted on the fluid backend";
    }
    catch (const OptionError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "--pause-storm: a packet-level event; allowed: --backend=packet");
    }
    o.backend = "packet";
    auto packet = Backend::Make(o, *topology, flows);
    EXPECT_EQ(packet->Name(), "packet");
    EXPECT_TRUE(packet->SimulatesPackets());
    EXPECT_FALSE(packet->UsesRoundForms());
}
