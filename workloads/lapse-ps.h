/*
 * LapsePs: a parameter server with dynamic parameter allocation, after Lapse (Renz-Wieland,
 * Gemulla, Zeuch, Markl, "Dynamic Parameter Allocation in Parameter Servers", VLDB 2020),
 * the protocol only: its messages move over any SyncTransport (RoCE packets in the driver),
 * workloads call Pull / Push / Localize.
 *
 * Keys 0..K-1 are range-partitioned over the nodes: home(k) = k * N / K. Every key has one
 * owner, initially its home, which holds its value; the home always knows the owner.
 *  - An operation on a key the node owns is local (shared memory: no message, no delay).
 *  - Otherwise a request goes to the node's cached owner of the key (with location caches)
 *    or to the home; the home forwards it to the owner, a node that no longer owns the key
 *    forwards it to the home. The owner applies it (pull reads, push adds) and answers the
 *    requester directly (with caches, the answer also refreshes the requester's cache).
 *  - Localize(k) at node n: n sends LOCALIZE to the home; the home records n as the owner
 *    and sends HANDOVER to the old owner; the old owner sends TRANSFER with the value to n
 *    (three messages). Localize of a set of keys (batched: a block) sends one LOCALIZE per
 *    home, the home one HANDOVER per old owner and each old owner one TRANSFER with all
 *    the values it gives up: 3 messages for a block that sits at one node instead of 3 per
 *    key. The protocol stays per key (each key of a batch is handed over, queued and
 *    served exactly as if it moved alone); only the messages are shared. Operations that
 *    reach n for k before the value are queued there and served, in arrival order, when it
 *    arrives; a HANDOVER that reaches a node still waiting for the value is queued likewise,
 *    so back-to-back relocations chain.
 *  - Per-key sequential consistency: every operation on a key is applied by its owner of
 *    the moment in one order (ownership moves with the value), and a node keeps at most one
 *    remote operation per key in flight (later ones wait, in program order), so each node's
 *    operations on a key are applied in the order it issued them.
 * Message sizes: a header (default 64 B) plus the value (pull answers, pushes, transfers;
 * a batched transfer carries one value per key; keys may differ in size, SetValueBytes) plus 8 B
 * per key beyond the first in a batched LOCALIZE / HANDOVER (the key list). A per-message host
 * overhead delays the handling of every message at its receiver.
 */
#ifndef PARAMSYNC_LAPSE_PS_H
#define PARAMSYNC_LAPSE_PS_H

