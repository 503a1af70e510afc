// QuadHeapScheduler: events leave in (time stamp, uid) order, the order every ns-3 scheduler
// keeps, so that swapping the scheduler cannot change a result.
#include "ns3/object-factory.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

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

std::vector<std::pair<uint64_t, uint32_t>>
Drain(QuadHeapScheduler& s)
{
    std::vector<std::pair<uint64_t, uint32_t>> out;
    while (!s.IsEmpty())
    {
        const Scheduler::Event next = s.PeekNext();
        const Scheduler::Event e = s.RemoveNext();
        EXPECT_EQ(next.key.m_uid, e.key.m_uid);
        out.emplace_back(e.key.m_ts, e.key.m_uid);
    }
    return out;
}

TEST(QuadHeapScheduler, EarliestFirstThenInsertionOrder)
{
    QuadHeapScheduler s;
    // (5,0) (3,1) (5,2) (3,3): time 3 first, and within a time the smaller uid.
    s.Insert(Ev(5, 0));
    s.Insert(Ev(3, 1));
    s.Insert(Ev(5, 2));
    s.Insert(Ev(3, 3));
    std::vector<std::pair<uint64_t, uint32_t>> expected{{3, 1}, {3, 3}, {5, 0}, {5, 2}};
    EXPECT_EQ(Drain(s), expected);
}

TEST(QuadHeapScheduler, ManyEventsLeaveSorted)
{
    // 5000 events over 97 distinct times (i * 7919 mod 97 visits them in a scrambled order,
    // ~52 per time), removals interleaved with insertions: what leaves must be the sorted
    // sequence of what went in.
    QuadHeapScheduler s;
    std::vector<std::pair<uint64_t, uint32_t>> in;
    std::vector<std::pair<uint64_t, uint32_t>> out;
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

TEST(QuadHeapScheduler, RemoveTakesOneEventOut)
{
    QuadHeapScheduler s;
    for (uint32_t i = 0; i < 20; ++i)
    {
        s.Insert(Ev(100 - i, i)); // times 100 down to 81
    }
    s.Remove(Ev(90, 10));
    s.Remove(Ev(81, 19)); // the earliest
    std::vector<std::pair<uint64_t, uint32_t>> expected;
    for (uint32_t i = 20; i-- > 0;)
    {
        if (i != 10 && i != 19)
        {
            expected.emplace_back(100 - i, i);
        }
    }
    EXPECT_EQ(Drain(s), expected);
}

TEST(QuadHeapScheduler, DrivesTheSimulatorInScheduleOrder)
{
    ObjectFactory f;
    f.SetTypeId("ns3::QuadHeapScheduler");
    Simulator::SetScheduler(f);
    std::vector<int> order;
    // Same time: insertion order (1 before 2); 1 ns earlier first (0).
    Simulator::Schedule(NanoSeconds(10), [&] { order.push_back(1); });
    Simulator::Schedule(NanoSeconds(10), [&] { order.push_back(2); });
    Simulator::Schedule(NanoSeconds(9), [&] { order.push_back(0); });
    Simulator::Run();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
