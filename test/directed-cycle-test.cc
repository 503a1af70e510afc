// FindDirectedCycle (topologies/directed-cycle.h) on small graphs drawn by hand.
#include "ns3/directed-cycle.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

TEST(DirectedCycle, AnAcyclicGraphHasNone)
{
    // 0 -> 1 -> 3, 0 -> 2 -> 3: a diamond, two paths but no cycle.
    EXPECT_TRUE(FindDirectedCycle({{1, 2}, {3}, {3}, {}}).empty());
    EXPECT_TRUE(FindDirectedCycle({}).empty());
}

TEST(DirectedCycle, FindsTheCycleInEdgeOrderFromItsFirstVertexOnThePath)
{
    // 0 -> 1 -> 2 -> 3 -> 1: the search goes 0, 1, 2, 3 and the back edge 3 -> 1 closes the
    // cycle 1 -> 2 -> 3 (-> 1); vertex 0 leads into it but is not on it.
    EXPECT_EQ(FindDirectedCycle({{1}, {2}, {3}, {1}}), (std::vector<uint32_t>{1, 2, 3}));
}

TEST(DirectedCycle, TwoVerticesPointingAtEachOtherAndASelfLoopAreCycles)
{
    EXPECT_EQ(FindDirectedCycle({{1}, {0}}), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(FindDirectedCycle({{}, {1}}), (std::vector<uint32_t>{1}));
}

TEST(DirectedCycle, ACrossEdgeIntoAFinishedVertexIsNoCycle)
{
    // 0 -> 1, 0 -> 2 -> 1: when the search reaches 1 again from 2, 1 is finished (black),
    // not on the path: no cycle. Then 3 -> 4 -> 5 -> 3 is found from root 3.
    EXPECT_EQ(FindDirectedCycle({{1, 2}, {}, {1}, {4}, {5}, {3}}),
              (std::vector<uint32_t>{3, 4, 5}));
}

} // namespace
} // namespace ns3
