#include "driver-options.h"

#include "ns3/command-line.h"
#include "ns3/model-profile.h"
#include "ns3/spec-string.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/// Parses an unsigned integer in [min, max] or throws naming the option.
uint64_t
ParseUint(const std::string& text, const std::string& option, uint64_t min, uint64_t max)
{
    const std::string allowed = "allowed: an integer from " + std::to_string(min) + " to " +
                                std::to_string(max);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 19)
    {
        throw OptionError(option + ": '" + text + "' is not an integer; " + allowed);
    }
    uint64_t v = std::strtoull(text.c_str(), nullptr, 10);
    if (v < min || v > max)
    {
        throw OptionError(option + ": " + text + " is out of range; " + allowed);
    }
    return v;
}

/// Parses a finite real in [min, max] (or (min, max] when minExcluded) or throws naming
/// the option and the interval.
double
ParseReal(const std::string& text,
          const std::string& option,
          double min,
          double max,
          bool minExcluded = false)
{
    std::ostringstream interval; // shortest form: "(0, 1]", "[1, 1e+06]"
    interval << (minExcluded ? "(" : "[") << min << ", " << max << "]";
    const std::string allowed = "allowed: a number in " + interval.str();
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    {
        throw OptionError(option + ": '" + text + "' is not a number; " + allowed);
    }
    if (v < min || v > max || (minExcluded && v == min))
    {
        throw OptionError(option + ": " + text + " is out of range; " + allowed);
    }
    return v;
}

bool
ParseFlag(const std::string& text, const std::string& option)
{
    if (text == "1" || text == "true")
    {
        return true;
    }
    if (text == "0" || text == "false")
    {
        return false;
    }
    throw OptionError(option + ": '" + text + "' is not allowed; allowed: 0 or 1");
}

void
CheckChoice(const std::string& text, const std::string& option, const std::set<std::string>& ok)
{
    if (ok.count(text) == 0)
    {
        std::string list;
        for (const auto& s : ok)
        {
            list += (list.empty() ? "" : "|") + s;
        }
        throw OptionError(option + ": '" + text + "' is not allowed; allowed: " + list);
    }
}

/// "3,7,12" -> {3, 7, 12}, each in [0, max]; "" -> {}.
std::vector<uint32_t>
ParseUintList(const std::string& text, const std::string& option, uint64_t max)
{
    std::vector<uint32_t> values;
    for (size_t start = 0; start < text.size();)
    {
        const size_t comma = std::min(text.find(',', start), text.size());
        values.push_back(
            static_cast<uint32_t>(ParseUint(text.substr(start, comma - start), option, 0, max)));
        start = comma + 1;
    }
    return values;
}

/// "HOST@START[+DURATION]" (empty: none) -> the event; one line naming the option if bad.
DriverOptions::HostEvent ParseHostEvent(const std::string& text, const std::string& option);

/// Rethrows the spec-string parsers' messages as OptionError (they already name the option).
template<typename F>
auto
AsOption(F f) -> decltype(f())
{
    try
    {
        return f();
    }
    catch (const std::invalid_argument& e)
    {
        throw OptionError(e.what());
    }
}

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
    e.host = static_cast<int64_t>(ParseUint(text.substr(0, at), option, 0, 1u << 24));
    const std::string start =
        text.substr(at + 1, plus == std::string::npos ? std::string::npos : plus - at - 1);
    e.startS = AsOption([&] { return ParseTime(start, option); });
    if (plus != std::string::npos)
    {
        e.durationS = AsOption([&] { return ParseTime(text.substr(plus + 1), option); });
        if (!(e.durationS > 0))
        {
            throw OptionError(option + ": duration '" + text.substr(plus + 1) +
                              "' is not allowed; allowed: a time > 0");
        }
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
                                            "PrintAttributes",
                                            "PrintVersion",
                                            "version",
                                            "h"};

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
      bufferText("32MB"),
      priorityText("3"),
      stopText("10s"),
      rtoText("auto"),
      deadlockCheckText("1ms"),
      inFlightSampleText("0"),
      maxEventsText("2000000000"),
      progressText("auto")
{
}

