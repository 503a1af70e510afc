#include "pause-spread.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>

namespace ns3
{

namespace
{

/// Hop distances from one node (BFS), computed once per cascade root.
class Distances
{
  public:
    explicit Distances(const std::vector<std::vector<uint32_t>>& adjacency)
        : m_adjacency(adjacency)
    {
    }

    uint32_t
    Between(uint32_t root, uint32_t node)
    {
        auto it = m_from.find(root);
        if (it == m_from.end())
        {
            it = m_from.emplace(root, Bfs(root)).first;
        }
        return it->second.at(node);
    }

  private:
    std::vector<uint32_t>
    Bfs(uint32_t root) const
    {
        std::vector<uint32_t> d(m_adjacency.size(), std::numeric_limits<uint32_t>::max());
        std::deque<uint32_t> queue{root};
        d.at(root) = 0;
        while (!queue.empty())
        {
            const uint32_t v = queue.front();
            queue.pop_front();
            for (uint32_t w : m_adjacency[v])
            {
                if (d[w] == std::numeric_limits<uint32_t>::max())
                {
                    d[w] = d[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        return d;
    }

    const std::vector<std::vector<uint32_t>>& m_adjacency;
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_from;
};

} // namespace

uint32_t
PauseSpread::Depth(std::vector<PausedEgress> intervals,
                   const std::vector<std::vector<uint32_t>>& adjacency)
{
    std::sort(intervals.begin(), intervals.end(), [](const PausedEgress& a, const PausedEgress& b) {
        return a.startS < b.startS;
    });
    Distances distances(adjacency);
    // Per node, its egress intervals seen so far that may still be open (pruned lazily:
    // starts only grow, so an interval that ended before the current start never matches).
    struct Open
    {
        uint32_t peer;
        double endS;
        uint32_t root;
    };
    std::unordered_map<uint32_t, std::vector<Open>> open;
    uint32_t deepest = 0;
    for (const PausedEgress& x : intervals)
    {
        // Not part of a cascade: the pausing node is the congestion point, one hop away.
        uint32_t root = x.peer;
        uint32_t reach = 1;
        auto it = open.find(x.peer);
        if (it != open.end())
        {
            std::vector<Open>& behind = it->second;
            behind.erase(std::remove_if(behind.begin(),
                                        behind.end(),
                                        [&](const Open& o) { return o.endS < x.startS; }),
                         behind.end());
            for (const Open& o : behind)
            {
                const uint32_t d = o.peer != x.node ? distances.Between(o.root, x.node) : 0;
                if (d > reach)
                {
                    reach = d;
                    root = o.root;
                }
            }
        }
        open[x.node].push_back({x.peer, x.endS, root});
        deepest = std::max(deepest, reach);
    }
    return deepest;
}

} // namespace ns3
