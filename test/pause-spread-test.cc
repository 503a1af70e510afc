// PauseSpread: the depth of a pause cascade from hand-made pause intervals, and from real
// incasts on a star (no cascade possible) and a fat-tree (a cascade all the way back).
#include "ns3/pause-spread.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(PauseSpread, DepthFollowsPausesThatStartWhileTheirPauserIsPaused)
{
    EXPECT_EQ(PauseSpread::Depth({}), 0u);
    // Node 2 (a switch) pauses node 1 from 1 to 5 while its own egress to node 3 is paused
    // from 0 to 10: a cascade of 2. Node 1 then pauses node 0 from 2 to 3 while paused by
    // 2: depth 3.
    std::vector<PausedEgress> chain = {
        {2, 3, 0.0, 10.0}, // depth 1: nobody paused behind node 3
        {1, 2, 1.0, 5.0},  // depth 2
        {0, 1, 2.0, 3.0},  // depth 3
    };
    EXPECT_EQ(PauseSpread::Depth(chain), 3u);
    // The same intervals, but node 1's pause of node 0 starts after node 1 resumed (6 > 5):
    // no longer caused by it, depth 2.
    chain[2] = {0, 1, 6.0, 7.0};
    EXPECT_EQ(PauseSpread::Depth(chain), 2u);
    // Two neighbours pausing each other's opposite directions is no cascade (a U-turn):
    // 1 -> 2 paused while 2 -> 1 paused: depth 1.
    EXPECT_EQ(PauseSpread::Depth({{2, 1, 0.0, 10.0}, {1, 2, 1.0, 5.0}}), 1u);
}
