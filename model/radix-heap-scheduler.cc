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
    const auto hi = static_cast<uint64_t>(x >> 64);
    if (hi != 0)
    {
        return 128 - static_cast<std::size_t>(__builtin_clzll(hi)); // highest bit 64..127
    }
    const auto lo = static_cast<uint64_t>(x);
    return lo == 0 ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(lo));
}

void
RadixHeapScheduler::Place(const Scheduler::Event& ev) const
{
    const std::size_t b = BucketOf(KeyOf(ev), m_base);
    m_buckets[b].push_back(ev);
    m_nonEmpty[b >> 6] |= uint64_t{1} << (b & 63);
}

void
RadixHeapScheduler::Insert(const Scheduler::Event& ev)
{
    const Key k = KeyOf(ev);
    if (k < m_base)
    {
        Rebase(k);
    }
    Place(ev);
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
    Key smallest = KeyOf(bucket.front());
    for (const Scheduler::Event& e : bucket)
    {
        const Key k = KeyOf(e);
        smallest = k < smallest ? k : smallest;
    }
    // Against the new base every key of bucket b differs first below bit b - 1: all of them
    // move to lower buckets (the smallest to 0), none back into b.
    m_base = smallest;
    for (const Scheduler::Event& e : bucket)
    {
        Place(e);
    }
    bucket.clear(); // keeps its capacity: the bucket fills again
    m_nonEmpty[b >> 6] &= ~(uint64_t{1} << (b & 63));
}

Scheduler::Event
RadixHeapScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    Refill();
    return m_buckets[0].back();
}

Scheduler::Event
RadixHeapScheduler::RemoveNext()
{
    NS_ASSERT(m_size > 0);
    Refill();
    // Bucket 0 holds the events equal to the base: one, as uids are unique.
    std::vector<Scheduler::Event>& first = m_buckets[0];
    const Scheduler::Event next = first.back();
    first.pop_back();
    if (first.empty())
    {
        m_nonEmpty[0] &= ~uint64_t{1};
    }
    --m_size;
    return next; // the base stays its key: every later insertion is larger
}

void
RadixHeapScheduler::Rebase(Key k) const
{
    std::vector<Scheduler::Event> all;
    all.reserve(m_size);
    for (std::size_t b = 0; b < kBuckets; ++b)
    {
        all.insert(all.end(), m_buckets[b].begin(), m_buckets[b].end());
        m_buckets[b].clear();
    }
    m_nonEmpty.fill(0);
    m_base = k;
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
        for (std::size_t i = 0; i < bucket.size(); ++i)
        {
            if (bucket[i].impl == ev.impl && bucket[i].key.m_uid == ev.key.m_uid)
            {
                bucket[i] = bucket.back();
                bucket.pop_back();
                if (bucket.empty())
                {
                    m_nonEmpty[b >> 6] &= ~(uint64_t{1} << (b & 63));
                }
                --m_size;
                return;
            }
        }
    }
    NS_ASSERT_MSG(false, "RadixHeapScheduler::Remove: no such event");
}

} // namespace ns3
