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
 * keys are compared with the last removed key (`base`) digit by digit, 4 bits a digit; bucket
 * (level l, digit d) holds the keys whose highest digit differing from the base is digit l
 * and is d there; an insertion appends to one bucket (no search); a removal from an empty
 * bucket 0 takes the first non-empty bucket (lowest level, then digit), makes its smallest key
 * the base and spreads the bucket over lower levels. Every access is a sequential append or
 * scan, and a key only moves to lower levels: a frame's arrival ~1 us ahead (10 bits) is
 * placed at level 2 and moves at most twice; a level-0 bucket holds one time only and
 * becomes bucket 0 by a swap. (Binary digits, one bucket per key bit, moved each event ~5
 * times: a third of the scheduler's instructions.)
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
    static constexpr unsigned kDigitBits = 4;
    static constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;
    static constexpr std::size_t kLevels = 64 / kDigitBits;
    /// Buckets: 0 holds the events at the base time, 1 + l * kDigits + d the keys whose
    /// highest digit differing from the base is digit l, of value d.
    static constexpr std::size_t kBuckets = 1 + kLevels * kDigits;
    static constexpr std::size_t kBitmapWords = (kBuckets + 63) / 64;
    static_assert(kBitmapWords <= 64, "one summary word covers the bitmap");
    /// Events per chunk: a chunk is 1 KiB, 16 cache lines.
    static constexpr std::size_t kChunkEvents = 42;

    /// \brief A bucket's storage unit: events in insertion order, chained to the next chunk.
    struct alignas(64) Chunk
    {
        Chunk* next;                                       //!< the bucket's next chunk, or null
        uint32_t count;                                    //!< events written
        std::array<Scheduler::Event, kChunkEvents> events; //!< the events, [0, count) valid
    };

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
    /// \brief Append ev to its bucket against the current base.
    void Place(const Scheduler::Event& ev) const;
    /// \brief Append ev to bucket b.
    void Append(std::size_t b, const Scheduler::Event& ev) const;
    /// \brief Put ev (its uid below one inserted before) ahead of the later uids of its time.
    void PlaceBeforeLaterUids(const Scheduler::Event& ev);
    /// \brief Make bucket 0 hold the smallest pending events (the queue must not be empty).
    void Refill() const;
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
    uint32_t m_lastUid{0}; //!< the latest uid inserted (serial-number order)
};

} // namespace ns3

#endif // PARAMSYNC_RADIX_HEAP_SCHEDULER_H
