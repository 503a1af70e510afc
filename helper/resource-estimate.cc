#include "resource-estimate.h"

#include "driver-options.h"
#include "job-registry.h"
#include "trace-event-writer.h"

#include "ns3/model-profile.h"
#include "ns3/spec-string.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/*
 * Bytes per object: peak RSS (ru_maxrss of wait4, KiB x 1024; median of 3 runs) of a release
 * build of the driver on Debian 12 / g++ 12.2 / ns-3.37 (2-core x86-64), fitted by
 * bench/fit_resource_estimate.py (least squares on the relative error, in stages; README.md,
 * Resource estimate, has the table). Measured 2026-11-29 at main e955d06; kPacket refitted
 * at eb492a1 with the pause records shrunk (helper/network-recorder.h, EndedPause).
 *  - kBase: star:n=2 --algorithm=ring --model=bytes:1KB, 13.9 MB: the process with ns-3.
 *  - kPacket: an incast of 32 flows of 40 MB into one host of star:n=33 with --buffer=16 MB
 *    to 1 GB: PFC lets each ingress hold a share of the buffer, so the frames that exist
 *    (--in-flight-sample's peak) grow from 3 k to 192 k while nothing else changes; peak RSS,
 *    less the pauses' cost as Describe prints it (kPauseRecordBytes each: 36-39 k pauses,
 *    18 k at 1 GB), grows 121 B per frame over the range (a frame is its header beside a
 *    FrameRef in a switch FIFO that grows by doubling, model/frame-ref.h; the 300 B of a
 *    Packet and its event before frames without Packets). It was 67 B while a pause cost
 *    ~277 B: the 1 GB run's 19 k fewer pauses took 5 MB off its peak, 26 B off the slope.
 *    bench/README.md's slope of the fat-tree permutation, which does not pause, is 138-153 B.
 *  - kDevice, kRouteEntry: packet runs of --algorithm=none with one 1000 B flow on
 *    fattree:k=4, 8, 12, 16, star:n=256, 512, torus:dims=16x16, 24x24 and bcube:n=8,k=1
 *    (14 to 40 MB): 4.15 KB per port and 3.6 B per routing entry (forwarding tables keep
 *    runs of destinations, model/forwarding-table.h), every run within 12 % (fattree:k=16
 *    +11.5 %, the largest). A node's own cost does not separate from its ports': it is
 *    inside the per-port figure.
 *  - kTransfer, kQueuePair: packet runs of ring and mesh on star:n=64 and 128 with
 *    bytes:64KB (8064 and 32512 transfers; ring's bound 768 and 1792 queue pairs, mesh
 *    N (N - 1)): 21.6, 34.3, 42.8 and 107.3 MB; 500 B per transfer (plan, application
 *    state, message, result row) and 4.14 KB per queue pair, each run within 6 %. A flow
 *    (--flows) is a transfer with a queue pair of its own.
 *  - kFluidLink: fluid runs of ring in round form on fattree:k=36, 64 and torus:dims=256x256
 *    (39 to 145 MB): 660 B per link (graph, routing and round state; nodes fold in).
 *  - kFluidPair, kFluidTransfer: fluid runs of ps on torus:dims=16x16, 32x32, 64x64 and
 *    fattree:k=16, 24 (15 to 174 MB: 9.4 B per (host, node) pair, the estimator's path
 *    tables) and of mesh on star:n=64, 128 (640 B per transfer). Every fluid run within
 *    23 % (torus:dims=32x32 -23 % and fattree:k=16 -20 %, the per-pair cost is not linear;
 *    the constants before were 35 % over at fattree:k=24 and 27 % under at fattree:k=64).
 *  - kTransferRow: the size of a TransferRecord (9 fields) with vector slack, not measured.
 *  - kDependency: packet runs of mesh on star:n=64, 128 and 256 with bytes:64KB (254 k, 2.06 M
 *    and 16.6 M dependencies, N (N - 1)^2): peak RSS 32.4, 108.6 and 524 MB against 36.8,
 *    102 and 363 MB estimated without them; from 128 to 256 hosts the rest grew 154 MB for
 *    14.5 M more dependencies, 10.6 B each (the plan's 4 B entry and the application's
 *    waiting list, both in vectors that grow by doubling).
 */
