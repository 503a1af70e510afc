#include "file-topology.h"

#include "family-options.h"
#include "shortest-path-routing.h"
#include "spec-string.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unordered_map>

namespace ns3
{

namespace
{

const char* const kFileUsage = "file:PATH[,format=auto|native|hpcc][,rate=R][,delay=D]";
const char* const kNativeAllowed = "'host NAME', 'switch NAME', 'link NAME_A NAME_B RATE DELAY'"
                                   " (see topologies/README.md)";
const char* const kHpccAllowed = "line 1 'nodes switches links', then the switch ids, then one "
                                 "'a b rate delay error_rate' line per link";

/// A decimal integer of at most 9 digits (fits in 32 bits): true and `value` set, else false.
bool
ParseSmallUint(const std::string& token, uint32_t& value)
{
    uint64_t v = 0;
    if (token.size() > 9 || !ParseUint(token, v))
    {
        return false;
    }
    value = static_cast<uint32_t>(v);
    return true;
}

/// "PATH:LINE: " prefix of every parse error.
std::string
At(const std::string& path, size_t line)
{
    return path + ":" + std::to_string(line) + ": ";
}

std::vector<std::string>
Tokens(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line.substr(0, line.find('#')));
    std::string token;
    while (in >> token)
    {
        out.push_back(token);
    }
    return out;
}

bool
IsUint(const std::string& token)
{
    uint32_t value = 0;
    return ParseSmallUint(token, value);
}

/// A node id token below `nodes`: true and `id` set, else false.
bool
ParseNodeId(const std::string& token, uint64_t nodes, uint32_t& id)
{
    return ParseSmallUint(token, id) && id < nodes;
}

/// Reads the whole file as lines, rejecting what cannot be a text topology.
std::vector<std::string>
ReadLines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::invalid_argument(path + ": cannot open topology file; allowed: a readable file "
                                           "in the native or HPCC format");
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    CheckTextFile(text, path, "topology");
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size())
    {
        size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? end : end - start);
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        lines.push_back(line);
        if (end == std::string::npos)
        {
            break;
        }
        start = end + 1;
    }
    bool blank = std::all_of(
        lines.begin(), lines.end(), [](const std::string& l) { return Tokens(l).empty(); });
    if (blank)
    {
        throw std::invalid_argument(path + ":1: empty topology file; allowed: " + kNativeAllowed +
                                    ", or HPCC's " + kHpccAllowed);
    }
    return lines;
}

/// Rate and delay fields, with errors naming the file and line.
double
FieldRate(const std::string& token, const std::string& path, size_t line)
{
    try
    {
        return ParseRate(token, "rate");
    }
    catch (const std::invalid_argument&)
    {
        throw std::invalid_argument(At(path, line) + "rate '" + token +
                                    "'; allowed: a rate > 0 such as 40Gbps, 100Mbps, 1e9bps");
    }
}

double
FieldDelay(const std::string& token, const std::string& path, size_t line)
{
    try
    {
        return ParseTime(token, "delay");
    }
    catch (const std::invalid_argument&)
    {
        throw std::invalid_argument(At(path, line) + "delay '" + token +
                                    "'; allowed: a time >= 0 such as 1us, 500ns, 0.001ms");
    }
}

/// Shortest text that parses back to exactly value (so a written file round-trips).
std::string
ExactText(double value,
          const std::vector<std::pair<const char*, double>>& units,
          double (*parse)(const std::string&, const std::string&))
{
    for (const auto& [unit, scale] : units)
    {
        for (int digits = 1; digits <= 17; ++digits)
        {
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%.*g%s", digits, value / scale, unit);
            if (std::string(buf).find('e') == std::string::npos && parse(buf, "") == value)
            {
                return buf;
            }
        }
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.17g%s", value / units.back().second, units.back().first);
    return buf;
}

} // namespace

