#include "radix-heap-scheduler.h"

#include "warmable-event.h"

#include "ns3/assert.h"
#include "ns3/boolean.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RadixHeapScheduler);

namespace
{
/// Inside the queue a warmable event's pointer carries this bit (an EventImpl is at least
/// 8-byte aligned); every event leaves the queue without it.
constexpr std::uintptr_t kWarmableBit = 1;

EventImpl*
WithWarmableBit(EventImpl* impl)
{
    return reinterpret_cast<EventImpl*>(reinterpret_cast<std::uintptr_t>(impl) | kWarmableBit);
}

EventImpl*
WithoutWarmableBit(EventImpl* impl)
{
    return reinterpret_cast<EventImpl*>(reinterpret_cast<std::uintptr_t>(impl) & ~kWarmableBit);
}

bool
HasWarmableBit(const EventImpl* impl)
{
    return (reinterpret_cast<std::uintptr_t>(impl) & kWarmableBit) != 0;
}
} // namespace

TypeId
RadixHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RadixHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<RadixHeapScheduler>()
                            .AddAttribute("WarmAhead",
                                          "Prefetch the memory of the next events in stages "
                                          "while the events before them run "
                                          "(model/warmable-event.h). Pays in networks whose "
                                          "state outgrows the caches; costs a few percent in "
                                          "small ones. Results do not depend on it.",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&RadixHeapScheduler::m_warmAhead),
                                          MakeBooleanChecker());
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
RadixHeapScheduler::Chunk::Write(std::size_t i, const Scheduler::Event& ev, bool wide)
{
    records[i] = Record{ev.impl, ev.key.m_uid, ev.key.m_context};
    tsLow[i] = static_cast<uint32_t>(ev.key.m_ts);
    if (wide)
    {
        tsHigh[i] = static_cast<uint32_t>(ev.key.m_ts >> 32);
    }
}

Scheduler::Event
RadixHeapScheduler::Chunk::Read(std::size_t i, uint64_t base, bool wide) const
{
    // Outside wide buckets a key agrees with the base above its bucket's digit (the radix
    // heap's invariant), so above bit 31.
    const uint64_t high = wide ? uint64_t{tsHigh[i]} << 32 : base & ~uint64_t{0xffffffff};
    const Record& r = records[i];
    Scheduler::Event ev;
    ev.impl = r.impl;
    ev.key.m_ts = high | tsLow[i];
    ev.key.m_uid = r.uid;
    ev.key.m_context = r.context;
    return ev;
}

RadixHeapScheduler::Chunk*
RadixHeapScheduler::NewChunk() const
{
    static_assert(sizeof(Chunk) == kChunkBytes, "no padding: the events fill the chunk");
    if (m_freeChunks == nullptr)
    {
        // Blocks grow with the queue (64 chunks first, then as many as allocated so far):
        // few allocations, and memory in step with the largest queue of the run.
        const std::size_t n = m_chunkBlocks.empty() ? 64
                                                    : std::size_t{64} << (m_chunkBlocks.size() - 1);
        m_chunkBlocks.emplace_back(new Chunk[n]);
        Chunk* block = m_chunkBlocks.back().get();
        for (std::size_t i = n; i-- > 0;)
        {
            block[i].next = m_freeChunks;
            m_freeChunks = &block[i];
        }
    }
    Chunk* c = m_freeChunks;
    m_freeChunks = c->next;
    c->next = nullptr;
    c->count = 0;
    return c;
}

void
RadixHeapScheduler::FreeChunk(Chunk* c) const
{
    c->next = m_freeChunks;
    m_freeChunks = c;
}

void
RadixHeapScheduler::MarkEmpty(std::size_t b) const
{
    const std::size_t w = b >> 6;
    m_nonEmpty[w] &= ~(uint64_t{1} << (b & 63));
    if (m_nonEmpty[w] == 0)
    {
        m_nonEmptyWords &= ~(uint64_t{1} << w);
    }
}

void
RadixHeapScheduler::MarkNonEmpty(std::size_t b) const
{
    m_nonEmpty[b >> 6] |= uint64_t{1} << (b & 63);
    m_nonEmptyWords |= uint64_t{1} << (b >> 6);
}

std::size_t
RadixHeapScheduler::FirstNonEmpty() const
{
    NS_ASSERT_MSG(m_nonEmptyWords != 0, "RadixHeapScheduler: no pending event");
    const auto w = static_cast<std::size_t>(__builtin_ctzll(m_nonEmptyWords));
    return 64 * w + static_cast<std::size_t>(__builtin_ctzll(m_nonEmpty[w]));
}

