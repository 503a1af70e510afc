/*
 * The faults and monitors of a packet run (helper/job.h, RunMonitor), each with its own
 * small configuration: they install themselves on the built network and fill their part of
 * the result. Faults: a pause storm (PfcPauseStorm), a stalled receiver (StalledReceiver),
 * link failures with rerouting. Observers: the PFC watchdog (switch attributes), the
 * deadlock detector (PfcDeadlockDetector), the in-flight sampler (InFlightSampler).
 */
#ifndef PARAMSYNC_RUN_MONITORS_H
#define PARAMSYNC_RUN_MONITORS_H

#include "in-flight-sampler.h"
#include "job.h"
#include "pfc-deadlock-detector.h"

#include "ns3/nstime.h"
#include "ns3/pfc-pause-storm.h"
#include "ns3/stalled-receiver.h"
#include "ns3/topology-graph.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// \brief Looks for a cycle of paused ports every interval; names it and ends the run.
class DeadlockMonitor : public RunMonitor
{
  public:
    /// \brief interval > 0 between two looks.
    explicit DeadlockMonitor(Time interval);
    ~DeadlockMonitor() override;
    void Install(const RunContext& run) override;
    void Collect(RunResult& result, std::vector<std::string>& broken) const override;
    bool EndedRun() const override;

  private:
    Time m_interval;                                 //!< between looks
    std::unique_ptr<PfcDeadlockDetector> m_detector; //!< made by Install
};

/// \brief Samples the frames in flight every interval from the first traffic on: the peak.
class InFlightMonitor : public RunMonitor
{
  public:
    /// \brief interval > 0 between two samples, from the run's first traffic on.
    explicit InFlightMonitor(Time interval);
    ~InFlightMonitor() override;
    void Install(const RunContext& run) override;
    void Collect(RunResult& result, std::vector<std::string>& broken) const override;

  private:
    Time m_interval;                            //!< between samples
    std::unique_ptr<InFlightSampler> m_sampler; //!< made by Install
};

/// \brief One link failure: the link, when, for how long.
struct LinkFailure
{
    LinkIndex link;   //!< the link
    double atS;       //!< failure time
    double durationS; //!< until repair (0: never)
};

/**
 * \brief Links that fail (and are repaired): the channel stops carrying frames, every table
 * is refilled with shortest paths around the failed links (the original routing once all
 * are back), and every NIC moves its queue pairs to their new routes.
 */
class LinkFailures : public RunMonitor
{
  public:
    explicit LinkFailures(std::vector<LinkFailure> failures);
    void Install(const RunContext& run) override;

    /// \brief "{h0} {h1 h2 h3}": host groups by name, each cut short after a few names.
    static std::string DescribeHostGroups(const TopologyGraph& g,
                                          const std::vector<std::vector<HostRank>>& groups);

  private:
    /// \brief Reroutes the network around the links down now.
    void Reroute() const;

    std::vector<LinkFailure> m_failures; //!< the events
    const RunContext* m_run{nullptr};    //!< set by Install (outlives the run)
    std::vector<bool> m_down;            //!< links down now
};

/// \brief When and for how long a fault acts on one host.
struct HostFault
{
    uint32_t host{0}; //!< host rank
    Time start;       //!< from
    Time duration;    //!< for (0: until the run ends)
};

/// \brief A host's NIC that stops taking frames (StalledReceiver), pausing its feeders.
class StalledReceiverFault : public RunMonitor
{
  public:
    explicit StalledReceiverFault(const HostFault& fault);
    void Install(const RunContext& run) override;

  private:
    HostFault m_fault;              //!< where and when
    Ptr<StalledReceiver> m_stalled; //!< made by Install
};

/// \brief A host's NIC that floods pause frames on every data lane (PfcPauseStorm).
class PauseStormFault : public RunMonitor
{
  public:
    explicit PauseStormFault(const HostFault& fault);
    void Install(const RunContext& run) override;

  private:
    HostFault m_fault;          //!< where and when
    Ptr<PfcPauseStorm> m_storm; //!< made by Install
};

/// \brief The switches' PFC watchdog (PfcSwitch WatchdogDetection / WatchdogRestore).
class PfcWatchdogMonitor : public RunMonitor
{
  public:
    PfcWatchdogMonitor(Time detection, Time restore);
    void Configure(NetworkBuilder& builder) override;
    void
    Install(const RunContext& /* run */) override
    {
    }

  private:
    Time m_detection; //!< storm declared after this
    Time m_restore;   //!< queue restored after this
};

} // namespace ns3

#endif // PARAMSYNC_RUN_MONITORS_H
