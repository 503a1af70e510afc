#include "quad-heap-scheduler.h"

#include "ns3/assert.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

namespace
{
constexpr std::size_t kArity = 4;
} // namespace

TypeId
QuadHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuadHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<QuadHeapScheduler>();
    return tid;
}

QuadHeapScheduler::QuadHeapScheduler() = default;

QuadHeapScheduler::~QuadHeapScheduler() = default;

void
QuadHeapScheduler::Insert(const Scheduler::Event& ev)
{
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, ev);
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
QuadHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    Scheduler::Event next = m_heap.front();
    Scheduler::Event last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
    return next;
}

void
QuadHeapScheduler::Remove(const Scheduler::Event& ev)
{
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].impl == ev.impl && m_heap[i].key.m_uid == ev.key.m_uid)
        {
            Scheduler::Event last = m_heap.back();
            m_heap.pop_back();
            if (i < m_heap.size())
            {
                // The last event fills the hole: it may belong above or below it.
                if (i > 0 && Before(last, m_heap[(i - 1) / kArity]))
                {
                    SiftUp(i, last);
                }
                else
                {
                    SiftDown(i, last);
                }
            }
            return;
        }
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: no such event");
}

void
QuadHeapScheduler::SiftUp(std::size_t i, const Scheduler::Event& ev)
{
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / kArity;
        if (!Before(ev, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

void
QuadHeapScheduler::SiftDown(std::size_t i, const Scheduler::Event& ev)
{
    // Bottom-up (as std::pop_heap): the smallest child moves up into the hole down to a leaf,
    // then ev, which came from the bottom and nearly always belongs there, rises. One
    // comparison chain per level instead of a test against ev at every level.
    const std::size_t n = m_heap.size();
    for (;;)
    {
        const std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        if (first + kArity <= n)
        {
            const std::size_t a = Before(m_heap[first + 1], m_heap[first]) ? first + 1 : first;
            const std::size_t b = Before(m_heap[first + 3], m_heap[first + 2]) ? first + 3
                                                                               : first + 2;
            best = Before(m_heap[b], m_heap[a]) ? b : a;
        }
        else
        {
            for (std::size_t c = first + 1; c < n; ++c)
            {
                if (Before(m_heap[c], m_heap[best]))
                {
                    best = c;
                }
            }
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    SiftUp(i, ev);
}

} // namespace ns3
