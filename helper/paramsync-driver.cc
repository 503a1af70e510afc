#include "paramsync-driver.h"

#include "build-info.h"
#include "packet-sync-run.h"
#include "resource-estimate.h"
#include "results-writer.h"
#include "trace-event-writer.h"

#include "ns3/async-ps-spec.h"
#include "ns3/command-line.h"
#include "ns3/config-store.h"
#include "ns3/config.h"
#include "ns3/file-topology.h"
#include "ns3/fluid-estimator.h"
#include "ns3/lapse-spec.h"
#include "ns3/plan-checker.h"
#include "ns3/round-fluid-estimator.h"
#include "ns3/string.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The message of a pure-code error, prefixed with the option unless it names one already.
OptionError
AsOptionError(const std::string& option, const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
    {
        throw; // out of memory is not the option's fault: Main reports it
    }
    std::string msg = e.what();
    // One line: a multi-line message keeps its first line.
    msg = msg.substr(0, msg.find('\n'));
    if (msg.rfind(option, 0) == 0)
    {
        return OptionError(msg);
    }
    return OptionError(option + ": " + msg);
}

/**
 * Every ns-3 attribute default as used (including --ns3::Type::Attr= overrides), in
 * ConfigStore's raw-text format, so that a run can be reproduced exactly (loadable back
 * with ConfigStore LOAD). ConfigStore picks its file when constructed, from its attribute
 * defaults, so those are set first and restored after.
 */
std::string
Ns3AttributeDefaults()
{
    char path[] = "/tmp/paramsync-attributes-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
    {
        throw std::runtime_error("cannot create a temporary file for the ns-3 attributes");
    }
    close(fd);
    Config::SetDefault("ns3::ConfigStore::Filename", StringValue(path));
    Config::SetDefault("ns3::ConfigStore::Mode", StringValue("Save"));
    Config::SetDefault("ns3::ConfigStore::FileFormat", StringValue("RawText"));
    {
        ConfigStore store;
        store.ConfigureDefaults();
    } // the file is complete when the store is gone
    Config::SetDefault("ns3::ConfigStore::Filename", StringValue(""));
    Config::SetDefault("ns3::ConfigStore::Mode", StringValue("None"));
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    std::remove(path);
    // The store's own file name is this temporary one, different at every run: record "".
    std::string saved = text.str();
    const std::string name = "\"" + std::string(path) + "\"";
    const size_t at = saved.find(name);
    return at == std::string::npos ? saved : saved.replace(at, name.size(), "\"\"");
}

/// Refuses a file path whose directory the run could not write into (tried by creating
/// and removing a file there: permission bits alone do not tell, e.g. for root or /proc).
/// \throws OptionError
void
CheckWritable(const std::string& path, const std::string& option)
{
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "."
                                                       : (slash == 0 ? "/" : path.substr(0, slash));
    const std::string probe = dir + "/.paramsync-probe." + std::to_string(getpid());
    const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
    {
        throw OptionError(option + ": cannot write in '" + dir + "' (" + std::strerror(errno) +
                          "); allowed: a file in a writable directory");
    }
    close(fd);
    unlink(probe.c_str());
}

/**
 * Refuses an input file the readers should not start on: not a regular file (/dev/zero, a
 * FIFO, a directory), larger than kInputFileCap, or binary (a NUL byte in its first 64 KiB;
 * a UTF-8 byte-order mark is text). The readers read whole files into memory.
 * \throws OptionError
 */
void
CheckInputFile(const std::string& path, const std::string& option)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        return; // the reader names a missing file itself
    }
    if (!S_ISREG(st.st_mode))
    {
        throw OptionError(option + ": '" + path + "' is not a regular file; allowed: a text file");
    }
    if (static_cast<uint64_t>(st.st_size) > ParamsyncDriver::kInputFileCap)
    {
        throw OptionError(option + ": '" + path + "' has " + std::to_string(st.st_size) +
                          " bytes; allowed: at most " +
                          std::to_string(ParamsyncDriver::kInputFileCap) + " bytes");
    }
    std::ifstream in(path, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (head.find('\0') != std::string::npos)
    {
        throw OptionError(option + ": '" + path +
                          "' is a binary file (it holds NUL bytes); allowed: a text file");
    }
}

