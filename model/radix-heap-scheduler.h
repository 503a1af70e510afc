/*
 * RadixHeapScheduler: ns-3's event queue as a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
 * "Faster algorithms for the shortest path problem", J. ACM 37(2), 1990), the default of the
 * packet backend (helper/packet-backend.cc).
 *
 * Why: a comparison heap's removal walks log(n) levels of one array that grows with the
 * network (~100 k pending events at 1,024 hosts: one arrival per frame on a link, one
 * transmit end per busy port), nearly every level a cache miss; the 4-ary heap
 * (quad-heap-scheduler.h) was still the largest single item of a fat-tree profile there. A
 * discrete-event simulator's keys are monotone: a new event is never earlier than the one
 * being run (its time is now or later and its uid larger). A radix heap uses exactly that:
 * keys are compared with the last removed key (`base`) digit by digit, 6 bits a digit; bucket
 * (level l, digit d) holds the keys whose highest digit differing from the base is digit l
 * and is d there; an insertion appends to one bucket (no search); a removal from an empty
 * bucket 0 takes the first non-empty bucket (lowest level, then digit), makes its smallest key
 * the base and spreads the bucket over lower levels. Every access is a sequential append or
 * scan, and a key only moves to lower levels: a frame's arrival ~1 us ahead (10 bits; keys
 * are ns-3 time stamps in ns, the default resolution, which paramsync keeps) is placed at
 * level 1 and moves once; a level-0 bucket holds one time only and becomes bucket 0 by
 * relinking. (Binary digits, one bucket per key bit, moved each event ~5 times: a third of
 * the scheduler's instructions.)
 *
 * Order: ns-3's (time stamp, uid), the order of every ns-3 scheduler, so swapping schedulers
 * cannot change a result. The heap's key is the time stamp alone, and events of one time
 * stamp leave in the order they were inserted, which is uid order because the simulator
 * numbers events as it schedules them. That holds in a radix heap: equal keys always share a
 * bucket (a key's bucket is fixed by its bits against the base) and move between buckets
 * together, in order; bucket 0 (the keys equal to the base) is read first to last. With the
 * uid in the key (a 96-bit key), every removal set a new base whose low 32 bits were a uid,
 * so the many events of one time stamp (equal links, equal frames) cascaded down up to 32
 * uid buckets one move at a time: 22 % of a fat-tree run's instructions were Place and
 * Refill. An insertion with a uid below one already inserted (not a simulator's use: tests,
 * or a scheduler swap) is put before the later uids of its time in its bucket. At the
 * uid's 2^32 wrap, ties keep insertion order (ns-3's heaps would put the new uids first).
 * Keys earlier than the base (only after a PeekNext, an insertion before the peeked event)
 * are handled by re-spreading every pending event from the new key: correct, and O(n).
 *
 * Memory: at 1,024 hosts the pending events (~100 k, 2.4 MB as Scheduler::Event) exceed a
 * 1 MiB L2, so an event written at its insertion is cold when its bucket is spread ~1 us
 * later. A bucket is therefore a list of 1 KiB chunks from one free list, most recently
 * freed first: a chunk read to its end (spread, or taken from bucket 0) is freed at once and
 * is the next one written to, still cached, where a vector per bucket wrote its appends into
 * lines last touched when that bucket last filled (a cold line per 2.7 appends, and copies
 * as a bucket grew). Each bucket keeps the smallest key it holds, so a spread reads its
 * events once (no minimum scan first). A chunk stores an event in 20 bytes: below bit 32 a
 * bucket's keys agree with the base above their digit, so the time stamp's high half is
 * written only in the buckets above (IsWide). Cachegrind (1 MiB L2) per packet-hop on the
 * 1,024-host permutation (bench/README.md): the scheduler's L2 misses 2.17 (+0.44 in memcpy)
 * -> 0.93. Digits (24-byte entries): 4 bits moved an event ~1.9 times (1.09 misses); 8 bits
 * once, but a spread then filled level-0 buckets read up to 256 ns later, cold (1.41); 6
 * bits 1.06, 0.02 below 4 bits with 20-byte entries, and 60 fewer instructions per hop.
 * Chunks (4 bits): 4 KiB are colder when reused (1.20 against 0.95), 256 B touch more
 * partly used lines (1.04).
 *
 * Warming (attribute WarmAhead, inside a WarmableEvent::WarmingScope only, model/
 * warmable-event.h): the rest of bucket 0 and then the level-0 buckets (one time each, in
 * key order) hold the next events in the order they will run, so on each removal the queue
 * looks at the next kWarmWindow of them and moves each one stage on, one level of pointers
 * per removal: the event's own line when it enters the window, what that line points to at
 * the next removal, and so on up to kWarmStages, so each stage reads only lines the stage
 * before loaded and the loads overlap the events running meanwhile. An event keeps its
 * stage when others are inserted ahead of it (looked up by uid). User CPU (bench/README.md,
 * "the next events warmed in stages"): fattree:k=32 0.78x, k=16 0.9-1.0x paired, k=8 1.1x
 * (cached already: the packet backend turns it off below 4,096 ports); 3 stages gained less
 * at k=16, and a fifth stage lost again while the compiler deleted the fourth stage's
 * prefetches of a switch arrival (model/prefetch-line.h); with them kept, a fifth stage that
 * reaches the egress device from the route gains (bench/README.md, "the egress device
 * warmed from the route"). Reading bucket 0 alone, with a stage tied to the position (5 ahead:
 * own line, 4 ahead: stage 1, ...), warmed the ingress account of 65 % of a switch's
 * arriving frames at 1,024 hosts (an event that came within 5 of the head, behind a
 * shallow bucket 0, got no stage at all); the window over the level-0 buckets with stages
 * kept by uid, 99 %, at 0.92x user CPU (8 paired runs). The window is kept from one removal
 * to the next (a ring, filled from a cursor left where it last read): made afresh on each
 * removal, with every stage looked up by uid, it cost 272 instructions per event (14 % of
 * the 1,024-host run's, the stages' own work aside); kept, 151. It is made afresh only when
 * an event was inserted ahead of its last one, events were moved (TakeAll), an event was
 * taken without warming or was not the window's first, or the window ran empty.
 */
