/*
 * QuadHeapScheduler: ns-3's event queue as a 4-ary heap in one array.
 *
 * A large run keeps ~100 k events pending (one arrival per frame on a link, one transmit end
 * per busy port): ns-3's PriorityQueueScheduler (a binary heap) then walks ~17 levels per
 * removal, most of them cache misses, and was ~11% of a fat-tree run. Four children per node
 * halve the depth, and the four sit side by side (two cache lines), so a removal touches
 * about half as many lines. The order is the same as every ns-3 scheduler's: time stamp, then
 * insertion id (a total order, so results do not depend on the scheduler).
 */
#ifndef PARAMSYNC_QUAD_HEAP_SCHEDULER_H
#define PARAMSYNC_QUAD_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \brief Event scheduler on a 4-ary min-heap of (time stamp, uid).
 */
class QuadHeapScheduler : public Scheduler
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();
    QuadHeapScheduler();
    ~QuadHeapScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    /// Linear search: ns-3 calls it only for Simulator::Remove, which paramsync does not use.
    void Remove(const Scheduler::Event& ev) override;

  private:
    /// \brief Whether a comes before b.
    static bool
    Before(const Scheduler::Event& a, const Scheduler::Event& b)
    {
        // One 128-bit comparison instead of two dependent branches.
        return Key(a) < Key(b);
    }
    /// \brief (time stamp, uid) as one number.
    static unsigned __int128
    Key(const Scheduler::Event& e)
    {
        return (static_cast<unsigned __int128>(e.key.m_ts) << 32) | e.key.m_uid;
    }
    /// \brief Move ev up from the hole at i to its place.
    void SiftUp(std::size_t i, const Scheduler::Event& ev);
    /// \brief Move ev down from the hole at i to its place.
    void SiftDown(std::size_t i, const Scheduler::Event& ev);

    std::vector<Scheduler::Event> m_heap; //!< children of i at 4i+1..4i+4
};

} // namespace ns3

#endif // PARAMSYNC_QUAD_HEAP_SCHEDULER_H
