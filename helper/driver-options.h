/*
 * DriverOptions: every option of the paramsync driver (ARCHITECTURE.md, Outputs), as one
 * OptionTable (helper/option-table.h): name, help, default and parser of each in one row, from
 * which come --help, the reading of the arguments, validation and the record of what was used.
 * Values are taken whole and parsed strictly (helper/option-values.h), so every bad value
 * gives one line naming the option and what is allowed (CommandLine's own parser cuts
 * values at whitespace, and its errors print the whole help and exit 1).
 */
#ifndef PARAMSYNC_DRIVER_OPTIONS_H
#define PARAMSYNC_DRIVER_OPTIONS_H

#include "option-table.h"
#include "option-values.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class CommandLine;

/**
 * \brief The driver's options: raw text as given, then the validated values.
 */
class DriverOptions
{
  public:
    /// \brief Defaults (the values --help shows).
    DriverOptions();

    /**
     * \brief The option table, bound to this object's fields. To add an option: one
     * Add() row in DriverOptions::Table() (driver-options.cc) — name, help, the text field
     * holding its default, and a parser filling the typed field — plus the two fields here.
     */
    OptionTable Table();

    /// \brief Registers every option (with help text and default) on cmd, for --help.
    void Register(CommandLine& cmd);

    /**
     * \brief Reads the command line: each of our options' value taken whole (an empty or
     * repeated one refused); ns-3's --ns3::Type::Attribute= and globals (--RngRun=) checked
     * and set as attribute defaults. \returns the arguments left for ns-3's CommandLine
     * (--help and the --Print* family; "-h" becomes "--help").
     * \throws OptionError naming the argument: unknown names, positional arguments, bad
     * ns-3 attribute names or values
     */
    std::vector<std::string> Read(int argc, char** argv);

    /**
     * \brief Parses and range-checks every option (sizes, rates, times, choices, lists,
     * paths). Topology / algorithm / model names are checked by the driver, which builds
     * them. \throws OptionError naming the option and what is allowed
     */
    void Validate();

    /**
     * \brief With --mpi=1: refuses what does not run across MPI ranks (README "Running
     * across MPI ranks"): the fluid backend, more than one run in the process (all,
     * --seeds: ns-3's distributed engine runs once per process), parameter servers, a sync
     * plan beside --flows, and the monitors and faults that need the whole network in one
     * process; turns the deadlock detector off (its default) unless given.
     * \param algorithms the systems --algorithm names (JobRegistry, one per row)
     * \param planOrFlows the one system is a sync plan or none (--flows alone)
     * \throws OptionError naming the option and what is allowed
     */
    void CheckMpi(const std::vector<std::string>& algorithms, bool planOrFlows);

    /// \brief The ns-3 attribute defaults and globals the options stand for, (name, value)
    /// as ns-3 text (after Validate()): what ns3-attributes.txt records as run.
    std::vector<std::pair<std::string, std::string>> Ns3Defaults() const;

    /// \brief Sets Ns3Defaults() as ns-3's defaults. \throws OptionError
    void SetNs3Defaults() const;

    /// \brief (name, value) of every option as used, for attributes.txt / summary.json.
    std::vector<std::pair<std::string, std::string>> Used() const;

    /**
     * \brief Used() with every path (--models-dir, --out, --trace, --flows, a --model file,
     * a file: topology) relative to dir, so that files written into dir name no local
     * absolute path and two machines' outputs differ only where the runs do.
     */
    std::vector<std::pair<std::string, std::string>> UsedRelativeTo(const std::string& dir) const;

    /// \brief ns-3 attributes and globals the command line set: (name, value) as given.
    std::vector<std::pair<std::string, std::string>> ns3Given;
    /// \brief --version (or ns-3's --PrintVersion) was given: print the versions, run nothing.
    bool versionRequested{false};
    /// \brief ns-3's RNG run number: --RngRun (ns-3's global), default 1.
    uint64_t rngRun{1};

