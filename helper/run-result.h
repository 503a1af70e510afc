/*
 * RunResult: everything one driver run (one algorithm on one topology) measured — the
 * stdout row (ARCHITECTURE.md, Outputs) and the detail rows of transfers.csv, pfc.csv and
 * flows.csv. Filled by the backends and recorders, written by ResultsWriter.
 */
#ifndef PARAMSYNC_RUN_RESULT_H
#define PARAMSYNC_RUN_RESULT_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// \brief One executed transfer of a plan (a row of transfers.csv and a trace span).
struct TransferRecord
{
    uint32_t iteration; //!< 0-based iteration
    uint32_t id;        //!< transfer id in the plan
    uint32_t src;       //!< source host rank
    uint32_t dst;       //!< destination host rank
    uint64_t bytes;     //!< payload bytes
    double startS;      //!< simulated time it was posted
    double endS;        //!< simulated time its last byte arrived
    uint32_t chunk;     //!< plan's chunk label
    uint32_t phase;     //!< plan's phase label
};

/// \brief PFC counters of one port and priority (a row of pfc.csv).
struct PfcRecord
{
    std::string node;        //!< node name ("h3", "sw1.2")
    uint32_t port;           //!< port index of the node
    uint32_t priority;       //!< PFC priority
    uint64_t pausesSent;     //!< PFC pause frames this port sent (quanta > 0)
    uint64_t pausesReceived; //!< PFC pause frames this port received (quanta > 0)
    double pausedS;          //!< time this port's egress priority was paused
    uint64_t drops{0};       //!< frames of this priority dropped on arrival at this port
};

/// \brief A pause interval of one port's egress priority (a trace span).
struct PauseInterval
{
    std::string port; //!< "node/port"
    uint32_t priority;
    double startS;
    double endS;
};

/// \brief One replayed flow of --flows (a row of flows.csv).
struct FlowRecord
{
    uint32_t index; //!< line order in the flow file, from 0
    uint32_t src;   //!< source node id as in the file
    uint32_t dst;   //!< destination node id as in the file
    uint64_t bytes; //!< message bytes
    double startS;  //!< start time from the file
    double endS;    //!< completion time, < 0 when it never completed
};

/// \brief One applied update of an asynchronous PS run (a row of updates.csv).
struct UpdateRecord
{
    uint32_t worker;    //!< who pushed it
    uint32_t iteration; //!< the worker's iteration
    uint32_t shard;     //!< server shard
    uint64_t delay;     //!< staleness when applied
    double appliedS;    //!< when
    double loss{-1};    //!< training loss after it (ConvergenceModel); < 0: not trained
};

/// \brief What one direction of a link carried in a fluid run (a row of links.csv).
struct LinkRecord
{
    std::string from;   //!< sending node name
    std::string to;     //!< receiving node name
    double bytes;       //!< payload bytes carried
    double utilization; //!< bytes * 8 / (rate * GST)
    uint32_t maxFlows;  //!< most transfers sharing it at one time
};

/// \brief The measurements of one run.
struct RunResult
{
    std::string topology;       //!< canonical topology spec
    std::string algorithm;      //!< canonical algorithm spec ("none" for --flows alone)
    std::string model;          //!< model name
    std::string backend;        //!< "packet" or "fluid"
    std::string laneScheduling; //!< --lane-scheduling (rr | strict); empty: not set
    std::string routing;        //!< --routing of a packet run (ecmp | source); empty: not set
    uint32_t workers{0};        //!< workers of the plan
    uint64_t gradientBytes{0};  //!< bytes of one worker's gradient
    double gstS{-1};            //!< mean GST over iterations (s); -1 when not measured
    /// The relaxation (workloads/gst-lower-bound.h) of the plan on the perfect split of the
    /// routing's paths, payload at line rate: no schedule finishes earlier (s)
    double idealGstS{-1};
    /// max(ideal, the relaxation on the packet run's own QP paths with framing and each
    /// message's least path latency) (s, helper/routed-bound.h); -1: not computed (fluid
    /// runs, no plan)
    double boundGstS{-1};
    /// The max-min fair fluid run, per-QP FIFO, on the packet run's paths (s): a predictor,
    /// not a bound; -1: not computed
    double fairGstS{-1};
    std::vector<double> gstPerIterationS; //!< GST of each iteration
    double iterationS{-1};          //!< mean iteration time (compute + exposed sync), -1 if n/a
    uint64_t pfcPauseFrames{0};     //!< pause frames sent, whole fabric
    double pfcPausedS{0};           //!< sum over port-priorities of paused time
    uint32_t pfcPauseDepth{0};      //!< farthest reach of a pause cascade, hops (PauseSpread)
    uint64_t drops{0};              //!< packets dropped by any MMU
    uint64_t watchdogDrops{0};      //!< packets PFC watchdogs dropped from stormed queues
    uint64_t linkDrops{0};          //!< frames lost to --link-down: on the dead cable or no route
    uint64_t ecnMarks{0};           //!< CE marks
    uint64_t retransmits{0};        //!< go-back-N retransmitted packets
    uint64_t events{0};             //!< simulator events executed
    uint64_t pktHops{0};            //!< packet transmissions on links
    int64_t framesInFlightPeak{-1}; //!< most frames existing at once (-1: not sampled)
    double wallS{0};                //!< wall-clock time of this run
    /// Wall-clock time of this run spent in the fluid estimator (the ideal GST), part of
    /// wallS: wallS - fluidWallS is the packet simulation's own time.
    double fluidWallS{0};
    /// Packet runs: simulated time when the last transfer or flow ended; for asynchronous
    /// systems and unfinished runs when the run guard (a look every 100 us) saw the work
    /// done or stopped the run; -1: not simulated.
    double simS{-1};
    bool completed{true};  //!< every transfer / flow completed
    std::string invariant; //!< empty, or what failed ("drops with PFC on", "deadlock ...")
    std::vector<TransferRecord> transfers; //!< detail: transfers.csv
    std::vector<PfcRecord> pfc;            //!< detail: pfc.csv
    std::vector<PauseInterval> pauses;     //!< detail: the trace's port tracks
    std::vector<FlowRecord> flows;         //!< detail: flows.csv
    std::vector<LinkRecord> links;         //!< detail: links.csv (fluid runs)
    /// Systems that are not allreduce plans (asynchronous PS, Lapse) measure other things
    /// than GST: their kind ("async", "lapse") names a second table and the JSON object
    /// that holds these (name, number) pairs, in order.
    std::string systemKind;
    std::vector<std::pair<std::string, std::string>> systemMetrics; //!< (name, number)
    std::vector<UpdateRecord> updates; //!< detail: updates.csv (asynchronous PS)
};

} // namespace ns3

#endif // PARAMSYNC_RUN_RESULT_H