#ifndef PARAMSYNC_RADIX_HEAP_SCHEDULER_H
#define PARAMSYNC_RADIX_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \brief Event scheduler on a radix heap of (time stamp, uid).
 */
class RadixHeapScheduler : public Scheduler
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    RadixHeapScheduler();
    ~RadixHeapScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    /// Linear search: ns-3 calls it only for Simulator::Remove, which paramsync does not use.
    void Remove(const Scheduler::Event& ev) override;

  private:
    using Key = uint64_t;
    /// Digits of kDigitBits bits: kLevels levels of kDigits digits each.
    static constexpr unsigned kDigitBits = 6;
    static constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;
    static constexpr std::size_t kLevels = (64 + kDigitBits - 1) / kDigitBits;
    /// Buckets: 0 holds the events at the base time, 1 + l * kDigits + d the keys whose
    /// highest digit differing from the base is digit l, of value d.
    static constexpr std::size_t kBuckets = 1 + kLevels * kDigits;
    static constexpr std::size_t kBitmapWords = (kBuckets + 63) / 64;
    static_assert(kBitmapWords <= 64, "one summary word covers the bitmap");
    /// A chunk's size: 16 cache lines (see the file comment for 256 B and 4 KiB).
    static constexpr std::size_t kChunkBytes = 1024;
    /// Events per chunk: 16 bytes of list header, then 24 bytes an event of which 20 are used
    /// outside wide buckets (Chunk).
    static constexpr std::size_t kChunkEvents = (kChunkBytes - 16) / 24;

    /// \brief An event without its time stamp.
    struct Record
    {
        EventImpl* impl;  //!< Scheduler::Event::impl
        uint32_t uid;     //!< EventKey::m_uid
        uint32_t context; //!< EventKey::m_context
    };

    /// \brief A bucket's storage unit: events in insertion order, chained to the next chunk.
    /// 20 bytes an event instead of Scheduler::Event's 24: the time stamp's high half is the
    /// base's in every bucket below bit 32, so it is kept apart and only in wide buckets.
    struct alignas(64) Chunk
    {
        Chunk* next;                               //!< the bucket's next chunk, or null
        uint32_t count;                            //!< events written
        std::array<Record, kChunkEvents> records;  //!< the events but their time stamps
        std::array<uint32_t, kChunkEvents> tsLow;  //!< low half of the time stamps
        std::array<uint32_t, kChunkEvents> tsHigh; //!< high half, in wide buckets only

        /// \brief Store ev at i (its high half too in a wide bucket).
        void Write(std::size_t i, const Scheduler::Event& ev, bool wide);
        /// \brief The event at i; base gives the high half of its time stamp unless wide.
        Scheduler::Event Read(std::size_t i, uint64_t base, bool wide) const;
    };

    /// \brief Keys of bucket b may differ from the base above bit 31 (see Chunk).
    static constexpr bool
    IsWide(std::size_t b)
    {
        return b > 0 && ((b - 1) / kDigits + 1) * kDigitBits > 32;
    }

    /// \brief A FIFO of events in chunks, with the smallest key it ever held since emptied.
    struct Bucket
    {
        Chunk* head{nullptr}; //!< first chunk, null if the bucket is empty
        Chunk* tail{nullptr}; //!< last chunk (the one appended to)
        Key min{~Key{0}};     //!< no event of the bucket has a smaller key
    };

    /// \brief The time stamp (ties leave in uid order, see the file comment).
    static Key
    KeyOf(const Scheduler::Event& e)
    {
        return e.key.m_ts;
    }
    /// \brief The bucket of key k against base (k >= base).
    static std::size_t BucketOf(Key k, Key base);
    /// \brief Append ev to its bucket against the current base. Place and Append are inlined
    /// into Insert and Refill's loop, each once per event (GCC 12 left Append a call from
    /// Insert: 19 instructions more per packet-hop on the fattree:k=8 permutation).
    [[gnu::always_inline]] inline void Place(const Scheduler::Event& ev) const;
    /// \brief Append ev to bucket b.
    [[gnu::always_inline]] inline void Append(std::size_t b, const Scheduler::Event& ev) const;
    /// \brief Put ev (its uid below one inserted before) ahead of the later uids of its time.
    void PlaceBeforeLaterUids(const Scheduler::Event& ev);
    /// \brief Make bucket 0 hold the smallest pending events (the queue must not be empty).
    void Refill() const;
    /// Events WarmAhead looks at: the next ones known without a refill.
    static constexpr std::size_t kWarmWindow = 6;
    /// \brief Move the warming window on past the event just taken (its uid), and each
    /// event in it one stage on (warmable-event.h).
    void WarmAhead(uint32_t takenUid);
    /// \brief Make the window afresh from bucket 0's head; events that were in the old one
    /// keep their stages (looked up by uid).
    void RebuildWindow();
    /// \brief Read the next events known into the window until it holds kWarmWindow.
    void FillWindow();
    /// \brief The next level-0 bucket after bucket b (0 or level 0) with an event; 0 if none.
    std::size_t NextLevel0(std::size_t b) const;
    /// Where the next event known without a refill is read: the rest of bucket 0, then the
    /// level-0 buckets' events (one time each, in key order). It stays valid while the
    /// window holds an event read before it (the chunk then holds a pending event).
    struct KnownCursor
    {
        const Chunk* chunk{nullptr}; //!< the chunk read (null: none yet)
        std::size_t index{0};        //!< the next record in it
        std::size_t bucket{0};       //!< the bucket the chunk was reached from (0 or level 0)
        /// \brief The next record, or null when no more are known (yet).
        const Record* Next(const RadixHeapScheduler& q);
        /// \brief The time stamp of the record Next returned last.
        Key KeyOfLast(const RadixHeapScheduler& q) const;
    };
    /// \brief Make k (smaller than the base) the base and re-spread every pending event.
    void Rebase(Key k) const;
    /// \brief Move bucket b's events still to take out, in order, and empty it.
    std::vector<Scheduler::Event> TakeAll(std::size_t b) const;
    /// \brief Bucket b has no event left to take.
    void MarkEmpty(std::size_t b) const;
    /// \brief Bucket b has an event to take.
    void MarkNonEmpty(std::size_t b) const;
    /// \brief The lowest bucket with an event to take (there must be one).
    std::size_t FirstNonEmpty() const;
    /// \brief An empty chunk: the one freed last if any (its lines are likely still cached).
    Chunk* NewChunk() const;
    /// \brief Return c to the free list.
    void FreeChunk(Chunk* c) const;

    // Mutable: PeekNext (const in ns-3's interface) moves the smallest events to bucket 0.
    mutable std::array<Bucket, kBuckets> m_buckets{};        //!< the buckets
    mutable std::array<uint64_t, kBitmapWords> m_nonEmpty{}; //!< bit b: bucket b has an event
    mutable uint64_t m_nonEmptyWords{0};                     //!< bit w: m_nonEmpty[w] is not zero
    mutable std::size_t m_firstNext{0};   //!< bucket 0: index of the next event in its head
    mutable Key m_base{0};                //!< no pending key is smaller
    mutable Chunk* m_freeChunks{nullptr}; //!< free list, most recently freed first
    mutable std::vector<std::unique_ptr<Chunk[]>> m_chunkBlocks; //!< every chunk allocated
    std::size_t m_size{0};                                       //!< pending events
    /// Stages of WarmableEvent::Warm, the first after the event's own line is prefetched: as
    /// many as the longest chain, a switch arrival's (its device; the switch, the account and
    /// the table's line, from the device's hints; the runs; the egress device from the
    /// route: PfcSwitch::WarmRelayReceive). Five before the hints: a stage call less per
    /// event, and the last stage's lines a removal longer to arrive (bench/README.md).
    static constexpr std::size_t kWarmStages = 4;
    /// No event: ns-3's uids start at EventId::UID::VALID (4).
    static constexpr uint32_t kNoUid = 0;
    /// An event of the warming window and the stage it reached.
    struct WarmedEvent
    {
        EventImpl* impl{nullptr}; //!< as in its record (with the warmable bit if warmable)
        uint32_t uid{kNoUid};     //!< EventKey::m_uid
        uint8_t stage{0};         //!< 0 (own line) .. kWarmStages; kWarmStages if not warmable
    };
    /// \brief Set e one stage past `reached` and ask its event for that stage (nothing past
    /// kWarmStages).
    static void WarmNextStage(WarmedEvent& e, uint8_t reached);
    /// Slots of the window's ring (a power of two above kWarmWindow).
    static constexpr std::size_t kWindowSlots = 8;
    static_assert(kWindowSlots > kWarmWindow && (kWindowSlots & (kWindowSlots - 1)) == 0);
    /// The warming window: m_windowCount events from m_window[m_windowFirst], in the order
    /// they run. Kept from one removal to the next while no event is inserted ahead of its
    /// last one; otherwise stale, and made afresh at the next removal.
    std::array<WarmedEvent, kWindowSlots> m_window{};
    std::size_t m_windowFirst{0}; //!< the slot of the next event to run
    std::size_t m_windowCount{0}; //!< events in the window
    KnownCursor m_cursor{};       //!< where the window's next event is read
    Key m_windowEnd{0};           //!< the time stamp of the window's last event
    /// The window may miss an event ahead of its last one, or hold one no longer pending
    /// (an insertion ahead of it, events moved by TakeAll, a removal without warming).
    mutable bool m_windowStale{true};
    bool m_warmAhead{true}; //!< WarmAhead attribute
    uint32_t m_lastUid{0};  //!< the latest uid inserted (serial-number order)
};

} // namespace ns3

#endif // PARAMSYNC_RADIX_HEAP_SCHEDULER_H