constexpr double kBase = 13.9e6;
constexpr double kDevice = 4150;
constexpr double kRouteEntry = 3.6;
constexpr double kTransfer = 500;
constexpr double kQueuePair = 4140;
constexpr double kTransferRow = 80;
constexpr double kDependency = 10.6;
constexpr double kPacket = 121;
constexpr double kFluidPair = 9.4;
constexpr double kFluidTransfer = 640;
constexpr double kFluidLink = 660;

/// Above this many transfers x workers the fluid backend runs an algorithm's compact round
/// form instead of its explicit plan (ParamsyncDriver::kRoundFormAbove): no plan, no paths.
constexpr double kRoundFormAbove = double(uint64_t{1} << 27);

/// Bytes of one transfer slice in the trace: the "X" event TraceEventWriter::Format writes
/// ({"ph":"X","pid":1,"tid":65536,"name":"t1234 -> 7","ts":..,"dur":..,"args":{..}} with
/// 12-digit times, about 160 characters) plus its separator.
constexpr double kTraceSliceBytes = 170;

/// Frame overhead beside the payload (Ethernet, IPv4, UDP, BTH, ICRC, FCS, IFG; rounded up).
constexpr uint64_t kFrameOverhead = 100;

/// Total gradient bytes of the model option, when known without reading a user's file.
uint64_t
ModelBytes(const DriverOptions& o)
{
    if (o.model.find('/') != std::string::npos)
    {
        return 0; // a user's file: the driver checks it before reading
    }
    try
    {
        return ModelProfile::Load(o.model, o.modelsDir).TotalBytes();
    }
    catch (const std::exception&)
    {
        return 0; // the driver names a bad model
    }
}

/// Flows and their bytes of an HPCC flow file ("COUNT", then "src dst priority dport bytes
/// start_s" a line; helper/flow-list.h), {0, 0} when not a regular file or over the cap.
std::pair<uint64_t, uint64_t>
FlowVolume(const std::string& path)
{
    struct stat st;
    if (path.empty() || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<uint64_t>(st.st_size) > (uint64_t{256} << 20))
    {
        return {0, 0}; // the driver's input check names it
    }
    std::ifstream in(path);
    uint64_t count = 0;
    uint64_t bytes = 0;
    in >> count;
    std::string line;
    std::getline(in, line);
    for (uint64_t i = 0; i < count && std::getline(in, line); ++i)
    {
        std::istringstream fields(line);
        uint64_t src = 0;
        uint64_t dst = 0;
        uint64_t priority = 0;
        uint64_t port = 0;
        uint64_t size = 0;
        fields >> src >> dst >> priority >> port >> size;
        bytes += size;
    }
    return {count, bytes};
}

} // namespace

