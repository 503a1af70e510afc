/*
 * TraceEventWriter: writes a run as a Chrome trace-event JSON file (opens in Perfetto or
 * chrome://tracing): process "workers" with one track per host showing each transfer it
 * sends as a span, process "ports" with one track per port showing its PFC pause
 * intervals. A host's (port's) spans that overlap go to further lanes of its track ("host 3
 * (2)"), since the format allows overlapping slices on one thread only when nested.
 * Times are simulated time in microseconds (the format's unit).
 */
#ifndef PARAMSYNC_TRACE_EVENT_WRITER_H
#define PARAMSYNC_TRACE_EVENT_WRITER_H

#include "run-result.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Formats runs as Chrome trace events.
 */
class TraceEventWriter
{
  public:
    /// \brief The whole JSON document for runs (each run its own pair of processes).
    static std::string Format(const std::vector<RunResult>& runs);
    /**
     * \brief Lane of each span (start, end) so that no two spans of a lane overlap (a
     * span may start where another ends): a worker's or port's track is split into as
     * many lanes as it has spans at once, each a thread of its own in the trace.
     */
    static std::vector<uint32_t> Lanes(const std::vector<std::pair<double, double>>& spans);
    /// \brief Writes Format(runs) to path atomically. \throws std::runtime_error naming path
    static void Write(const std::string& path, const std::vector<RunResult>& runs);
};

} // namespace ns3

#endif // PARAMSYNC_TRACE_EVENT_WRITER_H