#include "message-mailbox.h"
#include "sync-transport.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace ns3
{

/// \brief The shape of a Lapse parameter server.
struct LapseConfig
{
    uint32_t nodes{1};             //!< N (hosts 0..N-1)
    uint64_t keys{1};              //!< K
    uint32_t valueBytes{100};      //!< bytes of one key's value on the wire
    uint32_t headerBytes{64};      //!< bytes of every message besides the value
    Time hostOverhead{Seconds(0)}; //!< handling time of each message at its receiver
    bool locationCaches{false};    //!< nodes remember where a key was last found
    /// Time of an access to a key the node holds: 0 = shared memory (Lapse's fast local
    /// access); > 0 = through the local server process (classic PSs without it, e.g. IPC).
    Time localAccessTime{Seconds(0)};
    bool ssp{false};            //!< bounded staleness (client caches) instead of allocation
    uint32_t staleness{1};      //!< ssp: s, in clocks
    bool serverPush{false};     //!< ssp: server-side sync (rows pushed as clocks advance)
    uint32_t workersPerNode{1}; //!< ssp: workers that end each clock at a node
};

/// \brief One SSP read as the reader saw it.
struct LapseSspRead
{
    uint32_t node;     //!< reader
    uint64_t key;      //!< key read
    uint64_t clock;    //!< the reader's clock
    uint64_t rowClock; //!< the row holds every update of clocks < rowClock
    double value;      //!< value read
};

/// \brief One operation as the owner applied it (the key's linearization).
struct LapseApplied
{
    uint32_t node; //!< who issued it
    uint64_t seq;  //!< its issue number at that node
    bool push;     //!< push (true) or pull
    double value;  //!< push: the delta; pull: the value read
};

/**
 * \brief Dynamic-allocation parameter server over a SyncTransport.
 */
class LapsePs : public MessageSink
{
  public:
    /// \throws std::invalid_argument for zero nodes or keys
    explicit LapsePs(const LapseConfig& config);

    /// \brief The transport (not owned; must outlive the run).
    void
    SetTransport(SyncTransport* transport)
    {
        m_mail.SetTransport(transport);
    }

    /// \brief Node reads key; done gets the value. ssp: clock is the reading worker's.
    void Pull(uint32_t node, uint64_t key, std::function<void(double)> done, uint64_t clock = 0);
    /// \brief Node adds delta to key; done when applied.
    void Push(uint32_t node, uint64_t key, double delta, std::function<void()> done);
    /// \brief Node becomes the owner of key; done when its value arrived.
    void Localize(uint32_t node, uint64_t key, std::function<void()> done);
    /// \brief Node becomes the owner of every key (one batch: messages shared per home and
    /// old owner); done when all their values arrived.
    void Localize(uint32_t node, const std::vector<uint64_t>& keys, std::function<void()> done);

    void Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp) override;

    /// \brief ssp: a worker of node ended its clock; flushed (if set) runs once the node's
    /// updates of that clock reached their homes.
    void EndClock(uint32_t node, std::function<void()> flushed);
    /// \brief ssp: the minimum node clock (every update of clocks below it is applied).
    uint64_t
    MinClock() const
    {
        return m_minClock;
    }
    /// \brief ssp: every read, in completion order.
    const std::vector<LapseSspRead>&
    SspReads() const
    {
        return m_sspReads;
    }

    /// \brief Sets the bytes of one key's value on the wire (default: the config's
    /// valueBytes), e.g. RESCAL's d x d relation matrices beside its d-vector entities.
    void SetValueBytes(uint64_t key, uint32_t bytes);
    /// \brief The bytes of a key's value on the wire.
    uint32_t ValueBytes(uint64_t key) const;

    /// \brief The home node of a key.
    uint32_t Home(uint64_t key) const;
    /// \brief The owner of a key according to its home.
    uint32_t Owner(uint64_t key) const;
    /// \brief The current value of a key at its owner (nullopt while in transfer).
    std::optional<double> Value(uint64_t key) const;
    /// \brief Every applied operation on a key, in apply order.
    const std::vector<LapseApplied>& AppliedLog(uint64_t key) const;
    /// \brief Operations served locally (no message).
    uint64_t
    LocalAccesses() const
    {
        return m_local;
    }
    /// \brief Operations that needed the network.
    uint64_t
    RemoteAccesses() const
    {
        return m_remote;
    }
    /// \brief Keys that were relocated to a node that asked for them.
    uint64_t
    Localizes() const
    {
        return m_localizes;
    }
    /// \brief Messages sent.
    uint64_t
    Messages() const
    {
        return m_mail.Messages();
    }
    /// \brief Bytes sent.
    uint64_t
    Bytes() const
    {
        return m_mail.Bytes();
    }
    /// \brief Operations issued but not completed.
    uint64_t
    Outstanding() const
    {
        return m_outstanding;
    }

  private:
    enum class Kind
    {
        REQUEST,  //!< a pull or push on its way to the owner
        RESPONSE, //!< the owner's answer to the requester
        LOCALIZE, //!< new owner -> home
        HANDOVER, //!< home -> old owner
        TRANSFER, //!< old owner -> new owner, with the value
        ROWS      //!< ssp server-side sync: server -> node, its updated cached rows
    };
    /// An operation of a node on a key.
    struct Op
    {
        uint32_t node; //!< issuer
        uint64_t seq;  //!< its issue number at the issuer
        bool push;     //!< push or pull
        double delta;  //!< push: the delta
    };
    /// A protocol message.
    struct Message
    {
        Kind kind;
        uint64_t key;               //!< REQUEST / RESPONSE: the key
        Op op;                      //!< REQUEST / RESPONSE: the operation
        double value;               //!< RESPONSE: value read
        uint32_t newOwner;          //!< LOCALIZE / HANDOVER / TRANSFER: who wants the keys
        uint32_t owner;             //!< RESPONSE: who served it (for location caches)
        std::vector<uint64_t> keys; //!< LOCALIZE / HANDOVER / TRANSFER: the keys that move
        std::vector<double> values; //!< TRANSFER / ROWS: their values
        uint64_t clock;             //!< ssp: REQUEST reader's clock, RESPONSE / ROWS row clock
    };
    /// ssp: a cached row.
    struct SspRow
    {
        double value;   //!< with this node's own unflushed updates
        uint64_t clock; //!< holds every update of clocks < clock
    };
    /// ssp: what a node keeps.
    struct SspNode
    {
        std::unordered_map<uint64_t, SspRow> cache; //!< rows read
        std::map<uint64_t, double> buffer;          //!< unflushed
        /// seq -> the reader's clock and callback of a read sent to the home
        std::unordered_map<uint64_t, std::pair<uint64_t, std::function<void(double)>>> waiting;
        uint32_t ended{0};                           //!< workers that ended the open clock
        uint32_t endsWaiting{0};                     //!< node clocks ended, not yet flushing
        uint32_t covered{0};                         //!< node clocks the flush in flight ends
        uint64_t flushAcks{0};                       //!< acknowledgements the flush awaits
        bool flushing{false};                        //!< a flush is in flight
        uint64_t clock{0};                           //!< node clock (flushed)
        std::vector<std::function<void()>> open;     //!< callbacks of the open clock
        std::vector<std::function<void()>> waitCbs;  //!< of ended clocks not yet flushing
        std::vector<std::function<void()>> flushCbs; //!< of the flush in flight
    };
    /// What a node knows of a key it owns or awaits.
    struct Held
    {
        bool present{false};         //!< the value is here
        double value{0};             //!< the value
        std::deque<Message> waiting; //!< requests / handovers queued until it arrives
    };
    /// A node's operation waiting for its turn on a key, and its completion.
    struct Pending
    {
        Op op;
        std::function<void(double)> done;
    };

    /// \brief Starts or queues a node's operation on a key.
    void Issue(
        uint32_t node, uint64_t key, bool push, double delta, std::function<void(double)> done);
    /// \brief Sends the node's next queued remote operation on a key, if none is in flight.
    void SendNext(uint32_t node, uint64_t key);
    /// \brief Handles a message at a node (after the host overhead).
    void Handle(uint32_t node, Message m);
    /// \brief Applies op at its owner and answers; returns the value read / after the push.
    double Apply(uint32_t owner, uint64_t key, Held& held, const Op& op);
    /// \brief The owner node serves a request (local or remote requester).
    void Serve(uint32_t owner, uint64_t key, Held& held, const Message& m);
    /// \brief The value of key arrived at node: serve what waited for it.
    void Arrive(uint32_t node, uint64_t key, double value);
    /// \brief Completes a node's operation on a key (local or answered).
    void Complete(uint32_t node, uint64_t key, double value);
    /// \brief Sends a message (header + value bytes as the kind needs).
    void Send(uint32_t from, uint32_t to, const Message& m);
    /// \brief ssp: a read at a node (cache or its home).
    void SspPull(uint32_t node, uint64_t key, std::function<void(double)> done, uint64_t clock);
    /// \brief ssp: a push into the node's buffer and cached row.
    void SspPush(uint32_t node, uint64_t key, double delta);
    /// \brief ssp: handles a REQUEST, RESPONSE or ROWS message at a node.
    void SspHandle(uint32_t node, const Message& m);
    /// \brief ssp: the server answers a read with the value and the minimum clock.
    void SspServe(uint32_t server, const Message& m);
    /// \brief ssp: node sends its buffered updates to their homes.
    void SspStartFlush(uint32_t node);
    /// \brief ssp: node's flush was acknowledged: its clock advances.
    void SspFlushDone(uint32_t node);
    /// \brief ssp: the minimum clock may have advanced: serve held reads, push rows.
    void SspAdvance();

    LapseConfig m_config;                                        //!< shape
    MessageMailbox<Message> m_mail;                              //!< messages in flight
    std::vector<std::unordered_map<uint64_t, Held>> m_held;      //!< [node] keys owned/awaited
    std::vector<uint32_t> m_owner;                               //!< by key: owner per home
    std::unordered_map<uint64_t, uint32_t> m_valueBytes;         //!< keys of another size
    std::vector<std::unordered_map<uint64_t, uint32_t>> m_cache; //!< [node] key -> owner guess
    /// [node] key -> operations in program order; the front one is in flight if remote.
    std::vector<std::unordered_map<uint64_t, std::deque<Pending>>> m_queue;
    std::vector<std::unordered_map<uint64_t, bool>> m_inFlight; //!< [node] key -> remote op out
    std::vector<std::unordered_map<uint64_t, std::vector<std::function<void()>>>>
        m_localizeDone;                                  //!< [node] key -> callbacks
    std::vector<uint64_t> m_seq;                         //!< [node] next op number
    std::map<uint64_t, std::vector<LapseApplied>> m_log; //!< by key: apply order
    uint64_t m_local{0};                                 //!< local accesses
    uint64_t m_remote{0};                                //!< remote accesses
    uint64_t m_localizes{0};                             //!< keys relocated on request
    uint64_t m_outstanding{0};                           //!< ops not completed
    std::vector<SspNode> m_ssp;                          //!< ssp: [node]
    uint64_t m_minClock{0};                              //!< ssp: minimum node clock
    std::vector<std::pair<uint32_t, Message>> m_sspHeld; //!< ssp: reads waiting at servers
    std::map<uint64_t, std::set<uint32_t>> m_cachedAt;   //!< ssp: key -> nodes caching it
    std::set<uint64_t> m_updated;                        //!< ssp: keys updated since ROWS
    std::vector<LapseSspRead> m_sspReads;                //!< ssp: reads
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_PS_H