FileTopology::FileTopology(SpecString& spec, double rateBps, double delayS)
{
    std::string path = spec.GetString("path", "");
    std::string format = spec.GetChoice("format", "auto", {"auto", "native", "hpcc"});
    bool overrideRate = spec.Has("rate");
    bool overrideDelay = spec.Has("delay");
    double rate = spec.GetRate("rate", rateBps);
    double delay = spec.GetTime("delay", delayS);
    spec.Finish();
    if (path.empty())
    {
        throw std::invalid_argument(spec.Where() + "missing the file path; usage: " + kFileUsage);
    }
    m_spec = "file:" + path + ExplicitOptions(spec, {"format", "rate", "delay"});
    Load(path, format);
    for (LinkIndex l = 0; l < m_graph.LinkCount(); ++l)
    {
        if (overrideRate)
        {
            m_graph.MutableLink(l).rateBps = rate;
        }
        if (overrideDelay)
        {
            m_graph.MutableLink(l).delayS = delay;
        }
    }
}

FileTopology::FileTopology(const std::string& path, const std::string& format)
{
    if (format != "auto" && format != "native" && format != "hpcc")
    {
        throw std::invalid_argument(path + ": format '" + format +
                                    "'; allowed: auto, native, hpcc");
    }
    m_spec = "file:" + path + (format == "auto" ? "" : ",format=" + format);
    Load(path, format);
}

FileTopology::~FileTopology() = default;

void
FileTopology::Load(const std::string& path, const std::string& format)
{
    std::vector<std::string> lines = ReadLines(path);
    std::string chosen = format;
    if (chosen == "auto")
    {
        chosen = "native";
        for (const auto& line : lines)
        {
            std::vector<std::string> tokens = Tokens(line);
            if (!tokens.empty())
            {
                if (tokens.size() == 3 && IsUint(tokens[0]) && IsUint(tokens[1]) &&
                    IsUint(tokens[2]))
                {
                    chosen = "hpcc";
                }
                break;
            }
        }
    }
    m_format = chosen;
    if (chosen == "hpcc")
    {
        LoadHpcc(path, lines);
    }
    else
    {
        LoadNative(path, lines);
    }
    Route(path);
}

void
FileTopology::LoadNative(const std::string& path, const std::vector<std::string>& lines)
{
    std::unordered_map<std::string, NodeIndex> byName;
    std::set<std::pair<NodeIndex, NodeIndex>> pairs;
    for (size_t i = 0; i < lines.size(); ++i)
    {
        const size_t line = i + 1;
        std::vector<std::string> t = Tokens(lines[i]);
        if (t.empty())
        {
            continue;
        }
        if (t[0] == "host" || t[0] == "switch")
        {
            if (t.size() != 2)
            {
                throw std::invalid_argument(At(path, line) + "'" + t[0] + "' takes one name, " +
                                            std::to_string(t.size() - 1) +
                                            " fields given; allowed: " + kNativeAllowed);
            }
            if (byName.count(t[1]))
            {
                throw std::invalid_argument(At(path, line) + "node '" + t[1] +
                                            "' declared twice; names must be unique");
            }
            byName[t[1]] = t[0] == "host" ? m_graph.AddHost(t[1]) : m_graph.AddSwitch(t[1]);
        }
        else if (t[0] == "link")
        {
            if (t.size() != 5)
            {
                throw std::invalid_argument(At(path, line) + "'link' takes 4 fields, " +
                                            std::to_string(t.size() - 1) +
                                            " given; allowed: " + kNativeAllowed);
            }
            NodeIndex ends[2];
            for (int e = 0; e < 2; ++e)
            {
                auto it = byName.find(t[1 + e]);
                if (it == byName.end())
                {
                    throw std::invalid_argument(At(path, line) + "unknown node '" + t[1 + e] +
                                                "'; links name nodes declared above them");
                }
                ends[e] = it->second;
            }
            if (ends[0] == ends[1])
            {
                throw std::invalid_argument(At(path, line) + "link joins '" + t[1] +
                                            "' to itself; allowed: two distinct nodes");
            }
            if (!pairs.emplace(std::min(ends[0], ends[1]), std::max(ends[0], ends[1])).second)
            {
                throw std::invalid_argument(At(path, line) + "duplicate link " + t[1] + " - " +
                                            t[2] + "; allowed: one link per pair of nodes");
            }
            double rate = FieldRate(t[3], path, line);
            double delay = FieldDelay(t[4], path, line);
            m_graph.AddLink(ends[0], ends[1], rate, delay);
        }
        else
        {
            throw std::invalid_argument(At(path, line) + "unknown keyword '" + t[0] +
                                        "'; allowed: " + kNativeAllowed);
        }
    }
}