double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

ParamsyncDriver::ParamsyncDriver() = default;
ParamsyncDriver::~ParamsyncDriver() = default;

void
ParamsyncDriver::Prepare()
{
    const DriverOptions& o = m_options;
    if (o.topology.rfind("file:", 0) == 0)
    {
        CheckInputFile(o.topology.substr(5), "--topology");
    }
    if (!o.flows.empty())
    {
        CheckInputFile(o.flows, "--flows");
    }
    if (o.model.rfind("bytes:", 0) != 0 && o.model.find('/') != std::string::npos)
    {
        CheckInputFile(o.model, "--model");
    }
    try
    {
        m_topology = MakeTopology(o.topology, o.rateBps, o.delayS);
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--topology", e);
    }
    TopologyGraph& graph = m_topology->MutableGraph();
    for (uint32_t link : o.slowLinks)
    {
        if (link >= graph.LinkCount())
        {
            throw OptionError("--slow-link: " + std::to_string(link) + " is not a link of " +
                              m_topology->Spec() + "; allowed: 0.." +
                              std::to_string(graph.LinkCount() - 1) + " or -1");
        }
        graph.MutableLink(static_cast<LinkIndex>(link)).rateBps *= o.slowLinkFraction;
    }
    for (const auto& [event, option] :
         {std::pair{o.pauseStorm, "--pause-storm"}, std::pair{o.stopDraining, "--stop-draining"}})
    {
        if (event.host >= 0 && static_cast<uint64_t>(event.host) >= graph.HostCount())
        {
            throw OptionError(std::string(option) + ": host " + std::to_string(event.host) +
                              " is not a host of " + m_topology->Spec() +
                              "; allowed: host ranks 0.." + std::to_string(graph.HostCount() - 1));
        }
    }
    for (uint32_t host : o.slowHosts)
    {
        if (host >= graph.HostCount())
        {
            throw OptionError("--slow-hosts: " + std::to_string(host) + " is not a host of " +
                              m_topology->Spec() + "; allowed: host ranks 0.." +
                              std::to_string(graph.HostCount() - 1));
        }
        const NodeIndex v = graph.HostNode(host);
        for (uint32_t p = 0; p < graph.Ports(v).size(); ++p)
        {
            graph.MutableLink(graph.LinkAt(v, p)).rateBps *= o.slowLinkFraction;
        }
    }

    if (!o.flows.empty())
    {
        try
        {
            m_flows = FlowList::Load(o.flows);
        }
        catch (const std::exception& e)
        {
            throw AsOptionError("--flows", e);
        }
        const auto* file = dynamic_cast<const FileTopology*>(m_topology.get());
        for (const auto& f : m_flows)
        {
            for (uint32_t id : {f.src, f.dst})
            {
                uint32_t rank = id;
                if (file)
                {
                    try
                    {
                        rank = file->HostRankOfFileId(id);
                    }
                    catch (const std::exception& e)
                    {
                        throw AsOptionError("--flows", e);
                    }
                }
                else if (id >= graph.HostCount())
                {
                    throw OptionError("--flows: node id " + std::to_string(id) +
                                      " is not a host of " + m_topology->Spec() +
                                      "; allowed: host ranks 0.." +
                                      std::to_string(graph.HostCount() - 1));
                }
                (id == f.src ? m_flowSrcRank : m_flowDstRank).push_back(rank);
            }
        }
        if (o.backend == "fluid")
        {
            throw OptionError("--flows: needs --backend=packet; allowed: --backend=packet");
        }
    }

    if (o.backend == "packet")
    {
        CheckStartsBeforeStop();
        PacketSyncRun::CheckConfiguration(o, *m_topology);
    }
    else
    {
        // Packet-level events: the fluid estimator has no pauses, buffers or failures.
        const std::pair<bool, const char*> packetOnly[] = {
            {!o.linkDowns.empty(), "--link-down"},
            {o.pauseStorm.host >= 0, "--pause-storm"},
            {o.stopDraining.host >= 0, "--stop-draining"},
            {o.watchdogDetectionS > 0, "--pfc-watchdog"}};
        for (const auto& [given, option] : packetOnly)
        {
            if (given)
            {
                throw OptionError(std::string(option) +
                                  ": a packet-level event; allowed: --backend=packet");
            }
        }
    }

    const std::string name = o.algorithm.substr(0, o.algorithm.find(':'));
    if (AsyncPsSpec::IsAsyncName(name))
    {
        PrepareAsync();
        return;
    }
    if (LapseSpec::IsLapseName(name))
    {
        PrepareLapse();
        return;
    }
    if (o.algorithm == "none")
    {
        if (m_flows.empty())
        {
            throw OptionError("--algorithm: 'none' runs no sync job; allowed only with --flows");
        }
        return;
    }
    try
    {
        m_model = std::make_unique<ModelProfile>(ModelProfile::Load(o.model, o.modelsDir));
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--model", e);
    }

    std::vector<std::string> specs;
    if (o.algorithm == "all")
    {
        specs = SyncAlgorithmNames();
    }
    else
    {
        specs.push_back(o.algorithm);
    }
    std::string skipped; // "all" at a size only compact forms serve
    for (const auto& spec : specs)
    {
        std::unique_ptr<SyncAlgorithm> algorithm;
        try
        {
            algorithm = MakeSyncAlgorithm(spec);
        }
        catch (const std::exception& e)
        {
            throw AsOptionError("--algorithm", e);
        }
        std::string why;
        if (!algorithm->AppliesTo(*m_topology, why))
        {
            if (o.algorithm == "all")
            {
                continue;
            }
            throw OptionError("--algorithm: " + algorithm->Spec() + " does not apply to " +
                              m_topology->Spec() + ": " + why);
        }
        SyncPlan plan;
        std::optional<RoundPlan> rounds;
        try
        {
            if (o.backend == "fluid")
            {
                rounds = algorithm->CompileRounds(*m_topology, *m_model);
                if (rounds && rounds->TransferCount() * rounds->workers <= kRoundFormAbove)
                {
                    rounds.reset(); // small enough to build and check explicitly
                }
            }
            if (!rounds && o.algorithm == "all" &&
                m_topology->Graph().HostCount() > kAllExplicitHostLimit)
            {
                // "all" at this size runs what has the compact round form; an explicit plan
                // (mesh alone has 2 N (N - 1) transfers) would take minutes and gigabytes.
                skipped += (skipped.empty() ? "" : ", ") + algorithm->Spec();
                continue;
            }
            if (rounds)
            {
                plan.algorithm = rounds->algorithm;
                plan.gradientBytes = rounds->gradientBytes;
                plan.workers = rounds->workers;
                plan.hostOf = rounds->hostOf;
            }
            else
            {
                plan = algorithm->Compile(*m_topology, *m_model);
            }
        }
        catch (const std::exception& e)
        {
            if (o.algorithm == "all")
            {
                // "all" runs what applies; an algorithm that cannot serve this size does not.
                continue;
            }
            throw AsOptionError("--algorithm", e);
        }
        m_algorithms.push_back(std::move(algorithm));
        m_plans.push_back(std::move(plan));
        m_roundPlans.push_back(std::move(rounds));
    }
    if (!skipped.empty())
    {
        std::cerr << "paramsync: --algorithm=all at " << m_topology->Graph().HostCount()
                  << " hosts skips the algorithms without a compact form (" << skipped
                  << "); name one to run it anyway" << std::endl;
    }
    if (m_plans.empty())
    {
        throw OptionError("--algorithm: no algorithm applies to " + m_topology->Spec() +
                          "; allowed: a topology some algorithm serves");
    }
    if (o.straggler >= 0 && static_cast<uint64_t>(o.straggler) >= m_plans.front().workers)
    {
        throw OptionError("--straggler: " + std::to_string(o.straggler) +
                          " is not a worker; allowed: 0.." +
                          std::to_string(m_plans.front().workers - 1) + " or -1");
    }
}

