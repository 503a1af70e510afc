#include "results-writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The machine wall times were measured on: CPU model (/proc/cpuinfo) and online cores.
std::string
MachineDescription()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    std::string model = "unknown CPU";
    while (std::getline(cpuinfo, line))
    {
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
        {
            model = line.substr(line.find(':') + 2);
            break;
        }
    }
    return model + ", " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores";
}

} // namespace

const std::vector<std::string>&
ResultsWriter::Columns()
{
    static const std::vector<std::string> columns = {"topology",
                                                     "algorithm",
                                                     "model",
                                                     "backend",
                                                     "workers",
                                                     "gst_s",
                                                     "ideal_gst_s",
                                                     "bound_gst_s",
                                                     "fair_gst_s",
                                                     "iter_s",
                                                     "pfc_pause_frames",
                                                     "pfc_paused_s",
                                                     "pfc_pause_depth",
                                                     "drops",
                                                     "watchdog_drops",
                                                     "link_drops",
                                                     "ecn_marks",
                                                     "retransmits",
                                                     "events",
                                                     "pkt_hops",
                                                     "wall_s",
                                                     "fluid_wall_s",
                                                     "status"};
    return columns;
}

std::string
ResultsWriter::Number(double v)
{
    std::ostringstream os;
    os << std::setprecision(6) << v;
    return os.str();
}

std::vector<std::string>
ResultsWriter::Row(const RunResult& r)
{
    std::string status = r.invariant.empty() ? (r.completed ? "ok" : "incomplete") : "FAIL";
    return {r.topology,
            r.algorithm,
            r.model,
            r.backend,
            std::to_string(r.workers),
            Number(r.gstS),
            Number(r.idealGstS),
            Number(r.boundGstS),
            Number(r.fairGstS),
            Number(r.iterationS),
            std::to_string(r.pfcPauseFrames),
            Number(r.pfcPausedS),
            std::to_string(r.pfcPauseDepth),
            std::to_string(r.drops),
            std::to_string(r.watchdogDrops),
            std::to_string(r.linkDrops),
            std::to_string(r.ecnMarks),
            std::to_string(r.retransmits),
            std::to_string(r.events),
            std::to_string(r.pktHops),
            Number(r.wallS),
            Number(r.fluidWallS),
            status};
}

