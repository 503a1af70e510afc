#include "trace-event-writer.h"

#include "results-writer.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/**
 * Where the document's text goes: one string (Format), or a file in pieces of at most
 * pieceBytes (Write: a piece is written out before the text that would overflow it, so the
 * buffer, reserved once, never grows). Written whole, the demo's 61.5 MB document was a
 * doubling string of up to 3 times its size, the process's peak RSS: `make demo` peaked at
 * 194 MB then, 76 MB in pieces (README, "Resource estimate, memory limit and trace size").
 */
class DocumentOut
{
  public:
    /// Keeps the whole document (Take).
    DocumentOut() = default;

    /// Writes the document to file in pieces of at most pieceBytes (a longer text alone).
    DocumentOut(std::ostream& file, size_t pieceBytes)
        : m_file(&file),
          m_piece(pieceBytes)
    {
        m_text.reserve(pieceBytes);
    }

    /// Adds text to the document (writing out the piece first when text would overflow it).
    void
    Append(const std::string& text)
    {
        if (m_file && !m_text.empty() && m_text.size() + text.size() > m_piece)
        {
            Flush();
        }
        m_text += text;
        m_bytes += text.size();
    }

    /// Writes out what the file's piece holds (nothing when the document is kept whole).
    void
    Flush()
    {
        if (m_file && !m_text.empty())
        {
            m_file->write(m_text.data(), static_cast<std::streamsize>(m_text.size()));
            m_text.clear();
        }
    }

    /// Size of the document so far, kept or written.
    uint64_t
    Bytes() const
    {
        return m_bytes;
    }

    /// The whole document (kept whole only): moved out, not copied.
    std::string
    Take()
    {
        return std::move(m_text);
    }

  private:
    std::ostream* m_file{nullptr};
    size_t m_piece{0};
    std::string m_text;
    uint64_t m_bytes{0};
};

/**
 * The trace's events, each kept whole while the document stays within maxBytes with room
 * for the closing marker; the first that does not fit and all after it are counted, not
 * written, so a limited trace is still one valid JSON document.
 */
class EventSink
{
  public:
    EventSink(uint64_t maxBytes, DocumentOut& out)
        : m_max(maxBytes),
          m_out(out)
    {
        m_out.Append("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
        m_event.precision(12);
    }

    /// The stream of the next event (the previous one is committed first).
    std::ostream&
    Next()
    {
        Commit();
        m_event.str("");
        m_open = true;
        return m_event;
    }

    /// Ends the document, with the truncation marker when events were left out.
    TraceOutcome
    Finish()
    {
        Commit();
        if (m_dropped > 0)
        {
            m_out.Append(",\n" + Marker());
        }
        m_out.Append("\n]}\n");
        return {m_out.Bytes(), m_kept, m_dropped};
    }

  private:
    /// The marker event: a global instant at time 0 naming the limit and what was left out
    /// (at most kMarkerBytes with the closing).
    std::string
    Marker() const
    {
        return "{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":0,\"name\":\"trace "
               "truncated\",\"args\":{\"limit_bytes\":" +
               std::to_string(m_max) + ",\"events_kept\":" + std::to_string(m_kept) +
               ",\"events_left_out\":" + std::to_string(m_dropped) + "}}";
    }

    void
    Commit()
    {
        if (!m_open)
        {
            return;
        }
        m_open = false;
        const std::string ev = m_event.str();
        const uint64_t need = m_out.Bytes() + 2 + ev.size() + kMarkerBytes;
        if (m_dropped > 0 || need > m_max)
        {
            ++m_dropped;
            return;
        }
        m_out.Append((m_kept ? ",\n" : "") + ev);
        ++m_kept;
    }

    /// Room kept for the marker and the closing "]}": its text with 20-digit numbers.
    static constexpr uint64_t kMarkerBytes = 200;

    uint64_t m_max;
    DocumentOut& m_out;
    std::ostringstream m_event;
    bool m_open{false};
    uint64_t m_kept{0};
    uint64_t m_dropped{0};
};

} // namespace

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

