#include "pause-spread.h"

#include <algorithm>
#include <unordered_map>

namespace ns3
{

uint32_t
PauseSpread::Depth(std::vector<PausedEgress> intervals)
{
    std::sort(intervals.begin(), intervals.end(), [](const PausedEgress& a, const PausedEgress& b) {
        return a.startS < b.startS;
    });
    // Per node, its egress intervals seen so far that may still be open (pruned lazily:
    // starts only grow, so an interval that ended before the current start never matches).
    struct Open
    {
        uint32_t peer;
        double endS;
        uint32_t depth;
    };
    std::unordered_map<uint32_t, std::vector<Open>> open;
    uint32_t deepest = 0;
    for (const PausedEgress& x : intervals)
    {
        uint32_t depth = 1;
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
                if (o.peer != x.node)
                {
                    depth = std::max(depth, o.depth + 1);
                }
            }
        }
        open[x.node].push_back({x.peer, x.endS, depth});
        deepest = std::max(deepest, depth);
    }
    return deepest;
}

} // namespace ns3