void
ParamsyncDriver::CheckStartsBeforeStop() const
{
    const DriverOptions& o = m_options;
    const auto refuse = [&](const std::string& option, const std::string& what, double atS) {
        if (atS >= o.stopS)
        {
            std::ostringstream at;
            at << atS;
            throw OptionError(option + ": " + what + " starts at " + at.str() +
                              " s, not before --stop=" + o.stopText +
                              " (the simulated-time limit); allowed: a start before --stop, "
                              "or a later --stop");
        }
    };
    for (size_t i = 0; i < m_flows.size(); ++i)
    {
        refuse("--flows", "flow " + std::to_string(i), m_flows[i].startS);
    }
    for (const auto& d : o.linkDowns)
    {
        refuse("--link-down", "the failure of " + d.a + "-" + d.b, d.atS);
    }
    if (o.pauseStorm.host >= 0)
    {
        refuse("--pause-storm", "the storm", o.pauseStorm.startS);
    }
    if (o.stopDraining.host >= 0)
    {
        refuse("--stop-draining", "the stall", o.stopDraining.startS);
    }
    // The first synchronization starts when the slowest worker's compute ends.
    refuse("--compute",
           "the first synchronization",
           o.computeS * (o.straggler >= 0 ? o.stragglerFactor : 1));
}

