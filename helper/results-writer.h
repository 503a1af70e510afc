/*
 * ResultsWriter: the driver's outputs (ARCHITECTURE.md, Outputs) — the stdout table or JSON lines,
 * and the files of --out: summary.json, transfers.csv, pfc.csv, flows.csv, attributes.txt. Every
 * file is written whole to a temporary name and renamed, so a reader never sees a half-written file
 * and a failed run leaves none.
 */
#ifndef PARAMSYNC_RESULTS_WRITER_H
#define PARAMSYNC_RESULTS_WRITER_H

#include "run-result.h"

#include <functional>
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
    int code = 0;       ///< the process's exit code (0 ok, 3 invariant failed: README, Exit codes)
    std::string reason; ///< "ok", or every failed run's reason, "; "-separated
};

/**
 * \brief The configuration a row ran with, written into every JSON row and summary.json so
 * that rows of a sweep over any of these stay distinguishable, and which build made them.
 * The topology and algorithm specs are columns of the row itself.
 */
struct RunConfig
{
    double rateBps{0};       ///< default link rate, bit/s (--rate; a topology's rate= wins)
    double delayS{0};        ///< default one-way link delay, s
    uint32_t mtu{0};         ///< RoCE payload bytes per packet
    uint64_t bufferBytes{0}; ///< shared buffer per switch / relaying host, bytes
    std::string cc;          ///< congestion control
    bool pfc{true};          ///< PFC on
    uint32_t seed{1};        ///< ns-3 RNG seed
    uint64_t rngRun{1};      ///< ns-3 RNG run number (--RngRun)
    uint32_t iterations{1};  ///< synchronizations per run
    std::string version;     ///< paramsync's git version at build time
    std::string ns3Version;  ///< ns-3's release
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

    /// \brief One JSON object (one line, no newline) with the Columns() of a run and, when
    /// given, its configuration (rate_bps, delay_s, mtu, buffer_bytes, cc, pfc, seed,
    /// rng_run, iterations, paramsync_version, ns3_version).
    static std::string JsonLine(const RunResult& run, const RunConfig* config = nullptr);

    /// \brief The configuration as JSON members ("\"rate_bps\":4e+10,...", no braces).
    static std::string ConfigMembers(const RunConfig& config);

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
     * \param config the configuration, in every row and as summary.json's "config"
     * \throws std::runtime_error naming the path when a file cannot be written
     */
    static void WriteDirectory(
        const std::string& dir,
        const std::vector<RunResult>& runs,
        const std::vector<std::pair<std::string, std::string>>& used,
        const RunExit& exit,
        const std::vector<std::pair<std::string, std::string>>& extraFiles = {},
        const RunConfig* config = nullptr);

    /**
     * \brief Writes content to path via path.tmp.PID + rename (atomic on one file system).
     * \throws std::runtime_error naming the path
     */
    static void WriteFileAtomically(const std::string& path, const std::string& content);

    /**
     * \brief Writes what fill puts on the stream to path via path.tmp.PID + rename, so a
     * document too large to hold whole (the --trace file) is written in pieces and still
     * appears at once; an exception from fill leaves no file and is rethrown.
     * \throws std::runtime_error naming the path
     */
    static void WriteFileAtomically(const std::string& path,
                                    const std::function<void(std::ostream&)>& fill);

    /// \brief JSON string literal of s (quotes and escapes).
    static std::string JsonString(const std::string& s);

    /// \brief Shortest round-trip text of a double ("-1" for not measured stays "-1").
    static std::string Number(double v);
};

} // namespace ns3

#endif // PARAMSYNC_RESULTS_WRITER_H