    // Raw text, as given on the command line (defaults filled in).
    std::string topology;       //!< --topology spec
    std::string algorithm;      //!< --algorithm spec, or "all"
    std::string model;          //!< --model name, CSV path or bytes:SIZE
    std::string modelsDir;      //!< --models-dir
    std::string rateText;       //!< --rate
    std::string delayText;      //!< --delay
    std::string mtuText;        //!< --mtu
    std::string cc;             //!< --cc
    std::string pfcText;        //!< --pfc
    std::string iterationsText; //!< --iterations
    std::string seedText;       //!< --seed
    std::string seedsText;      //!< --seeds (empty: one run with --seed)
    std::string backend;        //!< --backend
    /// --algorithm=all: the algorithms the resource guard leaves out, their plans over the
    /// memory limit (ResourceEstimate::Guard; not an option).
    std::vector<std::string> leftOutOfAll;
    std::string routing;              //!< --routing: ecmp | source
    std::string flows;                //!< --flows
    std::string out;                  //!< --out
    std::string format;               //!< --format
    std::string trace;                //!< --trace
    std::string computeText;          //!< --compute
    std::string overlapText;          //!< --overlap
    std::string stragglerText;        //!< --straggler
    std::string stragglerFactorText;  //!< --straggler-factor
    std::string slowLinkText;         //!< --slow-link (a list)
    std::string slowLinkFractionText; //!< --slow-link-fraction
    std::string slowHostsText;        //!< --slow-hosts
    std::string pauseStormText;       //!< --pause-storm
    std::string stopDrainingText;     //!< --stop-draining
    std::string watchdogText;         //!< --pfc-watchdog
    std::string linkDownText;         //!< --link-down
    std::string pcapText;             //!< --pcap: NODE[.PORT][,...] captured into --out
    std::string preset;               //!< --preset: "" or hpcc
    std::string bufferText;           //!< --buffer
    std::string priorityText;         //!< --priority
    std::string laneScheduling;       //!< --lane-scheduling: rr (deficit round robin) | strict
    std::string stopText;             //!< --stop
    std::string rtoText;              //!< --rto
    std::string deadlockCheckText;    //!< --deadlock-check
    std::string inFlightSampleText;   //!< --in-flight-sample
    std::string maxEventsText;        //!< --max-events
    std::string progressText;         //!< --progress
    std::string maxMemoryText;        //!< --max-memory: SIZE or auto
    std::string estimateText;         //!< --estimate
    std::string traceMaxText;         //!< --trace-max
    std::string mpiText;              //!< --mpi

