// PauseSpread: the reach of a pause cascade from hand-made pause intervals.
#include "ns3/pause-spread.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A line 0 - 1 - 2 - 3 (or a ring when `ring`): each node's neighbours.
std::vector<std::vector<uint32_t>>
Chain(uint32_t n, bool ring)
{
    std::vector<std::vector<uint32_t>> adj(n);
    for (uint32_t v = 0; v + 1 < n || (ring && v < n); ++v)
    {
        const uint32_t w = (v + 1) % n;
        adj[v].push_back(w);
        adj[w].push_back(v);
    }
    return adj;
}

} // namespace

TEST(PauseSpread, ReachIsTheHopDistanceFromTheCongestionPoint)
{
    const auto line = Chain(4, false);
    EXPECT_EQ(PauseSpread::Depth({}, line), 0u);
    // Node 3 is the congestion point: it pauses node 2 (reach 1) from 0 to 10; node 2,
    // paused, pauses node 1 from 1 to 5 (2 hops from node 3); node 1 then pauses node 0
    // from 2 to 3: 3 hops.
    std::vector<PausedEgress> chain = {
        {2, 3, 0.0, 10.0},
        {1, 2, 1.0, 5.0},
        {0, 1, 2.0, 3.0},
    };
    EXPECT_EQ(PauseSpread::Depth(chain, line), 3u);
    // Node 1's pause of node 0 starts after node 1 resumed (6 > 5): a new cascade rooted at
    // node 1, reach 1; the deepest stays node 1 at 2 hops from node 3.
    chain[2] = {0, 1, 6.0, 7.0};
    EXPECT_EQ(PauseSpread::Depth(chain, line), 2u);
    // Two neighbours pausing each other's opposite directions is no cascade (a U-turn).
    EXPECT_EQ(PauseSpread::Depth({{2, 1, 0.0, 10.0}, {1, 2, 1.0, 5.0}}, line), 1u);
}

TEST(PauseSpread, PausesChasingRoundARingStayWithinItsDiameter)
{
    // Ring of 8 (diameter 4). Node 0 congests; pauses run backwards round the ring twice,
    // each starting while the one ahead of it is on: a chain of 16 pauses, yet no node is
    // more than 4 hops from node 0, where the cascade started.
    const auto ring = Chain(8, true);
    std::vector<PausedEgress> around;
    for (uint32_t i = 0; i < 16; ++i)
    {
        const uint32_t paused = (8 - 1 - i % 8) % 8; // 7, 6, ..., 0, 7, ...
        const uint32_t pauser = (paused + 1) % 8;
        around.push_back({paused, pauser, static_cast<double>(i), 100.0});
    }
    EXPECT_EQ(PauseSpread::Depth(around, ring), 4u);
}
