/*
 * ResourceEstimate: what a driver run will build and how much memory it will take, from the
 * options alone, before anything is built (ARCHITECTURE.md, Data flow of one run): nodes,
 * devices and routing entries from the topology family's closed form (no graph is built, so
 * bcube:n=255,k=2 is refused in microseconds, not after gigabytes), plan transfers from
 * the algorithm's closed form, packets and events in flight from the buffers, and bytes of
 * memory from per-object costs measured on this code (resource-estimate.cc says how). The
 * driver refuses a run whose estimate exceeds the limit (--max-memory, or what the machine
 * has available) with one line and exit 2; --estimate prints it and runs nothing.
 */
#ifndef PARAMSYNC_RESOURCE_ESTIMATE_H
#define PARAMSYNC_RESOURCE_ESTIMATE_H

#include "ns3/topology-counts.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class DriverOptions;

/**
 * \brief The estimate of one driver invocation (every algorithm of --algorithm=all).
 */
class ResourceEstimate
{
  public:
    /// \brief The estimate for the options (after Validate()).
    static ResourceEstimate Of(const DriverOptions& options);

    /**
     * \brief The memory the run may take: --max-memory when given, else the lower of
     * MemAvailable (/proc/meminfo) and the address-space limit (ulimit -v); source says
     * which. 0 when none is known.
     */
    static uint64_t MemoryLimit(const DriverOptions& options, std::string& source);

    /**
     * \brief The driver's guard, before anything is built: with --estimate prints the
     * estimate to out and returns false (run nothing); refuses an estimate over the limit
     * (--algorithm=all leaves out what does not fit, LeaveOutOfAll, while anything does);
     * with --trace warns on err when the trace estimate is large or over --trace-max.
     * \returns true when the run may go on. \throws OptionError (one line) when refused
     */
    static bool Guard(DriverOptions& options, std::ostream& out, std::ostream& err);
    /**
     * \brief For --algorithm=all over the limit: the algorithms to leave out, in "all"'s order
     * each whose plan would take the run over the limit beside those kept before it; empty
     * when none can be kept (the run is refused then). The guard sets
     * DriverOptions::leftOutOfAll to it and names them.
     */
    static std::vector<std::string> LeaveOutOfAll(const DriverOptions& options, uint64_t limit);

    /// \brief Whether the run would pass the guard's memory check: the estimate is unknown,
    /// no limit is known, or it fits the limit.
    static bool WithinLimit(const DriverOptions& options);

    /// \brief The estimate as "name value" lines.
    std::string Describe() const;

    /**
     * \brief The memory of this run had it recorded `pauses` PFC pauses: bytes, plus the
     * pause state of every port (pauseStateBytes), plus kPauseRecordBytes per pause, plus,
     * with --trace, the trace as it is written (TraceMemory). How many pauses a run sees is
     * known only after it (pfc_pause_frames of its output bounds them: each recorded pause
     * begins with a pause frame sent), so bytes leaves them out. Capped at 4e18 as bytes is.
     */
    uint64_t BytesWithPauses(uint64_t pauses) const;

    /**
     * \brief With --trace, the bytes of writing the trace of a run with `pauses` pauses
     * (else 0): the document, transfer slices and kPauseSliceBytes per pause up to
     * --trace-max, is written to its file in pieces (helper/trace-event-writer.cc,
     * DocumentOut): one piece buffer of TraceEventWriter::kPieceBytes, of which a document
     * smaller than a piece touches only its own size; the writer also groups the pauses by
     * port, a doubling vector of 8 B indices (16 B a pause).
     */
    uint64_t TraceMemory(uint64_t pauses) const;

    /// \brief Bytes of one pause slice in the trace: the demo's trace, 61.5 MB for
    /// 704,515 pauses (87.2 B each, the ports' lane names included), rounded up.
    static constexpr uint64_t kPauseSliceBytes = 88;

    /**
     * \brief Peak bytes per recorded PFC pause, at most (helper/network-recorder.h): a
     * 24 B record in a vector that grows by doubling (up to 48 B a pause), then, when the
     * run ends, the trace's 56 B interval (RunResult::pauses; port names of up to 15
     * characters stay inside the string).
     */
    static constexpr uint64_t kPauseRecordBytes = 48 + 56;

    /**
     * \brief Bytes of one port's PFC pause state, made by the port's first PFC frame
     * (model/pfc-net-device.h, PauseState): 536 B, its reaction queue's first 4 slots of
     * 24 B and two allocations' headers, rounded up.
     */
    static constexpr uint64_t kPauseStateBytes = 650;

    /// \brief What the plans of a run may take (the PlanMemoryBudget the driver compiles them
    /// under, workloads/sync-plan.h) and what a run holds per transfer and per dependency.
    struct PlanAllowance
    {
        uint64_t bytes{0};       //!< the memory limit less the rest of the estimate; 0: none
        double perTransfer{0};   //!< the plan, application state and result rows of one
        double perDependency{0}; //!< one entry of a transfer's deps
    };
    /// \brief The plans' allowance of a run (bytes 0 when no memory limit is known).
    static PlanAllowance PlanAllowanceOf(const DriverOptions& options);

    /// \brief "12.3 GB"-style text of a byte count (decimal units, 3 significant digits).
    static std::string Size(double bytes);

    bool known{false};           //!< the topology's counts are known (CountTopology gave them)
    TopologyCounts network;      //!< the topology
    bool packet{true};           //!< packet backend (else fluid)
    uint64_t nodes{0};           //!< ns-3 nodes (packet) or graph nodes (fluid)
    uint64_t devices{0};         //!< ports: 2 per link
    uint64_t routingEntries{0};  //!< forwarding-table (destination, lane) entries, all nodes
    uint64_t transfers{0};       //!< plan transfers of every plan, per synchronization
    uint64_t transferRows{0};    //!< transfer results kept: transfers x iterations
    uint64_t dependencies{0};    //!< entries of the transfers' deps (0: no closed form)
    bool planBounded{true};      //!< the plan counts bound the plans (PlanSizeBound::bounds)
    double planBytes{0};         //!< of bytes, the plans' part (transfers, deps, result rows)
    uint64_t queuePairs{0};      //!< RoCE queue pairs the plans open
    uint64_t flows{0};           //!< --flows flows
    uint64_t packetsInFlight{0}; //!< frames existing at once, upper bound (the buffers' worth)
    uint64_t events{0};          //!< simulator events pending at once, upper bound
    uint64_t bytes{0};           //!< memory, bytes
    uint64_t traceBytes{0};      //!< --trace file, bytes (transfer slices; pauses on top)
    uint64_t pauseStateBytes{0}; //!< PFC pause state if every port pauses (not in bytes)
    bool tracing{false};         //!< --trace is given
    uint64_t traceMaxBytes{0};   //!< --trace-max
};

} // namespace ns3

#endif // PARAMSYNC_RESOURCE_ESTIMATE_H
