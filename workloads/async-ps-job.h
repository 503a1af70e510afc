/*
 * AsyncPsJob: asynchronous data-parallel training against a versioned parameter server —
 * ASP (no barrier) and SSP (a staleness bound), the baselines that MLFabric ("MLFabric:
 * network-accelerated distributed machine learning", SoCC'20, arXiv:1907.00434) is measured
 * against. Bytes move over any SyncTransport, as for SyncJob.
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
 * Hosts: workers are hosts 0..N-1, the S servers hosts N..N+S-1 (dedicated), the S
 * replicas (if any) hosts N+S..N+2S-1.
 *
 * Push policies:
 *  - FAIR: every push is sent at once; pushes to one server share its link (plain ASP/SSP).
 *  - MLFABRIC (after MLFabric SoCC'20 §4): a push is a request to the scheduler of its
 *    shard's server link. Requests that arrive while the link is reserved
 *    form the next batch; when the link frees, the scheduler grants among workers not
 *    already pushing (so each push has both the worker's and the server's link to itself:
 *    a reserved, non-overlapping slot instead of fair sharing), in this order (Pick()):
 *    requests beyond the delay bound (dropped: the worker sends a small pull request
 *    instead and gets the current model back), then requests at the bound (one more slot
 *    and they would be dropped), then requests whose delay reached N - 1 (what FIFO turns
 *    give), then the shortest network-aware completion time: with paths (PsNetworkView)
 *    the push's time over the live backlog of every channel of its path, else the shard's
 *    bytes at the worker's link rate; ties the earliest request. SJF alone starves a
 *    worker whose link is slower than the others' while they keep requesting (measured:
 *    a half-rate worker among 10 reached delay 270 with a median of 8); the two delay
 *    tiers cap it, for network and compute stragglers alike, before any drop.
 *  - MLFABRIC, aggregate: when the scheduler grants a push, the other requests of the batch
 *    (k >= 2 of idle workers, none already beyond the delay bound) are deferred at least
 *    one slot; instead of k pushes they are summed at one of them (the aggregator: the
 *    fastest link, ties the earliest request, or with randomAggregator one drawn at
 *    random as the paper does — it is idle, waiting for its grant, and holds
 *    its own update already), the other k - 1 send their W/S bytes up a binomial tree to
 *    it over the workers' links (ceil(log2 k) rounds, one gather per receiver per round)
 *    while the granted push holds the server's, and the aggregator then requests one slot
 *    for ONE combined update of W/S bytes. The server applies the k constituents together
 *    and answers each constituent's worker with the model as for a single push.
 *  - MLFABRIC, scheduler over the network: the oracle above decides the instant a request
 *    exists; with networkScheduler the scheduler of shard s lives on server s's host and
 *    every decision is a 64 B message on the same transport (request worker -> server,
 *    grant server -> worker, then the push; gather orders and "combined update ready"
 *    likewise), so a granted push starts two one-way latencies later and the control
 *    messages queue behind data. A dropped update needs no pull request: its request is at
 *    the server already, which answers with the model.
 *  - Replica with bounded divergence D (replicaDivergence > 0; after MLFabric's replica
 *    kept within a bounded divergence): shard s has a replica on host N + S + s that
 *    serves every pull, so the server's link carries
 *    pushes, 64 B "serve worker w" orders and, instead of one model copy per update, a
 *    combined delta (W/S bytes) forwarded only when the replica fell D versions behind:
 *    floor(U / D) forwards for U single updates, and the server's versions not yet
 *    forwarded never exceed D (a combined update of k may take them to D - 1 + k).
 *    Workers compute on the replica's version, so their updates' delay grows by up to D-1.
 *    The model a worker gets back for its update is its acknowledgment: it then drops the
 *    gradient. So with forwards every D versions an update can be acknowledged before the
 *    replica holds it (asynchronous replication); with ackFromReplica the server forwards
 *    every update's delta ahead of the serve order on the same queue pair, so the replica
 *    holds every update it acknowledges (the replica acknowledges before the update counts,
 *    as MLFabric's replication requires for no acknowledged update to be lost). Fail():
 *    updates the replica lacks are lost; acknowledged ones for good, the others pushed again.
 *  - MLFABRIC with train and normPriority (the default): the worker's real gradient
 *    (GradientNorms, on the live training problem) is computed when it pushes, and SJF
 *    compares completion time per unit of its norm on the shard: the largest updates go
 *    first, small ones wait until the delay tiers take them (MLFabric orders updates by
 *    their norm as well as their transfer time).
 */
#ifndef PARAMSYNC_ASYNC_PS_JOB_H
#define PARAMSYNC_ASYNC_PS_JOB_H

