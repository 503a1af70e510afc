// RingFifo: first in, first out across wrap-around and growth; a pop releases its item.
#include "ns3/ring-fifo.h"

#include <gtest/gtest.h>
#include <memory>

namespace ns3
{
namespace
{

TEST(RingFifoTest, KeepsOrderAcrossWrapAroundAndGrowth)
{
    RingFifo<std::unique_ptr<int>> q;
    EXPECT_TRUE(q.empty());
    // 3 in, 2 out: the head is at slot 2 of the first 4 slots; 5 more in make 6 queued,
    // which wraps around and then doubles the ring to 8 slots.
    int next = 0;
    int expected = 0;
    for (int i = 0; i < 3; ++i)
    {
        q.push_back(std::make_unique<int>(next++));
    }
    for (int i = 0; i < 2; ++i)
    {
        EXPECT_EQ(*q.front(), expected++);
        q.pop_front();
    }
    for (int i = 0; i < 5; ++i)
    {
        q.push_back(std::make_unique<int>(next++));
    }
    // 3 + 5 pushed, 2 popped: 6 left, 2..7 in order.
    EXPECT_EQ(q.size(), 6u);
    while (!q.empty())
    {
        EXPECT_EQ(*q.front(), expected++);
        q.pop_front();
    }
    EXPECT_EQ(expected, 8);
}

TEST(RingFifoTest, PopReleasesTheItemAndClearEmpties)
{
    RingFifo<std::shared_ptr<int>> q;
    auto item = std::make_shared<int>(7);
    q.push_back(std::shared_ptr<int>(item));
    EXPECT_EQ(item.use_count(), 2); // ours and the queue's
    q.pop_front();
    EXPECT_EQ(item.use_count(), 1); // released at the pop, not when the slot is reused
    for (int i = 0; i < 5; ++i)
    {
        q.push_back(std::shared_ptr<int>(item));
    }
    EXPECT_EQ(item.use_count(), 6); // 1 + 5 queued
    q.clear();
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(item.use_count(), 1);
}

/// Counts the instances alive, and every assignment (a push must not assign into a slot).
struct Counted
{
    static int alive;
    static int assignments;
    int value{0};
    explicit Counted(int v)
        : value(v)
    {
        ++alive;
    }
    Counted(Counted&& o) noexcept
        : value(o.value)
    {
        ++alive;
    }
    Counted&
    operator=(Counted&& o) noexcept
    {
        value = o.value;
        ++assignments;
        return *this;
    }
    ~Counted() { --alive; }
};
int Counted::alive = 0;
int Counted::assignments = 0;

TEST(RingFifoTest, OnlyQueuedItemsAreConstructed)
{
    // A free slot holds no item: a push constructs one there (no assignment, which would read
    // the slot first), a pop destroys it, growth moves the queued ones. So after each step the
    // items alive are the argument of the push in flight (none after it) plus the queued ones.
    {
        RingFifo<Counted> q;
        for (int i = 0; i < 6; ++i) // grows 4 -> 8 slots at the fifth push
        {
            q.push_back(Counted(i));
            EXPECT_EQ(Counted::alive, i + 1); // 6 slots queued of 8: 2 free slots hold nothing
        }
        q.pop_front();
        q.pop_front();
        EXPECT_EQ(Counted::alive, 4);
        EXPECT_EQ(q.front().value, 2);
        for (int i = 6; i < 10; ++i) // wraps around the 8 slots
        {
            q.push_back(Counted(i));
        }
        EXPECT_EQ(Counted::alive, 8);
        EXPECT_EQ(q.back().value, 9);
        EXPECT_EQ(Counted::assignments, 0);
    }
    EXPECT_EQ(Counted::alive, 0); // the ring's destructor destroyed the 8 queued
}

TEST(RingFifoTest, MovesItsRing)
{
    RingFifo<std::unique_ptr<int>> a;
    a.push_back(std::make_unique<int>(1));
    a.push_back(std::make_unique<int>(2));
    RingFifo<std::unique_ptr<int>> b(std::move(a));
    EXPECT_TRUE(a.empty());
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(*b.front(), 1);
    RingFifo<std::unique_ptr<int>> c;
    c.push_back(std::make_unique<int>(3));
    c = std::move(b); // c's own item is destroyed, b's two taken
    EXPECT_TRUE(b.empty());
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(*c.back(), 2);
}

TEST(RingFifoTest, IsAPointerAndThreeCounts)
{
    // 8 B pointer + 3 x 4 B counts = 20 B, padded to the pointer's 8 B alignment: 24 B, so
    // eight queues fill 192 B (three cache lines) where std::vector + two size_t took 320 B.
    EXPECT_EQ(sizeof(RingFifo<std::unique_ptr<int>>), 24u);
    EXPECT_EQ(8 * sizeof(RingFifo<std::unique_ptr<int>>), 3 * 64u);
}

} // namespace
} // namespace ns3
