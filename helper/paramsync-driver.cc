#include "paramsync-driver.h"

#include "build-info.h"
#include "huge-page-heap.h"
#include "mpi-session.h"
#include "prepared-systems.h"
#include "resource-estimate.h"
#include "results-writer.h"
#include "seed-statistics.h"
#include "trace-event-writer.h"

#include "ns3/command-line.h"
#include "ns3/config-store.h"
#include "ns3/config.h"
#include "ns3/file-topology.h"
#include "ns3/network-builder.h"
#include "ns3/plan-checker.h"
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
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ns3
{

namespace
{

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

/**
 * ConfigStore raw text with each of the given attributes' default line set to the value the
 * run used: what the builder set on its factories (--preset=hpcc) rather than the default.
 * \throws std::logic_error when the text has no line of one of them
 */
std::string
WithValuesAsRun(std::string text, const std::vector<std::pair<std::string, std::string>>& values)
{
    for (const auto& [name, value] : values)
    {
        const std::string key = "default " + name + " \"";
        const size_t at = text.find(key);
        const size_t end = at == std::string::npos ? at : text.find('"', at + key.size());
        if (end == std::string::npos)
        {
            throw std::logic_error("ns3-attributes.txt: no default line of " + name);
        }
        text.replace(at + key.size(), end - at - key.size(), value);
    }
    return text;
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

} // namespace

ParamsyncDriver::ParamsyncDriver() = default;
ParamsyncDriver::~ParamsyncDriver() = default;

void
ParamsyncDriver::MakeRunTopology()
{
    const DriverOptions& o = m_options;
    try
    {
        m_topology = MakeTopology(o.topology, o.rateBps, o.delayS);
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--topology", e);
    }
    TopologyGraph& graph = m_topology->MutableGraph();
    const std::string hostRanks = "; allowed: host ranks 0.." +
                                  std::to_string(graph.HostCount() - 1);
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
                              " is not a host of " + m_topology->Spec() + hostRanks);
        }
    }
    for (uint32_t host : o.slowHosts)
    {
        if (host >= graph.HostCount())
        {
            throw OptionError("--slow-hosts: " + std::to_string(host) + " is not a host of " +
                              m_topology->Spec() + hostRanks);
        }
        const NodeIndex v = graph.HostNode(host);
        for (uint32_t p = 0; p < graph.Ports(v).size(); ++p)
        {
            graph.MutableLink(graph.LinkAt(v, p)).rateBps *= o.slowLinkFraction;
        }
    }
}

void
ParamsyncDriver::LoadFlows()
{
    try
    {
        m_flows.flows = FlowList::Load(m_options.flows);
        m_flows.srcRank.clear(); // Prepare runs again for every --seeds seed
        m_flows.dstRank.clear();
    }
    catch (const std::exception& e)
    {
        throw AsOptionError("--flows", e);
    }
    const TopologyGraph& graph = m_topology->Graph();
    const auto* file = dynamic_cast<const FileTopology*>(m_topology.get());
    for (const auto& f : m_flows.flows)
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
                throw OptionError("--flows: node id " + std::to_string(id) + " is not a host of " +
                                  m_topology->Spec() + "; allowed: host ranks 0.." +
                                  std::to_string(graph.HostCount() - 1));
            }
            (id == f.src ? m_flows.srcRank : m_flows.dstRank).push_back(rank);
        }
    }
}

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
    MakeRunTopology();
    if (!o.flows.empty())
    {
        LoadFlows();
    }
    m_backend = Backend::Make(o, *m_topology, m_flows);
    m_backend->Check();
    m_systems = JobRegistry::Prepare({o, *m_topology, *m_backend, !m_flows.flows.empty()});
}

