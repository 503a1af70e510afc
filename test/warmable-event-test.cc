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

/// Warmable events inserted one at a time (event i: uid 10 + i, stages logged as "ei:s") and
/// taken with each removal logged as "taken<i>", into one log.
class Scenario
{
  public:
    /// \brief Make the next event and insert it at time ts.
    void
    Insert(uint64_t ts)
    {
        const int id = static_cast<int>(m_events.size());
        m_events.push_back(std::make_unique<RecordingEvent>(id, log));
        queue.Insert(At(ts, static_cast<uint32_t>(10 + id), m_events.back().get()));
    }

    /// \brief Take the next event and log which one it was.
    void
    Take()
    {
        const EventImpl* impl = queue.RemoveNext().impl;
        for (std::size_t i = 0; i < m_events.size(); ++i)
        {
            if (m_events[i].get() == impl)
            {
                log.push_back("taken" + std::to_string(i));
            }
        }
    }

    /// \brief Take every event left.
    void
    Drain()
    {
        while (!queue.IsEmpty())
        {
            Take();
        }
    }

    Log log;                  //!< stages and removals, in order
    RadixHeapScheduler queue; //!< the queue under test

  private:
    std::vector<std::unique_ptr<RecordingEvent>> m_events;
};

/// The removals of a log alone, in order.
Log
Removals(const Log& log)
{
    Log out;
    for (const std::string& entry : log)
    {
        if (entry.rfind("taken", 0) == 0)
        {
            out.push_back(entry);
        }
    }
    return out;
}

TEST(WarmableEvent, EachStageOnceInOrderBeforeTheEventLeaves)
{
    // 8 events of one time. While event k is taken, WarmAhead looks at the next six (k+1 ..
    // k+6, kWarmWindow) and moves each one stage on: an event new to the window gets its
    // own line prefetched (stage 0, not logged), one seen at the last removal the stage
    // after the one it had, up to 4 (kWarmStages). Taking e0 gives e1..e6 stage 0; taking e1
    // gives e2..e6 stage 1 and e7 stage 0; and so on: an event has as many stages as
    // removals it waited in the window after the first, at most 4.
    //   e0: never in a window; e1: stage 0 only; e2: 1; e3: 1, 2; e4: 1..3; e5: 1..4;
    //   e6, e7: 1..4 (an event that enters the window last reaches stage 4 two removals
    //   before it is taken: six places, its own line, four stages and one removal for the
    //   last stage's lines to arrive).
    const WarmableEvent::WarmingScope warming;
    RadixHeapScheduler s;
    const Log log = MakeAndDrain(s, 8);
    const std::vector<int> stages{0, 0, 1, 2, 3, 4, 4, 4};
    for (int id = 0; id < 8; ++id)
    {
        const std::string e = "e" + std::to_string(id);
        Log expected;
        for (int stage = 1; stage <= stages[id]; ++stage)
        {
            expected.push_back(e + ":" + std::to_string(stage));
        }
        expected.push_back(e);
        EXPECT_EQ(Of(log, id), expected) << id;
    }
    // The stages are asked while the event before is being taken (inside RemoveNext, so
    // logged before it), in the order the events run: e2..e6 stage 1 while e1 is taken.
    const Log expectedHead{"e0", "e2:1", "e3:1", "e4:1", "e5:1", "e6:1", "e1", "e3:2"};
    EXPECT_EQ(Log(log.begin(), log.begin() + 8), expectedHead);
}

TEST(WarmableEvent, TheWindowCrossesChunks)
{
    // 100 events of one time fill bucket 0's chunks of 42 events each (1 KiB chunks, 24
    // bytes an event after a 16-byte header: RadixHeapScheduler::kChunkEvents): while one of
    // the last five of a chunk is taken, the window runs on into the next chunk. Every event
    // from e6 on waits in the window six removals (it enters as the sixth), so each has
    // stages 1..4 (kWarmStages), once each and in order, e42 and e84 (the first of a chunk)
    // as well.
    const WarmableEvent::WarmingScope warming;
    RadixHeapScheduler s;
    const Log log = MakeAndDrain(s, 100);
    for (int id = 6; id < 100; ++id)
    {
        const std::string e = "e" + std::to_string(id);
        EXPECT_EQ(Of(log, id), (Log{e + ":1", e + ":2", e + ":3", e + ":4", e})) << id;
    }
}