void
ParamsyncDriver::PrepareAsync()
{
    const DriverOptions& o = m_options;
    const TopologyGraph& graph = m_topology->Graph();
    AsyncPsSpec spec;
    try
    {
        spec = AsyncPsSpec::Parse(o.algorithm, graph.HostCount());
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--algorithm", e);
    }
    if (o.backend != "packet")
    {
        throw OptionError("--backend: " + spec.canonical +
                          " is an asynchronous training loop, simulated packet by packet only; "
                          "allowed: --backend=packet");
    }
    try
    {
        m_model = std::make_unique<ModelProfile>(ModelProfile::Load(o.model, o.modelsDir));
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--model", e);
    }
    AsyncPsConfig& c = m_async.emplace();
    spec.ApplyTo(c, graph.HostCount());
    c.modelBytes = m_model->TotalBytes();
    c.iterations = o.iterations;
    c.compute = Seconds(o.computeS);
    c.straggler = o.straggler;
    c.stragglerFactor = o.stragglerFactor;
    if (c.modelBytes < c.servers)
    {
        throw OptionError("--model: " + std::to_string(c.modelBytes) +
                          " bytes cannot be sharded over " + std::to_string(c.servers) +
                          " servers; allowed: at least one byte per server");
    }
    if (o.straggler >= 0 && static_cast<uint64_t>(o.straggler) >= c.workers)
    {
        throw OptionError("--straggler: " + std::to_string(o.straggler) +
                          " is not a worker; allowed: 0.." + std::to_string(c.workers - 1) +
                          " or -1");
    }
    // The scheduler's network-aware completion time uses each worker's fastest port (a
    // --slow-link on a worker's cable makes it a network straggler).
    for (uint32_t w = 0; w < c.workers; ++w)
    {
        const NodeIndex v = graph.HostNode(w);
        double rate = 0;
        for (uint32_t p = 0; p < graph.Ports(v).size(); ++p)
        {
            rate = std::max(rate, graph.Link(graph.LinkAt(v, p)).rateBps);
        }
        c.workerRateBps.push_back(rate);
    }
    // MLFabric's SJF estimates completion times over the live backlog of each push's path.
    c.paths = PsPaths::FromTopology(*m_topology);
    m_asyncSpec = spec.canonical;
}

