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

/// Appends its number to a log when it runs.
class Numbered final : public PooledEvent<Numbered>
{
  public:
    Numbered(std::vector<int>& log, int n)
        : m_log(log),
          m_n(n)
    {
    }

  private:
    void
    Notify() override
    {
        m_log.push_back(m_n);
    }

    std::vector<int>& m_log;
    int m_n;
};

TEST(PooledEvent, RunsAsAnyEventInTimeOrder)
{
    std::vector<int> log;
    Simulator::Schedule(NanoSeconds(20), new Numbered(log, 2));
    Simulator::Schedule(NanoSeconds(10), new Numbered(log, 1));
    const EventId cancelled = Simulator::Schedule(NanoSeconds(15), new Numbered(log, 9));
    Simulator::Cancel(cancelled);
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<int>{1, 2})); // the cancelled one never ran
    Simulator::Destroy();
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

} // namespace
} // namespace ns3
