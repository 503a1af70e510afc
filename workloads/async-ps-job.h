/*
 * AsyncPsJob: asynchronous data-parallel training against a versioned parameter server —
 * ASP (no barrier) and SSP (a staleness bound), the baselines that MLFabric (Mai et al.,
 * "MLFabric: network-accelerated distributed machine learning", SoCC'20 — the seed of
 * issue 9) is measured against. Bytes move over any SyncTransport, as for SyncJob.
 *
 * Model of one worker w (Li et al., OSDI'14 parameter server; Ho et al., NIPS'13 SSP):
 *  - loop: compute (--compute, times the straggler factor for the straggler), then push
 *    its update to every server shard s (W/S bytes, shards as equal byte ranges, the first
 *    W mod S one byte longer) and, once a shard applied it, receive that shard's current
 *    model back (W/S bytes: push and pull fused, as PS implementations do after an update);
 *    the iteration ends when every shard's model arrived;
 *  - SSP with bound B: iteration k may start only when k - (slowest worker's finished
 *    iterations) <= B; ASP is B = infinity; B = 0 is bulk-synchronous.
 * Server shard s keeps a version v_s, incremented by every applied update. The delay
 * (staleness) of an update = v_s when it is applied - the version of s the worker computed
 * on (the one its last pull returned). Every update is applied exactly once, on arrival.
 *
 * Hosts: workers are hosts 0..N-1, the S servers the last S hosts (dedicated).
 *
 * Push policies:
 *  - FAIR: every push is sent at once; pushes to one server share its link (plain ASP/SSP).
 *  - MLFABRIC (an oracle scheduler, after MLFabric SoCC'20 §4): a push is a request to the
 *    scheduler of its shard's server link. Requests that arrive while the link is reserved
 *    form the next batch; when the link frees, the scheduler grants the request with the
 *    shortest network-aware completion time (shard bytes / the pushing worker's link
 *    rate; ties: the earliest request) among workers not already pushing, so each push
 *    has both the worker's and the server's link to itself (a reserved, non-overlapping
 *    slot instead of fair sharing). A request whose delay would exceed the
 *    delay bound if granted now (shard version now - version computed on) is dropped: the
 *    worker sends a small pull request instead and gets the current model back.
 *    SJF can starve a worker whose link is slower than the others' while they keep
 *    requesting (measured: a half-rate worker among 10 reached delay 180); the delay bound
 *    is what caps it, by dropping such updates.
 *    Not modelled yet: aggregation of deferred updates at an idle worker, the scheduler as
 *    messages over the network, the bounded-divergence replica.
 */
#ifndef PARAMSYNC_ASYNC_PS_JOB_H
#define PARAMSYNC_ASYNC_PS_JOB_H

