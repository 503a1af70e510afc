#include "rank-results.h"

#include "pause-spread.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

namespace ns3
{

namespace
{

/// Appends values to a byte string.
class Writer
{
  public:
    template<typename T>
    void
    Put(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        m_bytes.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }

    void
    Put(const std::string& s)
    {
        Put(static_cast<uint64_t>(s.size()));
        m_bytes += s;
    }

    std::string m_bytes; //!< what was written
};

/// Reads what a Writer wrote, in the same order.
class Reader
{
  public:
    explicit Reader(const std::string& bytes)
        : m_bytes(bytes)
    {
    }

    template<typename T>
    void
    Get(T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        Need(sizeof(T));
        std::memcpy(&v, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
    }

    void
    Get(std::string& s)
    {
        uint64_t n = 0;
        Get(n);
        Need(n);
        s.assign(m_bytes, m_at, n);
        m_at += n;
    }

    /// Whether every byte was read.
    bool
    AtEnd() const
    {
        return m_at == m_bytes.size();
    }

  private:
    void
    Need(uint64_t n) const
    {
        if (n > m_bytes.size() - m_at)
        {
            throw std::runtime_error("RankResults::Unpack: truncated bytes");
        }
    }

    const std::string& m_bytes; //!< the packed result
    size_t m_at{0};             //!< next byte
};

void
WriteRecords(Writer& w, const RunResult& r)
{
    w.Put(static_cast<uint64_t>(r.transfers.size()));
    for (const TransferRecord& t : r.transfers)
    {
        w.Put(t);
    }
    w.Put(static_cast<uint64_t>(r.flows.size()));
    for (const FlowRecord& f : r.flows)
    {
        w.Put(f);
    }
    w.Put(static_cast<uint64_t>(r.pfc.size()));
    for (const PfcRecord& p : r.pfc)
    {
        w.Put(p.node);
        w.Put(p.port);
        w.Put(p.priority);
        w.Put(p.pausesSent);
        w.Put(p.pausesReceived);
        w.Put(p.pausedS);
        w.Put(p.drops);
    }
    w.Put(static_cast<uint64_t>(r.pauses.size()));
    for (const PauseInterval& p : r.pauses)
    {
        w.Put(p.port);
        w.Put(p.priority);
        w.Put(p.startS);
        w.Put(p.endS);
    }
}

void
ReadRecords(Reader& in, RunResult& r)
{
    uint64_t n = 0;
    in.Get(n);
    r.transfers.resize(n);
    for (TransferRecord& t : r.transfers)
    {
        in.Get(t);
    }
    in.Get(n);
    r.flows.resize(n);
    for (FlowRecord& f : r.flows)
    {
        in.Get(f);
    }
    in.Get(n);
    r.pfc.resize(n);
    for (PfcRecord& p : r.pfc)
    {
        in.Get(p.node);
        in.Get(p.port);
        in.Get(p.priority);
        in.Get(p.pausesSent);
        in.Get(p.pausesReceived);
        in.Get(p.pausedS);
        in.Get(p.drops);
    }
    in.Get(n);
    r.pauses.resize(n);
    for (PauseInterval& p : r.pauses)
    {
        in.Get(p.port);
        in.Get(p.priority);
        in.Get(p.startS);
        in.Get(p.endS);
    }
}

/// pfc.csv rows summed by (node, port, priority), in the recorder's order: node index,
/// port, priority (helper/network-recorder.cc).
std::vector<PfcRecord>
MergePfc(const std::vector<RunResult>& ranks, const std::vector<std::string>& nodeNames)
{
    std::map<std::string, size_t> nodeIndex;
    for (size_t v = 0; v < nodeNames.size(); ++v)
    {
        nodeIndex.emplace(nodeNames[v], v);
    }
    std::map<std::tuple<size_t, uint32_t, uint32_t>, PfcRecord> rows;
    for (const RunResult& r : ranks)
    {
        for (const PfcRecord& p : r.pfc)
        {
            const auto node = nodeIndex.find(p.node);
            if (node == nodeIndex.end())
            {
                throw std::runtime_error("RankResults::Merge: pfc row of unknown node " + p.node);
            }
            auto [it, added] = rows.emplace(std::make_tuple(node->second, p.port, p.priority), p);
            if (!added)
            {
                PfcRecord& row = it->second;
                row.pausesSent += p.pausesSent;
                row.pausesReceived += p.pausesReceived;
                row.pausedS += p.pausedS;
                row.drops += p.drops;
            }
        }
    }
    std::vector<PfcRecord> merged;
    for (const auto& [key, row] : rows)
    {
        merged.push_back(row);
    }
    return merged;
}

/// PauseSpread's depth of the merged pauses: the cascade as one process sees it (a rank's
/// own depth misses the hops beyond its nodes).
uint32_t
PauseDepth(const std::vector<PauseInterval>& pauses,
           const std::vector<std::string>& nodeNames,
           const std::vector<std::vector<uint32_t>>& peers)
{
    std::map<std::string, uint32_t> nodeIndex;
    for (size_t v = 0; v < nodeNames.size(); ++v)
    {
        nodeIndex.emplace(nodeNames[v], static_cast<uint32_t>(v));
    }
    std::vector<PausedEgress> paused;
    for (const PauseInterval& p : pauses)
    {
        const size_t slash = p.port.rfind('/');
        const auto node = nodeIndex.find(p.port.substr(0, slash));
        if (slash == std::string::npos || node == nodeIndex.end())
        {
            throw std::runtime_error("RankResults::Merge: pause of unknown port " + p.port);
        }
        const auto port = static_cast<uint32_t>(std::stoul(p.port.substr(slash + 1)));
        paused.push_back({node->second, peers.at(node->second).at(port), p.startS, p.endS});
    }
    return PauseSpread::Depth(paused, peers);
}

} // namespace

std::string
RankResults::Pack(const RunResult& r)
{
    Writer w;
    w.Put(r.pfcPauseFrames);
    w.Put(r.pfcPausedS);
    w.Put(r.pfcPauseDepth);
    w.Put(r.drops);
    w.Put(r.watchdogDrops);
    w.Put(r.linkDrops);
    w.Put(r.ecnMarks);
    w.Put(r.retransmits);
    w.Put(r.events);
    w.Put(r.pktHops);
    w.Put(r.fluidWallS);
    w.Put(r.simS);
    w.Put(static_cast<uint8_t>(r.completed));
    w.Put(r.gstS);
    w.Put(r.iterationS);
    w.Put(static_cast<uint64_t>(r.gstPerIterationS.size()));
    for (double g : r.gstPerIterationS)
    {
        w.Put(g);
    }
    w.Put(r.invariant);
    WriteRecords(w, r);
    return w.m_bytes;
}

RunResult
RankResults::Unpack(const std::string& bytes)
{
    RunResult r;
    Reader in(bytes);
    in.Get(r.pfcPauseFrames);
    in.Get(r.pfcPausedS);
    in.Get(r.pfcPauseDepth);
    in.Get(r.drops);
    in.Get(r.watchdogDrops);
    in.Get(r.linkDrops);
    in.Get(r.ecnMarks);
    in.Get(r.retransmits);
    in.Get(r.events);
    in.Get(r.pktHops);
    in.Get(r.fluidWallS);
    in.Get(r.simS);
    uint8_t completed = 0;
    in.Get(completed);
    r.completed = completed != 0;
    in.Get(r.gstS);
    in.Get(r.iterationS);
    uint64_t iterations = 0;
    in.Get(iterations);
    r.gstPerIterationS.resize(iterations);
    for (double& g : r.gstPerIterationS)
    {
        in.Get(g);
    }
    in.Get(r.invariant);
    ReadRecords(in, r);
    if (!in.AtEnd())
    {
        throw std::runtime_error("RankResults::Unpack: bytes left over");
    }
    return r;
}

RunResult
RankResults::Merge(const std::vector<RunResult>& ranks,
                   const std::vector<std::string>& nodeNames,
                   const std::vector<std::vector<uint32_t>>& peers)
{
    RunResult m = ranks.at(0);
    m.invariant.clear();
    m.transfers.clear();
    m.pauses.clear();
    std::vector<std::string> lines;
    for (size_t i = 0; i < ranks.size(); ++i)
    {
        const RunResult& r = ranks[i];
        if (i > 0)
        {
            m.pfcPauseFrames += r.pfcPauseFrames;
            m.pfcPausedS += r.pfcPausedS;
            m.drops += r.drops;
            m.watchdogDrops += r.watchdogDrops;
            m.linkDrops += r.linkDrops;
            m.ecnMarks += r.ecnMarks;
            m.retransmits += r.retransmits;
            m.events += r.events;
            m.pktHops += r.pktHops;
            m.fluidWallS += r.fluidWallS;
            m.simS = std::max(m.simS, r.simS);
            m.completed = m.completed && r.completed;
            // Each rank's GST ends at its last delivery, from the same last backprop.
            m.gstS = std::max(m.gstS, r.gstS);
            m.iterationS = std::max(m.iterationS, r.iterationS);
            m.gstPerIterationS.resize(
                std::max(m.gstPerIterationS.size(), r.gstPerIterationS.size()), -1);
            for (size_t g = 0; g < r.gstPerIterationS.size(); ++g)
            {
                m.gstPerIterationS[g] = std::max(m.gstPerIterationS[g], r.gstPerIterationS[g]);
            }
            if (r.flows.size() != m.flows.size())
            {
                throw std::runtime_error("RankResults::Merge: ranks replayed different flows");
            }
            for (size_t f = 0; f < r.flows.size(); ++f)
            {
                m.flows[f].endS = std::max(m.flows[f].endS, r.flows[f].endS);
            }
        }
        size_t from = 0;
        while (from <= r.invariant.size() && !r.invariant.empty())
        {
            const size_t to = std::min(r.invariant.find("; ", from), r.invariant.size());
            const std::string line = r.invariant.substr(from, to - from);
            if (std::find(lines.begin(), lines.end(), line) == lines.end())
            {
                lines.push_back(line);
            }
            from = to + 2;
        }
        m.pauses.insert(m.pauses.end(), r.pauses.begin(), r.pauses.end());
    }
    for (const std::string& line : lines)
    {
        m.invariant += (m.invariant.empty() ? "" : "; ") + line;
    }
    m.pfc = MergePfc(ranks, nodeNames);
    std::stable_sort(m.pauses.begin(), m.pauses.end(), [](const auto& a, const auto& b) {
        return std::tie(a.endS, a.port, a.priority, a.startS) <
               std::tie(b.endS, b.port, b.priority, b.startS);
    });
    m.pfcPauseDepth = std::max(m.pfcPauseDepth, PauseDepth(m.pauses, nodeNames, peers));
    // Transfers: the source's rank posted it (start), the destination's saw it end.
    std::map<std::pair<uint32_t, uint32_t>, TransferRecord> transfers;
    for (const RunResult& r : ranks)
    {
        for (const TransferRecord& t : r.transfers)
        {
            auto [it, added] = transfers.emplace(std::make_pair(t.iteration, t.id), t);
            if (!added)
            {
                it->second.startS = std::min(it->second.startS, t.startS);
                it->second.endS = std::max(it->second.endS, t.endS);
            }
        }
    }
    for (const auto& [key, t] : transfers)
    {
        m.transfers.push_back(t);
        m.completed = m.completed && t.endS >= 0;
    }
    std::stable_sort(m.transfers.begin(), m.transfers.end(), [](const auto& a, const auto& b) {
        return std::tie(a.startS, a.iteration, a.id) < std::tie(b.startS, b.iteration, b.id);
    });
    for (const FlowRecord& f : m.flows)
    {
        m.completed = m.completed && f.endS >= 0;
    }
    return m;
}

std::string
RankResults::PackPaths(bool finished, const QueuePairPaths& paths)
{
    Writer w;
    w.Put(static_cast<uint8_t>(finished));
    w.Put(static_cast<uint64_t>(paths.size()));
    for (const auto& [key, links] : paths)
    {
        w.Put(std::get<0>(key));
        w.Put(std::get<1>(key));
        w.Put(std::get<2>(key));
        w.Put(static_cast<uint64_t>(links.size()));
        for (uint32_t link : links)
        {
            w.Put(link);
        }
    }
    return w.m_bytes;
}

std::optional<RankResults::QueuePairPaths>
RankResults::JoinPaths(const std::vector<std::string>& ranks)
{
    QueuePairPaths joined;
    bool finished = true;
    for (const std::string& bytes : ranks)
    {
        Reader in(bytes);
        uint8_t done = 0;
        in.Get(done);
        finished = finished && done != 0;
        uint64_t n = 0;
        in.Get(n);
        for (uint64_t i = 0; i < n; ++i)
        {
            uint32_t src = 0;
            uint32_t dst = 0;
            uint32_t qp = 0;
            uint64_t hops = 0;
            in.Get(src);
            in.Get(dst);
            in.Get(qp);
            in.Get(hops);
            std::vector<uint32_t> links;
            for (uint64_t h = 0; h < hops; ++h)
            {
                links.push_back(0);
                in.Get(links.back());
            }
            if (!joined.emplace(std::make_tuple(src, dst, qp), std::move(links)).second)
            {
                throw std::runtime_error("RankResults::JoinPaths: queue pair " +
                                         std::to_string(qp) + " of host " + std::to_string(src) +
                                         " -> host " + std::to_string(dst) +
                                         " traced on two ranks");
            }
        }
        if (!in.AtEnd())
        {
            throw std::runtime_error("RankResults::JoinPaths: bytes left over");
        }
    }
    if (!finished)
    {
        return std::nullopt;
    }
    return joined;
}

} // namespace ns3