TEST(WarmableEvent, StagesGoOnAcrossTimesAndAnEventInsertedAhead)
{
    // e0 at 100 ns, e1..e4 at 110 ns: after e0 is taken, bucket 0 is empty and the next
    // events wait in a level-0 bucket (one time each, in key order); the window reads them
    // there (stage 0 each). x (e5) is then inserted at 105 ns, ahead of them, and taken
    // next: e1..e4 keep their stages (found by uid, not by position) and move to stage 1.
    // Taking e1 gives e2..e4 stage 2, e2 gives e3, e4 stage 3, e3 gives e4 stage 4.
    const WarmableEvent::WarmingScope warming;
    Scenario s;
    s.Insert(100);
    for (int id = 1; id <= 4; ++id)
    {
        s.Insert(110);
    }
    s.Take(); // e0
    s.Insert(105);
    s.Drain();
    // Event 5 is x: taken second, never warmed (it was next as soon as it was inserted).
    EXPECT_EQ(s.log,
              (Log{"taken0",
                   "e1:1",
                   "e2:1",
                   "e3:1",
                   "e4:1",
                   "taken5",
                   "e2:2",
                   "e3:2",
                   "e4:2",
                   "taken1",
                   "e3:3",
                   "e4:3",
                   "taken2",
                   "e4:4",
                   "taken3",
                   "taken4"}));
}

TEST(WarmableEvent, EventsInsertedBehindTheWindowJoinItInOrder)
{
    // The window is kept from one removal to the next and filled from where it was last
    // read, so an event inserted behind its last one must still be found there: in a
    // level-0 bucket made non-empty after the window was read (e3 at 115 ns, then e4 at
    // 120 ns), and in the window's last bucket itself (e5 at 120 ns, behind e4). All times
    // are below 128 ns, so every one of them is a level-0 bucket against a base of 100 ns
    // (their 6-bit digits above the lowest agree).
    //   take e0: e1, e2 (110 ns) enter the window (stage 0, not logged);
    //   take e1 (after e3 is inserted): e2 stage 1, e3 enters;
    //   take e2 (after e4, e5): e3 stage 1, e4 and e5 enter;
    //   take e3: e4, e5 stage 1; take e4: e5 stage 2; take e5.
    const WarmableEvent::WarmingScope warming;
    Scenario s;
    s.Insert(100);
    s.Insert(110);
    s.Insert(110);
    s.Take();
    s.Insert(115);
    s.Take();
    s.Insert(120);
    s.Insert(120);
    s.Drain();
    EXPECT_EQ(s.log,
              (Log{"taken0",
                   "e2:1",
                   "taken1",
                   "e3:1",
                   "taken2",
                   "e4:1",
                   "e5:1",
                   "taken3",
                   "e5:2",
                   "taken4",
                   "taken5"}));
}

TEST(WarmableEvent, AnEventInsertedBetweenTheWindowsEventsJoinsIt)
{
    // e0, e1, e2 at 100 ns, e3, e4 at 110 ns; x (e5) is inserted at 105 ns after e0 is
    // taken: behind e2, ahead of e3 and e4, which are in the window already. The window is
    // then made afresh at the next removal (x enters it, stage 0) and the others keep their
    // stages (found by uid):
    //   take e0: e1..e4 enter; take e1: e2, e3, e4 stage 1, x enters;
    //   take e2: x stage 1, e3, e4 stage 2; take x: e3, e4 stage 3; take e3: e4 stage 4.
    const WarmableEvent::WarmingScope warming;
    Scenario s;
    for (const uint64_t ts : {100, 100, 100, 110, 110})
    {
        s.Insert(ts);
    }
    s.Take();
    s.Insert(105);
    s.Drain();
    EXPECT_EQ(Of(s.log, 5), (Log{"e5:1"}));
    EXPECT_EQ(Of(s.log, 4), (Log{"e4:1", "e4:2", "e4:3", "e4:4"}));
    EXPECT_EQ(Removals(s.log), (Log{"taken0", "taken1", "taken2", "taken5", "taken3", "taken4"}));
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
    // v, made and inserted at once behind it, is warmed: it enters the window (six events)
    // as plain[1] is taken, and has stage s after the s-th removal following: stages 1..4
    // (kWarmStages) while plain[2] .. plain[5] are taken.
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
