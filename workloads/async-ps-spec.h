/*
 * AsyncPsSpec: the --algorithm specs of the asynchronous parameter-server systems, which
 * are not allreduce plans (no SyncPlan, no GST) but training loops (AsyncPsJob):
 *
 *   asp[:servers=1]                        plain asynchronous PS (no barrier, fair sharing)
 *   ssp[:servers=1,bound=3]                stale-synchronous: at most `bound` iterations
 *                                          ahead of the slowest worker
 *   mlfabric[:servers=1,delay=N,bound=B,aggregate=0,aggregator=fastest,scheduler=oracle,replica=0,fail=T]
 *                                          MLFabric-style scheduled pushes (one reserved
 *                                          slot per server link, SJF), updates with delay
 *                                          > N dropped (default: none), optional SSP bound;
 *                                          aggregate=1 sums deferred updates at an idle
 *                                          worker (aggregator=fastest: the fastest link;
 *                                          random: drawn, as in the paper); scheduler=net sends
 * requests and grants as 64 B messages to/from the server's host; replica=D adds a replica per
 * server, kept within D versions, that serves the pulls; ack=replica (with replica) counts a
 * worker's update acknowledged only once the replica holds it (every update forwarded before
 * the replica sends the model; default ack=server: the model goes out once the server applied
 * it, deltas every D versions); fail=T (with replica) kills shard 0's server at time T and its
 * replica takes over; norms=1 (default, with train=logreg) weighs SJF by the norm of each
 * update's real gradient, norms=0 by completion time alone
 *
 * Every system also takes train=none|logreg (default none): with logreg the applied updates
 * are replayed on a logistic regression (ConvergenceModel, its defaults in
 * convergence-config.h) and each update's loss goes to updates.csv; lr=X (with train)
 * sets its learning rate, the step of N fresh updates (default 1).
 *
 * Servers are the last `servers` hosts (dedicated; with replica=D the last 2 x `servers`:
 * servers, then their replicas); the other hosts are workers.
 */
#ifndef PARAMSYNC_ASYNC_PS_SPEC_H
#define PARAMSYNC_ASYNC_PS_SPEC_H

#include "async-ps-job.h"

#include <string>

namespace ns3
{

/// \brief A parsed asynchronous-PS spec.
struct AsyncPsSpec
{
    std::string canonical; //!< the spec with every option, e.g. "ssp:servers=1,bound=3"
    uint32_t servers{1};   //!< S
    AsyncPsConfig::PushPolicy policy{AsyncPsConfig::PushPolicy::FAIR}; //!< push policy
    uint32_t stalenessBound{AsyncPsConfig::kAsp};                      //!< SSP bound
    uint32_t delayBound{AsyncPsConfig::kAsp};                          //!< MLFabric delay bound
    bool aggregate{false};        //!< MLFabric: aggregate deferred updates
    bool randomAggregator{false}; //!< MLFabric: the aggregator drawn at random
    bool networkScheduler{false}; //!< MLFabric: scheduler as messages over the network
    uint32_t replica{0};          //!< MLFabric: replica divergence bound D, 0 = no replica
    double failAtS{-1};           //!< MLFabric: shard 0's server fails then (s); < 0 never
    bool ackFromReplica{false};   //!< MLFabric: acknowledged once the replica holds it
    bool normPriority{true};      //!< MLFabric with train: SJF weighed by gradient norms
    bool train{false};            //!< replay the updates on ConvergenceModel
    double learningRate{ConvergenceConfig{}.learningRate}; //!< its step of N fresh updates

    /// \brief Sets a job's hosts (workers: the hosts that are no server or replica) and
    /// the system's options; the model and the run's options are the caller's.
    void ApplyTo(AsyncPsConfig& config, uint32_t hosts) const;

    /// \brief Whether an --algorithm name is an asynchronous PS system.
    static bool IsAsyncName(const std::string& name);
    /**
     * \brief Parses an asp / ssp / mlfabric spec for a topology with `hosts` hosts.
     * \throws std::invalid_argument naming --algorithm, the key and what is allowed
     */
    static AsyncPsSpec Parse(const std::string& spec, uint32_t hosts);
};

} // namespace ns3

#endif // PARAMSYNC_ASYNC_PS_SPEC_H
