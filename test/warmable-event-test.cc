// Prefetching the next events in stages (model/warmable-event.h, RadixHeapScheduler's
// WarmAhead): which events are warmed, at which stage and when, and that the queue hands
// every event back as it was given.
#include "ns3/boolean.h"
#include "ns3/object.h"
#include "ns3/radix-heap-scheduler.h"
#include "ns3/warmable-event.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/// What happened, in order: "e5:2" = event 5 asked for stage 2, "e5" = event 5 left the queue.
using Log = std::vector<std::string>;

/// A warmable event that writes its stages into a log.
class RecordingEvent : public WarmableEvent
{
  public:
    RecordingEvent(int id, Log& log)
        : m_id(id),
          m_log(log)
    {
    }

    void
    Warm(int stage) const override
    {
        m_log.push_back("e" + std::to_string(m_id) + ":" + std::to_string(stage));
    }

  private:
    void
    Notify() override
    {
    }

    int m_id;
    Log& m_log;
};

/// A plain ns-3 event (not warmable).
class PlainEvent : public EventImpl
{
  private:
    void
    Notify() override
    {
    }
};

Scheduler::Event
At(uint64_t ts, uint32_t uid, EventImpl* impl)
{
    Scheduler::Event e;
    e.impl = impl;
    e.key.m_ts = ts;
    e.key.m_uid = uid;
    e.key.m_context = 0;
    return e;
}

/// Make n warmable events at time 100 (uids 10, 11, ...), each inserted right after it is
/// made (as Simulator::Schedule does); take them all, logging each as it leaves.
Log
MakeAndDrain(RadixHeapScheduler& s, int n)
{
    Log log;
    std::vector<std::unique_ptr<RecordingEvent>> events;
    for (int i = 0; i < n; ++i)
    {
        events.push_back(std::make_unique<RecordingEvent>(i, log));
        s.Insert(At(100, 10 + i, events.back().get()));
    }
    for (int i = 0; i < n; ++i)
    {
        const Scheduler::Event e = s.RemoveNext();
        // Handed back as given: the queue's mark of a warmable event is gone.
        EXPECT_EQ(e.impl, events[i].get());
        EXPECT_EQ(e.key.m_uid, static_cast<uint32_t>(10 + i));
        log.push_back("e" + std::to_string(i));
    }
    return log;
}

/// The entries of one event, in order.
Log
Of(const Log& log, int id)
{
    const std::string name = "e" + std::to_string(id);
    Log out;
    for (const std::string& entry : log)
    {
        if (entry == name || entry.rfind(name + ":", 0) == 0)
        {
            out.push_back(entry);
        }
    }
    return out;
}

TEST(WarmableEvent, EachStageOnceInOrderBeforeTheEventLeaves)
{
    // 8 events of one time. While event k is taken, WarmAhead looks at the next five (k+1 ..
    // k+5; four stages, kWarmStages): event k+5 gets its own line prefetched (stage 0, not
    // logged), k+4 stage 1 if it had stage 0 at the last removal, ..., k+1 stage 4 if it had
    // stage 3. Stage 0 first happens while e0 is taken, to e5; so e5 has stage s while
    // e(s) is taken, e6 while e(s + 1) is, and e7 (nothing behind it) while e(s + 2) is.
    // e0-e4 were never 5 ahead with stage 0 first: no stage at all.
    const WarmableEvent::WarmingScope warming;
    RadixHeapScheduler s;
    const Log log = MakeAndDrain(s, 8);
    for (int id = 0; id <= 4; ++id)
    {
        EXPECT_EQ(Of(log, id), Log{"e" + std::to_string(id)}) << id;
    }
    for (int id = 5; id <= 7; ++id)
    {
        const std::string e = "e" + std::to_string(id);
        EXPECT_EQ(Of(log, id), (Log{e + ":1", e + ":2", e + ":3", e + ":4", e})) << id;
    }
    // The stages are asked while the event before is being taken (inside RemoveNext, so
    // logged before it): e5:1 while e1 is taken, e6:1 and e5:2 while e2 is, e7:1 with e3.
    const Log expectedHead{"e0", "e5:1", "e1", "e6:1", "e5:2", "e2", "e7:1"};
    EXPECT_EQ(Log(log.begin(), log.begin() + 7), expectedHead);
}