namespace
{

/// The events of runs, in the document's order: the one formatter behind Format and Write.
void
Emit(const std::vector<RunResult>& runs, EventSink& sink)
{
    uint32_t pid = 1;
    for (const auto& r : runs)
    {
        const uint32_t workersPid = pid++;
        const uint32_t portsPid = pid++;
        sink.Next() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << workersPid
                    << ",\"args\":{\"name\":" << ResultsWriter::JsonString(r.algorithm + " workers")
                    << "}}";
        sink.Next() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << portsPid
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
            const std::vector<uint32_t> lanes = TraceEventWriter::Lanes(spans);
            std::map<uint32_t, bool> named;
            for (size_t k = 0; k < indices.size(); ++k)
            {
                const auto& t = r.transfers[indices[k]];
                const uint64_t tid = host * kLanesPerTrack + lanes[k];
                if (!named[lanes[k]])
                {
                    named[lanes[k]] = true;
                    sink.Next() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << workersPid
                                << ",\"tid\":" << tid << ",\"args\":{\"name\":\"host " << host
                                << (lanes[k] ? " (" + std::to_string(lanes[k] + 1) + ")" : "")
                                << "\"}}";
                }
                sink.Next() << "{\"ph\":\"X\",\"pid\":" << workersPid << ",\"tid\":" << tid
                            << ",\"name\":\"t" << t.id << " -> " << t.dst
                            << "\",\"ts\":" << t.startS * 1e6
                            << ",\"dur\":" << (spans[k].second - t.startS) * 1e6
                            << ",\"args\":{\"bytes\":" << t.bytes
                            << ",\"iteration\":" << t.iteration << ",\"chunk\":" << t.chunk
                            << ",\"phase\":" << t.phase << "}}";
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
            const std::vector<uint32_t> lanes = TraceEventWriter::Lanes(spans);
            std::map<uint32_t, bool> named;
            for (size_t k = 0; k < indices.size(); ++k)
            {
                const auto& p = r.pauses[indices[k]];
                const uint64_t tid = portIndex * kLanesPerTrack + lanes[k];
                if (!named[lanes[k]])
                {
                    named[lanes[k]] = true;
                    sink.Next() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << portsPid
                                << ",\"tid\":" << tid << ",\"args\":{\"name\":"
                                << ResultsWriter::JsonString(
                                       "port " + port +
                                       (lanes[k] ? " (" + std::to_string(lanes[k] + 1) + ")" : ""))
                                << "}}";
                }
                sink.Next() << "{\"ph\":\"X\",\"pid\":" << portsPid << ",\"tid\":" << tid
                            << ",\"name\":\"paused prio " << p.priority
                            << "\",\"ts\":" << p.startS * 1e6
                            << ",\"dur\":" << (p.endS - p.startS) * 1e6 << "}";
            }
            ++portIndex;
        }
    }
}

} // namespace

std::string
TraceEventWriter::Format(const std::vector<RunResult>& runs,
                         uint64_t maxBytes,
                         TraceOutcome* outcome)
{
    DocumentOut out;
    EventSink sink(maxBytes, out);
    Emit(runs, sink);
    const TraceOutcome done = sink.Finish();
    if (outcome)
    {
        *outcome = done;
    }
    return out.Take();
}

TraceOutcome
TraceEventWriter::Write(const std::string& path,
                        const std::vector<RunResult>& runs,
                        uint64_t maxBytes,
                        size_t pieceBytes)
{
    TraceOutcome outcome;
    ResultsWriter::WriteFileAtomically(path, [&](std::ostream& file) {
        DocumentOut out(file, pieceBytes);
        EventSink sink(maxBytes, out);
        Emit(runs, sink);
        outcome = sink.Finish();
        out.Flush();
    });
    if (outcome.dropped > 0)
    {
        std::cerr << "paramsync: --trace: truncated at the --trace-max limit of " << maxBytes
                  << " bytes: " << outcome.events << " events kept, " << outcome.dropped
                  << " left out (the file ends with a 'trace truncated' event)" << std::endl;
    }
    return outcome;
}

} // namespace ns3
