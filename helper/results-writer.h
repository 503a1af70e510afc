/*
 * ResultsWriter: the driver's outputs (DESIGN.md §6) — the stdout table or JSON lines, and
 * the files of --out: summary.json, transfers.csv, pfc.csv, flows.csv, attributes.txt.
 * Every file is written whole to a temporary name and renamed, so a reader never sees a
 * half-written file and a failed run leaves none.
 */
#ifndef PARAMSYNC_RESULTS_WRITER_H
#define PARAMSYNC_RESULTS_WRITER_H

#include "run-result.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief How a driver invocation ended: its exit code and, for anything but 0, why.
 */
struct RunExit
{
    int code = 0;       ///< the process's exit code (DESIGN.md §6: 0 ok, 3 invariant failed)
    std::string reason; ///< "ok", or every failed run's reason, "; "-separated
};

/**
 * \brief Formats and writes results of one or more runs.
 */
class ResultsWriter
{
  public:
    /// \brief Column names of the stdout table / JSON keys, in order.
    static const std::vector<std::string>& Columns();

    /// \brief The values of one run, in Columns() order, as text.
    static std::vector<std::string> Row(const RunResult& run);

    /// \brief One JSON object (one line, no newline) with the Columns() of a run.
    static std::string JsonLine(const RunResult& run);

    /// \brief A CSV field, quoted when it holds a comma, quote or newline (RFC 4180).
    static std::string CsvField(const std::string& s);

    /// \brief Aligned text table (header + one line per run).
    static std::string Table(const std::vector<RunResult>& runs);

    /// \brief One aligned table per system kind of the runs (asynchronous PS, Lapse) with
    /// their metrics ("" when no run has one).
    static std::string SystemTables(const std::vector<RunResult>& runs);
    /// \brief Rows aligned in columns: the first textColumns left, the rest right.
    static std::string AlignedTable(const std::vector<std::vector<std::string>>& rows,
                                    size_t textColumns);

    /**
     * \brief Writes summary.json, transfers.csv, pfc.csv, flows.csv, attributes.txt and,
     * for asynchronous PS runs, updates.csv into dir (created if missing; its parent must
     * exist).
     * \param used the options as used, (name, value), for reproduction
     * \param exit how the run ended, recorded as summary.json's "exit" (a script reading
     *        the directory sees the reason without the process's exit status)
     * \param extraFiles further (file name, content) pairs, written before summary.json
     * \throws std::runtime_error naming the path when a file cannot be written
     */
    static void WriteDirectory(
        const std::string& dir,
        const std::vector<RunResult>& runs,
        const std::vector<std::pair<std::string, std::string>>& used,
        const RunExit& exit,
        const std::vector<std::pair<std::string, std::string>>& extraFiles = {});

    /**
     * \brief Writes content to path via path.tmp.PID + rename (atomic on one file system).
     * \throws std::runtime_error naming the path
     */
    static void WriteFileAtomically(const std::string& path, const std::string& content);

    /// \brief JSON string literal of s (quotes and escapes).
    static std::string JsonString(const std::string& s);

    /// \brief Shortest round-trip text of a double ("-1" for not measured stays "-1").
    static std::string Number(double v);
};

} // namespace ns3

#endif // PARAMSYNC_RESULTS_WRITER_H
