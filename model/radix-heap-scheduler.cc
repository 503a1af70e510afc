#include "radix-heap-scheduler.h"

#include "prefetch-line.h"
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
    m_windowStale = true; // its chunks are freed and its events put back elsewhere
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
    if (k < m_windowEnd)
    {
        m_windowStale = true; // ahead of the window's last event: the window misses it
    }
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
        WarmAhead(next.key.m_uid);
    }
    else
    {
        m_windowStale = true; // the window may hold the event just taken
        if (first.head != nullptr && m_firstNext < first.head->count)
        {
            // The next event's own line at least: one prefetch, no stages.
            PrefetchLine(WithoutWarmableBit(first.head->records[m_firstNext].impl));
        }
    }
    next.impl = WithoutWarmableBit(next.impl);
    return next; // the base stays its key: every later insertion is as late or later
}

std::size_t
RadixHeapScheduler::NextLevel0(std::size_t b) const
{
    // Buckets 1..kDigits - 1 are bits of the first bitmap word, bucket kDigits the second's
    // bit 0; a radix heap's level-0 buckets are in key order.
    if (b + 1 < kDigits)
    {
        const uint64_t after = m_nonEmpty[0] & (~uint64_t{1} << b);
        if (after != 0)
        {
            return static_cast<std::size_t>(__builtin_ctzll(after));
        }
    }
    return b < kDigits && (m_nonEmpty[1] & 1) != 0 ? kDigits : 0;
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
        else
        {
            // The bitmap as it is now: a level-0 bucket filled since the last call is found.
            const std::size_t b = q.NextLevel0(bucket);
            if (b == 0)
            {
                return nullptr; // stays where it is: its chunk may still be appended to
            }
            bucket = b;
            chunk = q.m_buckets[b].head;
        }
        index = 0;
    }
    return &chunk->records[index++];
}

RadixHeapScheduler::Key
RadixHeapScheduler::KnownCursor::KeyOfLast(const RadixHeapScheduler& q) const
{
    // Bucket 0 holds the base's time; level-0 bucket b the time whose lowest digit is b - 1
    // and whose higher digits are the base's. The second holds for a level-0 bucket made
    // bucket 0 by a refill too (the base is then its time).
    const Key high = q.m_base & ~Key{kDigits - 1};
    return bucket == 0 ? q.m_base : high | (bucket - 1);
}

void
RadixHeapScheduler::WarmAhead(uint32_t takenUid)
{
    // The next kWarmWindow events known without a refill each advance one stage per removal
    // while they wait in the window: their own line first (stage 0), then Warm(1) ..
    // Warm(kWarmStages), so that a stage only reads lines the one before loaded a removal
    // earlier (warmable-event.h). An event that enters the window late (few events pending
    // before it, or inserted ahead of others) gets the stages there is time for.
    //
    // Most removals take the window's first event, and no event was inserted ahead of its
    // last one: the window then moves on by itself, each event one stage on, and is filled
    // from where it was last read. Otherwise it is made afresh. (Made afresh each removal,
    // with the stages looked up by uid, it took 272 instructions per event against 151:
    // bench/README.md.)
    if (m_windowStale || m_windowCount == 0 || m_window[m_windowFirst].uid != takenUid)
    {
        RebuildWindow();
        return;
    }
    m_windowFirst = (m_windowFirst + 1) & (kWindowSlots - 1);
    if (--m_windowCount == 0)
    {
        // The cursor's chunk held the event just taken and may be freed: start afresh.
        RebuildWindow();
        return;
    }
    // Locals: the calls to Warm could write any member, so members would be read again.
    const std::size_t first = m_windowFirst;
    const std::size_t count = m_windowCount;
    for (std::size_t i = 0; i < count; ++i)
    {
        WarmedEvent& e = m_window[(first + i) & (kWindowSlots - 1)];
        WarmNextStage(e, e.stage);
    }
    FillWindow();
}

void
RadixHeapScheduler::WarmNextStage(WarmedEvent& e, uint8_t reached)
{
    if (reached < kWarmStages)
    {
        e.stage = reached + 1;
        static_cast<const WarmableEvent*>(WithoutWarmableBit(e.impl))->Warm(e.stage);
    }
    else
    {
        e.stage = kWarmStages; // nothing more to warm
    }
}

void
RadixHeapScheduler::FillWindow()
{
    std::size_t count = m_windowCount;
    const Record* r = nullptr;
    while (count < kWarmWindow && (r = m_cursor.Next(*this)) != nullptr)
    {
        PrefetchLine(WithoutWarmableBit(r->impl));
        const uint8_t stage = HasWarmableBit(r->impl) ? 0 : kWarmStages; // nothing more
        m_window[(m_windowFirst + count++) & (kWindowSlots - 1)] = WarmedEvent{
            r->impl, r->uid, stage};
    }
    if (count != m_windowCount)
    {
        m_windowCount = count;
        m_windowEnd = m_cursor.KeyOfLast(*this);
    }
}

void
RadixHeapScheduler::RebuildWindow()
{
    // The old window's events, in order: those still ahead keep their stages, found by uid
    // from where the last match was (the window keeps its order but for insertions).
    std::array<WarmedEvent, kWindowSlots> old;
    const std::size_t oldCount = m_windowCount;
    for (std::size_t i = 0; i < oldCount; ++i)
    {
        old[i] = m_window[(m_windowFirst + i) & (kWindowSlots - 1)];
    }
    m_windowFirst = 0;
    m_windowCount = 0;
    m_windowStale = false;
    m_cursor = KnownCursor{m_buckets[0].head, m_firstNext, 0};
    FillWindow();
    std::size_t from = 0;
    for (std::size_t i = 0; i < m_windowCount; ++i)
    {
        WarmedEvent& e = m_window[i];
        for (std::size_t k = from; k < oldCount; ++k)
        {
            if (old[k].uid == e.uid)
            {
                from = k + 1;
                WarmNextStage(e, old[k].stage);
                break;
            }
        }
    }
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
