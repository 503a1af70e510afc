/*
 * PooledEvent: an ns-3 event (EventImpl) whose memory comes from a free list of its own class
 * instead of malloc.
 *
 * Why: the packet path schedules up to two events per frame and hop (the frame's arrival at
 * the next device, pfc-channel.cc, and the end of its transmission when another frame waits,
 * pfc-net-device-tx.cc). glibc's malloc and free of them (and of the frames) were ~13 % of
 * a fat-tree permutation's instructions (callgrind, bench/scaling_bench.py cases), and a
 * chunk freed to glibc's small-chunk bins is merged and split again. An event's memory taken
 * from the head of the list is the one freed last: most likely still in cache.
 *
 * The list is per thread (ns-3 runs a simulation on one thread; the list never crosses
 * threads) and keeps its memory until the thread ends: its size is the largest number of
 * these events pending at once (one per frame on a wire), not a leak. A block the list lacks
 * comes from the NetworkArena (network-arena.h), one cache line at least: the events then
 * sit together on few pages instead of among the frames and queue pairs of the heap (the
 * 8,192-host permutation took ~5 % less CPU; bench/README.md, "Pages, not lines").
 */
#ifndef PARAMSYNC_POOLED_EVENT_H
#define PARAMSYNC_POOLED_EVENT_H

#include "fast-tls.h"
#include "network-arena.h"

#include "ns3/event-impl.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \brief Base of an event class T (final, derived from PooledEvent<T, Base>) allocated from a
 * free list of T-sized blocks; Base is EventImpl or a class derived from it (WarmableEvent).
 */
template<typename T, typename Base = EventImpl>
class PooledEvent : public Base
{
  public:
    /**
     * \brief A new T as the Ptr that Simulator::Schedule takes. Schedule adds a reference of
     * its own (GetPointer), so the first one is adopted here (Ptr(p, false)): a raw `new`
     * converted to Ptr<EventImpl> would hold one more and the event would never be freed.
     */
    template<typename... Args>
    static Ptr<EventImpl>
    Make(Args&&... args)
    {
        return Ptr<EventImpl>(new T(std::forward<Args>(args)...), false);
    }
    /// \brief A block of the free list, or a new one from the NetworkArena (64-byte aligned:
    /// an event class may ask for a cache line of its own with alignas(64)).
    static void*
    operator new(std::size_t size)
    {
        FreeBlock*& head = FreeList();
        if (kPlainAllocation || size != sizeof(T))
        {
            return ::operator new (size, std::align_val_t{alignof(T)});
        }
        if (head == nullptr)
        {
            static_assert(alignof(T) <= NetworkArena::kAlignment, "arena blocks: 64-aligned");
            return NetworkArena::Allocate(size);
        }
        FreeBlock* block = head;
        head = block->next;
        return block;
    }
    /// \brief Back to the free list (the event's destructor has run).
    static void
    operator delete(void* p, std::size_t size)
    {
        if (p == nullptr)
        {
            return;
        }
        if (kPlainAllocation || size != sizeof(T))
        {
            ::operator delete (p, std::align_val_t{alignof(T)});
            return;
        }
        FreeList() = new (p) FreeBlock{FreeList()};
    }

  private:
#if defined(__SANITIZE_ADDRESS__)
    /// Under AddressSanitizer every event is malloc'd and freed, so that a use after free of
    /// one is reported (a reused block would hide it).
    static constexpr bool kPlainAllocation = true;
#else
    static constexpr bool kPlainAllocation = false; //!< see the sanitizer branch
#endif
    /// A free block: the first word of a freed event.
    struct FreeBlock
    {
        FreeBlock* next; //!< the next free block
    };
    static_assert(sizeof(FreeBlock) <= sizeof(EventImpl), "an event holds a free-list link");

    /// \brief This thread's free list of T blocks.
    static FreeBlock*&
    FreeList()
    {
        PARAMSYNC_FAST_TLS static thread_local FreeBlock* head = nullptr;
        return head;
    }
};

/**
 * \brief A pooled event that calls obj->*Method(): what Simulator::Schedule(delay, &T::Method,
 * obj) makes with MakeEvent, without its malloc and free. For timers that fire per queue pair
 * and period while a run is busy: DCQCN's rate-increase timer was one malloc and one free per
 * 55 us of every rate-limited queue pair, 0.1 a packet-hop on the 1,024-host permutation, the
 * packet path's last allocation (callgrind; bench/README.md, "timers without malloc").
 */
template<class T, void (T::*Method)()>
class PooledMethodEvent final : public PooledEvent<PooledMethodEvent<T, Method>>
{
  public:
    /// \brief Call Method on obj (which must outlive the event or cancel it).
    explicit PooledMethodEvent(T* obj)
        : m_obj(obj)
    {
    }

  private:
    void
    Notify() override
    {
        (m_obj->*Method)();
    }

    T* m_obj; //!< the object called
};

} // namespace ns3

#endif // PARAMSYNC_POOLED_EVENT_H
