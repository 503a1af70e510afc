#include "rank-iteration-barrier.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

RankIterationBarrier::RankIterationBarrier(uint32_t ranks,
                                           uint32_t self,
                                           Send send,
                                           Release release)
    : m_ranks(ranks),
      m_self(self),
      m_send(std::move(send)),
      m_release(std::move(release))
{
    if (self >= ranks)
    {
        throw std::invalid_argument("RankIterationBarrier: rank " + std::to_string(self) + " of " +
                                    std::to_string(ranks) + " ranks");
    }
}

void
RankIterationBarrier::LocalEnd(uint32_t iteration, Time end)
{
    // Told before recorded: the notices of iteration i leave before any post of i + 1 that
    // the release below may make.
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (r != m_self)
        {
            m_send(r, iteration, end);
        }
    }
    Record(m_self, iteration, end);
}

void
RankIterationBarrier::RemoteEnd(uint32_t rank, uint32_t iteration, Time end)
{
    if (rank >= m_ranks || rank == m_self)
    {
        throw std::invalid_argument("RankIterationBarrier: an end notice from rank " +
                                    std::to_string(rank) + " on rank " + std::to_string(m_self) +
                                    " of " + std::to_string(m_ranks));
    }
    Record(rank, iteration, end);
}

void
RankIterationBarrier::Record(uint32_t rank, uint32_t iteration, Time end)
{
    // A notice of a later iteration may come before this one closed (a rank with nothing
    // delivered to it ends an iteration when it begins it): ends are kept per iteration.
    const auto second = [&]() {
        return std::logic_error("RankIterationBarrier: a second end of iteration " +
                                std::to_string(iteration) + " from rank " + std::to_string(rank));
    };
    if (end.IsNegative())
    {
        throw std::invalid_argument("RankIterationBarrier: rank " + std::to_string(rank) +
                                    " ended iteration " + std::to_string(iteration) +
                                    " before time 0");
    }
    if (iteration < m_released)
    {
        throw second();
    }
    std::vector<Time>& ends = m_ends.try_emplace(iteration, m_ranks, Seconds(-1)).first->second;
    if (!ends[rank].IsNegative())
    {
        throw second();
    }
    ends[rank] = end;
    if (std::any_of(ends.begin(), ends.end(), [](Time t) { return t.IsNegative(); }))
    {
        return;
    }
    const Time last = *std::max_element(ends.begin(), ends.end());
    m_ends.erase(iteration);
    m_released = iteration + 1;
    m_release(iteration, last);
}

} // namespace ns3