void
RadixHeapScheduler::Append(std::size_t b, const Scheduler::Event& ev) const
{
    Bucket& bucket = m_buckets[b];
    if (bucket.head == nullptr)
    {
        bucket.head = bucket.tail = NewChunk();
        MarkNonEmpty(b);
    }
    else if (bucket.tail->count == kChunkEvents)
    {
        bucket.tail->next = NewChunk();
        bucket.tail = bucket.tail->next;
    }
    bucket.tail->Write(bucket.tail->count++, ev, IsWide(b));
    const Key k = KeyOf(ev);
    bucket.min = k < bucket.min ? k : bucket.min;
}

void
RadixHeapScheduler::Place(const Scheduler::Event& ev) const
{
    Append(BucketOf(KeyOf(ev), m_base), ev);
}

std::vector<Scheduler::Event>
RadixHeapScheduler::TakeAll(std::size_t b) const
{
    std::vector<Scheduler::Event> out;
    Bucket& bucket = m_buckets[b];
    std::size_t from = b == 0 ? m_firstNext : 0;
    for (Chunk* c = bucket.head; c != nullptr;)
    {
        for (std::size_t i = from; i < c->count; ++i)
        {
            out.push_back(c->Read(i, m_base, IsWide(b)));
        }
        from = 0;
        Chunk* next = c->next;
        FreeChunk(c);
        c = next;
    }
    bucket = Bucket{};
    if (b == 0)
    {
        m_firstNext = 0;
    }
    MarkEmpty(b);
    return out;
}

void
RadixHeapScheduler::PlaceBeforeLaterUids(const Scheduler::Event& ev)
{
    // The events of ev's time are all in its bucket, in uid order: ev goes before the first
    // of them with a larger uid. Rare (never in a simulator run): the bucket is rebuilt.
    const std::size_t b = BucketOf(KeyOf(ev), m_base);
    std::vector<Scheduler::Event> events = TakeAll(b);
    auto at = events.begin();
    while (at != events.end() && !(at->key.m_ts == ev.key.m_ts && at->key.m_uid > ev.key.m_uid))
    {
        ++at;
    }
    events.insert(at, ev);
    for (const Scheduler::Event& e : events)
    {
        Append(b, e);
    }
}

void
RadixHeapScheduler::Insert(const Scheduler::Event& event)
{
    static_assert(alignof(EventImpl) > kWarmableBit, "the bit is free in an event's address");
    Scheduler::Event ev = event;
    if (WarmableEvent::TakeAnnounced(ev.impl))
    {
        ev.impl = WithWarmableBit(ev.impl);
    }
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
    const std::size_t b = FirstNonEmpty();
    Bucket& bucket = m_buckets[b];
    const Bucket taken = bucket;
    bucket = Bucket{};
    MarkEmpty(b);
    // The bucket's smallest key, kept as it filled: the events are read once, to move them.
    m_base = taken.min;
    if (b <= kDigits)
    {
        // Level 0: every key of the bucket is one time, the new base; its chunks, in order,
        // become bucket 0 as they are.
        m_buckets[0] = taken;
        m_firstNext = 0;
        MarkNonEmpty(0);
        return;
    }
    // Against the new base every key of bucket b differs first at a lower level: all of them
    // move to lower levels (the smallest to bucket 0), none back into b; in order, so the
    // events of one time keep their uid order. A chunk read is freed at once, so the next
    // chunk appended to is likely that one, still cached.
    const bool wide = IsWide(b);
    for (Chunk* c = taken.head; c != nullptr;)
    {
        for (uint32_t i = 0; i < c->count; ++i)
        {
            Place(c->Read(i, m_base, wide));
        }
        Chunk* next = c->next;
        FreeChunk(c);
        c = next;
    }
}

Scheduler::Event
RadixHeapScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    Refill();
    Scheduler::Event ev = m_buckets[0].head->Read(m_firstNext, m_base, false);
    ev.impl = WithoutWarmableBit(ev.impl);
    return ev;
}

Scheduler::Event
RadixHeapScheduler::RemoveNext()
{
    NS_ASSERT(m_size > 0);
    Refill();
    // Bucket 0 holds the events at the base time, in uid order: taken first to last.
    Bucket& first = m_buckets[0];
    Chunk* head = first.head;
    Scheduler::Event next = head->Read(m_firstNext++, m_base, false);
    if (m_firstNext == head->count)
    {
        // The head is read to its end: freed at once, so that the next chunk appended to
        // (here, or in any bucket) is this one, still cached.
        first.head = head->next;
        if (first.head == nullptr)
        {
            first.tail = nullptr;
            first.min = ~Key{0};
            MarkEmpty(0);
        }
        FreeChunk(head);
        m_firstNext = 0;
    }
    --m_size;
    if (m_warmAhead && WarmableEvent::InWarmingScope())
    {
        WarmAhead();
    }
    else if (first.head != nullptr && m_firstNext < first.head->count)
    {
        // The next event's own line at least: one prefetch, no stages.
        __builtin_prefetch(WithoutWarmableBit(first.head->records[m_firstNext].impl));
    }
    next.impl = WithoutWarmableBit(next.impl);
    return next; // the base stays its key: every later insertion is as late or later
}