#include "message-mailbox.h"
#include "sync-transport.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace ns3
{

/// \brief What one AsyncPsJob runs.
struct AsyncPsConfig
{
    uint32_t workers{1};         //!< N
    uint32_t servers{1};         //!< S (hosts N..N+S-1)
    uint64_t modelBytes{0};      //!< W
    uint32_t iterations{1};      //!< iterations per worker
    Time compute{Seconds(0)};    //!< compute time per iteration
    int64_t straggler{-1};       //!< worker that computes slower, -1 none
    double stragglerFactor{1.0}; //!< its compute multiplier
    /// SSP staleness bound B (iterations ahead of the slowest); kAsp for none.
    uint32_t stalenessBound{kAsp};
    /// \brief How pushes reach the servers.
    enum class PushPolicy
    {
        FAIR,    //!< all at once, fair sharing
        MLFABRIC //!< scheduled one at a time per server link, SJF, delay-bounded
    };
    PushPolicy policy{PushPolicy::FAIR}; //!< push policy
    /// MLFABRIC: largest delay a granted update may have (kAsp: none).
    uint32_t delayBound{kAsp};
    /// MLFABRIC: each worker's link rate (bit/s) for SJF; empty: all equal.
    std::vector<double> workerRateBps;
    /// \brief "No bound": ASP.
    static constexpr uint32_t kAsp = std::numeric_limits<uint32_t>::max();
};

/// \brief One applied update.
struct AppliedUpdate
{
    uint32_t worker;    //!< who pushed it
    uint32_t iteration; //!< the worker's iteration
    uint32_t shard;     //!< server shard
    uint64_t delay;     //!< staleness: shard version at apply - version computed on
    Time applied;       //!< when the server applied it
};

/// \brief MLFABRIC: a push's reserved slot, from grant to arrival at its server.
struct PushSlot
{
    uint32_t worker; //!< the pushing worker
    Time grant;      //!< when the scheduler granted it
    Time arrival;    //!< when it arrived (negative while in flight)
};

/**
 * \brief ASP / SSP training against a versioned, sharded parameter server.
 */
class AsyncPsJob : public MessageSink
{
  public:
    /// \throws std::invalid_argument for zero workers/servers/bytes/iterations
    explicit AsyncPsJob(const AsyncPsConfig& config);

    /// \brief The transport (not owned; must outlive the run).
    void
    SetTransport(SyncTransport* transport)
    {
        m_mail.SetTransport(transport);
    }
    /// \brief Every worker starts its first iteration at `at`.
    void Start(Time at);
    void Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp) override;

    /// \brief Whether every worker finished every iteration.
    bool
    Finished() const
    {
        return m_finishedWorkers == m_config.workers;
    }
    /// \brief Every applied update, in apply order.
    const std::vector<AppliedUpdate>&
    Updates() const
    {
        return m_updates;
    }
    /// \brief Per worker, the end time of each finished iteration.
    const std::vector<std::vector<Time>>&
    IterationEnds() const
    {
        return m_iterationEnds;
    }
    /// \brief Per shard, its version (= updates applied to it).
    const std::vector<uint64_t>&
    ShardVersions() const
    {
        return m_version;
    }
    /// \brief Bytes pushed into the servers plus bytes pulled out of them.
    uint64_t
    ServerBytes() const
    {
        return m_mail.Bytes();
    }
    /// \brief Time a worker spent blocked by the staleness bound.
    Time
    BlockedTime(uint32_t worker) const
    {
        return m_blocked[worker];
    }
    /// \brief Bytes of shard s.
    uint64_t ShardBytes(uint32_t s) const;
    /// \brief MLFABRIC: updates dropped for their delay bound.
    uint64_t
    Dropped() const
    {
        return m_dropped;
    }
    /// \brief MLFABRIC: per shard, the slot of every granted push.
    const std::vector<std::vector<PushSlot>>&
    Slots() const
    {
        return m_slots;
    }
    /// \brief Bytes of a pull request (a dropped update's worker asks for the model).
    static constexpr uint64_t kPullRequestBytes = 64;

  private:
    /// What a message is.
    enum class Kind
    {
        PUSH,         //!< an update, worker -> server
        PULL_REQUEST, //!< a dropped update's request for the model, worker -> server
        REPLY         //!< the shard's model, server -> worker
    };
    /// A message in flight.
    struct Message
    {
        Kind kind;          //!< what it is
        uint32_t worker;    //!< the worker
        uint32_t shard;     //!< the shard
        uint32_t iteration; //!< the worker's iteration
        uint64_t version;   //!< push: version computed on; reply: version sent
    };
    /// An update waiting for the MLFABRIC scheduler.
    struct Request
    {
        uint32_t worker;    //!< who
        uint32_t iteration; //!< its iteration
        uint64_t version;   //!< version computed on
        Time at;            //!< when requested
    };

    /// \brief MLFABRIC: grants the next request of shard s if its link is free.
    void Schedule(uint32_t s);
    /// \brief MLFABRIC: Schedule() every shard (a freed worker may unblock any of them).
    void ScheduleAll();

    /// \brief Worker w wants to start its next iteration (may be held by the bound).
    void TryStart(uint32_t w);
    /// \brief Worker w finished computing: push to every shard.
    void Push(uint32_t w);
    /// \brief Posts a message over the transport.
    void Post(uint32_t srcHost, uint32_t dstHost, const Message& m);
    /// \brief The slowest worker's finished iterations.
    uint32_t SlowestFinished() const;

    AsyncPsConfig m_config;                         //!< options
    std::vector<uint64_t> m_version;                //!< per shard
    std::vector<std::vector<uint64_t>> m_seen;      //!< [worker][shard] version last pulled
    std::vector<uint32_t> m_iteration;              //!< per worker: current iteration
    std::vector<uint32_t> m_finished;               //!< per worker: finished iterations
    std::vector<uint32_t> m_repliesLeft;            //!< per worker: pulls still due this iteration
    std::vector<bool> m_waiting;                    //!< per worker: held by the bound
    std::vector<Time> m_waitSince;                  //!< per worker: since when
    std::vector<Time> m_blocked;                    //!< per worker: total time held
    std::vector<std::vector<Time>> m_iterationEnds; //!< per worker
    std::vector<AppliedUpdate> m_updates;           //!< apply order
    uint32_t m_finishedWorkers{0};                  //!< workers done with every iteration
    std::vector<std::deque<Request>> m_pending;     //!< MLFABRIC: per shard, requests
    std::vector<bool> m_reserved;                   //!< MLFABRIC: per shard, link reserved
    std::vector<std::vector<PushSlot>> m_slots;     //!< MLFABRIC: per shard slots
    std::vector<bool> m_workerBusy;                 //!< MLFABRIC: per worker, a push granted
    uint64_t m_dropped{0};                          //!< MLFABRIC: dropped updates
    MessageMailbox<Message> m_mail;                 //!< messages in flight (all via servers)
};

} // namespace ns3

#endif // PARAMSYNC_ASYNC_PS_JOB_H
