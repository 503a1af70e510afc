/*
 * TraceEventWriter: writes a run as a Chrome trace-event JSON file (opens in Perfetto or
 * chrome://tracing): process "workers" with one track per host showing each transfer it
 * sends as a span, process "ports" with one track per port showing its PFC pause
 * intervals. A host's (port's) spans that overlap go to further lanes of its track ("host 3
 * (2)"), since the format allows overlapping slices on one thread only when nested.
 * Times are simulated time in microseconds (the format's unit). A size limit (--trace-max)
 * keeps the events that fit and ends the document with a "trace truncated" event, so the
 * file is valid JSON whatever the limit.
 */
#ifndef PARAMSYNC_TRACE_EVENT_WRITER_H
#define PARAMSYNC_TRACE_EVENT_WRITER_H

#include "run-result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief What a trace holds: its size and the events kept and left out by the size limit.
 */
struct TraceOutcome
{
    uint64_t bytes{0};   //!< size of the document
    uint64_t events{0};  //!< events written
    uint64_t dropped{0}; //!< events left out by the limit (0: the whole trace)
};

/**
 * \brief Formats runs as Chrome trace events.
 */
class TraceEventWriter
{
  public:
    /**
     * \brief The JSON document for runs (each run its own pair of processes), at most
     * maxBytes (at least 1000): events that do not fit are left out and a "trace truncated"
     * instant event (args limit_bytes, events_kept, events_left_out) ends the list.
     */
    static std::string Format(const std::vector<RunResult>& runs,
                              uint64_t maxBytes = UINT64_MAX,
                              TraceOutcome* outcome = nullptr);
    /**
     * \brief Lane of each span (start, end) so that no two spans of a lane overlap (a
     * span may start where another ends): a worker's or port's track is split into as
     * many lanes as it has spans at once, each a thread of its own in the trace.
     */
    static std::vector<uint32_t> Lanes(const std::vector<std::pair<double, double>>& spans);
    /**
     * \brief Writes Format(runs, maxBytes), byte for byte, to path atomically, in pieces of
     * at most pieceBytes (the document itself is never held whole); one stderr line when
     * the limit left events out. \throws std::runtime_error naming path
     */
    static TraceOutcome Write(const std::string& path,
                              const std::vector<RunResult>& runs,
                              uint64_t maxBytes = UINT64_MAX,
                              size_t pieceBytes = kPieceBytes);

    /// \brief Write's piece: 1 MiB, large writes for the file system, a bounded buffer.
    static constexpr size_t kPieceBytes = size_t{1} << 20;
};

} // namespace ns3

#endif // PARAMSYNC_TRACE_EVENT_WRITER_H