const RadixHeapScheduler::Record*
RadixHeapScheduler::KnownCursor::Next(const RadixHeapScheduler& q)
{
    while (chunk == nullptr || index >= chunk->count)
    {
        if (chunk != nullptr && chunk->next != nullptr)
        {
            chunk = chunk->next;
        }
        else if (level0 != 0)
        {
            // Buckets 1..kDigits - 1 (bits of the first bitmap word): each holds one time, in
            // uid order, and a radix heap's buckets are in key order.
            chunk = q.m_buckets[1 + static_cast<std::size_t>(__builtin_ctzll(level0))].head;
            level0 &= level0 - 1;
        }
        else if (lastLevel0)
        {
            chunk = q.m_buckets[kDigits].head; // the last level-0 bucket: the next word's bit 0
            lastLevel0 = false;
        }
        else
        {
            return nullptr;
        }
        index = 0;
    }
    return &chunk->records[index++];
}

void
RadixHeapScheduler::WarmAhead()
{
    // The next kWarmWindow events known without a refill (KnownCursor: the rest of bucket 0,
    // then the level-0 buckets) each advance one stage per removal while they wait in the
    // window: their own line first (stage 0), then Warm(1) .. Warm(kWarmStages), so that a
    // stage only reads lines the one before loaded a removal earlier (warmable-event.h). An
    // event that enters the window late (few events pending before it, or inserted ahead of
    // others) gets the stages there is time for. The window keeps its order but for
    // insertions: an event's last stage is looked up from where the last match was (most
    // often the next entry: the window moved by one).
    constexpr int kLast = static_cast<int>(kWarmStages);
    std::array<const Record*, kWarmWindow> ahead;
    std::size_t n = 0;
    const Chunk* head = m_buckets[0].head;
    if (head != nullptr && head->count - m_firstNext >= kWarmWindow)
    {
        // Most removals: the whole window in bucket 0's head chunk.
        for (; n < kWarmWindow; ++n)
        {
            ahead[n] = &head->records[m_firstNext + n];
        }
    }
    else
    {
        KnownCursor cursor{head, m_firstNext, m_nonEmpty[0] >> 1, (m_nonEmpty[1] & 1) != 0};
        for (const Record* r = nullptr; n < kWarmWindow && (r = cursor.Next(*this)) != nullptr;)
        {
            ahead[n++] = r;
        }
    }
    const std::array<WarmedEvent, kWarmWindow>& last = m_warmed[m_warmedNow];
    std::array<WarmedEvent, kWarmWindow>& now = m_warmed[m_warmedNow ^ 1];
    std::size_t from = 0;
    for (std::size_t s = 0; s < n; ++s)
    {
        const Record& r = *ahead[s];
        int stage = 0;
        for (std::size_t k = from; k < m_warmedCount; ++k)
        {
            if (last[k].uid == r.uid)
            {
                stage = last[k].stage + 1;
                from = k + 1;
                break;
            }
        }
        if (stage == 0)
        {
            __builtin_prefetch(WithoutWarmableBit(r.impl));
        }
        else if (stage > kLast || !HasWarmableBit(r.impl))
        {
            stage = kLast; // nothing (more) to warm
        }
        else
        {
            static_cast<const WarmableEvent*>(WithoutWarmableBit(r.impl))->Warm(stage);
        }
        now[s] = WarmedEvent{r.uid, static_cast<uint8_t>(stage)};
    }
    m_warmedNow ^= 1;
    m_warmedCount = n;
}

void
RadixHeapScheduler::Rebase(Key k) const
{
    std::vector<Scheduler::Event> all;
    all.reserve(m_size);
    for (std::size_t b = 0; b < kBuckets; ++b)
    {
        if (m_buckets[b].head != nullptr)
        {
            const std::vector<Scheduler::Event> events = TakeAll(b);
            all.insert(all.end(), events.begin(), events.end());
        }
    }
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
        if (m_buckets[b].head == nullptr)
        {
            continue;
        }
        std::vector<Scheduler::Event> events = TakeAll(b);
        const auto at = std::find_if(
            events.begin(), events.end(), [&ev](const Scheduler::Event& e) {
                return WithoutWarmableBit(e.impl) == ev.impl && e.key.m_uid == ev.key.m_uid;
            });
        const bool found = at != events.end();
        if (found)
        {
            // Erased in place: the events of one time must keep their order.
            events.erase(at);
            --m_size;
        }
        for (const Scheduler::Event& e : events)
        {
            Append(b, e);
        }
        if (found)
        {
            return;
        }
    }
    NS_ASSERT_MSG(false, "RadixHeapScheduler::Remove: no such event");
}

} // namespace ns3