ResourceEstimate
ResourceEstimate::Of(const DriverOptions& o)
{
    ResourceEstimate e;
    e.packet = o.backend == "packet";
    const std::optional<TopologyCounts> counts = CountTopology(o.topology);
    const auto [flows, flowBytes] = FlowVolume(o.flows);
    e.flows = flows;
    if (!counts)
    {
        return e;
    }
    e.known = true;
    e.network = *counts;
    const TopologyCounts& c = *counts;
    e.nodes = c.hosts + c.switches;
    e.devices = 2 * c.links;
    PlanSizeBound plan;
    try
    {
        PlanSizeInputs in;
        in.hosts = c.hosts;
        in.links = c.links;
        in.modelBytes = ModelBytes(o);
        plan = JobRegistry::SizeBound(o.algorithm, in, o.leftOutOfAll);
    }
    catch (const std::exception&)
    {
        // A spec its row cannot read: the driver names it when it prepares the run.
    }
    e.transfers = plan.transfers;
    e.dependencies = plan.dependencies;
    e.planBounded = plan.bounds;
    e.transferRows = SaturatingMul(e.transfers, o.iterations);
    e.queuePairs = std::min(e.transfers, plan.queuePairs);
    double bytes = kBase;
    if (!e.packet)
    {
        bytes += kFluidLink * static_cast<double>(c.links);
        // Explicit plans only (an algorithm without a round form builds its explicit plan
        // at any size: there the estimate is low).
        if (static_cast<double>(e.transfers) * static_cast<double>(c.hosts) <= kRoundFormAbove)
        {
            e.planBytes = kFluidTransfer * static_cast<double>(e.transfers) +
                          kDependency * static_cast<double>(e.dependencies) +
                          kTransferRow * static_cast<double>(e.transferRows);
            bytes += kFluidPair * static_cast<double>(c.hosts) * static_cast<double>(e.nodes) +
                     e.planBytes;
            e.traceBytes = static_cast<uint64_t>(kTraceSliceBytes *
                                                 static_cast<double>(e.transferRows));
        }
        e.bytes = static_cast<uint64_t>(std::min(bytes, 4e18));
        return e;
    }
    // Every node holds a (destination, arrival lane) entry per host but itself; a server
    // with one port only originates, on lane 0 (NetworkBuilder::FillTable).
    const uint64_t hostLanes = c.hostsRelay ? c.lanes : 1;
    e.routingEntries = SaturatingMul(SaturatingMul(c.switches, c.hosts), c.lanes) +
                       SaturatingMul(SaturatingMul(c.hosts, c.hosts > 0 ? c.hosts - 1 : 0),
                                     hostLanes);
    // Frames: at most what the buffers of every forwarding node hold, and never more than
    // the data moved (2 x gradient per worker, and the flows), plus one on every port.
    const uint64_t frame = uint64_t{o.mtu} + kFrameOverhead;
    const uint64_t forwarding = c.switches + (c.hostsRelay ? c.hosts : 0);
    uint64_t inFlight = SaturatingMul(forwarding, o.bufferBytes / frame);
    const uint64_t model = ModelBytes(o);
    if (model > 0 || e.transfers == 0)
    {
        const uint64_t volume = (e.transfers > 0 ? SaturatingMul(2 * c.hosts, model) : 0) +
                                flowBytes;
        inFlight = std::min(inFlight,
                            volume / std::max<uint64_t>(o.mtu, 1) + e.transfers + e.flows);
    }
    inFlight += e.devices;
    e.packetsInFlight = inFlight;
    // A pending event per frame, per port (its transmission), per host (its application).
    e.events = inFlight + e.devices + c.hosts;
    e.planBytes = kTransfer * static_cast<double>(e.transfers) +
                  kDependency * static_cast<double>(e.dependencies) +
                  kTransferRow * static_cast<double>(e.transferRows);
    bytes += kDevice * static_cast<double>(e.devices) +
             kRouteEntry * static_cast<double>(e.routingEntries) +
             kTransfer * static_cast<double>(e.flows) +
             kQueuePair * static_cast<double>(e.queuePairs + e.flows) + e.planBytes +
             kPacket * static_cast<double>(inFlight);
    e.bytes = static_cast<uint64_t>(std::min(bytes, 4e18));
    e.traceBytes = static_cast<uint64_t>(kTraceSliceBytes *
                                         static_cast<double>(e.transferRows + e.flows));
    // Every port may send or receive a PFC frame; none does with PFC off.
    e.pauseStateBytes = o.pfc ? SaturatingMul(e.devices, kPauseStateBytes) : 0;
    e.tracing = !o.trace.empty();
    e.traceMaxBytes = o.traceMaxBytes;
    return e;
}

uint64_t
ResourceEstimate::TraceMemory(uint64_t pauses) const
{
    if (!tracing)
    {
        return 0;
    }
    const double document = std::min(static_cast<double>(traceBytes) +
                                         static_cast<double>(kPauseSliceBytes) *
                                             static_cast<double>(pauses),
                                     static_cast<double>(traceMaxBytes));
    // Only one piece of the document is in memory at once; the rest is in the file.
    const double piece = std::min(document, static_cast<double>(TraceEventWriter::kPieceBytes));
    return static_cast<uint64_t>(std::min(piece + 16 * static_cast<double>(pauses), 4e18));
}

