/*
 * WarmableEvent: an ns-3 event that can name, before it runs, the memory it will read first,
 * so that the event queue (radix-heap-scheduler.h) has that memory loaded while the events
 * ahead of it run.
 *
 * Why: in a large network a frame's arrival and a transmission's end read state (the
 * receiving device, its switch, a forwarding entry, an egress queue) that left the cache in
 * the microsecond since it was last touched; each event then waits on its cache misses one
 * after another (~13 lines from L3 or DRAM per packet-hop at 1,024 hosts, bench/README.md).
 * The simulator knows which events run next: at the 1,024-host permutation the event after
 * the running one is in the queue's bucket of the current time ~94 % of the time. An event
 * that is about to run can be asked to prefetch its first lines, so their loads overlap the
 * work of the events before it (software pipelining across events: the stages are in
 * RadixHeapScheduler::WarmAhead).
 *
 * Stages: Warm(1) prefetches what the event's own line points to directly (the receiving
 * device's receive line); Warm(2) runs one event later, when those lines are expected to be
 * cached, and prefetches what they point to (the switch's line, the forwarding entry, the
 * egress queue). A stage only reads lines an earlier stage prefetched and only prefetches,
 * but for one answer it remembers that the event would compute again the same way (a switch
 * arrival's route: ForwardingTable::PeekedRoute, used only for the same flow on the same
 * compiled table): warming an event that is then cancelled, or whose lines an earlier event
 * changes, costs a few wasted loads, never a different result.
 *
 * How the queue tells a warmable event from any other ns-3 EventImpl (ns-3's EventImpl has
 * no such virtual, and a dynamic_cast per event would cost more than it saves): a
 * WarmableEvent announces itself when it is made (Announce); Simulator::Schedule inserts it
 * right after, and the queue takes the announcement (TakeAnnounced) with that insertion. An
 * event destroyed before its insertion withdraws its announcement, so a stale address can
 * never be taken for a warmable event.
 *
 * When: only inside a WarmingScope (ParamsyncHelper::Run opens one around Simulator::Run).
 * A warmable event holds plain pointers to objects its Notify would find alive; an event
 * left pending when a run stops is never notified, and Simulator::Destroy drains the queue
 * (RemoveNext) after the nodes, and with them the devices, switches and NICs, are gone:
 * warming it there would read freed memory.
 */
#ifndef PARAMSYNC_WARMABLE_EVENT_H
#define PARAMSYNC_WARMABLE_EVENT_H

#include "fast-tls.h"

#include "ns3/event-impl.h"

namespace ns3
{

/**
 * \brief An EventImpl that can prefetch the memory its Notify will read, in two stages.
 */
class WarmableEvent : public EventImpl
{
  public:
    /// \brief Announce this event to the queue that is about to insert it.
    WarmableEvent() { Announced() = this; }
    ~WarmableEvent() override
    {
        if (Announced() == this)
        {
            Announced() = nullptr;
        }
    }
    WarmableEvent(const WarmableEvent&) = delete;
    WarmableEvent& operator=(const WarmableEvent&) = delete;

    /**
     * \brief Prefetch the lines this event's Notify reads at depth stage (1: what this event
     * points to; 2: what those lines point to, read from them). Reads only this event and the
     * lines stage - 1 prefetched; stores nothing that Notify could read differently (at
     * most an answer it would compute itself: ForwardingTable::PeekedRoute).
     */
    virtual void Warm(int stage) const = 0;

    /// \brief While one lives (on this thread), the event queue may warm events.
    class WarmingScope
    {
      public:
        WarmingScope()
            : m_outer(Warming())
        {
            Warming() = true;
        }
        ~WarmingScope() { Warming() = m_outer; }
        WarmingScope(const WarmingScope&) = delete;
        WarmingScope& operator=(const WarmingScope&) = delete;

      private:
        bool m_outer; //!< whether an enclosing scope was open
    };

    /// \brief Whether a WarmingScope is open on this thread.
    static bool
    InWarmingScope()
    {
        return Warming();
    }

    /// \brief Whether impl is the warmable event made last and not yet taken; clears it.
    static bool
    TakeAnnounced(const EventImpl* impl)
    {
        const bool is = impl != nullptr && impl == Announced();
        Announced() = nullptr;
        return is;
    }

  private:
    /// \brief Whether a WarmingScope is open on this thread.
    static bool&
    Warming()
    {
        PARAMSYNC_FAST_TLS static thread_local bool warming = false;
        return warming;
    }
    /// \brief The warmable event made last on this thread and not yet inserted.
    static const EventImpl*&
    Announced()
    {
        PARAMSYNC_FAST_TLS static thread_local const EventImpl* announced = nullptr;
        return announced;
    }
};

} // namespace ns3

#endif // PARAMSYNC_WARMABLE_EVENT_H