#include "convergence-config.h"
#include "gradient-norms.h"
#include "message-mailbox.h"
#include "ps-network-view.h"
#include "sync-transport.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <random>
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
    /// MLFABRIC: each worker's link rate (bit/s) for SJF when no paths are given; empty:
    /// all equal.
    std::vector<double> workerRateBps;
    /// MLFABRIC: the hosts' paths; SJF then estimates completion times from the live
    /// backlog on them (PsNetworkView). Empty: shard bytes over workerRateBps.
    PsPaths paths;
    /// MLFABRIC: sum the updates a grant defers at an idle worker, push them as one.
    bool aggregate{false};
    /// MLFABRIC, aggregate: the aggregator is a constituent drawn uniformly (the first draw
    /// of std::mt19937_64(aggregatorSeed) for the first combined update, and so on, modulo
    /// the constituents), as MLFabric picks it; false: the fastest link.
    bool randomAggregator{false};
    /// MLFABRIC, aggregate: seed of the random aggregator choice.
    uint64_t aggregatorSeed{1};
    /// MLFABRIC: scheduler decisions as 64 B messages to/from the server's host.
    bool networkScheduler{false};
    /// Replica per shard (hosts N+S..N+2S-1) within this many versions; 0: no replica.
    uint32_t replicaDivergence{0};
    /// Replica: a worker's update counts as acknowledged (the model it gets back) only once
    /// the replica holds it: the server forwards every update's delta, then orders the
    /// replica to send the model (same queue pair, so the model includes the update).
    /// false: acknowledged as soon as the server applied it; deltas every D versions.
    bool ackFromReplica{false};
    /// Replica: shard 0's server fails at this time and its replica takes over (see
    /// Fail()); negative: never. MLFABRIC with the oracle scheduler, no aggregation.
    Time failAt{Seconds(-1)};
    /// Replay the applied updates on a training problem (ConvergenceModel) after the run.
    bool train{false};
    /// The training problem, when train.
    ConvergenceConfig training;
    /// MLFABRIC with train: SJF weighs each push by the norm of its real gradient
    /// (GradientNorms): the smallest completion time per unit of norm goes first, so
    /// small updates wait (within the delay tiers) and large ones go early, as MLFabric
    /// orders updates; false: completion time alone.
    bool normPriority{true};
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

    /// \brief What it runs.
    const AsyncPsConfig&
    Config() const
    {
        return m_config;
    }
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
    /// \brief [worker][iteration][shard]: the version the worker computed that iteration on
    /// (what its pulls returned), for every iteration it pushed.
    const std::vector<std::vector<std::vector<uint64_t>>>&
    ComputedOn() const
    {
        return m_computedOn;
    }
    /// \brief Per shard, its version (= updates applied to it).
    const std::vector<uint64_t>&
    ShardVersions() const
    {
        return m_version;
    }
    /// \brief Bytes pushed into the servers plus bytes pulled out of them (with
    /// networkScheduler also the control messages, which cross the server's link too).
    uint64_t
    ServerBytes() const
    {
        return m_serverBytes;
    }
    /// \brief MLFABRIC, aggregate: bytes sent worker -> aggregator (off the servers' links).
    uint64_t
    GatherBytes() const
    {
        return m_gatherBytes;
    }
    /// \brief MLFABRIC, networkScheduler: bytes of requests, grants and orders.
    uint64_t
    ControlBytes() const
    {
        return m_controlBytes;
    }
    /// \brief MLFABRIC, aggregate: updates applied as part of a combined update.
    uint64_t
    Aggregated() const
    {
        return m_aggregated;
    }
    /// \brief Replica: combined deltas forwarded server -> replica.
    uint64_t
    ReplicaForwards() const
    {
        return m_forwards;
    }
    /// \brief Replica: bytes of those forwards.
    uint64_t
    ReplicaSyncBytes() const
    {
        return m_replicaSyncBytes;
    }
    /// \brief Replica: the most versions a shard held that its replica had not received.
    uint64_t
    MaxDivergence() const
    {
        return m_maxDivergence;
    }
    /// \brief Failover: updates shard 0's server applied that its replica never received,
    /// lost with it (removed from Updates(); the unacknowledged ones are pushed again).
    uint64_t
    Lost() const
    {
        return m_lost;
    }
    /// \brief Failover: lost updates that were acknowledged — their worker had the model
    /// back for them (or it was on its way from the replica), so it dropped its gradient
    /// and never pushes it again: lost for good. The others are pushed again.
    uint64_t
    LostAcknowledged() const
    {
        return m_lostAcknowledged;
    }
    /// \brief Replica: the most versions a shard's server held that its replica had not
    /// received yet (measured at every apply; forwards in flight count as not received).
    uint64_t
    MaxReplicaLag() const
    {
        return m_maxReplicaLag;
    }
    /// \brief MLFABRIC, aggregate: combined updates applied.
    uint64_t
    CombinedPushes() const
    {
        return m_combinedPushes;
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
    /// \brief Bytes of a scheduler message (request, grant, gather order, ready).
    static constexpr uint64_t kControlBytes = 64;

  private:
    /// What a message is.
    enum class Kind
    {
        PUSH,         //!< an update, worker -> server
        PULL_REQUEST, //!< a dropped update's request for the model, worker -> server
        REPLY,        //!< the shard's model, server -> worker
        GATHER,       //!< a deferred update, worker -> its aggregator
        REQUEST,      //!< networkScheduler: "may I push", worker -> server
        GRANT,        //!< networkScheduler: "push now", server -> worker
        GATHER_ORDER, //!< networkScheduler: "send to the aggregator", server -> worker
        READY,        //!< networkScheduler: "combined update ready", aggregator -> server
        SERVE,        //!< replica: "send worker w the model", server -> replica
        FORWARD       //!< replica: the updates since the last forward, server -> replica
    };
    /// "Not part of a combined update".
    static constexpr uint32_t kSingle = std::numeric_limits<uint32_t>::max();
    /// A message in flight.
    struct Message
    {
        Kind kind;          //!< what it is
        uint32_t worker;    //!< the worker
        uint32_t shard;     //!< the shard
        uint32_t iteration; //!< the worker's iteration
        uint64_t version;   //!< push: version computed on; reply: version sent
        uint32_t group;     //!< push, grant, gather, ready: combined update, or kSingle
    };
    /// An update waiting for the MLFABRIC scheduler.
    struct Request
    {
        uint32_t worker;    //!< who
        uint32_t iteration; //!< its iteration
        uint64_t version;   //!< version computed on
        Time at;            //!< when requested
        uint32_t group;     //!< a combined update (worker = its aggregator), or kSingle
    };
    /// A combined update: deferred requests summed at an aggregator.
    struct Aggregate
    {
        uint32_t shard;                //!< the shard
        uint32_t aggregator;           //!< the worker that sums and pushes
        std::vector<Request> parts;    //!< the constituents, the aggregator's own first
        std::vector<uint32_t> pending; //!< per part: parts below it still due (+ its order)
        Time at;                       //!< the earliest constituent's request
    };

    /// \brief MLFABRIC: grants the next request of shard s if its link is free.
    void Schedule(uint32_t s);
    /// \brief MLFABRIC: Schedule() every shard (a freed worker may unblock any of them).
    void ScheduleAll();
    /// \brief MLFABRIC: reserves shard s's link and worker w's for the push m.
    void Grant(uint32_t s, uint32_t w, const Message& m);
    /// \brief MLFABRIC: drops worker w's update to shard s; w gets the model back.
    void Drop(uint32_t w, uint32_t s, uint32_t iteration);
    /// \brief MLFABRIC, aggregate: sends the deferred requests of shard s to an aggregator.
    void Gather(uint32_t s);
    /// \brief MLFABRIC, aggregate: part i of combined update id got its order or a partial
    /// sum; when it has all, it sends its sum on (or, the aggregator, asks for a slot).
    void GatherStep(uint32_t id, uint32_t i);
    /// \brief The index of a worker's part in a combined update.
    static uint32_t PartIndex(const Aggregate& g, uint32_t worker);
    /// \brief MLFABRIC: applies a push (single or combined) at its server.
    void Apply(const Message& m);
    /// \brief Worker w's update of iteration k was just applied to shard s: the live
    /// model follows, the replica's lag is measured.
    void Follow(uint32_t w, uint32_t k, uint32_t s);
    /// \brief MLFABRIC: worker w's link rate for SJF (1 when not given: all equal).
    double Rate(uint32_t w) const;
    /// \brief MLFABRIC: the request of shard s's batch to serve next (batch.end(): none).
    std::deque<Request>::iterator Pick(uint32_t s);
    /// \brief The version r was computed on (a combined update: its stalest part's).
    uint64_t Oldest(const Request& r) const;
    /// \brief MLFABRIC: versions request r of shard s may still wait within the delay bound
    /// (negative: beyond it already; a combined update: its stalest part).
    int64_t Slack(uint32_t s, const Request& r) const;
    /// \brief MLFABRIC: SJF's estimate of r's push time per update it carries (with
    /// norms: per unit of gradient norm it carries).
    double Cost(uint32_t s, const Request& r) const;
    /// \brief MLFABRIC with norms: the norm of shard s's slice of the gradients r carries
    /// (a combined update: the sum over its constituents).
    double NormOf(uint32_t s, const Request& r) const;
    /// \brief Failover: whether worker w had (or was being sent) the model for its
    /// update of iteration k.
    bool Acknowledged(uint32_t w, uint32_t k) const;
    /// \brief Failover: worker w's update to shard 0 is requested again (it holds it).
    void Repush(uint32_t w);
    /// \brief The bytes a message puts on the wire.
    uint64_t MessageBytes(const Message& m) const;
    /// \brief Sends worker w shard s's model, from the server or its replica.
    void ServeModel(uint32_t s, uint32_t w, uint32_t iteration);
    /// \brief Replica: forwards shard s's delta if the replica fell D versions behind.
    void Replicate(uint32_t s);
    /**
     * \brief Failover: shard 0's server host dies now. Its replica becomes shard 0's server
     * (and serves its own pulls; no replica is left) with the state it holds: the version
     * last forwarded. The updates the dead server applied since are lost (counted, removed
     * from Updates()); so are the messages to and from the dead host still in flight (a
     * forward among them). Workers it cut off resume with the new server: a push in flight,
     * or a lost update whose model had not come back (not acknowledged: the worker still
     * holds its gradient), is requested again; a surviving update whose serve order died
     * gets the model from the new server. A lost update whose model had come back
     * (Acknowledged()) is lost for good (LostAcknowledged()).
     */
    void Fail();
    /// \brief Whether shard s's server failed (replica promoted).
    bool
    Promoted(uint32_t s) const
    {
        return m_failed && s == 0;
    }
    /// \brief The host that serves shard s's model: its replica, or else its server.
    uint32_t
    ModelHost(uint32_t s) const
    {
        return m_config.replicaDivergence > 0 && !Promoted(s)
                   ? m_config.workers + m_config.servers + s
                   : ServerOf(s);
    }
    /// \brief Server host of shard s (after a failover of shard 0: its replica's host).
    uint32_t
    ServerOf(uint32_t s) const
    {
        return Promoted(s) ? m_config.workers + m_config.servers : m_config.workers + s;
    }

    /// \brief Worker w wants to start its next iteration (may be held by the bound).
    void TryStart(uint32_t w);
    /// \brief Worker w finished computing: push to every shard.
    void Push(uint32_t w);
    /// \brief Posts a message over the transport.
    void Post(uint32_t srcHost, uint32_t dstHost, const Message& m);
    /// \brief The slowest worker's finished iterations.
    uint32_t SlowestFinished() const;

    AsyncPsConfig m_config;                    //!< options
    std::vector<uint64_t> m_version;           //!< per shard
    std::vector<std::vector<uint64_t>> m_seen; //!< [worker][shard] version last pulled
    std::vector<std::vector<std::vector<uint64_t>>> m_computedOn; //!< m_seen at each push
    bool m_failed{false};                           //!< failover: shard 0's server died
    uint64_t m_lost{0};                             //!< failover: updates lost with it
    uint64_t m_lostAcknowledged{0};                 //!< failover: of those, acknowledged ones
    std::vector<bool> m_pushInFlight;               //!< per worker: its push to shard 0 is granted
    std::vector<bool> m_appliedThisRound;           //!< per worker: its shard-0 update was applied
    std::vector<bool> m_replyPosted;                //!< per worker: shard 0's model is on its way
    std::vector<bool> m_gotReply;                   //!< per worker: shard 0's model arrived
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
    std::vector<Aggregate> m_aggregates;            //!< MLFABRIC: combined updates, by id
    uint64_t m_aggregated{0};                       //!< constituents applied combined
    uint64_t m_combinedPushes{0};                   //!< combined updates applied
    uint64_t m_serverBytes{0};                      //!< bytes with a server at one end
    uint64_t m_gatherBytes{0};                      //!< bytes worker -> aggregator
    uint64_t m_controlBytes{0};                     //!< scheduler messages
    std::vector<uint64_t> m_replicaVersion;         //!< per shard: version at the replica
    std::vector<uint64_t> m_forwarded;              //!< per shard: version last forwarded
    uint64_t m_forwards{0};                         //!< replica forwards
    uint64_t m_replicaSyncBytes{0};                 //!< their bytes
    uint64_t m_maxDivergence{0};                    //!< server versions not yet forwarded
    uint64_t m_maxReplicaLag{0};                    //!< server versions not at the replica
    std::unique_ptr<GradientNorms> m_norms;         //!< MLFABRIC with norms: the live model
    std::vector<std::vector<double>> m_normOf;      //!< [worker][shard]: its current norms
    MessageMailbox<Message> m_mail;                 //!< messages in flight
    PsNetworkView m_net;                            //!< MLFABRIC: live backlog on the paths
    std::mt19937_64 m_aggregatorRng;                //!< MLFABRIC: random aggregator choice
};

} // namespace ns3

#endif // PARAMSYNC_ASYNC_PS_JOB_H