std::vector<RunResult>
ParamsyncDriver::RunAll()
{
    if (m_out)
    {
        m_backend->SetCaptureDirectory(m_out->Staging());
    }
    std::vector<RunResult> runs;
    PlanChecker checker;
    for (const auto& system : m_systems)
    {
        // Round forms exist only for fluid runs, and their generators are proven by tests
        // against the checked explicit plans.
        if (system->Plan() && !system->Rounds())
        {
            PlanCheckResult check = checker.Check(*system->Plan());
            if (!check.Ok())
            {
                RunResult r;
                r.topology = m_topology->Spec();
                r.algorithm = system->Spec();
                r.model = system->ModelName();
                r.backend = m_backend->Name();
                r.workers = system->Plan()->workers;
                r.completed = false;
                r.invariant = "plan checker: " + check.errors.front();
                runs.push_back(r);
                continue;
            }
        }
        runs.push_back(m_backend->Run(*system));
    }
    for (auto& r : runs)
    {
        r.laneScheduling = m_options.laneScheduling; // in every JSON row and summary.json
        r.routing = m_backend->SimulatesPackets() ? m_options.routing : "";
    }
    return runs;
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
ParamsyncDriver::Setup(int argc, char** argv)
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
                      << BuildInfo::Ns3Version() << ")\n"
                      << HugePageHeap::Describe() << std::endl;
            return kExitOk;
        }
        ns3Args.insert(ns3Args.begin(), argv[0]);
        cmd.Parse(ns3Args);
        m_options.Validate();
        if (m_options.seedsFirst != 0)
        {
            if (!m_options.out.empty() || !m_options.trace.empty() || !m_options.pcapText.empty())
            {
                throw OptionError("--seeds: not with --out, --trace or --pcap (their files "
                                  "hold one run); allowed: --seed=N with them, one run per "
                                  "invocation");
            }
            m_options.seed = m_options.seedsFirst;
        }
        // The options as ns-3 defaults: what ns3-attributes.txt records is what ran.
        m_options.SetNs3Defaults();
        if (m_options.estimateOnly && ResourceEstimate::WithinLimit(m_options))
        {
            // The closed forms read a spec as the constructors do, but a topology file is
            // read only when built, and a wrapper (server:) has no closed form: a run that
            // could go on builds the topology first, so that --estimate refuses what the run
            // refuses (the graph is a small part of what the run would build).
            MakeRunTopology();
        }
        if (!ResourceEstimate::Guard(m_options, std::cout, std::cerr))
        {
            return kExitOk; // --estimate: printed, nothing run
        }
        Prepare();
        if (m_options.mpi)
        {
            StartMpi(&argc, &argv);
        }
        PrepareOutputs();
    }
    catch (const std::bad_alloc&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        // Under mpirun every rank finds the same bad input: rank 0 says it.
        if (Speaks() && !(m_options.mpi && MpiSession::NonZeroRankFromEnvironment()))
        {
            std::string msg = e.what();
            std::cerr << "paramsync: " << msg.substr(0, msg.find('\n')) << std::endl;
        }
        return kExitBadInput;
    }
    return kExitOk;
}

void
ParamsyncDriver::PrepareOutputs()
{
    // Only rank 0 writes (--mpi=1). Its verdict goes to every rank: a rank that returned
    // here alone would leave the others waiting in the run's collectives.
    std::string failure;
    try
    {
        if (!m_options.out.empty() && Speaks())
        {
            m_out = std::make_unique<OutDirectory>(m_options.out);
        }
        if (!m_options.trace.empty() && Speaks() && !(m_out && m_out->Holds(m_options.trace)))
        {
            CheckWritable(m_options.trace, "--trace");
        }
    }
    catch (const OptionError& e)
    {
        failure = e.what();
    }
    if (!MpiSession::FromRankZero(failure.empty()))
    {
        throw OptionError(failure.empty() ? "--out: refused on rank 0" : failure);
    }
}