std::string
ResultsWriter::CsvField(const std::string& s)
{
    // RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled (algorithm
    // specs carry commas: "ring:order=natural,bidir=0").
    if (s.find_first_of(",\"\n\r") == std::string::npos)
    {
        return s;
    }
    std::string out = "\"";
    for (char c : s)
    {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

std::string
ResultsWriter::JsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            }
            else
            {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string
ResultsWriter::ConfigMembers(const RunConfig& c)
{
    std::ostringstream os;
    os << "\"rate_bps\":" << Number(c.rateBps) << ",\"delay_s\":" << Number(c.delayS)
       << ",\"mtu\":" << c.mtu << ",\"buffer_bytes\":" << c.bufferBytes
       << ",\"cc\":" << JsonString(c.cc) << ",\"pfc\":" << (c.pfc ? 1 : 0) << ",\"seed\":" << c.seed
       << ",\"rng_run\":" << c.rngRun << ",\"iterations\":" << c.iterations
       << ",\"paramsync_version\":" << JsonString(c.version)
       << ",\"ns3_version\":" << JsonString(c.ns3Version);
    return os.str();
}

std::string
ResultsWriter::JsonLine(const RunResult& r, const RunConfig* config)
{
    const auto& cols = Columns();
    auto row = Row(r);
    std::ostringstream os;
    os << "{";
    for (size_t i = 0; i < cols.size(); ++i)
    {
        // The first four and the last column are text, the others numbers.
        bool text = i < 4 || i + 1 == cols.size();
        os << (i ? "," : "") << JsonString(cols[i]) << ":" << (text ? JsonString(row[i]) : row[i]);
    }
    if (!r.laneScheduling.empty())
    {
        os << ",\"lane_scheduling\":" << JsonString(r.laneScheduling);
    }
    if (!r.routing.empty())
    {
        os << ",\"routing\":" << JsonString(r.routing);
    }
    os << ",\"invariant\":" << JsonString(r.invariant) << ",\"gst_per_iteration_s\":[";
    for (size_t i = 0; i < r.gstPerIterationS.size(); ++i)
    {
        os << (i ? "," : "") << Number(r.gstPerIterationS[i]);
    }
    os << "]";
    if (r.simS >= 0)
    {
        os << ",\"sim_s\":" << Number(r.simS);
    }
    if (r.framesInFlightPeak >= 0)
    {
        os << ",\"frames_in_flight_peak\":" << r.framesInFlightPeak;
    }
    if (!r.systemKind.empty())
    {
        os << "," << JsonString(r.systemKind) << ":{";
        for (size_t i = 0; i < r.systemMetrics.size(); ++i)
        {
            os << (i ? "," : "") << JsonString(r.systemMetrics[i].first) << ":"
               << r.systemMetrics[i].second;
        }
        os << "}";
    }
    if (config)
    {
        os << "," << ConfigMembers(*config);
    }
    os << "}";
    return os.str();
}

std::string
ResultsWriter::SystemTables(const std::vector<RunResult>& runs)
{
    // One table per system kind, in order of first appearance; columns from its first run.
    std::vector<std::string> kinds;
    for (const auto& r : runs)
    {
        if (!r.systemKind.empty() &&
            std::find(kinds.begin(), kinds.end(), r.systemKind) == kinds.end())
        {
            kinds.push_back(r.systemKind);
        }
    }
    std::string out;
    for (const auto& kind : kinds)
    {
        std::vector<std::vector<std::string>> rows;
        for (const auto& r : runs)
        {
            if (r.systemKind != kind)
            {
                continue;
            }
            if (rows.empty())
            {
                rows.push_back({"topology", "algorithm"});
                for (const auto& m : r.systemMetrics)
                {
                    rows.front().push_back(m.first);
                }
            }
            std::vector<std::string> row{r.topology, r.algorithm};
            for (const auto& m : r.systemMetrics)
            {
                row.push_back(m.second);
            }
            rows.push_back(row);
        }
        out += AlignedTable(rows, 2);
    }
    return out;
}

std::string
ResultsWriter::Table(const std::vector<RunResult>& runs)
{
    std::vector<std::vector<std::string>> rows{Columns()};
    std::string routing;
    for (const auto& r : runs)
    {
        rows.push_back(Row(r));
        routing = r.routing == "source" ? r.routing : routing;
    }
    // Source routing moves every figure: the table says so above its columns.
    const std::string header = routing.empty() ? ""
                                               : "routing: source (ideal_gst_s on the parallel "
                                                 "path set, the others on source-routed paths)\n";
    return header + AlignedTable(rows, 4);
}

std::string
ResultsWriter::AlignedTable(const std::vector<std::vector<std::string>>& rows, size_t textColumns)
{
    std::vector<size_t> width(rows.front().size(), 0);
    for (const auto& row : rows)
    {
        for (size_t i = 0; i < row.size(); ++i)
        {
            width[i] = std::max(width[i], row[i].size());
        }
    }
    std::ostringstream os;
    for (const auto& row : rows)
    {
        for (size_t i = 0; i < row.size(); ++i)
        {
            // Names left-aligned, numbers right-aligned.
            if (i < textColumns)
            {
                os << std::left << std::setw(width[i]) << row[i];
            }
            else
            {
                os << std::right << std::setw(width[i]) << row[i];
            }
            os << (i + 1 < row.size() ? "  " : "\n");
        }
    }
    return os.str();
}

void
ResultsWriter::WriteFileAtomically(const std::string& path, const std::string& content)
{
    WriteFileAtomically(path, [&content](std::ostream& f) { f << content; });
}

void
ResultsWriter::WriteFileAtomically(const std::string& path,
                                   const std::function<void(std::ostream&)>& fill)
{
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
        {
            throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
        }
        try
        {
            fill(f);
        }
        catch (...)
        {
            f.close();
            std::remove(tmp.c_str());
            throw;
        }
        f.flush();
        if (!f)
        {
            std::remove(tmp.c_str());
            throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        int err = errno;
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot rename into place: " + std::strerror(err));
    }
}

namespace
{

using Pairs = std::vector<std::pair<std::string, std::string>>;

/// summary.json: one JSON line per run, the config, the options, the wall clock, the exit.
std::string
SummaryJson(const std::vector<RunResult>& runs,
            const Pairs& used,
            const RunExit& exit,
            const RunConfig* config)
{
    std::ostringstream summary;
    summary << "{\"runs\":[\n";
    for (size_t i = 0; i < runs.size(); ++i)
    {
        summary << "  " << ResultsWriter::JsonLine(runs[i], config)
                << (i + 1 < runs.size() ? ",\n" : "\n");
    }
    summary << "],";
    if (config)
    {
        summary << "\"config\":{" << ResultsWriter::ConfigMembers(*config) << "},";
    }
    summary << "\"options\":{";
    for (size_t i = 0; i < used.size(); ++i)
    {
        summary << (i ? "," : "") << ResultsWriter::JsonString(used[i].first) << ":"
                << ResultsWriter::JsonString(used[i].second);
    }
    // The exit record ends the file.
    summary << "},\"wall_clock\":{\"machine\":" << ResultsWriter::JsonString(MachineDescription())
            << ",\"note\":\"wall_s and fluid_wall_s are wall-clock seconds measured on this "
               "machine: they change from run to run, every other number only with the code, the "
               "options or ns-3\"},\"exit\":{\"code\":"
            << exit.code << ",\"reason\":" << ResultsWriter::JsonString(exit.reason) << "}}\n";
    return summary.str();
}

/// transfers.csv: one row per transfer of every run.
std::string
TransfersCsv(const std::vector<RunResult>& runs)
{
    std::ostringstream transfers;
    transfers << "algorithm,iteration,id,src,dst,bytes,start_s,end_s,chunk,phase\n";
    transfers << std::setprecision(12);
    for (const auto& r : runs)
    {
        for (const auto& t : r.transfers)
        {
            transfers << ResultsWriter::CsvField(r.algorithm) << "," << t.iteration << "," << t.id
                      << "," << t.src << "," << t.dst << "," << t.bytes << "," << t.startS << ","
                      << t.endS << "," << t.chunk << "," << t.phase << "\n";
        }
    }
    return transfers.str();
}

/// pfc.csv: one row per (node, port, priority) PFC record of every run.
std::string
PfcCsv(const std::vector<RunResult>& runs)
{
    std::ostringstream pfc;
    pfc << "algorithm,node,port,priority,pauses_sent,pauses_received,paused_s,drops\n";
    pfc << std::setprecision(12);
    for (const auto& r : runs)
    {
        for (const auto& p : r.pfc)
        {
            pfc << ResultsWriter::CsvField(r.algorithm) << "," << p.node << "," << p.port << ","
                << p.priority << "," << p.pausesSent << "," << p.pausesReceived << "," << p.pausedS
                << "," << p.drops << "\n";
        }
    }
    return pfc.str();
}

/// flows.csv: one row per background flow of every run (fct_s -1 when unfinished).
std::string
FlowsCsv(const std::vector<RunResult>& runs)
{
    std::ostringstream flows;
    flows << "algorithm,flow,src,dst,bytes,start_s,end_s,fct_s\n";
    flows << std::setprecision(12);
    for (const auto& r : runs)
    {
        for (const auto& f : r.flows)
        {
            flows << ResultsWriter::CsvField(r.algorithm) << "," << f.index << "," << f.src << ","
                  << f.dst << "," << f.bytes << "," << f.startS << "," << f.endS << ","
                  << (f.endS >= 0 ? f.endS - f.startS : -1.0) << "\n";
        }
    }
    return flows.str();
}

/// attributes.txt: the command line that reruns this, then one "option = value" a line.
std::string
AttributesText(const Pairs& used)
{
    std::ostringstream attributes;
    attributes << "# paramsync options of this run (paths relative to this directory); rerun "
                  "from here with: paramsync";
    for (const auto& kv : used)
    {
        if (kv.first != "out")
        {
            attributes << " --" << kv.first << "='" << kv.second << "'";
        }
    }
    attributes << "\n";
    for (const auto& kv : used)
    {
        attributes << kv.first << " = " << kv.second << "\n";
    }
    return attributes.str();
}

/// links.csv: one row per directed link of every run.
std::string
LinksCsv(const std::vector<RunResult>& runs)
{
    std::ostringstream links;
    links << "algorithm,from,to,bytes,utilization,max_flows\n" << std::setprecision(12);
    for (const auto& r : runs)
    {
        for (const auto& l : r.links)
        {
            links << ResultsWriter::CsvField(r.algorithm) << "," << l.from << "," << l.to << ","
                  << l.bytes << "," << l.utilization << "," << l.maxFlows << "\n";
        }
    }
    return links.str();
}

/// updates.csv: one row per parameter-server update of every run (loss empty when none).
std::string
UpdatesCsv(const std::vector<RunResult>& runs)
{
    std::ostringstream updates;
    updates << "algorithm,worker,iteration,shard,delay,applied_s,loss\n" << std::setprecision(12);
    for (const auto& r : runs)
    {
        for (const auto& u : r.updates)
        {
            updates << ResultsWriter::CsvField(r.algorithm) << "," << u.worker << "," << u.iteration
                    << "," << u.shard << "," << u.delay << "," << u.appliedS << ",";
            if (u.loss >= 0)
            {
                updates << u.loss;
            }
            updates << "\n";
        }
    }
    return updates.str();
}

} // namespace

void
ResultsWriter::WriteDirectory(const std::string& dir,
                              const std::vector<RunResult>& runs,
                              const std::vector<std::pair<std::string, std::string>>& used,
                              const RunExit& exit,
                              const std::vector<std::pair<std::string, std::string>>& extraFiles,
                              const RunConfig* config)
{
    if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
    {
        throw std::runtime_error(dir +
                                 ": cannot create the --out directory: " + std::strerror(errno));
    }
    // Build every file in memory first, so a failure leaves nothing half-written.
    const std::string summary = SummaryJson(runs, used, exit, config);
    const std::string transfers = TransfersCsv(runs);
    const std::string pfc = PfcCsv(runs);
    const std::string flows = FlowsCsv(runs);
    const std::string attributes = AttributesText(used);
    // Transfers, pfc, flows, attributes first: summary.json last marks a complete directory.
    WriteFileAtomically(dir + "/transfers.csv", transfers);
    WriteFileAtomically(dir + "/pfc.csv", pfc);
    WriteFileAtomically(dir + "/flows.csv", flows);
    WriteFileAtomically(dir + "/attributes.txt", attributes);
    if (std::any_of(runs.begin(), runs.end(), [](const RunResult& r) { return !r.links.empty(); }))
    {
        WriteFileAtomically(dir + "/links.csv", LinksCsv(runs));
    }
    if (std::any_of(
            runs.begin(), runs.end(), [](const RunResult& r) { return !r.updates.empty(); }))
    {
        WriteFileAtomically(dir + "/updates.csv", UpdatesCsv(runs));
    }
    for (const auto& [name, content] : extraFiles)
    {
        WriteFileAtomically(dir + "/" + name, content);
    }
    WriteFileAtomically(dir + "/summary.json", summary);
}

} // namespace ns3
