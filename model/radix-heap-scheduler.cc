#include "radix-heap-scheduler.h"

#include "ns3/assert.h"

#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RadixHeapScheduler);

TypeId
RadixHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RadixHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RadixHeapScheduler>();
    return tid;
}

RadixHeapScheduler::RadixHeapScheduler() = default;

RadixHeapScheduler::~RadixHeapScheduler() = default;

std::size_t
RadixHeapScheduler::BucketOf(Key k, Key base)
{
    const Key x = k ^ base;
    if (x == 0)
    {
        return 0;
    }
    const std::size_t level = (63 - static_cast<std::size_t>(__builtin_clzll(x))) / kDigitBits;
    const std::size_t digit = (k >> (kDigitBits * level)) & (kDigits - 1);
    return 1 + level * kDigits + digit;
}

void
RadixHeapScheduler::Place(const Scheduler::Event& ev) const
{
    const std::size_t b = BucketOf(KeyOf(ev), m_base);
    m_buckets[b].push_back(ev);
    m_nonEmpty[b >> 6] |= uint64_t{1} << (b & 63);
}

void
RadixHeapScheduler::PlaceBeforeLaterUids(const Scheduler::Event& ev)
{
    // The events of ev's time are all in its bucket, in uid order: ev goes before the first
    // of them with a larger uid (after bucket 0's taken events).
    const std::size_t b = BucketOf(KeyOf(ev), m_base);
    std::vector<Scheduler::Event>& bucket = m_buckets[b];
    auto at = bucket.begin() + static_cast<std::ptrdiff_t>(b == 0 ? m_firstNext : 0);
    while (at != bucket.end() && !(at->key.m_ts == ev.key.m_ts && at->key.m_uid > ev.key.m_uid))
    {
        ++at;
    }
    bucket.insert(at, ev);
    m_nonEmpty[b >> 6] |= uint64_t{1} << (b & 63);
}

void
RadixHeapScheduler::MarkEmpty(std::size_t b) const
{
    m_nonEmpty[b >> 6] &= ~(uint64_t{1} << (b & 63));
}

void
RadixHeapScheduler::Insert(const Scheduler::Event& ev)
{
    const Key k = KeyOf(ev);
    if (k < m_base)
    {
        Rebase(k);
    }
    // Serial-number order (RFC 1982): past the 2^32 wrap a small uid is a later one.
    const bool earlierUid = static_cast<int32_t>(ev.key.m_uid - m_lastUid) < 0;
    if (earlierUid)
    {
        PlaceBeforeLaterUids(ev);
    }
    else
    {
        Place(ev);
        m_lastUid = ev.key.m_uid;
    }
    ++m_size;
}

bool
RadixHeapScheduler::IsEmpty() const
{
    return m_size == 0;
}

void
RadixHeapScheduler::Refill() const
{
    if (m_nonEmpty[0] & 1)
    {
        return;
    }
    m_buckets[0].clear(); // every event of it was taken; it keeps its capacity
    m_firstNext = 0;
    std::size_t b = 0;
    for (std::size_t w = 0; w < m_nonEmpty.size(); ++w)
    {
        if (m_nonEmpty[w] != 0)
        {
            b = 64 * w + static_cast<std::size_t>(__builtin_ctzll(m_nonEmpty[w]));
            break;
        }
    }
    NS_ASSERT_MSG(b > 0, "RadixHeapScheduler: no pending event");
    std::vector<Scheduler::Event>& bucket = m_buckets[b];
    if (b <= kDigits)
    {
        // Level 0: every key of the bucket is one time, the new base; its events, in order,
        // become bucket 0 as they are (bucket 0's storage, cleared above, takes b's place).
        m_base = KeyOf(bucket.front());
        m_buckets[0].swap(bucket);
        MarkEmpty(b);
        m_nonEmpty[0] |= 1;
        return;
    }
    Key smallest = KeyOf(bucket.front());
    for (const Scheduler::Event& e : bucket)
    {
        const Key k = KeyOf(e);
        smallest = k < smallest ? k : smallest;
    }
    // Against the new base every key of bucket b differs first at a lower level: all of them
    // move to lower levels (the smallest to bucket 0), none back into b; in order, so the
    // events of one time keep their uid order.
    m_base = smallest;
    for (const Scheduler::Event& e : bucket)
    {
        Place(e);
    }
    bucket.clear(); // keeps its capacity: the bucket fills again
    MarkEmpty(b);
}

Scheduler::Event
RadixHeapScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    Refill();
    return m_buckets[0][m_firstNext];
}

Scheduler::Event
RadixHeapScheduler::RemoveNext()
{
    NS_ASSERT(m_size > 0);
    Refill();
    // Bucket 0 holds the events at the base time, in uid order: taken first to last.
    std::vector<Scheduler::Event>& first = m_buckets[0];
    const Scheduler::Event next = first[m_firstNext++];
    if (m_firstNext == first.size())
    {
        MarkEmpty(0);
    }
    --m_size;
    return next; // the base stays its key: every later insertion is as late or later
}

void
RadixHeapScheduler::Rebase(Key k) const
{
    std::vector<Scheduler::Event> all;
    all.reserve(m_size);
    for (std::size_t b = 0; b < kBuckets; ++b)
    {
        const std::size_t from = b == 0 ? m_firstNext : 0;
        all.insert(all.end(),
                   m_buckets[b].begin() + static_cast<std::ptrdiff_t>(from),
                   m_buckets[b].end());
        m_buckets[b].clear();
    }
    m_firstNext = 0;
    m_nonEmpty.fill(0);
    m_base = k;
    // Events of one time share a bucket, so this order keeps their uid order.
    for (const Scheduler::Event& e : all)
    {
        Place(e);
    }
}

void
RadixHeapScheduler::Remove(const Scheduler::Event& ev)
{
    for (std::size_t b = 0; b < kBuckets; ++b)
    {
        std::vector<Scheduler::Event>& bucket = m_buckets[b];
        for (std::size_t i = b == 0 ? m_firstNext : 0; i < bucket.size(); ++i)
        {
            if (bucket[i].impl == ev.impl && bucket[i].key.m_uid == ev.key.m_uid)
            {
                // Erased in place: the events of one time must keep their order.
                bucket.erase(bucket.begin() + static_cast<std::ptrdiff_t>(i));
                if (bucket.size() == (b == 0 ? m_firstNext : 0))
                {
                    MarkEmpty(b);
                }
                --m_size;
                return;
            }
        }
    }
    NS_ASSERT_MSG(false, "RadixHeapScheduler::Remove: no such event");
}

} // namespace ns3
