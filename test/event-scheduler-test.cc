// The event queues (model/quad-heap-scheduler.h, model/radix-heap-scheduler.h): events leave
// in (time stamp, uid) order, the order every ns-3 scheduler keeps, so that swapping the
// scheduler cannot change a result. The contract is one typed suite run on both; the radix
// heap's own cases (its base after a peek, a long stream against the 4-ary heap, ties over
// several of a bucket's chunks, keys on both sides of every digit and of bit 32) follow.
#include "ns3/object-factory.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/radix-heap-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace ns3
{
namespace
{

/// (time stamp, uid) of events, in the order they left.
using Order = std::vector<std::pair<uint64_t, uint32_t>>;

Scheduler::Event
Ev(uint64_t ts, uint32_t uid)
{
    Scheduler::Event e;
    e.impl = nullptr;
    e.key.m_ts = ts;
    e.key.m_uid = uid;
    e.key.m_context = 0;
    return e;
}

Order
Drain(Scheduler& s)
{
    Order out;
    while (!s.IsEmpty())
    {
        const Scheduler::Event next = s.PeekNext();
        const Scheduler::Event e = s.RemoveNext();
        EXPECT_EQ(next.key.m_uid, e.key.m_uid);
        out.emplace_back(e.key.m_ts, e.key.m_uid);
    }
    return out;
}

template<typename S>
class EventScheduler : public ::testing::Test
{
};

using Schedulers = ::testing::Types<QuadHeapScheduler, RadixHeapScheduler>;
TYPED_TEST_SUITE(EventScheduler, Schedulers);

TYPED_TEST(EventScheduler, EarliestFirstThenInsertionOrder)
{
    TypeParam s;
    // (5,0) (3,1) (5,2) (3,3): time 3 first, and within a time the smaller uid.
    s.Insert(Ev(5, 0));
    s.Insert(Ev(3, 1));
    s.Insert(Ev(5, 2));
    s.Insert(Ev(3, 3));
    Order expected{{3, 1}, {3, 3}, {5, 0}, {5, 2}};
    EXPECT_EQ(Drain(s), expected);
}

TYPED_TEST(EventScheduler, ManyEventsLeaveSorted)
{
    // 5000 events over 97 distinct times ahead of now (i * 7919 mod 97 visits them in a
    // scrambled order, ~52 per time), removals interleaved with insertions as in a simulator:
    // what leaves must be the sorted sequence of what went in.
    TypeParam s;
    Order in;
    Order out;
    uint64_t now = 0;
    for (uint32_t i = 0; i < 5000; ++i)
    {
        const uint64_t ts = now + (uint64_t(i) * 7919) % 97;
        s.Insert(Ev(ts, i));
        in.emplace_back(ts, i);
        if (i % 3 == 2)
        {
            const Scheduler::Event e = s.RemoveNext();
            now = e.key.m_ts; // as a simulator: later insertions are never in the past
            out.emplace_back(e.key.m_ts, e.key.m_uid);
        }
    }
    for (const auto& e : Drain(s))
    {
        out.push_back(e);
    }
    std::sort(in.begin(), in.end());
    EXPECT_EQ(out, in);
}

TYPED_TEST(EventScheduler, RemoveTakesOneEventOut)
{
    TypeParam s;
    for (uint32_t i = 0; i < 20; ++i)
    {
        s.Insert(Ev(100 - i, i)); // times 100 down to 81
    }
    // (81, 19) is next (in the radix heap it now sits alone in bucket 0).
    EXPECT_EQ(s.PeekNext().key.m_uid, 19u);
    s.Remove(Ev(90, 10));
    s.Remove(Ev(81, 19)); // the earliest
    Order expected;
    for (uint32_t i = 20; i-- > 0;)
    {
        if (i != 10 && i != 19)
        {
            expected.emplace_back(100 - i, i);
        }
    }
    EXPECT_EQ(Drain(s), expected);
}

TYPED_TEST(EventScheduler, DrivesTheSimulatorInScheduleOrder)
{
    ObjectFactory f;
    f.SetTypeId(TypeParam::GetTypeId());
    Simulator::SetScheduler(f);
    std::vector<int> order;
    // Same time: insertion order (1 before 2); 1 ns earlier first (0); an event scheduled
    // by a running one for now (3) after those already pending at that time.
    Simulator::Schedule(NanoSeconds(10), [&] {
        order.push_back(1);
        Simulator::Schedule(NanoSeconds(0), [&] { order.push_back(3); });
    });
    Simulator::Schedule(NanoSeconds(10), [&] { order.push_back(2); });
    Simulator::Schedule(NanoSeconds(9), [&] { order.push_back(0); });
    Simulator::Run();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
    Simulator::Destroy();
}

TEST(RadixHeapScheduler, SameOrderAsTheQuadHeapOnASimulatorStream)
{
    // A hold model with delays spread over 1 ns .. 2^40 ns (link delays next to timers, as a
    // run has) and uids counting up past 2^31: every event removed from one scheduler must be
    // the one removed from the other (both must give the (time, uid) order).
    RadixHeapScheduler radix;
    QuadHeapScheduler quad;
    std::mt19937_64 rng(7);
    uint32_t uid = 0x7fffff00u; // crosses bit 31 of the uid part of the key
    uint64_t now = 0;
    for (int i = 0; i < 2000; ++i)
    {
        const uint64_t ts = now + (rng() >> (24 + rng() % 40));
        radix.Insert(Ev(ts, uid));
        quad.Insert(Ev(ts, uid));
        ++uid;
    }
    for (int i = 0; i < 50000; ++i)
    {
        const Scheduler::Event a = radix.RemoveNext();
        const Scheduler::Event b = quad.RemoveNext();
        ASSERT_EQ(a.key.m_ts, b.key.m_ts);
        ASSERT_EQ(a.key.m_uid, b.key.m_uid);
        now = a.key.m_ts;
        const int children = static_cast<int>(rng() % 3); // 0, 1 or 2: the queue random-walks
        for (int c = 0; c < children || quad.IsEmpty(); ++c)
        {
            const uint64_t ts = now + (c == 0 ? 0 : (rng() >> (24 + rng() % 40)));
            radix.Insert(Ev(ts, uid));
            quad.Insert(Ev(ts, uid));
            ++uid;
        }
    }
    EXPECT_EQ(Drain(radix), Drain(quad));
}

TEST(RadixHeapScheduler, TiesLeaveInUidOrderThroughEveryBucketMove)
{
    // The heap's key is the time alone; ties must leave in uid order. Eight distinct delays
    // (0..7 ns and 2^20 + 0..7) make most events share a time with others, spread over
    // buckets far apart, so that tied events are re-spread together many times before they
    // leave; every removal must match the 4-ary heap's (time, uid) order.
    RadixHeapScheduler radix;
    QuadHeapScheduler quad;
    std::mt19937_64 rng(11);
    uint32_t uid = 1;
    uint64_t now = 0;
    const auto insert = [&](uint64_t ts) {
        radix.Insert(Ev(ts, uid));
        quad.Insert(Ev(ts, uid));
        ++uid;
    };
    for (int i = 0; i < 500; ++i)
    {
        insert(rng() % 8 + ((rng() & 1) << 20));
    }
    for (int i = 0; i < 20000; ++i)
    {
        const Scheduler::Event a = radix.RemoveNext();
        const Scheduler::Event b = quad.RemoveNext();
        ASSERT_EQ(a.key.m_ts, b.key.m_ts) << i;
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << i;
        now = a.key.m_ts;
        for (int c = 0; c < static_cast<int>(rng() % 3) || quad.IsEmpty(); ++c)
        {
            insert(now + rng() % 8 + ((rng() & 1) << 20));
        }
    }
    EXPECT_EQ(Drain(radix), Drain(quad));
}

TEST(RadixHeapScheduler, AnEarlierUidInsertedLaterStillLeavesFirstAmongItsTies)
{
    // (5, 7) and (5, 9) are inserted, then (5, 8) and (5, 3): below uids already inserted
    // (a scheduler swap re-inserts like this). The (time, uid) order is 3, 7, 8, 9 at time 5,
    // also after one of them was taken: (5, 4) inserted once (5, 3) left goes before 7.
    RadixHeapScheduler s;
    s.Insert(Ev(5, 7));
    s.Insert(Ev(5, 9));
    s.Insert(Ev(6, 10));
    s.Insert(Ev(5, 8));
    s.Insert(Ev(5, 3));
    EXPECT_EQ(s.RemoveNext().key.m_uid, 3u);
    s.Insert(Ev(5, 4));
    Order expected{{5, 4}, {5, 7}, {5, 8}, {5, 9}, {6, 10}};
    EXPECT_EQ(Drain(s), expected);
}

TEST(RadixHeapScheduler, PastTheUidWrapTiesKeepInsertionOrder)
{
    // uids are 32-bit: 2^32 - 1 is followed by 0. In serial-number order (RFC 1982) the 0 is
    // the later event, so at one time it leaves after 2^32 - 1 (as it was scheduled after).
    RadixHeapScheduler s;
    s.Insert(Ev(5, 0xfffffffeu));
    s.Insert(Ev(5, 0xffffffffu));
    s.Insert(Ev(5, 0u));
    s.Insert(Ev(4, 1u));
    Order expected{{4, 1}, {5, 0xfffffffeu}, {5, 0xffffffffu}, {5, 0}};
    EXPECT_EQ(Drain(s), expected);
}

TEST(RadixHeapScheduler, EarlierKeyAfterAPeekComesFirst)
{
    // PeekNext makes (10, 5) the base; an insertion before it ((7, 9): earlier time; then
    // (10, 1): same time, smaller uid) must still leave first.
    RadixHeapScheduler s;
    s.Insert(Ev(10, 5));
    s.Insert(Ev(20, 6));
    EXPECT_EQ(s.PeekNext().key.m_uid, 5u);
    s.Insert(Ev(7, 9));
    s.Insert(Ev(10, 1));
    Order expected{{7, 9}, {10, 1}, {10, 5}, {20, 6}};
    EXPECT_EQ(Drain(s), expected);
}

TEST(RadixHeapScheduler, TiesSpanningManyChunksLeaveInUidOrderWhileMoreArrive)
{
    // 100 events at time 1000 (uids 0..99) fill several of a bucket's fixed-size chunks; the
    // first removal moves them to bucket 0. Each removal then schedules one event at the
    // same time (uids 100..199, as events scheduled "now"), appended behind the pending ones
    // while bucket 0's head chunks are taken and freed. The (time, uid) order is simply
    // uids 0..199 at time 1000, then (1001, 200) inserted at the start.
    RadixHeapScheduler s;
    s.Insert(Ev(1001, 200));
    for (uint32_t i = 0; i < 100; ++i)
    {
        s.Insert(Ev(1000, i));
    }
    Order out;
    uint32_t uid = 100;
    while (!s.IsEmpty())
    {
        const Scheduler::Event e = s.RemoveNext();
        out.emplace_back(e.key.m_ts, e.key.m_uid);
        if (uid < 200)
        {
            s.Insert(Ev(1000, uid++));
        }
    }
    Order expected;
    for (uint32_t i = 0; i < 200; ++i)
    {
        expected.emplace_back(1000, i);
    }
    expected.emplace_back(1001, 200);
    EXPECT_EQ(out, expected);
}

TEST(RadixHeapScheduler, KeysOnEitherSideOfEveryDigitBoundaryLeaveSorted)
{
    // For every bit position p >= 1, 2^p - 1 and 2^p differ in every bit up to p: against
    // base 0 they land in buckets of different levels whenever p starts a digit, and 126
    // distinct times must come out ascending, whatever the digit width. Inserted from the
    // latest down; expected: the same list sorted.
    RadixHeapScheduler s;
    Order expected;
    uint32_t uid = 0;
    for (unsigned p = 63; p >= 1; --p)
    {
        const uint64_t high = uint64_t{1} << p;
        s.Insert(Ev(high, uid));
        expected.emplace_back(high, uid++);
        s.Insert(Ev(high - 1, uid));
        expected.emplace_back(high - 1, uid++);
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(Drain(s), expected);
}

TEST(RadixHeapScheduler, EarlierKeyThanTheBaseAfterRemovalsComesFirst)
{
    // 100 events at 300..399 (uid = time - 300); removing two makes 301 the base, the rest
    // spread over low buckets. An insertion at 250 (before the base) re-spreads the 98 still
    // pending. Order: (250, 100), then (302, 2) .. (399, 99).
    RadixHeapScheduler s;
    for (uint32_t i = 0; i < 100; ++i)
    {
        s.Insert(Ev(300 + i, i));
    }
    EXPECT_EQ(s.RemoveNext().key.m_ts, 300u);
    EXPECT_EQ(s.RemoveNext().key.m_ts, 301u);
    s.Insert(Ev(250, 100));
    Order expected{{250, 100}};
    for (uint32_t i = 2; i < 100; ++i)
    {
        expected.emplace_back(300 + i, i);
    }
    EXPECT_EQ(Drain(s), expected);
}

} // namespace
} // namespace ns3