void
ParamsyncDriver::PrepareLapse()
{
    const DriverOptions& o = m_options;
    try
    {
        m_lapse = LapseSpec::Parse(o.algorithm, m_topology->Graph().HostCount());
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--algorithm", e);
    }
    if (o.backend != "packet")
    {
        throw OptionError("--backend: " + m_lapse->canonical +
                          " is a parameter-server protocol, simulated packet by packet only; "
                          "allowed: --backend=packet");
    }
    m_lapse->SetEpochs(o.iterations);
}

RunResult
ParamsyncDriver::RunAsync()
{
    auto t0 = std::chrono::steady_clock::now();
    PacketSyncRun run(m_options, *m_topology);
    if (m_out)
    {
        run.SetCaptureDirectory(m_out->Staging());
    }
    if (m_lapse)
    {
        run.SetLapse(*m_lapse);
    }
    else
    {
        run.SetAsyncJob(*m_async);
    }
    if (!m_flows.empty())
    {
        run.SetFlows(m_flows, m_flowSrcRank, m_flowDstRank);
    }
    RunResult r = run.Run();
    r.topology = m_topology->Spec();
    r.algorithm = m_lapse ? m_lapse->canonical : m_asyncSpec;
    r.model = m_lapse ? m_lapse->workload : m_model->Name();
    r.backend = "packet";
    r.wallS = WallSince(t0);
    return r;
}

double
ParamsyncDriver::IdealGst(size_t i) const
{
    if (m_roundPlans[i])
    {
        return RoundFluidEstimator().Estimate(*m_topology, *m_roundPlans[i]).gstS;
    }
    FluidEstimator estimator;
    return estimator.Estimate(*m_topology, m_plans[i]).gstS;
}

RunResult
ParamsyncDriver::RunFluid(size_t i)
{
    auto t0 = std::chrono::steady_clock::now();
    RunResult r;
    r.topology = m_topology->Spec();
    r.algorithm = m_algorithms[i]->Spec();
    r.model = m_model->Name();
    r.backend = "fluid";
    r.workers = m_plans[i].workers;
    r.gradientBytes = m_plans[i].gradientBytes;
    const auto fluidStart = std::chrono::steady_clock::now();
    if (m_roundPlans[i])
    {
        r.idealGstS = IdealGst(i);
    }
    else
    {
        // The explicit plan's estimate also gives every transfer's times and every link's
        // load: transfers.csv and links.csv of a fluid run.
        const FluidResult f = FluidEstimator().Estimate(*m_topology, m_plans[i]);
        r.fluidWallS = WallSince(fluidStart);
        r.idealGstS = f.gstS;
        const SyncPlan& plan = m_plans[i];
        for (const Transfer& t : plan.transfers)
        {
            r.transfers.push_back({0,
                                   t.id,
                                   plan.hostOf[t.src],
                                   plan.hostOf[t.dst],
                                   t.bytes,
                                   f.startS[t.id],
                                   f.endS[t.id],
                                   t.chunk,
                                   t.phase});
        }
        const TopologyGraph& g = m_topology->Graph();
        for (LinkIndex l = 0; l < g.LinkCount(); ++l)
        {
            const TopologyLink& link = g.Link(l);
            for (const auto& [from, to] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}})
            {
                const FluidLinkLoad& load = f.links[FluidResult::DirectedIndex(g, l, from)];
                if (load.bytes > 0)
                {
                    r.links.push_back({g.Node(from).name,
                                       g.Node(to).name,
                                       load.bytes,
                                       load.utilization,
                                       load.maxFlows});
                }
            }
        }
    }
    if (m_roundPlans[i])
    {
        r.fluidWallS = WallSince(fluidStart);
    }
    r.gstS = r.idealGstS;
    // No network state carries over between iterations in the fluid model: every
    // iteration takes the same time (compute, then the sync; overlap is a packet feature).
    r.gstPerIterationS.assign(m_options.iterations, r.gstS);
    double slowest = m_options.computeS *
                     (m_options.straggler >= 0 ? m_options.stragglerFactor : 1);
    r.iterationS = slowest + r.gstS;
    r.wallS = WallSince(t0);
    return r;
}