uint64_t
ResourceEstimate::BytesWithPauses(uint64_t pauses) const
{
    // Capped as bytes is (4e18: above any machine, below 2^64).
    const double sum = static_cast<double>(bytes) + static_cast<double>(pauseStateBytes) +
                       static_cast<double>(kPauseRecordBytes) * static_cast<double>(pauses) +
                       static_cast<double>(TraceMemory(pauses));
    return static_cast<uint64_t>(std::min(sum, 4e18));
}

uint64_t
ResourceEstimate::MemoryLimit(const DriverOptions& o, std::string& source)
{
    if (o.maxMemoryBytes > 0)
    {
        source = "--max-memory";
        return o.maxMemoryBytes;
    }
    // MemAvailable as the process first read it: the Guard, before anything is built. Read
    // again when the plans are compiled (PlanAllowanceOf) it would lack what this process
    // already holds, the topology or an earlier seed's run, and the plans' allowance would
    // count that twice (once in it, once in the estimate of the rest).
    static const uint64_t available = [] {
        std::ifstream meminfo("/proc/meminfo");
        std::string key;
        uint64_t kb = 0;
        std::string unit;
        while (meminfo >> key >> kb >> unit)
        {
            if (key == "MemAvailable:")
            {
                return kb * 1024;
            }
        }
        return uint64_t{0};
    }();
    uint64_t limit = available;
    if (limit > 0)
    {
        source = "MemAvailable";
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (limit == 0 || rl.rlim_cur < limit))
    {
        limit = rl.rlim_cur;
        source = "ulimit -v";
    }
    return limit;
}

std::string
ResourceEstimate::Size(double bytes)
{
    return BytesText(bytes);
}

std::string
ResourceEstimate::Describe() const
{
    std::ostringstream os;
    if (!known)
    {
        os << "topology       not estimated (no closed form for this spec)\n";
        return os.str();
    }
    os << "backend        " << (packet ? "packet" : "fluid") << "\n"
       << "hosts          " << network.hosts << "\n"
       << "switches       " << network.switches << "\n"
       << "links          " << network.links << "\n"
       << "nodes          " << nodes << "\n"
       << "devices        " << devices << "\n"
       << "routing        " << routingEntries << " entries\n"
       << "transfers      " << (planBounded ? "" : "at least ") << transfers
       << " per synchronization, " << transferRows << " kept"
       << (planBounded ? "" : " (the rest is charged as the plan is built)") << "\n"
       << "dependencies   "
       << (dependencies > 0 ? std::to_string(dependencies)
                            : std::string("no closed form (charged as the plan is built)"))
       << "\n"
       << "queue pairs    " << queuePairs << "\n"
       << "flows          " << flows << "\n"
       << "in flight      " << packetsInFlight << " packets, " << events << " events (bound)\n"
       << "memory         " << Size(static_cast<double>(bytes)) << " (" << bytes << " B)\n";
    if (packet)
    {
        // The pause count is known only after the run: the figure per pause, not a guess.
        os << "pauses         not counted above: at most " << kPauseRecordBytes
           << " B per PFC pause (pfc_pause_frames bounds them after the run) and "
           << Size(static_cast<double>(pauseStateBytes)) << " of pause state (" << kPauseStateBytes
           << " B per port)";
        if (tracing)
        {
            // A 16 B index per pause and one piece of the document (TraceMemory).
            os << "; --trace: 16 B more per pause and at most "
               << Size(static_cast<double>(TraceEventWriter::kPieceBytes))
               << " of the trace at once (written in pieces)";
        }
        os << "\n";
    }
    os << "trace          " << Size(static_cast<double>(traceBytes)) << " (transfer slices)\n";
    return os.str();
}

namespace
{
/// Whether a run of estimate e may go on under limit (0: none known).
bool
Fits(const ResourceEstimate& e, uint64_t limit)
{
    return !e.known || limit == 0 || e.bytes <= limit;
}
} // namespace