void
DriverOptions::Register(CommandLine& cmd)
{
    cmd.AddValue("topology",
                 "topology spec: bcube:n=3,k=1 | torus:dims=3x3 | fattree:k=4 | "
                 "bigraph:s=4,m=4 | ring:n=9 | star:n=8 | file:PATH (see topologies/README.md)",
                 topology);
    cmd.AddValue("algorithm",
                 "sync algorithm spec NAME[:opt=v,...] (ps, mesh, ring, hips, hd, hdrm, 2d-ring, "
                 "dbtree, trees), 'all' for every one that applies to the topology, or an "
                 "asynchronous PS system (asp, ssp:bound=B, mlfabric:delay=D; packet only), or "
                 "lapse:workload=mf|kge,mode=dynamic|classic,nodes=N (matrix factorization or "
                 "knowledge-graph embeddings on a Lapse PS on hosts 0..N-1; nodes=1 uses host "
                 "0 of any topology; packet only)",
                 algorithm);
    cmd.AddValue("model",
                 "model profile: vgg16 | vgg19 | resnet50 | mnist-mlp | PATH.csv | bytes:SIZE "
                 "(one synthetic tensor, e.g. bytes:100MB)",
                 model);
    cmd.AddValue("models-dir", "directory of the built-in model CSV files", modelsDir);
    cmd.AddValue(
        "rate", "default link rate (e.g. 40Gbps); a topology's rate= overrides it", rateText);
    cmd.AddValue(
        "delay", "default one-way link delay (e.g. 1us); a topology's delay= overrides", delayText);
    cmd.AddValue("mtu", "RoCE path MTU: payload bytes per data packet, 64 to 9000", mtuText);
    cmd.AddValue("cc", "congestion control: none | dcqcn", cc);
    cmd.AddValue("pfc", "PFC on (1) or off (0)", pfcText);
    cmd.AddValue("iterations",
                 "training iterations (one synchronization each), 1 to 100000",
                 iterationsText);
    cmd.AddValue("seed", "ns-3 random seed (ECMP salts, ECN marking), >= 1", seedText);
    cmd.AddValue("backend",
                 "packet: packet-level ns-3 simulation | fluid: flow-level estimator only",
                 backend);
    cmd.AddValue("flows",
                 "HPCC-format flow list (first line the count, then 'src dst priority dport "
                 "bytes start_s'); alone with --algorithm=none, else background traffic",
                 flows);
    cmd.AddValue("out",
                 "directory for summary.json, transfers.csv, pfc.csv, flows.csv and "
                 "attributes.txt (created; its parent must exist); empty: no files",
                 out);
    cmd.AddValue("format", "stdout format: table | json (one JSON object per run a line)", format);
    cmd.AddValue("trace",
                 "Chrome trace-event JSON file (Perfetto / chrome://tracing): one track per "
                 "worker (transfers) and per port (PFC pauses); empty: none",
                 trace);
    cmd.AddValue(
        "compute", "compute time (forward + backward) per iteration, e.g. 50ms", computeText);
    cmd.AddValue("overlap",
                 "1: a tensor's sync may start when backprop produces it (layer-wise overlap); "
                 "0: sync starts when the whole gradient exists",
                 overlapText);
    cmd.AddValue("straggler", "worker that computes slower (-1: none)", stragglerText);
    cmd.AddValue(
        "straggler-factor", "compute time multiplier of the straggler, >= 1", stragglerFactorText);
    cmd.AddValue("slow-link",
                 "topology link indices that run slower, comma-separated (e.g. 0,7,12; -1: none)",
                 slowLinkText);
    cmd.AddValue("slow-link-fraction",
                 "rate fraction of the slow links and hosts, in (0, 1]",
                 slowLinkFractionText);
    cmd.AddValue("slow-hosts",
                 "comma-separated host ranks whose every link runs at --slow-link-fraction of "
                 "its rate (network stragglers, e.g. 0,5); empty: none",
                 slowHostsText);
    cmd.AddValue("pause-storm",
                 "HOST@START[+DURATION]: the NIC of host HOST sends PFC pause frames for every "
                 "data priority without end from START (for DURATION), as a faulty NIC does "
                 "(e.g. 3@1ms+2ms); empty: none",
                 pauseStormText);
    cmd.AddValue("stop-draining",
                 "HOST@START[+DURATION]: host HOST's NIC stops taking frames off the wire from "
                 "START (for DURATION): they wait in its receive buffer, which pauses the "
                 "upstream above 256 KB, and are processed when it drains again; empty: none",
                 stopDrainingText);
    cmd.AddValue("pfc-watchdog",
                 "DETECT[/RESTORE]: PFC watchdog on every switch and relaying host: an egress "
                 "queue paused with frames waiting for DETECT is stormed and its frames are "
                 "dropped until it has been unpaused for RESTORE (default DETECT), e.g. 1ms; "
                 "0: none",
                 watchdogText);
    cmd.AddValue("link-down",
                 "A-B@TIME[+DURATION][,...]: the link between nodes A and B (names as in "
                 "--out's pfc.csv, e.g. h0-sw0.0) fails at TIME (and comes back after "
                 "DURATION): routing switches to shortest paths around it, queue pairs resend "
                 "what it lost; hosts it cuts off wait for the repair (a failure without one "
                 "must leave every host connected); empty: none",
                 linkDownText);
    cmd.AddValue(
        "buffer", "shared buffer per switch and relaying host (e.g. 32MB, 200KB)", bufferText);
    cmd.AddValue("priority",
                 "PFC priority of data on lane 0 (lane L uses priority + L), 0..6",
                 priorityText);
    cmd.AddValue("stop",
                 "simulated-time limit (e.g. 10s): a run not finished by then is reported as "
                 "stalled (exit 3)",
                 stopText);
    cmd.AddValue("rto",
                 "RoCE retransmission timeout (go-back-N from the oldest unacknowledged "
                 "packet), e.g. 4ms; auto: 1 ms, or with PFC on twice the time --buffer takes "
                 "to drain at --rate (a lossless queue may legitimately hold a packet that "
                 "long, and a timeout then only resends what is queued)",
                 rtoText);
    cmd.AddValue("max-events",
                 "event limit of one packet-level run: a run still unfinished after that many "
                 "simulator events (a livelock, e.g. endless retransmissions) ends with exit 3; "
                 "about 10 minutes of wall time at the default",
                 maxEventsText);
    cmd.AddValue("deadlock-check",
                 "interval of the PFC deadlock detector (a cycle of ports paused and silent "
                 "since the previous look ends the run with exit 3 and names the cycle); 0: off",
                 deadlockCheckText);
    cmd.AddValue("in-flight-sample",
                 "interval at which the frames that exist (queued or on a link) are counted; "
                 "the peak goes to the JSON as frames_in_flight_peak (for the bench's bytes per "
                 "frame in flight); 0: off",
                 inFlightSampleText);
    cmd.AddValue(
        "progress", "progress line on stderr: auto (terminal and long run) | 0 | 1", progressText);
}