RunResult
ParamsyncDriver::RunPacket(size_t i)
{
    auto t0 = std::chrono::steady_clock::now();
    PacketSyncRun run(m_options, *m_topology);
    if (m_out)
    {
        run.SetCaptureDirectory(m_out->Staging());
    }
    if (i < m_plans.size())
    {
        run.SetPlan(m_plans[i], m_model->Tensors());
    }
    if (!m_flows.empty())
    {
        run.SetFlows(m_flows, m_flowSrcRank, m_flowDstRank);
    }
    RunResult r = run.Run();
    r.topology = m_topology->Spec();
    r.algorithm = i < m_plans.size() ? m_algorithms[i]->Spec() : "none";
    r.model = m_model ? m_model->Name() : "none";
    r.backend = "packet";
    if (i < m_plans.size())
    {
        const auto fluidStart = std::chrono::steady_clock::now();
        r.idealGstS = IdealGst(i);
        r.fluidWallS += WallSince(fluidStart); // the run added the routed bound's
    }
    r.wallS = WallSince(t0);
    return r;
}

RunConfig
ParamsyncDriver::Config() const
{
    const DriverOptions& o = m_options;
    RunConfig c;
    c.rateBps = o.rateBps;
    c.delayS = o.delayS;
    c.mtu = o.mtu;
    c.bufferBytes = o.bufferBytes;
    c.cc = o.cc;
    c.pfc = o.pfc;
    c.seed = o.seed;
    c.rngRun = o.rngRun;
    c.iterations = o.iterations;
    c.version = BuildInfo::Version();
    c.ns3Version = BuildInfo::Ns3Version();
    return c;
}

void
ParamsyncDriver::Print(const std::vector<RunResult>& runs) const
{
    const RunConfig config = Config();
    if (m_options.format == "json")
    {
        for (const auto& r : runs)
        {
            std::cout << ResultsWriter::JsonLine(r, &config) << "\n";
        }
    }
    else
    {
        std::cout << ResultsWriter::Table(runs) << ResultsWriter::SystemTables(runs);
    }
    std::cout.flush();
}

int
ParamsyncDriver::Main(int argc, char** argv)
{
    try
    {
        return Run(argc, argv);
    }
    catch (const std::bad_alloc&)
    {
        std::cerr << "paramsync: out of memory: the run needs more memory than this machine "
                     "gives it (nothing written); allowed: a smaller --topology, --model, "
                     "--iterations or flow list"
                  << std::endl;
        return kExitOutOfMemory;
    }
}