ResourceEstimate::PlanAllowance
ResourceEstimate::PlanAllowanceOf(const DriverOptions& o)
{
    const ResourceEstimate e = Of(o);
    std::string source;
    const double limit = static_cast<double>(MemoryLimit(o, source));
    PlanAllowance a;
    a.perTransfer = (e.packet ? kTransfer : kFluidTransfer) +
                    kTransferRow * static_cast<double>(o.iterations);
    a.perDependency = kDependency;
    const double rest = static_cast<double>(e.bytes) - e.planBytes;
    if (e.known && limit > 0)
    {
        // At least a byte: with no room left the Guard has refused the run already.
        a.bytes = static_cast<uint64_t>(std::max(1.0, limit - rest));
    }
    return a;
}

bool
ResourceEstimate::WithinLimit(const DriverOptions& o)
{
    std::string source;
    return Fits(Of(o), MemoryLimit(o, source));
}

namespace
{
/// "a, b, c".
std::string
Joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
    {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}
} // namespace

std::vector<std::string>
ResourceEstimate::LeaveOutOfAll(const DriverOptions& o, uint64_t limit)
{
    // In "all"'s order, each algorithm whose plan would take the run over the limit, with the
    // plans of those before it that fit.
    const std::vector<std::string> names = JobRegistry::AllNames();
    DriverOptions trial = o;
    std::vector<std::string> leftOut;
    for (size_t i = 0; i < names.size(); ++i)
    {
        trial.leftOutOfAll = leftOut;
        trial.leftOutOfAll.insert(trial.leftOutOfAll.end(), names.begin() + i + 1, names.end());
        if (!Fits(Of(trial), limit))
        {
            leftOut.push_back(names[i]);
        }
    }
    return leftOut.size() == names.size() ? std::vector<std::string>{} : leftOut;
}

bool
ResourceEstimate::Guard(DriverOptions& o, std::ostream& out, std::ostream& err)
{
    const ResourceEstimate e = Of(o);
    std::string source;
    const uint64_t limit = MemoryLimit(o, source);
    const bool fits = Fits(e, limit);
    if (o.estimateOnly)
    {
        out << e.Describe() << "limit          "
            << (limit ? Size(static_cast<double>(limit)) + " (" + source + ")" : "unknown") << "\n";
        if (o.algorithm == "all" && !fits)
        {
            const std::string names = Joined(LeaveOutOfAll(o, limit));
            out << "left out       " << (names.empty() ? "every algorithm: refused" : names)
                << "\n";
        }
        return false;
    }
    if (!fits && o.algorithm == "all")
    {
        // "all" runs what fits, as it runs what applies: the others are left out and named.
        o.leftOutOfAll = LeaveOutOfAll(o, limit);
        if (!o.leftOutOfAll.empty())
        {
            err << "paramsync: --algorithm=all leaves out " << Joined(o.leftOutOfAll)
                << ": with their plans the run needs an estimated "
                << Size(static_cast<double>(e.bytes)) << ", over the limit of "
                << Size(static_cast<double>(limit)) << " (" << source
                << "); name one to see its estimate" << std::endl;
        }
    }
    if (!fits && o.leftOutOfAll.empty())
    {
        throw OptionError(
            "--topology: " + o.topology + " with --algorithm=" + o.algorithm + " --backend=" +
            o.backend + " needs an estimated " + Size(static_cast<double>(e.bytes)) +
            " of memory (" + std::to_string(e.nodes) + " nodes, " + std::to_string(e.devices) +
            " devices, " + std::to_string(e.routingEntries) + " routing entries, " +
            std::to_string(e.transfers) + " transfers" +
            (e.dependencies > 0 ? " with " + std::to_string(e.dependencies) + " dependencies"
                                : std::string()) +
            "; --estimate lists it), over the limit of " + Size(static_cast<double>(limit)) + " (" +
            source + "); allowed: a smaller run, or --max-memory=SIZE to set the limit");
    }
    if (!o.trace.empty() && (e.traceBytes > o.traceMaxBytes || e.traceBytes > 64000000))
    {
        err << "paramsync: --trace: the trace will take about "
            << Size(static_cast<double>(e.traceBytes)) << " (transfer slices; pause slices add)"
            << (e.traceBytes > o.traceMaxBytes
                    ? "; --trace-max=" + o.traceMaxText + " will truncate it"
                    : "")
            << std::endl;
    }
    return true;
}

} // namespace ns3