void
DriverOptions::CheckArgumentNames(int argc, char** argv) const
{
    std::set<std::string> ours;
    for (const auto& kv : Used())
    {
        ours.insert(kv.first);
    }
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 && arg.rfind("-", 0) != 0)
        {
            throw OptionError("argument '" + arg +
                              "' is not an option; allowed: --name=value (see --help)");
        }
        std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
        name = name.substr(0, name.find('='));
        if (ours.count(name) || kNs3Builtins.count(name) || name.rfind("ns3::", 0) == 0)
        {
            continue;
        }
        throw OptionError("--" + name + ": unknown option; allowed: the options --help lists");
    }
}

void
DriverOptions::Validate()
{
    rateBps = AsOption([&] { return ParseRate(rateText, "--rate"); });
    if (!(rateBps > 0))
    {
        throw OptionError("--rate: " + rateText + " is not allowed; allowed: a rate > 0");
    }
    delayS = AsOption([&] { return ParseTime(delayText, "--delay"); });
    mtu = static_cast<uint32_t>(ParseUint(mtuText, "--mtu", 64, 9000));
    CheckChoice(cc, "--cc", {"none", "dcqcn"});
    pfc = ParseFlag(pfcText, "--pfc");
    iterations = static_cast<uint32_t>(ParseUint(iterationsText, "--iterations", 1, 100000));
    seed = static_cast<uint32_t>(ParseUint(seedText, "--seed", 1, 4294967295ULL));
    CheckChoice(backend, "--backend", {"packet", "fluid"});
    CheckChoice(format, "--format", {"table", "json"});
    computeS = AsOption([&] { return ParseTime(computeText, "--compute"); });
    overlap = ParseFlag(overlapText, "--overlap");
    straggler = stragglerText == "-1"
                    ? -1
                    : static_cast<int64_t>(ParseUint(stragglerText, "--straggler", 0, 1u << 30));
    stragglerFactor = ParseReal(stragglerFactorText, "--straggler-factor", 1.0, 1e6);
    slowLinks = slowLinkText == "-1" ? std::vector<uint32_t>{}
                                     : ParseUintList(slowLinkText, "--slow-link", 1u << 30);
    slowLinkFraction = ParseReal(slowLinkFractionText, "--slow-link-fraction", 0.0, 1.0, true);
    pauseStorm = ParseHostEvent(pauseStormText, "--pause-storm");
    stopDraining = ParseHostEvent(stopDrainingText, "--stop-draining");
    slowHosts = ParseUintList(slowHostsText, "--slow-hosts", 1u << 24);
    linkDowns.clear();
    for (size_t start = 0; start < linkDownText.size();)
    {
        const size_t comma = std::min(linkDownText.find(',', start), linkDownText.size());
        const std::string event = linkDownText.substr(start, comma - start);
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
        d.atS = AsOption([&] {
            return ParseTime(
                event.substr(at + 1, plus == std::string::npos ? std::string::npos : plus - at - 1),
                "--link-down");
        });
        d.durationS = 0;
        if (plus != std::string::npos)
        {
            d.durationS = AsOption(
                [&] { return ParseTime(event.substr(plus + 1), "--link-down"); });
            if (!(d.durationS > 0))
            {
                throw OptionError("--link-down: duration in '" + event +
                                  "' is not allowed; allowed: a time > 0");
            }
        }
        linkDowns.push_back(d);
    }
    watchdogDetectionS = 0;
    watchdogRestoreS = 0;
    if (watchdogText != "0")
    {
        const size_t slash = watchdogText.find('/');
        watchdogDetectionS = AsOption(
            [&] { return ParseTime(watchdogText.substr(0, slash), "--pfc-watchdog"); });
        watchdogRestoreS = slash == std::string::npos ? watchdogDetectionS : AsOption([&] {
            return ParseTime(watchdogText.substr(slash + 1), "--pfc-watchdog");
        });
        if (!(watchdogDetectionS > 0) || !(watchdogRestoreS > 0))
        {
            throw OptionError("--pfc-watchdog: '" + watchdogText +
                              "' is not allowed; allowed: DETECT[/RESTORE] times > 0 (e.g. "
                              "1ms or 1ms/5ms), or 0 for none");
        }
    }
    bufferBytes = AsOption([&] { return ParseBytes(bufferText, "--buffer"); });
    if (bufferBytes < 2 * static_cast<uint64_t>(mtu + 100))
    {
        throw OptionError("--buffer: " + bufferText +
                          " cannot hold two packets of --mtu=" + mtuText + "; allowed: at least " +
                          std::to_string(2 * (mtu + 100)) + " bytes");
    }
    priority = static_cast<uint8_t>(ParseUint(priorityText, "--priority", 0, 6));
    stopS = AsOption([&] { return ParseTime(stopText, "--stop"); });
    if (!(stopS > 0))
    {
        throw OptionError("--stop: " + stopText + " is not allowed; allowed: a time > 0");
    }
    if (rtoText == "auto")
    {
        rtoS = pfc ? std::max(1e-3, 2.0 * static_cast<double>(bufferBytes) * 8 / rateBps) : 1e-3;
    }
    else
    {
        rtoS = AsOption([&] { return ParseTime(rtoText, "--rto"); });
        if (!(rtoS > 0))
        {
            throw OptionError("--rto: " + rtoText + " is not allowed; allowed: a time > 0 or auto");
        }
    }
    maxEvents = ParseUint(maxEventsText, "--max-events", 1, UINT64_MAX);
    if (deadlockCheckText == "0")
    {
        deadlockCheckS = 0;
    }
    else
    {
        deadlockCheckS = AsOption([&] { return ParseTime(deadlockCheckText, "--deadlock-check"); });
        if (!(deadlockCheckS > 0))
        {
            throw OptionError("--deadlock-check: " + deadlockCheckText +
                              " is not allowed; allowed: a time > 0, or 0 for off");
        }
    }
    if (inFlightSampleText == "0")
    {
        inFlightSampleS = 0;
    }
    else
    {
        inFlightSampleS =
            AsOption([&] { return ParseTime(inFlightSampleText, "--in-flight-sample"); });
        if (!(inFlightSampleS > 0))
        {
            throw OptionError("--in-flight-sample: " + inFlightSampleText +
                              " is not allowed; allowed: a time > 0, or 0 for off");
        }
    }
    if (progressText == "auto")
    {
        progress = -1;
    }
    else
    {
        progress = ParseFlag(progressText, "--progress") ? 1 : 0;
    }
    if (!out.empty())
    {
        struct stat st;
        if (stat(out.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
        {
            throw OptionError("--out: '" + out +
                              "' exists and is not a directory; allowed: a directory path");
        }
        if (!IsDirectory(ParentOf(out)))
        {
            throw OptionError("--out: the parent of '" + out +
                              "' does not exist; allowed: a directory whose parent exists");
        }
    }
    // The trace may go into the --out directory, which the driver creates.
    if (!trace.empty() && !IsDirectory(ParentOf(trace)) &&
        !(!out.empty() && ParentOf(trace) == ParentOf(out + "/x")))
    {
        throw OptionError("--trace: the directory of '" + trace +
                          "' does not exist; allowed: a file path in an existing directory");
    }
    // --models-dir is checked where it is used: only a built-in model name reads it.
}

std::vector<std::pair<std::string, std::string>>
DriverOptions::Used() const
{
    return {{"topology", topology},
            {"algorithm", algorithm},
            {"model", model},
            {"models-dir", modelsDir},
            {"rate", rateText},
            {"delay", delayText},
            {"mtu", mtuText},
            {"cc", cc},
            {"pfc", pfcText},
            {"iterations", iterationsText},
            {"seed", seedText},
            {"backend", backend},
            {"flows", flows},
            {"out", out},
            {"format", format},
            {"trace", trace},
            {"compute", computeText},
            {"overlap", overlapText},
            {"straggler", stragglerText},
            {"straggler-factor", stragglerFactorText},
            {"slow-link", slowLinkText},
            {"slow-link-fraction", slowLinkFractionText},
            {"slow-hosts", slowHostsText},
            {"pause-storm", pauseStormText},
            {"stop-draining", stopDrainingText},
            {"pfc-watchdog", watchdogText},
            {"link-down", linkDownText},
            {"buffer", bufferText},
            {"priority", priorityText},
            {"stop", stopText},
            {"rto", rtoText},
            {"deadlock-check", deadlockCheckText},
            {"in-flight-sample", inFlightSampleText},
            {"max-events", maxEventsText},
            {"progress", progressText}};
}

} // namespace ns3