TEST(WarmableEvent, NoStagesWithWarmAheadOff)
{
    // Made as the driver makes it (attributes need the TypeId set at construction).
    const WarmableEvent::WarmingScope warming;
    Ptr<RadixHeapScheduler> s = CreateObject<RadixHeapScheduler>();
    s->SetAttribute("WarmAhead", BooleanValue(false));
    const Log log = MakeAndDrain(*s, 8);
    EXPECT_EQ(log, (Log{"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"}));
}

TEST(WarmableEvent, NoStagesOutsideAWarmingScope)
{
    // As when Simulator::Destroy drains the queue after the network is gone: WarmAhead on,
    // but no scope open (the first one closed before the queue is drained).
    RadixHeapScheduler s;
    {
        const WarmableEvent::WarmingScope warming;
        EXPECT_TRUE(WarmableEvent::InWarmingScope());
        {
            const WarmableEvent::WarmingScope nested;
        }
        EXPECT_TRUE(WarmableEvent::InWarmingScope()); // a nested scope restores the outer
    }
    EXPECT_FALSE(WarmableEvent::InWarmingScope());
    const Log log = MakeAndDrain(s, 8);
    EXPECT_EQ(log, (Log{"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"}));
}

TEST(WarmableEvent, OnlyTheEventInsertedRightAfterItIsMadeIsWarmed)
{
    // w is made, then a plain event is inserted before w: that insertion takes (clears) the
    // announcement, so w is inserted unmarked and never warmed, however far ahead it waits.
    // v, made and inserted at once behind it, is warmed (6 plain events after it keep it
    // five ahead long enough: stage s after the s-th removal following its stage 0).
    const WarmableEvent::WarmingScope warming;
    Log log;
    RadixHeapScheduler s;
    PlainEvent plain[8];
    RecordingEvent w(1, log);
    s.Insert(At(100, 10, &plain[0]));
    s.Insert(At(100, 11, &w));
    for (int i = 1; i <= 6; ++i)
    {
        s.Insert(At(100, 11 + i, &plain[i]));
    }
    RecordingEvent v(2, log);
    s.Insert(At(100, 18, &v));
    s.Insert(At(100, 19, &plain[7]));
    std::vector<EventImpl*> left;
    while (!s.IsEmpty())
    {
        left.push_back(s.RemoveNext().impl);
    }
    EXPECT_TRUE(Of(log, 1).empty());
    EXPECT_EQ(Of(log, 2), (Log{"e2:1", "e2:2", "e2:3", "e2:4"}));
    // Every event left once, in uid order, unmarked.
    const std::vector<EventImpl*> expected{&plain[0],
                                           &w,
                                           &plain[1],
                                           &plain[2],
                                           &plain[3],
                                           &plain[4],
                                           &plain[5],
                                           &plain[6],
                                           &v,
                                           &plain[7]};
    EXPECT_EQ(left, expected);
}

TEST(WarmableEvent, AnEventDestroyedBeforeItsInsertionWithdrawsItsAnnouncement)
{
    Log log;
    const EventImpl* address = nullptr;
    {
        RecordingEvent gone(1, log);
        address = &gone;
    }
    // Another event may now be made at that address; it must not pass for a warmable one.
    EXPECT_FALSE(WarmableEvent::TakeAnnounced(address));
    RecordingEvent made(2, log);
    EXPECT_TRUE(WarmableEvent::TakeAnnounced(&made));
    EXPECT_FALSE(WarmableEvent::TakeAnnounced(&made)); // taken once
    // Any insertion takes the announcement, even of an event without an object.
    RecordingEvent next(3, log);
    EXPECT_FALSE(WarmableEvent::TakeAnnounced(nullptr));
    EXPECT_FALSE(WarmableEvent::TakeAnnounced(&next));
}

} // namespace
} // namespace ns3
