#include "driver-options.h"

#include "job-registry.h"

#include "ns3/command-line.h"
#include "ns3/config-store.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/model-profile.h"
#include "ns3/nstime.h"
#include "ns3/spec-string.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

namespace
{

namespace V = OptionValues;

DriverOptions::HostEvent
ParseHostEvent(const std::string& text, const std::string& option)
{
    DriverOptions::HostEvent e;
    if (text.empty())
    {
        return e;
    }
    const size_t at = text.find('@');
    if (at == std::string::npos)
    {
        throw OptionError(option + ": '" + text +
                          "' is not allowed; allowed: HOST@START[+DURATION], e.g. 3@1ms+2ms");
    }
    const size_t plus = text.find('+', at);
    e.host = static_cast<int64_t>(V::Uint(text.substr(0, at), option, 0, 1u << 24));
    const std::string start = text.substr(
        at + 1, plus == std::string::npos ? std::string::npos : plus - at - 1);
    e.startS = V::Time(start, option, 0);
    if (plus != std::string::npos)
    {
        e.durationS = V::Time(text.substr(plus + 1), option, kNs3TimeResolutionS);
    }
    return e;
}

bool
IsDirectory(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// Parent directory of path ("." when none).
std::string
ParentOf(const std::string& path)
{
    std::string p = path;
    while (p.size() > 1 && p.back() == '/')
    {
        p.pop_back();
    }
    auto slash = p.rfind('/');
    if (slash == std::string::npos)
    {
        return ".";
    }
    return slash == 0 ? "/" : p.substr(0, slash);
}

/// Names ns-3's CommandLine handles itself.
const std::set<std::string> kNs3Builtins = {"PrintHelp",
                                            "help",
                                            "PrintGlobals",
                                            "PrintGroups",
                                            "PrintGroup",
                                            "PrintTypeIds",
                                            "PrintAttributes"};

} // namespace

DriverOptions::DriverOptions()
    : topology("bcube:n=3,k=1"),
      algorithm("all"),
      model("bytes:10MB"),
      modelsDir(ModelProfile::DefaultModelsDir()),
      rateText("40Gbps"),
      delayText("1us"),
      mtuText("4096"),
      cc("none"),
      pfcText("1"),
      iterationsText("1"),
      seedText("1"),
      backend("packet"),
      routing("ecmp"),
      format("table"),
      computeText("0s"),
      overlapText("0"),
      stragglerText("-1"),
      stragglerFactorText("1"),
      slowLinkText("-1"),
      slowLinkFractionText("1"),
      slowHostsText(""),
      pauseStormText(""),
      stopDrainingText(""),
      watchdogText("0"),
      linkDownText(""),
      pcapText(""),
      preset(""),
      bufferText("32MB"),
      priorityText("3"),
      laneScheduling("rr"),
      stopText("10s"),
      rtoText("auto"),
      deadlockCheckText("1ms"),
      inFlightSampleText("0"),
      maxEventsText("2000000000"),
      progressText("auto"),
      maxMemoryText("auto"),
      estimateText("0"),
      traceMaxText("256MB"),
      mpiText("0")
{
}

OptionTable
DriverOptions::Table()
{
    // One row per option: name, help, the text field holding its default, and the parser
    // that turns the text into the typed field (OptionValues: units required, ranges
    // checked). Rows are parsed in this order: a parser may use the fields of rows above
    // it (--buffer uses --mtu; --rto uses --pfc, --buffer and --rate; --trace uses --out).
    // Adding an option is one t.Add() row here or in one of the Add*Rows groups below, and its
    // two fields in driver-options.h.
    OptionTable t;
    AddTopologyAndJobRows(t);
    t.Add("preset",
          "hpcc: follow HPCC's simulator on its own input files: --cc=dcqcn-hpcc (ACK every "
          "packet), --mtu=1000, each switch's ECMP hash seeded by its node index, its switch "
          "buffer (free-buffer shift 3 at the NIC rate, less on faster ports; headroom 3 x "
          "BDP; 4 KiB per-queue reserve; resume 3 KiB below XOFF) (README: Congestion control "
          "presets); empty: none",
          preset,
          [this](const std::string& s) {
              hashSeedPerSwitch = false;
              if (s.empty())
              {
                  return;
              }
              V::Choice(s, "--preset", {"hpcc"});
              // HPCC's run.py: PACKET_PAYLOAD_SIZE 1000 and its DCQCN run; a --cc or --mtu
              // other than the defaults would contradict the preset (the rows below parse
              // the values it sets).
              if ((cc != "none" && cc != "dcqcn-hpcc") || (mtuText != "4096" && mtuText != "1000"))
              {
                  throw OptionError("--preset: hpcc sets --cc=dcqcn-hpcc and --mtu=1000; "
                                    "allowed: no other --cc or --mtu with it");
              }
              cc = "dcqcn-hpcc";
              mtuText = "1000";
              hashSeedPerSwitch = true;
          });
    t.Add("mtu",
          "RoCE path MTU: payload bytes per data packet, an integer from 64 to 9000",
          mtuText,
          [this](const std::string& s) {
              mtu = static_cast<uint32_t>(V::Uint(s, "--mtu", 64, 9000));
          });
    t.Add("cc",
          "congestion control preset: none (no CNP) | dcqcn (Zhu et al. SIGCOMM'15) | "
          "dcqcn-hpcc (HPCC simulator's DCQCN run); README: Congestion control presets",
          cc,
          [](const std::string& s) {
              V::Choice(s, "--cc", {"none", "dcqcn", "dcqcn-hpcc"});
          });
    t.Add("pfc", "PFC on (1) or off (0)", pfcText, [this](const std::string& s) {
        pfc = V::Flag(s, "--pfc");
    });
    t.Add("iterations",
          "training iterations (one synchronization each), 1 to 100000",
          iterationsText,
          [this](const std::string& s) {
              iterations = static_cast<uint32_t>(V::Uint(s, "--iterations", 1, 100000));
          });
    t.Add("seed",
          "ns-3 random seed (ECMP salts, ECN marking), 1 to 4294967295",
          seedText,
          [this](const std::string& s) {
              seed = static_cast<uint32_t>(V::Uint(s, "--seed", 1, 4294967295ULL));
          });
    t.Add("seeds",
          "A-B: run every point once per seed A..B (at most 1000 seeds; --seed is then "
          "ignored) and print min / median / max of every figure after the per-seed rows; "
          "not with --out, --trace or --pcap; empty: one run with --seed",
          seedsText,
          [this](const std::string& s) { ParseSeedRange(s); });
    t.Add("backend",
          "packet: packet-level ns-3 simulation | fluid: flow-level estimator only",
          backend,
          [](const std::string& s) {
              V::Choice(s, "--backend", {"packet", "fluid"});
          });
    t.Add("routing",
          "ecmp: every switch or relaying server hashes a queue pair's 5-tuple onto one of its "
          "equal-cost next hops | source: a transfer spreads over the topology's source-routed "
          "parallel paths, one queue pair pinned to each (bcube: BCube source routing, k+1 "
          "node-disjoint paths; torus: dimension order rotated per dimension; other topologies "
          "refused); the ideal does not depend on it (README: Source routing)",
          routing,
          [](const std::string& s) {
              V::Choice(s, "--routing", {"ecmp", "source"});
          });
    AddInputOutputRows(t);
    AddWorkloadAndFaultRows(t);
    AddSwitchAndTimeRows(t);
    AddRunLimitRows(t);
    return t;
}

/// Rows of what runs: --topology, --algorithm, --model, --models-dir and the default link rate
/// and delay.
void
DriverOptions::AddTopologyAndJobRows(OptionTable& t)
{
    t.Add("topology",
          "topology spec: bcube:n=3,k=1 | torus:dims=3x3 | fattree:k=4 | bigraph:s=4,m=4 | "
          "ring:n=9 | star:n=8 | file:PATH (see topologies/README.md)",
          topology,
          [](const std::string& s) { V::CheckText(s, "--topology"); });
    t.Add("algorithm",
          JobRegistry::Help(), // generated from the registry of --algorithm
          algorithm,
          [](const std::string& s) { V::CheckText(s, "--algorithm"); });
    t.Add("model",
          "model profile: vgg16 | vgg19 | resnet50 | mnist-mlp | PATH.csv | bytes:SIZE (one "
          "synthetic tensor, e.g. bytes:100MB)",
          model,
          [](const std::string& s) { V::CheckText(s, "--model"); });
    // A given value was checked by OptionTable::Give like every other; the default is empty
    // when no models directory was found next to libparamsync (ModelProfile::DefaultModelsDir),
    // and only a built-in --model needs one: ModelProfile::Load says so then. Checking the
    // default here refused every run of a copied binary as if "--models-dir=" had been typed.
    t.Add("models-dir",
          "directory of the built-in model CSV files",
          modelsDir,
          [](const std::string&) {});
    t.Add("rate",
          "default link rate with its unit, 1Mbps to 100Tbps (e.g. 40Gbps); a topology's "
          "rate= overrides it",
          rateText,
          [this](const std::string& s) { rateBps = V::Rate(s, "--rate", 1e6, 1e14); });
    t.Add("delay",
          "default one-way link delay with its unit, 0s to 1s (e.g. 1us); a topology's "
          "delay= overrides it",
          delayText,
          [this](const std::string& s) { delayS = V::Time(s, "--delay", 0, 1); });
}

/// Rows of the inputs and outputs: --flows, --out, --format, --trace, --pcap.
void
DriverOptions::AddInputOutputRows(OptionTable& t)
{
    t.Add("flows",
          "HPCC-format flow list (first line the count, then 'src dst priority dport bytes "
          "start_s'); alone with --algorithm=none, else background traffic",
          flows,
          [](const std::string& s) {
              if (!s.empty())
              {
                  V::CheckText(s, "--flows");
              }
          });
    t.Add("out",
          "directory for summary.json, transfers.csv, pfc.csv, flows.csv and attributes.txt "
          "(created; its parent must exist)",
          out,
          [](const std::string& s) {
              if (s.empty())
              {
                  return;
              }
              V::CheckText(s, "--out");
              struct stat st;
              if (stat(s.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
              {
                  throw OptionError("--out: '" + s +
                                    "' exists and is not a directory; allowed: a directory path");
              }
              if (!IsDirectory(ParentOf(s)))
              {
                  throw OptionError("--out: the parent of '" + s +
                                    "' does not exist; allowed: a directory whose parent exists");
              }
          });
    t.Add("format",
          "stdout format: table | json (one JSON object per run a line)",
          format,
          [](const std::string& s) {
              V::Choice(s, "--format", {"table", "json"});
          });
    t.Add("trace",
          "Chrome trace-event JSON file (Perfetto / chrome://tracing): one track per worker "
          "(transfers) and per port (PFC pauses)",
          trace,
          [this](const std::string& s) {
              if (s.empty())
              {
                  return;
              }
              V::CheckText(s, "--trace");
              // The trace may go into the --out directory, which the driver creates.
              if (!IsDirectory(ParentOf(s)) &&
                  !(!out.empty() && ParentOf(s) == ParentOf(out + "/x")))
              {
                  throw OptionError("--trace: the directory of '" + s +
                                    "' does not exist; allowed: a file path in an existing "
                                    "directory");
              }
          });
    t.Add("pcap",
          "NODE[.PORT][,...]: capture these ports (a node name alone: all its ports; names as "
          "in --out's pfc.csv, e.g. h0,sw0.0.3) into --out/NODE-PORT.pcap, Ethernet with "
          "nanosecond timestamps (of the last run with --algorithm=all); empty: none",
          pcapText,
          [this](const std::string& s) {
              if (s.empty())
              {
                  return;
              }
              V::CheckText(s, "--pcap");
              // --backend=fluid refuses it too (FluidBackend::Check: no packets to capture).
              if (out.empty())
              {
                  throw OptionError("--pcap: '" + s +
                                    "' needs --out=DIR (the captures go there) and "
                                    "--backend=packet");
              }
          });
}

/// Rows of the training loop and the faults: compute, stragglers, slow links, pause storm, stalled
/// receiver, watchdog, link failures.
void
DriverOptions::AddWorkloadAndFaultRows(OptionTable& t)
{
    t.Add("compute",
          "compute time (forward + backward) per iteration with its unit, e.g. 50ms",
          computeText,
          [this](const std::string& s) { computeS = V::Time(s, "--compute", 0); });
    t.Add("overlap",
          "1: a tensor's sync may start when backprop produces it (layer-wise overlap); 0: "
          "sync starts when the whole gradient exists",
          overlapText,
          [this](const std::string& s) { overlap = V::Flag(s, "--overlap"); });
    t.Add("straggler",
          "worker that computes slower (-1: none)",
          stragglerText,
          [this](const std::string& s) {
              straggler = s == "-1" ? -1
                                    : static_cast<int64_t>(V::Uint(s, "--straggler", 0, 1u << 30));
          });
    t.Add("straggler-factor",
          "compute time multiplier of the straggler, 1 to 1e6",
          stragglerFactorText,
          [this](const std::string& s) {
              stragglerFactor = V::Real(s, "--straggler-factor", 1.0, 1e6);
          });
    t.Add("slow-link",
          "topology link indices that run slower, comma-separated, each once (e.g. 0,7,12; "
          "-1: none)",
          slowLinkText,
          [this](const std::string& s) {
              slowLinks = s == "-1" ? std::vector<uint32_t>{}
                                    : V::UintList(s, "--slow-link", 1u << 30);
          });
    t.Add("slow-link-fraction",
          "rate fraction of the slow links and hosts, in (0, 1]",
          slowLinkFractionText,
          [this](const std::string& s) {
              slowLinkFraction = V::Real(s, "--slow-link-fraction", 0.0, 1.0, true);
          });
    t.Add("slow-hosts",
          "comma-separated host ranks, each once, whose every link runs at "
          "--slow-link-fraction of its rate (network stragglers, e.g. 0,5)",
          slowHostsText,
          [this](const std::string& s) {
              slowHosts = s.empty() ? std::vector<uint32_t>{}
                                    : V::UintList(s, "--slow-hosts", 1u << 24);
          });
    t.Add("pause-storm",
          "HOST@START[+DURATION]: the NIC of host HOST sends PFC pause frames for every data "
          "priority without end from START (for DURATION), as a faulty NIC does (e.g. "
          "3@1ms+2ms)",
          pauseStormText,
          [this](const std::string& s) { pauseStorm = ParseHostEvent(s, "--pause-storm"); });
    t.Add("stop-draining",
          "HOST@START[+DURATION]: host HOST's NIC stops taking frames off the wire from START "
          "(for DURATION): they wait in its receive buffer, which pauses the upstream above "
          "256 KB, and are processed when it drains again",
          stopDrainingText,
          [this](const std::string& s) { stopDraining = ParseHostEvent(s, "--stop-draining"); });
    t.Add("pfc-watchdog",
          "DETECT[/RESTORE]: PFC watchdog on every switch and relaying host: an egress queue "
          "paused with frames waiting for DETECT is stormed and its frames are dropped until "
          "it has been unpaused for RESTORE (default DETECT), e.g. 1ms; 0: none",
          watchdogText,
          [this](const std::string& s) { ParseWatchdog(s); });
    t.Add("link-down",
          "A-B@TIME[+DURATION][,...]: the link between nodes A and B (names as in --out's "
          "pfc.csv, e.g. h0-sw0.0) fails at TIME (and comes back after DURATION): routing "
          "switches to shortest paths around it, queue pairs resend what it lost; hosts it "
          "cuts off wait for the repair (a failure without one must leave every host "
          "connected)",
          linkDownText,
          [this](const std::string& s) { ParseLinkDowns(s); });
}

/// Rows of the switches and the run's time limits: buffer, priority, lane scheduling, stop, RTO.
void
DriverOptions::AddSwitchAndTimeRows(OptionTable& t)
{
    t.Add("buffer",
          "shared buffer per switch and relaying host with its unit (e.g. 32MB, 200KB), up "
          "to 1TB",
          bufferText,
          [this](const std::string& s) {
              // Two packets of --mtu with headers (100 B): less deadlocks any PFC hop.
              bufferBytes = V::Bytes(
                  s, "--buffer", 2 * (uint64_t{mtu} + 100), uint64_t{1000000000000});
          });
    t.Add("priority",
          "PFC priority of data on lane 0 (lane L uses priority + L), 0..6",
          priorityText,
          [this](const std::string& s) {
              priority = static_cast<uint8_t>(V::Uint(s, "--priority", 0, 6));
          });
    t.Add("lane-scheduling",
          "scheduling among the data lanes' priorities at every port: rr (deficit round "
          "robin, as switches schedule lossless classes) or strict (strict priority, highest "
          "lane first); ACK/NAK/CNP always go first",
          laneScheduling,
          [](const std::string& s) {
              V::Choice(s, "--lane-scheduling", {"rr", "strict"});
          });
    t.Add("stop",
          "absolute simulated-time limit with its unit (e.g. 10s), up to 4.6e9s (half ns-3's "
          "time range): a packet run not finished by then is reported as stalled (exit 3); "
          "inputs starting at or after it are refused",
          stopText,
          [this](const std::string& s) {
              // Half of ns-3's range: the run schedules checks and events past the limit.
              stopS = V::Time(s, "--stop", kNs3TimeResolutionS, kNs3TimeMaxS / 2);
          });
    t.Add(
        "rto",
        "RoCE retransmission timeout (go-back-N from the oldest unacknowledged packet), "
        "e.g. 4ms; auto: 1 ms, or with PFC on twice the time --buffer takes to drain at "
        "--rate (a lossless queue may legitimately hold a packet that long, and a timeout "
        "then only resends what is queued)",
        rtoText,
        [this](const std::string& s) {
            rtoS = s == "auto"
                       ? (pfc ? std::max(1e-3, 2.0 * static_cast<double>(bufferBytes) * 8 / rateBps)
                              : 1e-3)
                       : V::Time(s, "--rto", kNs3TimeResolutionS);
        });
}

/// Rows of the run's other limits: event limit, detectors, progress, memory, estimate, trace size.
void
DriverOptions::AddRunLimitRows(OptionTable& t)
{
    t.Add("max-events",
          "event limit of one packet-level run: a run still unfinished after that many "
          "simulator events (a livelock, e.g. endless retransmissions) ends with exit 3; about "
          "10 minutes of wall time at the default",
          maxEventsText,
          [this](const std::string& s) { maxEvents = V::Uint(s, "--max-events", 1, UINT64_MAX); });
    t.Add("deadlock-check",
          "interval of the PFC deadlock detector (a cycle of ports paused and silent since the "
          "previous look ends the run with exit 3 and names the cycle); 0: off",
          deadlockCheckText,
          [this](const std::string& s) {
              deadlockCheckS = s == "0" ? 0 : V::Time(s, "--deadlock-check", kNs3TimeResolutionS);
          });
    t.Add("in-flight-sample",
          "interval at which the frames that exist (queued or on a link) are counted; the "
          "peak goes to the JSON as frames_in_flight_peak (for the bench's bytes per frame in "
          "flight); 0: off",
          inFlightSampleText,
          [this](const std::string& s) {
              inFlightSampleS = s == "0" ? 0
                                         : V::Time(s, "--in-flight-sample", kNs3TimeResolutionS);
          });
    t.Add("progress",
          "progress line on stderr: auto (terminal and long run) | 0 | 1",
          progressText,
          [this](const std::string& s) {
              progress = s == "auto" ? -1 : (V::Flag(s, "--progress") ? 1 : 0);
          });
    // Resource limits (helper/resource-estimate.h): the memory a run may take, the
    // estimate alone, and the size of the --trace file.
    t.Add("max-memory",
          "memory the run may take with its unit (e.g. 4GB), 1MiB to 1000000GB; a run whose "
          "estimate (--estimate) is larger is refused before anything is built (exit 2); auto: "
          "MemAvailable of /proc/meminfo, or the address-space limit (ulimit -v) if lower",
          maxMemoryText,
          [this](const std::string& s) {
              maxMemoryBytes = s == "auto" ? 0
                                           : V::Bytes(s,
                                                      "--max-memory",
                                                      uint64_t{1} << 20,
                                                      uint64_t{1000000000000000});
          });
    t.Add("estimate",
          "1: print the resource estimate (nodes, devices, routing entries, plan transfers, "
          "packets in flight, memory, trace size) and the memory limit, run nothing, exit 0; "
          "a topology the run would refuse is refused (exit 2)",
          estimateText,
          [this](const std::string& s) { estimateOnly = V::Flag(s, "--estimate"); });
    t.Add("trace-max",
          "largest --trace file with its unit (e.g. 64MB), 1KB to 1TB: a trace that would be "
          "larger keeps the events that fit, ends with a 'trace truncated' marker event (still "
          "valid JSON) and says so on stderr",
          traceMaxText,
          [this](const std::string& s) {
              traceMaxBytes = V::Bytes(s, "--trace-max", 1000, uint64_t{1000000000000});
          });
    t.Add("mpi",
          "1: run partitioned over the ranks of `mpirun -np N` (N >= 2; ns-3's distributed "
          "engine): each rank simulates its share of the nodes, rank 0 prints and writes the "
          "merged results; the deadlock detector is off; a sync plan's iteration begins when "
          "every rank's end is known, as of the last (its posts at most one link delay late "
          "when --compute is shorter); needs a paramsync built with MPI "
          "(README: Running across MPI ranks)",
          mpiText,
          [this](const std::string& s) { mpi = V::Flag(s, "--mpi"); });
}

void
DriverOptions::ParseWatchdog(const std::string& s)
{
    watchdogDetectionS = 0;
    watchdogRestoreS = 0;
    if (s == "0")
    {
        return;
    }
    V::CheckText(s, "--pfc-watchdog");
    const size_t slash = s.find('/');
    watchdogDetectionS = V::Time(s.substr(0, slash), "--pfc-watchdog", kNs3TimeResolutionS);
    watchdogRestoreS = slash == std::string::npos
                           ? watchdogDetectionS
                           : V::Time(s.substr(slash + 1), "--pfc-watchdog", kNs3TimeResolutionS);
}

void
DriverOptions::ParseLinkDowns(const std::string& s)
{
    linkDowns.clear();
    if (s.empty())
    {
        return;
    }
    V::CheckText(s, "--link-down");
    for (size_t start = 0; start <= s.size();)
    {
        const size_t comma = std::min(s.find(',', start), s.size());
        const std::string event = s.substr(start, comma - start);
        start = comma + 1;
        const size_t at = event.find('@');
        const size_t dash = event.substr(0, at).find('-');
        if (at == std::string::npos || dash == std::string::npos || dash == 0 || dash + 1 == at)
        {
            throw OptionError("--link-down: '" + event +
                              "' is not allowed; allowed: A-B@TIME[+DURATION], e.g. "
                              "h0-sw0.0@1ms+2ms");
        }
        LinkDown d;
        d.a = event.substr(0, dash);
        d.b = event.substr(dash + 1, at - dash - 1);
        const size_t plus = event.find('+', at);
        d.atS = V::Time(
            event.substr(at + 1, plus == std::string::npos ? std::string::npos : plus - at - 1),
            "--link-down",
            0);
        d.durationS = plus == std::string::npos
                          ? 0
                          : V::Time(event.substr(plus + 1), "--link-down", kNs3TimeResolutionS);
        linkDowns.push_back(d);
    }
}

void
DriverOptions::Register(CommandLine& cmd)
{
    Table().Register(cmd);
}

std::vector<std::string>
DriverOptions::Read(int argc, char** argv)
{
    const OptionTable table = Table();
    std::vector<std::string> forCommandLine;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg == "-h")
        {
            forCommandLine.emplace_back("--help");
            continue;
        }
        if (arg.rfind("--", 0) != 0 || arg.size() == 2)
        {
            throw OptionError("argument '" + arg +
                              "' is not an option; allowed: --name=value (see --help)");
        }
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(2,
                                            eq == std::string::npos ? std::string::npos : eq - 2);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (name == "version" || name == "PrintVersion")
        {
            versionRequested = true;
        }
        else if (table.Find(name))
        {
            if (eq == std::string::npos)
            {
                throw OptionError("--" + name + ": no value; allowed: --" + name + "=VALUE");
            }
            table.Give(name, value, m_given);
        }
        else if (kNs3Builtins.count(name))
        {
            TypeId tid; // ns-3 aborts on an unknown type
            if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
            {
                throw OptionError("--PrintAttributes: '" + value +
                                  "' is not an ns-3 type; allowed: a name --PrintTypeIds lists");
            }
            forCommandLine.push_back(arg);
        }
        else
        {
            SetNs3Attribute(name, value, eq != std::string::npos);
        }
    }
    ApplyNs3Given();
    return forCommandLine;
}

void
DriverOptions::ParseSeedRange(const std::string& text)
{
    seedsFirst = seedsLast = 0;
    if (!text.empty())
    {
        const auto [first, last] = V::UintRange(text, "--seeds", 1, 4294967295ULL, 1000);
        seedsFirst = static_cast<uint32_t>(first);
        seedsLast = static_cast<uint32_t>(last);
    }
}

void
DriverOptions::Validate()
{
    Table().ParseAll();
}

std::vector<std::pair<std::string, std::string>>
DriverOptions::Used() const
{
    // The table only reads the text fields here. --mpi is recorded only when on: the record
    // of a one-process run (summary.json, ns3-attributes.txt) stays what it was before the
    // option existed.
    std::vector<std::pair<std::string, std::string>> used =
        const_cast<DriverOptions*>(this)->Table().Used();
    if (!mpi)
    {
        used.erase(std::remove_if(
                       used.begin(), used.end(), [](const auto& kv) { return kv.first == "mpi"; }),
                   used.end());
    }
    return used;
}

void
DriverOptions::CheckMpi(const std::vector<std::string>& algorithms, bool planOrFlows)
{
    if (!mpi)
    {
        return;
    }
    const auto refuse = [](const std::string& option, const std::string& why) {
        throw OptionError(option + ": not with --mpi=1 (" + why +
                          "; README: Running across MPI ranks)");
    };
    if (backend != "packet")
    {
        refuse("--backend=" + backend, "only packet-level runs are partitioned over ranks");
    }
    if (seedsFirst != 0 || algorithms.size() != 1)
    {
        refuse(seedsFirst != 0 ? "--seeds" : "--algorithm=" + algorithm,
               "ns-3's distributed engine runs one simulation per process; allowed: one "
               "algorithm and one seed per mpirun");
    }
    if (!planOrFlows)
    {
        refuse("--algorithm=" + algorithms.front(),
               "a parameter server's workers and servers share state that no rank has whole; "
               "allowed: a sync plan or none with --flows");
    }
    if (algorithms.front() != "none" && !flows.empty())
    {
        // A sync message from another rank is told by its QP number (helper/
        // rank-post-notices.h), which the flows' QPs, opened on every rank, would share.
        refuse("--flows", "beside a sync plan; allowed: a sync plan or --flows alone");
    }
    // Monitors and faults that need the whole network in one process.
    const std::pair<bool, const char*> global[] = {
        {inFlightSampleS > 0, "--in-flight-sample"},
        {pauseStorm.host >= 0, "--pause-storm"},
        {stopDraining.host >= 0, "--stop-draining"},
        {!linkDowns.empty(), "--link-down"},
        {!pcapText.empty(), "--pcap"},
        {m_given.count("deadlock-check") && deadlockCheckS > 0, "--deadlock-check"}};
    for (const auto& [on, option] : global)
    {
        if (on)
        {
            refuse(option,
                   "it needs every node in one process (a cycle of paused ports, the frames "
                   "in flight, a fault's rerouting may span ranks); allowed: off");
        }
    }
    deadlockCheckS = 0; // its default (1ms) is off across ranks, said in --help and README
}

std::vector<std::pair<std::string, std::string>>
DriverOptions::UsedRelativeTo(const std::string& dir) const
{
    namespace fs = std::filesystem;
    const fs::path base = fs::absolute(dir).lexically_normal();
    const auto relative = [&base](const std::string& path) {
        const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(base);
        return rel.empty() ? path : rel.generic_string();
    };
    std::vector<std::pair<std::string, std::string>> used = Used();
    for (auto& [name, value] : used)
    {
        if (value.empty())
        {
            continue;
        }
        if (name == "models-dir" || name == "out" || name == "trace" || name == "flows" ||
            (name == "model" && value.find('/') != std::string::npos))
        {
            value = relative(value);
        }
        else if (name == "topology" && value.rfind("file:", 0) == 0)
        {
            const size_t comma = value.find(',');
            std::string path = value.substr(5, comma == std::string::npos ? comma : comma - 5);
            const std::string key = path.rfind("path=", 0) == 0 ? "path=" : "";
            value = "file:" + key + relative(path.substr(key.size())) +
                    (comma == std::string::npos ? "" : value.substr(comma));
        }
    }
    return used;
}

} // namespace ns3