    // Validated values (after Validate()).
    double rateBps{0};               //!< default link rate, bit/s
    double delayS{0};                //!< default link delay, s
    uint32_t mtu{0};                 //!< RoCE payload bytes per packet
    bool pfc{true};                  //!< PFC enabled
    uint32_t iterations{1};          //!< synchronizations (training iterations) per run
    uint32_t seed{1};                //!< ns-3 RNG seed
    uint32_t seedsFirst{0};          //!< --seeds=A-B: A (0: not given)
    uint32_t seedsLast{0};           //!< --seeds=A-B: B
    double computeS{0};              //!< compute (forward + backward) time per iteration, s
    bool overlap{false};             //!< start a tensor's sync when backprop produces it
    int64_t straggler{-1};           //!< worker that computes slower, -1 none
    double stragglerFactor{1};       //!< its compute time multiplier (>= 1)
    std::vector<uint32_t> slowLinks; //!< topology link indices running slower
    double slowLinkFraction{1};      //!< its rate fraction (0, 1]
    std::vector<uint32_t> slowHosts; //!< hosts whose every link runs at slowLinkFraction
    /// \brief Something that happens to one host from a time, for a while or for good.
    struct HostEvent
    {
        int64_t host{-1};    //!< the host, -1 none
        double startS{0};    //!< from
        double durationS{0}; //!< for (0: until the run ends)
    };
    HostEvent pauseStorm;         //!< --pause-storm: a NIC sending pause frames non-stop
    HostEvent stopDraining;       //!< --stop-draining: a NIC that stops taking frames
    double watchdogDetectionS{0}; //!< PFC watchdog detection time (0: no watchdog)
    double watchdogRestoreS{0};   //!< PFC watchdog restore time
    /// \brief One --link-down event: the link between nodes a and b fails at atS for
    /// durationS (0: for good).
    struct LinkDown
    {
        std::string a;    //!< one end's node name
        std::string b;    //!< the other end's
        double atS;       //!< failure time
        double durationS; //!< until repair (0: never)
    };
    std::vector<LinkDown> linkDowns; //!< --link-down events
    uint64_t bufferBytes{0};         //!< shared buffer per switch / relaying host
    uint8_t priority{3};             //!< PFC priority of lane 0 data
    double stopS{0};                 //!< simulated-time limit (deadlock guard), s
    double rtoS{1e-3};               //!< RoCE retransmission timeout, s (RoceNic's default)
    double deadlockCheckS{1e-3};     //!< PFC deadlock look interval, s (0: no detection)
    double inFlightSampleS{0};       //!< frames-in-flight sampling interval, s (0: none)
    uint64_t maxEvents{2000000000};  //!< event limit of one run (livelock guard)
    int progress{-1};                //!< -1 auto (terminal and long run), 0 off, 1 on
    bool hashSeedPerSwitch{false};   //!< --preset=hpcc: switch v's ECMP hash seed is v
    uint64_t maxMemoryBytes{0};      //!< memory limit of the run, bytes (0: auto)
    bool estimateOnly{false};        //!< print the resource estimate and run nothing
    uint64_t traceMaxBytes{0};       //!< largest --trace file, bytes
    bool mpi{false};                 //!< --mpi: partitioned over the ranks of an mpirun

  private:
    /// \brief --seeds=A-B into seedsFirst and seedsLast (both 0 when empty).
    /// \throws OptionError
    void ParseSeedRange(const std::string& text);
    /// \brief Table() rows of --topology, --algorithm, --model, --models-dir, --rate, --delay.
    void AddTopologyAndJobRows(OptionTable& t);
    /// \brief Table() rows of --flows, --out, --format, --trace, --pcap.
    void AddInputOutputRows(OptionTable& t);
    /// \brief Table() rows of the training loop and the faults.
    void AddWorkloadAndFaultRows(OptionTable& t);
    /// \brief Table() rows of the switches and the run's time limits (stop, RTO).
    void AddSwitchAndTimeRows(OptionTable& t);
    /// \brief Table() rows of the run's other limits: events, detectors, memory, trace size.
    void AddRunLimitRows(OptionTable& t);
    /// \brief --pfc-watchdog text into watchdogDetectionS / watchdogRestoreS.
    void ParseWatchdog(const std::string& text);
    /// \brief --link-down text into linkDowns.
    void ParseLinkDowns(const std::string& text);
    /// \brief Sets an ns-3 attribute default or global from --name=value. \throws OptionError
    void SetNs3Attribute(const std::string& name, const std::string& value, bool hasValue);

    /**
     * \brief Turns the given ns-3 attributes that a driver option sets (RoceNic::Mtu,
     * PfcSwitch::BufferSize, ...) into that option, so the explicit value is what runs;
     * refuses one given beside its option, and attributes the driver sets otherwise.
     * \throws OptionError
     */
    void ApplyNs3Given();
    /// \brief With --ns3::ConfigStore::Mode=Load: loads the file's defaults, and records
    /// the attributes a driver option sets that it changed as given (ns3Given).
    void LoadConfigStore();
    /// \brief Whether two texts of the option behind attribute give it the same value.
    bool SameAttributeValue(const std::string& attribute,
                            const std::string& a,
                            const std::string& b) const;

    std::set<std::string> m_given; //!< options the command line gave (each at most once)
};

} // namespace ns3

#endif // PARAMSYNC_DRIVER_OPTIONS_H