namespace
{

/// The non-blank lines of an HPCC topology file, one at a time, with their line numbers.
class HpccLines
{
  public:
    explicit HpccLines(const std::vector<std::string>& lines)
        : m_lines(lines)
    {
    }

    /// Tokens of the next non-blank line; false at the end of the file.
    bool
    Next(std::vector<std::string>& tokens)
    {
        while (m_next < m_lines.size())
        {
            tokens = Tokens(m_lines[m_next++]);
            if (!tokens.empty())
            {
                return true;
            }
        }
        return false;
    }

    /// 1-based number of the line Next() returned last.
    size_t
    Line() const
    {
        return m_next;
    }

    /// Number of lines of the file (the line an early end is reported at).
    size_t
    Count() const
    {
        return m_lines.size();
    }

    /// Text of 1-based line `line`.
    const std::string&
    Text(size_t line) const
    {
        return m_lines[line - 1];
    }

  private:
    const std::vector<std::string>& m_lines;
    size_t m_next{0};
};

/// Line 1 of an HPCC topology file: "nodes switches links".
struct HpccHeader
{
    uint32_t nodes;
    uint32_t switches;
    uint32_t links;
    size_t line; //!< its line number, named by later errors
};

HpccHeader
ReadHpccHeader(const std::string& path, HpccLines& in)
{
    std::vector<std::string> t;
    in.Next(t); // ReadLines guarantees a non-blank line
    HpccHeader h;
    h.line = in.Line();
    if (t.size() != 3 || !ParseSmallUint(t[0], h.nodes) || !ParseSmallUint(t[1], h.switches) ||
        !ParseSmallUint(t[2], h.links))
    {
        throw std::invalid_argument(At(path, h.line) +
                                    "HPCC header must be 3 integers; allowed: " + kHpccAllowed);
    }
    // Fewer than nodes - 1 links leave a node unlinked. Refused here, before a node is made:
    // a header alone could otherwise declare 16 M nodes (1.7 GB of graph) for one link line.
    if (h.nodes < 2 || h.nodes > (1u << 24) || h.switches >= h.nodes ||
        uint64_t{h.links} + 1 < h.nodes)
    {
        throw std::invalid_argument(
            At(path, h.line) + "header '" + in.Text(h.line) +
            "'; allowed: 2 <= nodes <= 16777216, switches < nodes, links >= nodes - 1 (every "
            "node linked)");
    }
    return h;
}

/// The switch-id lines after the header: which node ids are switches.
std::vector<bool>
ReadHpccSwitchIds(const std::string& path, const HpccHeader& h, HpccLines& in)
{
    std::vector<bool> isSwitch(h.nodes, false);
    std::vector<std::string> t;
    uint32_t seen = 0;
    while (seen < h.switches)
    {
        if (!in.Next(t))
        {
            throw std::invalid_argument(
                At(path, in.Count()) + "file ends after " + std::to_string(seen) + " of the " +
                std::to_string(h.switches) + " switch ids of line " + std::to_string(h.line));
        }
        if (seen + t.size() > h.switches)
        {
            throw std::invalid_argument(At(path, in.Line()) + "more switch ids than the " +
                                        std::to_string(h.switches) + " of line " +
                                        std::to_string(h.line) + "; allowed: " + kHpccAllowed);
        }
        for (const auto& token : t)
        {
            uint32_t id = 0;
            if (!ParseNodeId(token, h.nodes, id))
            {
                throw std::invalid_argument(At(path, in.Line()) + "switch id '" + token +
                                            "'; allowed: a node id in [0, " +
                                            std::to_string(h.nodes) + ")");
            }
            if (isSwitch[id])
            {
                throw std::invalid_argument(At(path, in.Line()) + "switch id " + token +
                                            " listed twice");
            }
            isSwitch[id] = true;
            ++seen;
        }
    }
    return isSwitch;
}

/// One HPCC link line "a b rate delay error_rate", checked.
struct HpccLink
{
    uint32_t a;
    uint32_t b;
    double rateBps;
    double delayS;
};

/// Parses link line `line` (tokens t); `pairs` holds the node pairs linked so far.
HpccLink
ParseHpccLink(const std::string& path,
              size_t line,
              const std::vector<std::string>& t,
              uint32_t nodes,
              std::set<std::pair<uint32_t, uint32_t>>& pairs)
{
    if (t.size() != 5)
    {
        throw std::invalid_argument(At(path, line) + std::to_string(t.size()) +
                                    " fields; allowed: 'a b rate delay error_rate'");
    }
    uint32_t ends[2];
    for (int e = 0; e < 2; ++e)
    {
        if (!ParseNodeId(t[e], nodes, ends[e]))
        {
            throw std::invalid_argument(At(path, line) + "node id '" + t[e] +
                                        "'; allowed: a node id in [0, " + std::to_string(nodes) +
                                        ")");
        }
    }
    if (ends[0] == ends[1])
    {
        throw std::invalid_argument(At(path, line) + "link joins node " + t[0] +
                                    " to itself; allowed: two distinct nodes");
    }
    if (!pairs.emplace(std::min(ends[0], ends[1]), std::max(ends[0], ends[1])).second)
    {
        throw std::invalid_argument(At(path, line) + "duplicate link " + t[0] + " - " + t[1] +
                                    "; allowed: one link per pair of nodes");
    }
    HpccLink link{ends[0], ends[1], FieldRate(t[2], path, line), FieldDelay(t[3], path, line)};
    size_t used = 0;
    try
    {
        std::stod(t[4], &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used != t[4].size())
    {
        throw std::invalid_argument(At(path, line) + "error rate '" + t[4] +
                                    "'; allowed: a number");
    }
    return link;
}

} // namespace

void
FileTopology::LoadHpcc(const std::string& path, const std::vector<std::string>& lines)
{
    HpccLines in(lines);
    const HpccHeader h = ReadHpccHeader(path, in);
    const std::vector<bool> isSwitch = ReadHpccSwitchIds(path, h, in);
    for (uint32_t id = 0; id < h.nodes; ++id)
    {
        if (isSwitch[id])
        {
            m_graph.AddSwitch("sw" + std::to_string(id));
        }
        else
        {
            m_graph.AddHost("h" + std::to_string(id));
        }
    }
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    std::vector<std::string> t;
    for (uint32_t k = 0; k < h.links; ++k)
    {
        if (!in.Next(t))
        {
            throw std::invalid_argument(At(path, lines.size()) + "file ends after " +
                                        std::to_string(k) + " of the " + std::to_string(h.links) +
                                        " links line " + std::to_string(h.line) + " declares");
        }
        const HpccLink link = ParseHpccLink(path, in.Line(), t, h.nodes, pairs);
        m_graph.AddLink(link.a, link.b, link.rateBps, link.delayS);
    }
    // HPCC stops reading after the declared links; so do we.
}

void
FileTopology::Route(const std::string& path)
{
    m_routing = std::make_unique<ShortestPathRouting>(m_graph, std::vector<bool>{}, path);
}

std::string
FileTopology::Spec() const
{
    return m_spec;
}

std::string
FileTopology::Family() const
{
    return "file";
}

uint32_t
FileTopology::Distance(NodeIndex node, HostRank dst) const
{
    if (node >= m_graph.NodeCount() || dst >= m_graph.HostCount())
    {
        throw std::out_of_range(m_spec + ": Distance(" + std::to_string(node) + ", " +
                                std::to_string(dst) + ") out of range");
    }
    return m_routing->Distance(node, dst);
}

void
FileTopology::NextHops(NodeIndex at,
                       HostRank dst,
                       uint8_t /* lane */,
                       std::vector<RouteHop>& out) const
{
    m_routing->NextHops(at, dst, out);
}

HostRank
FileTopology::HostRankOfFileId(uint32_t id) const
{
    if (id >= m_graph.NodeCount() || !m_graph.Node(id).isHost)
    {
        throw std::invalid_argument(
            m_spec + ": node id " + std::to_string(id) +
            (id >= m_graph.NodeCount() ? " does not exist" : " is a switch") +
            "; allowed: the id of a host in [0, " + std::to_string(m_graph.NodeCount()) + ")");
    }
    return m_graph.Node(id).rank;
}

uint32_t
FileTopology::FileIdOfHostRank(HostRank rank) const
{
    return m_graph.HostNode(rank);
}

namespace
{

/// A link's rate as the shortest exact text both formats read ("40Gbps").
std::string
LinkRateText(const TopologyLink& link)
{
    static const std::vector<std::pair<const char*, double>> rateUnits = {
        {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"bps", 1}};
    return ExactText(link.rateBps, rateUnits, &ParseRate);
}

/// A link's delay as the shortest exact text both formats read ("1us", "0ns").
std::string
LinkDelayText(const TopologyLink& link)
{
    static const std::vector<std::pair<const char*, double>> timeUnits = {
        {"us", 1e-6}, {"ns", 1e-9}, {"ms", 1e-3}, {"s", 1}, {"ps", 1e-12}};
    return link.delayS == 0 ? std::string("0ns") : ExactText(link.delayS, timeUnits, &ParseTime);
}

} // namespace

void
FileTopology::WriteNative(const TopologyGraph& graph, std::ostream& os)
{
    os << "# paramsync topology: " << graph.HostCount() << " hosts, " << graph.SwitchCount()
       << " switches, " << graph.LinkCount() << " links\n";
    for (NodeIndex n = 0; n < graph.NodeCount(); ++n)
    {
        const TopologyNode& node = graph.Node(n);
        os << (node.isHost ? "host " : "switch ") << node.name << "\n";
    }
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        const TopologyLink& link = graph.Link(l);
        os << "link " << graph.Node(link.a).name << " " << graph.Node(link.b).name << " "
           << LinkRateText(link) << " " << LinkDelayText(link) << "\n";
    }
}

