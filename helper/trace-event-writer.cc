#include "trace-event-writer.h"

#include "results-writer.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

std::vector<uint32_t>
TraceEventWriter::Lanes(const std::vector<std::pair<double, double>>& spans)
{
    // Interval partitioning: by start time, each span takes the first lane free by then
    // (the fewest lanes; the trace-event format forbids overlapping slices on one thread
    // unless nested, and transfers of one worker overlap without nesting).
    std::vector<size_t> order(spans.size());
    for (size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return spans[a].first < spans[b].first;
    });
    std::vector<uint32_t> lane(spans.size());
    std::vector<double> freeAt; // per lane: the end of its last span
    for (size_t i : order)
    {
        uint32_t l = 0;
        while (l < freeAt.size() && freeAt[l] > spans[i].first)
        {
            ++l;
        }
        if (l == freeAt.size())
        {
            freeAt.push_back(0);
        }
        freeAt[l] = std::max(spans[i].second, spans[i].first);
        lane[i] = l;
    }
    return lane;
}

std::string
TraceEventWriter::Format(const std::vector<RunResult>& runs)
{
    std::ostringstream os;
    os.precision(12);
    os << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&]() -> std::ostream& {
        os << (first ? "" : ",\n");
        first = false;
        return os;
    };
    uint32_t pid = 1;
    for (const auto& r : runs)
    {
        const uint32_t workersPid = pid++;
        const uint32_t portsPid = pid++;
        sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << workersPid
              << ",\"args\":{\"name\":" << ResultsWriter::JsonString(r.algorithm + " workers")
              << "}}";
        sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << portsPid
              << ",\"args\":{\"name\":" << ResultsWriter::JsonString(r.algorithm + " ports")
              << "}}";
        // Track (tid) of a host's or port's lane: kLanesPerTrack apart, lane 0 first.
        constexpr uint64_t kLanesPerTrack = 1u << 16;
        std::map<uint32_t, std::vector<size_t>> byHost;
        for (size_t i = 0; i < r.transfers.size(); ++i)
        {
            byHost[r.transfers[i].src].push_back(i);
        }
        for (const auto& [host, indices] : byHost)
        {
            std::vector<std::pair<double, double>> spans;
            for (size_t i : indices)
            {
                const auto& t = r.transfers[i];
                spans.emplace_back(t.startS, t.endS >= 0 ? t.endS : t.startS);
            }
            const std::vector<uint32_t> lanes = Lanes(spans);
            std::map<uint32_t, bool> named;
            for (size_t k = 0; k < indices.size(); ++k)
            {
                const auto& t = r.transfers[indices[k]];
                const uint64_t tid = host * kLanesPerTrack + lanes[k];
                if (!named[lanes[k]])
                {
                    named[lanes[k]] = true;
                    sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << workersPid
                          << ",\"tid\":" << tid << ",\"args\":{\"name\":\"host " << host
                          << (lanes[k] ? " (" + std::to_string(lanes[k] + 1) + ")" : "") << "\"}}";
                }
                sep() << "{\"ph\":\"X\",\"pid\":" << workersPid << ",\"tid\":" << tid
                      << ",\"name\":\"t" << t.id << " -> " << t.dst
                      << "\",\"ts\":" << t.startS * 1e6
                      << ",\"dur\":" << (spans[k].second - t.startS) * 1e6
                      << ",\"args\":{\"bytes\":" << t.bytes << ",\"iteration\":" << t.iteration
                      << ",\"chunk\":" << t.chunk << ",\"phase\":" << t.phase << "}}";
            }
        }
        std::map<std::string, std::vector<size_t>> byPort;
        for (size_t i = 0; i < r.pauses.size(); ++i)
        {
            byPort[r.pauses[i].port].push_back(i);
        }
        uint64_t portIndex = 0;
        for (const auto& [port, indices] : byPort)
        {
            std::vector<std::pair<double, double>> spans;
            for (size_t i : indices)
            {
                spans.emplace_back(r.pauses[i].startS, r.pauses[i].endS);
            }
            const std::vector<uint32_t> lanes = Lanes(spans);
            std::map<uint32_t, bool> named;
            for (size_t k = 0; k < indices.size(); ++k)
            {
                const auto& p = r.pauses[indices[k]];
                const uint64_t tid = portIndex * kLanesPerTrack + lanes[k];
                if (!named[lanes[k]])
                {
                    named[lanes[k]] = true;
                    sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << portsPid
                          << ",\"tid\":" << tid << ",\"args\":{\"name\":"
                          << ResultsWriter::JsonString(
                                 "port " + port +
                                 (lanes[k] ? " (" + std::to_string(lanes[k] + 1) + ")" : ""))
                          << "}}";
                }
                sep() << "{\"ph\":\"X\",\"pid\":" << portsPid << ",\"tid\":" << tid
                      << ",\"name\":\"paused prio " << p.priority << "\",\"ts\":" << p.startS * 1e6
                      << ",\"dur\":" << (p.endS - p.startS) * 1e6 << "}";
            }
            ++portIndex;
        }
    }
    os << "\n]}\n";
    return os.str();
}

void
TraceEventWriter::Write(const std::string& path, const std::vector<RunResult>& runs)
{
    ResultsWriter::WriteFileAtomically(path, Format(runs));
}

} // namespace ns3
