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
 * bucket b > 0 holds the keys whose highest bit differing from the last removed key (`base`)
 * is bit b - 1; an insertion appends to one bucket (no search); a removal from an empty
 * bucket 0 takes the first non-empty bucket, makes its smallest key the base and spreads the
 * bucket over lower ones. Every access is a sequential append or scan, and a key only ever
 * moves to lower buckets (at most once per key bit, a few times in practice).
 *
 * The key is (time stamp, insertion uid) as one 96-bit number, the order of every ns-3
 * scheduler, so swapping schedulers cannot change a result. Keys earlier than the base (not
 * a simulator's use: only after a PeekNext, an insertion before the peeked event) are
 * handled by re-spreading every pending event from the new key: correct, and O(n).
 */
#ifndef PARAMSYNC_RADIX_HEAP_SCHEDULER_H
#define PARAMSYNC_RADIX_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <array>
#include <cstddef>
#include <cstdint>
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
    using Key = unsigned __int128;
    /// Buckets: 0 holds the base itself, b in 1..128 the keys whose highest bit that differs
    /// from the base is b - 1.
    static constexpr std::size_t kBuckets = 129;

    /// \brief (time stamp, uid) as one number.
    static Key
    KeyOf(const Scheduler::Event& e)
    {
        return (static_cast<Key>(e.key.m_ts) << 32) | e.key.m_uid;
    }
    /// \brief The bucket of key k against base (k >= base).
    static std::size_t BucketOf(Key k, Key base);
    /// \brief Append ev to its bucket against the current base.
    void Place(const Scheduler::Event& ev) const;
    /// \brief Make bucket 0 hold the smallest pending event (the queue must not be empty).
    void Refill() const;
    /// \brief Make k (smaller than the base) the base and re-spread every pending event.
    void Rebase(Key k) const;

    // Mutable: PeekNext (const in ns-3's interface) moves the smallest event to bucket 0.
    mutable std::array<std::vector<Scheduler::Event>, kBuckets> m_buckets; //!< the buckets
    mutable std::array<uint64_t, 3> m_nonEmpty{}; //!< bit b: bucket b is not empty
    mutable Key m_base{0};                        //!< no pending key is smaller
    std::size_t m_size{0};                        //!< pending events
};

} // namespace ns3

#endif // PARAMSYNC_RADIX_HEAP_SCHEDULER_H
