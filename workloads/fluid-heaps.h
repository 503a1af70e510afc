/*
 * The two heaps of a fluid run (workloads/fluid-estimator.cc): the pending completions,
 * one per busy queue pair, and the links of one progressive filling by saturation level.
 */
#ifndef PARAMSYNC_FLUID_HEAPS_H
#define PARAMSYNC_FLUID_HEAPS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ns3
{

/**
 * A min-heap of queue pairs keyed by their next completion time, indexed by queue pair so
 * that a key changes in place (a refill reschedules every queue pair of a component) and
 * the heap never holds more than one entry per queue pair.
 */
class FluidCompletionHeap
{
  public:
    static constexpr uint32_t kAbsent = ~0u; //!< position of a queue pair not in the heap

    /// \brief Room for queue pairs 0..n-1.
    void
    Grow(uint32_t n)
    {
        m_pos.resize(n, kAbsent);
        m_key.resize(n, 0);
    }

    bool
    Empty() const
    {
        return m_heap.empty();
    }

    bool
    Contains(uint32_t qp) const
    {
        return m_pos[qp] != kAbsent;
    }

    uint32_t
    Top() const
    {
        return m_heap.front();
    }

    double
    TopKey() const
    {
        return m_key[m_heap.front()];
    }

    /// \brief Inserts qp, or moves it to its new key.
    void
    Set(uint32_t qp, double key)
    {
        const double old = m_key[qp];
        m_key[qp] = key;
        if (m_pos[qp] == kAbsent)
        {
            m_pos[qp] = static_cast<uint32_t>(m_heap.size());
            m_heap.push_back(qp);
            Up(m_pos[qp]);
        }
        else if (key < old)
        {
            Up(m_pos[qp]);
        }
        else
        {
            Down(m_pos[qp]);
        }
    }

    /// \brief Removes qp if present.
    void
    Remove(uint32_t qp)
    {
        const uint32_t i = m_pos[qp];
        if (i == kAbsent)
        {
            return;
        }
        m_pos[qp] = kAbsent;
        const uint32_t last = m_heap.back();
        m_heap.pop_back();
        if (i < m_heap.size())
        {
            m_heap[i] = last;
            m_pos[last] = i;
            Up(i);
            Down(m_pos[last]);
        }
    }

  private:
    void
    Up(uint32_t i)
    {
        const uint32_t q = m_heap[i];
        while (i > 0)
        {
            const uint32_t parent = (i - 1) / 2;
            if (!(m_key[q] < m_key[m_heap[parent]]))
            {
                break;
            }
            m_heap[i] = m_heap[parent];
            m_pos[m_heap[i]] = i;
            i = parent;
        }
        m_heap[i] = q;
        m_pos[q] = i;
    }

    void
    Down(uint32_t i)
    {
        const uint32_t q = m_heap[i];
        const auto n = static_cast<uint32_t>(m_heap.size());
        while (true)
        {
            uint32_t c = 2 * i + 1;
            if (c >= n)
            {
                break;
            }
            if (c + 1 < n && m_key[m_heap[c + 1]] < m_key[m_heap[c]])
            {
                ++c;
            }
            if (!(m_key[m_heap[c]] < m_key[q]))
            {
                break;
            }
            m_heap[i] = m_heap[c];
            m_pos[m_heap[i]] = i;
            i = c;
        }
        m_heap[i] = q;
        m_pos[q] = i;
    }

    std::vector<uint32_t> m_heap; //!< queue pairs, heap-ordered by m_key
    std::vector<uint32_t> m_pos;  //!< per queue pair: index in m_heap or kAbsent
    std::vector<double> m_key;    //!< per queue pair: completion time of its head (s)
};

/**
 * The links of a progressive filling, a min-heap on (saturation level, link): levels are
 * lower bounds that the filling raises at the top (RaiseTop) instead of popping and pushing.
 */
class FluidLevelHeap
{
  public:
    /// \brief A link and its level, as Top gives them.
    struct Level
    {
        double level;
        uint32_t link;
    };

    void
    Clear()
    {
        m_heap.clear();
    }

    void
    Add(double level, uint32_t link)
    {
        m_heap.push_back(EntryOf(level, link));
    }

    /// \brief Orders what Add put in.
    void
    Build()
    {
        for (size_t i = (m_heap.size() + kArity - 2) / kArity; i-- > 0;)
        {
            Down(i);
        }
    }

    bool
    Empty() const
    {
        return m_heap.empty();
    }

    Level
    Top() const
    {
        const Entry top = m_heap.front();
        return {LevelOf(static_cast<uint64_t>(top >> 32)), static_cast<uint32_t>(top)};
    }

    void
    Pop()
    {
        m_heap.front() = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty())
        {
            Down(0);
        }
    }

    /// \brief Gives the top its new, higher level.
    void
    RaiseTop(double level)
    {
        m_heap.front() = EntryOf(level, static_cast<uint32_t>(m_heap.front()));
        Down(0);
    }

  private:
    /// (level, link) as one 128-bit integer, compared without branches: a level's bits
    /// reordered so that unsigned order is the order of the doubles (-0 taken as +0; levels
    /// are never NaN) above the link. Equal levels are common (symmetric topologies), and a
    /// branch on them is mispredicted about half the time.
    __extension__ typedef unsigned __int128 Entry;

    static Entry
    EntryOf(double level, uint32_t link)
    {
        return (Entry{KeyOf(level)} << 32) | link;
    }

    static constexpr uint64_t kSign = uint64_t{1} << 63;

    static uint64_t
    KeyOf(double level)
    {
        const double z = level + 0.0; // -0 + 0 is +0
        uint64_t bits;
        std::memcpy(&bits, &z, sizeof bits);
        return (bits & kSign) != 0 ? ~bits : bits | kSign;
    }

    static double
    LevelOf(uint64_t key)
    {
        const uint64_t bits = (key & kSign) != 0 ? key & ~kSign : ~key;
        double level;
        std::memcpy(&level, &bits, sizeof level);
        return level;
    }

    /// Four children per node: half the depth of a binary heap, and a node's children share
    /// a cache line; the filling's heap is mostly RaiseTop, a walk down from the root.
    static constexpr size_t kArity = 4;

    void
    Down(size_t i)
    {
        const Entry e = m_heap[i];
        const size_t n = m_heap.size();
        while (true)
        {
            const size_t first = kArity * i + 1;
            if (first >= n)
            {
                break;
            }
            size_t c = first;
            Entry least = m_heap[first];
            const size_t end = std::min(first + kArity, n);
            for (size_t k = first + 1; k < end; ++k)
            {
                const Entry v = m_heap[k];
                const bool less = v < least;
                least = less ? v : least;
                c = less ? k : c;
            }
            if (!(least < e))
            {
                break;
            }
            m_heap[i] = least;
            i = c;
        }
        m_heap[i] = e;
    }

    std::vector<Entry> m_heap;
};

} // namespace ns3

#endif // PARAMSYNC_FLUID_HEAPS_H
