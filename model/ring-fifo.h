/*
 * RingFifo: a first-in first-out queue of move-only items in one ring buffer that takes no
 * memory while it has never held anything.
 *
 * Every device keeps one data queue per priority and every switch port one egress FIFO per
 * priority, nearly all of them empty at any time. libstdc++'s std::deque allocates its map
 * and a 512-byte block on construction, so each empty queue cost ~650 B: 45 MB of the 1,024-
 * host fat-tree's 11,264 queue sets (6,144 devices and 5,120 switch ports, 8 priorities each),
 * more than its forwarding and NIC state together. A ring also keeps a queue's items in one
 * block: a frame's entry is found from the head index alone. The ring itself is 24 bytes (a
 * pointer and three 32-bit counts, not a std::vector and two size_t: 40), so that the eight
 * queues of a switch port or device take three cache lines instead of five: the relay path
 * of a large topology reads them at a cache miss each (model/pfc-switch.h).
 */
#ifndef PARAMSYNC_RING_FIFO_H
#define PARAMSYNC_RING_FIFO_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \brief FIFO of T (move-constructible) on a power-of-two ring that doubles when full and
 * never shrinks (a port that queued much will again).
 *
 * Only the queued items are constructed: a push constructs its item in a free slot, a pop
 * destroys it. So a push writes its slot without reading it (a move assignment into a
 * default item would first read the slot to release what it held: at 1,024 hosts that slot
 * is a cache miss on every switch hop, the largest single stall of PfcSwitch::RelayReceive
 * in a cpu-clock profile; a store miss waits in the store buffer instead).
 */
template<typename T>
class RingFifo
{
  public:
    RingFifo() = default;
    ~RingFifo() { clear(); }
    RingFifo(const RingFifo&) = delete;
    RingFifo& operator=(const RingFifo&) = delete;
    /// \brief Takes o's ring; o is empty after.
    RingFifo(RingFifo&& o) noexcept
        : m_slots(std::move(o.m_slots)),
          m_capacity(o.m_capacity),
          m_head(o.m_head),
          m_count(o.m_count)
    {
        o.m_capacity = o.m_head = o.m_count = 0;
    }
    /// \brief Drops ours, takes o's ring; o is empty after.
    RingFifo&
    operator=(RingFifo&& o) noexcept
    {
        if (this != &o)
        {
            clear();
            m_slots = std::move(o.m_slots);
            m_capacity = o.m_capacity;
            m_head = o.m_head;
            m_count = o.m_count;
            o.m_capacity = o.m_head = o.m_count = 0;
        }
        return *this;
    }

    /// \brief Whether nothing is queued.
    bool
    empty() const
    {
        return m_count == 0;
    }

    /// \brief Items queued.
    std::size_t
    size() const
    {
        return m_count;
    }

    /// \brief The oldest item (the queue must not be empty).
    T&
    front()
    {
        return *At(m_head);
    }
    /// \brief The oldest item (the queue must not be empty).
    const T&
    front() const
    {
        return *At(m_head);
    }

    /// \brief The newest item (not empty).
    T&
    back()
    {
        return *At((m_head + m_count - 1) & (m_capacity - 1));
    }

    /// \brief Appends an item, growing the ring when it is full.
    void
    push_back(T&& item)
    {
        if (m_count == m_capacity)
        {
            Grow();
        }
        new (&m_slots[(m_head + m_count) & (m_capacity - 1)]) T(std::move(item));
        ++m_count;
    }

    /// \brief Removes the oldest item (what it held is released now).
    void
    pop_front()
    {
        At(m_head)->~T();
        m_head = (m_head + 1) & (m_capacity - 1);
        --m_count;
    }

    /// \brief Removes every item; the ring keeps its size.
    void
    clear()
    {
        while (!empty())
        {
            pop_front();
        }
    }

  private:
    /// \brief Storage for one item, constructed only while the item is queued.
    struct Slot
    {
        alignas(T) unsigned char bytes[sizeof(T)];
    };

    /// \brief The item in slot i (constructed: i is in the queued range).
    T*
    At(uint32_t i) const
    {
        return std::launder(reinterpret_cast<T*>(m_slots[i].bytes));
    }

    /// \brief Doubles the ring (4 slots at first), the oldest item moving to slot 0.
    void
    Grow()
    {
        const uint32_t capacity = m_capacity == 0 ? 4 : 2 * m_capacity;
        std::unique_ptr<Slot[]> bigger(new Slot[capacity]);
        for (uint32_t i = 0; i < m_count; ++i)
        {
            T* from = At((m_head + i) & (m_capacity - 1));
            new (&bigger[i]) T(std::move(*from));
            from->~T();
        }
        m_slots = std::move(bigger);
        m_capacity = capacity;
        m_head = 0;
    }

    std::unique_ptr<Slot[]> m_slots; //!< the ring (items constructed in the queued range only)
    uint32_t m_capacity{0};          //!< its slots: 0 or a power of two
    uint32_t m_head{0};              //!< slot of the oldest item
    uint32_t m_count{0};             //!< items queued
};

} // namespace ns3

#endif // PARAMSYNC_RING_FIFO_H