void
FileTopology::WriteHpcc(const TopologyGraph& graph, std::ostream& os)
{
    // HPCC's reader takes no comment: the three counts must be the first line.
    os << graph.NodeCount() << " " << graph.SwitchCount() << " " << graph.LinkCount() << "\n";
    bool first = true;
    for (NodeIndex n = 0; n < graph.NodeCount(); ++n)
    {
        if (!graph.Node(n).isHost)
        {
            os << (first ? "" : " ") << n;
            first = false;
        }
    }
    os << "\n";
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        const TopologyLink& link = graph.Link(l);
        os << link.a << " " << link.b << " " << LinkRateText(link) << " " << LinkDelayText(link)
           << " 0\n";
    }
}

void
FileTopology::WriteNativeFile(const TopologyGraph& graph, const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error(path + ": cannot write topology file");
    }
    WriteNative(graph, out);
    out.close();
    if (!out)
    {
        throw std::runtime_error(path + ": error while writing topology file");
    }
}

std::optional<TopologyCounts>
FileTopology::Counts(SpecString& spec)
{
    const std::string path = spec.GetString("path", "");
    struct stat st;
    if (path.empty() || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    {
        return std::nullopt; // the constructor names it
    }
    std::ifstream in(path);
    std::string line(256, '\0');
    in.getline(line.data(), static_cast<std::streamsize>(line.size()));
    std::istringstream is(line.c_str());
    uint64_t nodes = 0;
    uint64_t switches = 0;
    TopologyCounts c;
    if (!(is >> nodes >> switches >> c.links) || switches > nodes)
    {
        return std::nullopt; // a native file, or a malformed header the loader names
    }
    c.hosts = nodes - switches;
    c.switches = switches;
    return c;
}

} // namespace ns3
