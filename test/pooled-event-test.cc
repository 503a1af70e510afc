// PooledEvent (model/pooled-event.h): events of one class reuse each other's memory, run as
// any ns-3 event, and under AddressSanitizer are plain allocations.
#include "ns3/pooled-event.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

/// Appends its number to a log when it runs; counts the instances alive.
class Numbered final : public PooledEvent<Numbered>
{
  public:
    Numbered(std::vector<int>& log, int n)
        : m_log(log),
          m_n(n)
    {
        ++s_alive;
    }
    ~Numbered() override { --s_alive; }

    static int s_alive; //!< instances constructed and not destroyed

  private:
    void
    Notify() override
    {
        m_log.push_back(m_n);
    }

    std::vector<int>& m_log;
    int m_n;
};

int Numbered::s_alive = 0;

TEST(PooledEvent, RunsAsAnyEventInTimeOrderAndIsFreedAfter)
{
    std::vector<int> log;
    Simulator::Schedule(NanoSeconds(20), Numbered::Make(log, 2));
    Simulator::Schedule(NanoSeconds(10), Numbered::Make(log, 1));
    {
        // An EventId holds a reference too: this one is gone before the count below.
        const EventId cancelled = Simulator::Schedule(NanoSeconds(15), Numbered::Make(log, 9));
        Simulator::Cancel(cancelled);
    }
    EXPECT_EQ(Numbered::s_alive, 3);
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<int>{1, 2})); // the cancelled one never ran
    // Every event is destroyed once run or dropped: a reference too many (a raw `new`
    // passed to Schedule) kept them all alive.
    Simulator::Destroy();
    EXPECT_EQ(Numbered::s_alive, 0);
}

TEST(PooledEvent, AFreedEventsMemoryIsTheNextOnesUnlessUnderAddressSanitizer)
{
    std::vector<int> log;
    Numbered* first = new Numbered(log, 1);
    void* const where = first;
    first->Unref(); // the last reference: deleted, its block back on the list
    Numbered* second = new Numbered(log, 2);
#if defined(__SANITIZE_ADDRESS__)
    // Freed memory stays quarantined: a use after free of an event would be reported.
    EXPECT_NE(static_cast<void*>(second), where);
#else
    EXPECT_EQ(static_cast<void*>(second), where); // last freed, first taken
#endif
    Numbered* third = new Numbered(log, 3);
    EXPECT_NE(static_cast<void*>(third), static_cast<void*>(second));
    second->Invoke();
    third->Invoke();
    EXPECT_EQ(log, (std::vector<int>{2, 3}));
    second->Unref();
    third->Unref();
}

/// Counts the calls of its two methods, at which times.
struct Timers
{
    void
    Tick()
    {
        ticks.push_back(Simulator::Now().GetNanoSeconds());
        if (ticks.size() < 3)
        {
            // Re-armed from within its own call, as a DCQCN rate timer is.
            Simulator::Schedule(NanoSeconds(5),
                                PooledMethodEvent<Timers, &Timers::Tick>::Make(this));
        }
    }
    void
    Tock()
    {
        ++tocks;
    }
    std::vector<int64_t> ticks; //!< times of Tick, in ns
    int tocks{0};               //!< calls of Tock
};

TEST(PooledMethodEvent, CallsItsMethodOnItsObjectAtItsTimeAndNotOnceCancelled)
{
    Timers t;
    Simulator::Schedule(NanoSeconds(10), PooledMethodEvent<Timers, &Timers::Tick>::Make(&t));
    const EventId tock = Simulator::Schedule(NanoSeconds(12),
                                             PooledMethodEvent<Timers, &Timers::Tock>::Make(&t));
    Simulator::Schedule(NanoSeconds(11), PooledMethodEvent<Timers, &Timers::Tock>::Make(&t));
    Simulator::Cancel(tock);
    Simulator::Run();
    // Tick at 10 ns re-arms 5 ns later twice (10, 15, 20); one Tock of two (the other was
    // cancelled).
    EXPECT_EQ(t.ticks, (std::vector<int64_t>{10, 15, 20}));
    EXPECT_EQ(t.tocks, 1);
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