int
ParamsyncDriver::Run(int argc, char** argv)
{
    try
    {
        CommandLine cmd("paramsync.cc"); // the program name in --help
        cmd.Usage("paramsync: replay the gradient synchronization of a training job on a "
                  "RoCEv2 + PFC network and measure the global synchronization time (GST).\n"
                  "Exit codes: 0 ok; 2 bad input (one line naming the option, nothing run or "
                  "written; also a resource estimate over --max-memory); 3 finished but an "
                  "invariant failed (a stall, drops with PFC on; "
                  "results written); 4 the results could not be written; 5 out of memory.");
        m_options.Register(cmd);
        // The option table reads every argument (values whole); ns-3's CommandLine only
        // prints --help and the --Print* family.
        std::vector<std::string> ns3Args = m_options.Read(argc, argv);
        if (m_options.versionRequested)
        {
            std::cout << "paramsync " << BuildInfo::Version() << " (ns-3 "
                      << BuildInfo::Ns3Version() << ")" << std::endl;
            return kExitOk;
        }
        ns3Args.insert(ns3Args.begin(), argv[0]);
        cmd.Parse(ns3Args);
        m_options.Validate();
        // The options as ns-3 defaults: what ns3-attributes.txt records is what ran.
        m_options.SetNs3Defaults();
        if (!ResourceEstimate::Guard(m_options, std::cout, std::cerr))
        {
            return kExitOk; // --estimate: printed, nothing run
        }
        Prepare();
        if (!m_options.out.empty())
        {
            m_out = std::make_unique<OutDirectory>(m_options.out);
        }
        if (!m_options.trace.empty() && !(m_out && m_out->Holds(m_options.trace)))
        {
            CheckWritable(m_options.trace, "--trace");
        }
    }
    catch (const std::bad_alloc&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        std::string msg = e.what();
        std::cerr << "paramsync: " << msg.substr(0, msg.find('\n')) << std::endl;
        return kExitBadInput;
    }

    std::vector<RunResult> runs;
    if (m_async || m_lapse)
    {
        runs.push_back(RunAsync());
    }
    else if (m_plans.empty())
    {
        runs.push_back(RunPacket(0));
    }
    PlanChecker checker;
    for (size_t i = 0; i < m_plans.size(); ++i)
    {
        if (m_roundPlans[i])
        {
            // Round forms exist only for fluid runs, and their generators are proven by
            // tests against the checked explicit plans.
            runs.push_back(RunFluid(i));
            continue;
        }
        PlanCheckResult check = checker.Check(m_plans[i]);
        if (!check.Ok())
        {
            RunResult r;
            r.topology = m_topology->Spec();
            r.algorithm = m_algorithms[i]->Spec();
            r.model = m_model->Name();
            r.backend = m_options.backend;
            r.workers = m_plans[i].workers;
            r.completed = false;
            r.invariant = "plan checker: " + check.errors.front();
            runs.push_back(r);
            continue;
        }
        runs.push_back(m_options.backend == "fluid" ? RunFluid(i) : RunPacket(i));
    }

    for (auto& r : runs)
    {
        r.laneScheduling = m_options.laneScheduling; // in every JSON row and summary.json
    }
    Print(runs);
    RunExit exit{kExitOk, ""};
    for (const auto& r : runs)
    {
        if (!r.invariant.empty() || !r.completed)
        {
            const std::string why = r.algorithm + ": " +
                                    (r.invariant.empty() ? "not every transfer completed"
                                                         : r.invariant);
            std::cerr << "paramsync: " << why << std::endl;
            exit.code = kExitInvariant;
            exit.reason += (exit.reason.empty() ? "" : "; ") + why;
        }
    }
    if (exit.code == kExitOk)
    {
        exit.reason = "ok";
    }
    try
    {
        const RunConfig config = Config();
        if (m_out)
        {
            // The network as run (slowed links included), in HPCC's topology.txt format:
            // file:DIR/topology.txt reproduces it, and HPCC's simulator reads it.
            std::ostringstream topology;
            FileTopology::WriteHpcc(m_topology->Graph(), topology);
            ResultsWriter::WriteDirectory(
                m_out->Staging(),
                runs,
                m_options.UsedRelativeTo(m_options.out),
                exit,
                {{"ns3-attributes.txt", Ns3AttributeDefaults()}, {"topology.txt", topology.str()}},
                &config);
        }
        if (!m_options.trace.empty())
        {
            // A trace inside --out goes with the directory's other files.
            const bool inOut = m_out && m_out->Holds(m_options.trace);
            const std::string name = m_options.trace.substr(m_options.trace.rfind('/') + 1);
            TraceEventWriter::Write(inOut ? m_out->Staging() + "/" + name : m_options.trace,
                                    runs,
                                    m_options.traceMaxBytes);
        }
        if (m_out)
        {
            m_out->Commit();
        }
    }
    catch (const std::bad_alloc&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        std::cerr << "paramsync: results not written: " << e.what() << std::endl;
        return kExitOutput;
    }
    return exit.code;
}

} // namespace ns3