void
ParamsyncDriver::StartMpi(int* argc, char*** argv)
{
    std::vector<std::string> specs;
    bool planOrFlows = true;
    for (const auto& system : m_systems)
    {
        specs.push_back(system->Spec());
        planOrFlows = planOrFlows && (system->Plan() || system->Spec() == "none");
    }
    m_options.CheckMpi(specs, planOrFlows);
    if (!MpiSession::Built())
    {
        throw OptionError("--mpi=1: this paramsync was built without MPI; allowed: --mpi=0, or "
                          "the paramsync of an ns-3 tree configured with --enable-mpi (README: "
                          "Running across MPI ranks)");
    }
    m_mpi = std::make_unique<MpiSession>(argc, argv);
    if (MpiSession::Size() < 2)
    {
        throw OptionError("--mpi=1: one MPI rank; allowed: mpirun -np N with N >= 2, or "
                          "--mpi=0 for one process");
    }
}

bool
ParamsyncDriver::Speaks() const
{
    return MpiSession::Rank() == 0;
}

int
ParamsyncDriver::Run(int argc, char** argv)
{
    const int setup = Setup(argc, argv);
    if (setup != kExitOk || m_options.versionRequested || m_options.estimateOnly)
    {
        return setup; // (--version, --estimate: printed; nothing to run or print after)
    }
    if (m_options.seedsFirst != 0)
    {
        return RunSeeds();
    }
    const std::vector<RunResult> runs = RunAll();
    if (!Speaks())
    {
        return kExitOk; // rank 0 prints and writes the merged results
    }
    Print(runs);
    const RunExit exit = Judge(runs);
    return WriteOutputs(runs, exit);
}

RunExit
ParamsyncDriver::Judge(const std::vector<RunResult>& runs) const
{
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
    return exit;
}

int
ParamsyncDriver::RunSeeds()
{
    std::vector<std::vector<RunResult>> perSeed;
    int code = kExitOk;
    for (uint64_t seed = m_options.seedsFirst; seed <= m_options.seedsLast; ++seed)
    {
        if (seed != m_options.seedsFirst)
        {
            // The network's ECMP salts, the slowed links and the systems follow the seed.
            m_options.seed = static_cast<uint32_t>(seed);
            m_systems.clear();
            m_backend.reset();
            try
            {
                Prepare();
            }
            catch (const OptionError& e)
            {
                std::cerr << "paramsync: seed " << seed << ": " << e.what() << std::endl;
                return kExitBadInput;
            }
        }
        if (m_options.format != "json")
        {
            std::cout << "seed " << seed << "\n";
        }
        perSeed.push_back(RunAll());
        Print(perSeed.back()); // JSON rows carry their seed in "config"
        code = std::max(code, Judge(perSeed.back()).code);
    }
    const std::vector<SeedStatistics::Point> points = SeedStatistics::Summarize(perSeed);
    if (m_options.format == "json")
    {
        for (const auto& p : points)
        {
            std::cout << SeedStatistics::JsonLine(p, m_options.seedsText) << "\n";
        }
    }
    else
    {
        std::cout << SeedStatistics::Table(points, m_options.seedsText);
    }
    std::cout.flush();
    return code;
}

int
ParamsyncDriver::WriteOutputs(const std::vector<RunResult>& runs, const RunExit& exit)
{
    try
    {
        const RunConfig config = Config();
        if (m_out)
        {
            // The network as run (slowed links included), in HPCC's topology.txt format:
            // file:DIR/topology.txt reproduces it, and HPCC's simulator reads it.
            std::ostringstream topology;
            FileTopology::WriteHpcc(m_topology->Graph(), topology);
            // The preset's switch buffer is set on the builder's factories, not as defaults.
            const std::vector<std::pair<std::string, std::string>> asRun =
                m_options.preset == "hpcc" ? NetworkBuilder::HpccMmuAttributes(m_topology->Graph())
                                           : std::vector<std::pair<std::string, std::string>>{};
            ResultsWriter::WriteDirectory(
                m_out->Staging(),
                runs,
                m_options.UsedRelativeTo(m_options.out),
                exit,
                {{"ns3-attributes.txt", WithValuesAsRun(Ns3AttributeDefaults(), asRun)},
                 {"topology.txt", topology.str()}},
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
