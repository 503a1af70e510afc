// NetworkArena (model/network-arena.h): the network's long-lived objects side by side in
// chunks of their own, freed blocks reused by the next object of their size. Under
// AddressSanitizer the arena does not pool (NetworkArena::Pools() is false): each block is its
// own allocation, and only the alignment and the round trip are checked.
#include "ns3/forwarding-table.h"
#include "ns3/network-arena.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/pooled-event.h"
#include "ns3/ptr.h"
#include "ns3/queue-pair.h"
#include "ns3/roce-nic.h"
#include "ns3/shared-buffer-mmu.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <memory>

namespace ns3
{
namespace
{

std::uintptr_t
Address(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p);
}

/// Sizes no class of the library has, one per test, so that no free block of a test's size
/// waits from another test (in any order, in one process).
constexpr std::size_t kOddBytes = 64 * 37 - 5;      // 2,363 B: blocks of 64 * 37 = 2,368 B
constexpr std::size_t kOtherOddBytes = 64 * 41 - 3; // 2,621 B: blocks of 64 * 41 = 2,624 B

TEST(NetworkArena, BlocksAreCacheLineAlignedAndFollowEachOther)
{
    void* a = NetworkArena::Allocate(kOtherOddBytes);
    void* b = NetworkArena::Allocate(kOtherOddBytes);
    EXPECT_EQ(Address(a) % 64, 0u);
    EXPECT_EQ(Address(b) % 64, 0u);
    if (NetworkArena::Pools())
    {
        // The next block of the chunk, unless a (2 MiB) chunk ran out between the two.
        const bool adjacent = Address(b) == Address(a) + 64 * 41;
        const bool newChunk = Address(b) % NetworkArena::kChunkBytes == 0;
        EXPECT_TRUE(adjacent || newChunk) << Address(a) << " then " << Address(b);
    }
    NetworkArena::Free(a, kOtherOddBytes);
    NetworkArena::Free(b, kOtherOddBytes);
}

TEST(NetworkArena, AFreedBlockIsTheNextOfItsSizeAndOnlyOfItsSize)
{
    void* a = NetworkArena::Allocate(kOddBytes);
    NetworkArena::Free(a, kOddBytes);
    // Another size (one more block) does not take it.
    void* other = NetworkArena::Allocate(kOddBytes + 64);
    if (NetworkArena::Pools())
    {
        EXPECT_NE(other, a);
    }
    // The same size does, and so does a size rounding to the same block (2,313 B: 37 x 64).
    void* again = NetworkArena::Allocate(kOddBytes - 50);
    if (NetworkArena::Pools())
    {
        EXPECT_EQ(again, a);
    }
    NetworkArena::Free(other, kOddBytes + 64);
    NetworkArena::Free(again, kOddBytes - 50);
}

TEST(NetworkArena, ABlockLargerThanHalfAChunkIsItsOwnAllocation)
{
    const std::size_t held = NetworkArena::ChunkBytesHeld();
    const std::size_t big = NetworkArena::kChunkBytes / 2 + 1;
    void* p = NetworkArena::Allocate(big);
    EXPECT_EQ(Address(p) % 64, 0u);
    // No chunk was taken for it (a pooled one would have needed a fresh chunk at times).
    EXPECT_EQ(NetworkArena::ChunkBytesHeld(), held);
    static_cast<char*>(p)[big - 1] = 1; // all of it is usable
    NetworkArena::Free(p, big);
}

/// An event class of this test only: its free list is empty until its first event dies.
class TestEvent final : public PooledEvent<TestEvent>
{
    void
    Notify() override
    {
    }
};

TEST(NetworkArena, TheNetworksObjectsAndFreshEventsAreArenaBlocks)
{
    // Each class derives NetworkArenaAllocated (CreateObject and the last Unref take and give
    // back arena blocks); an event class takes a block from the arena when its free list is
    // empty. Under AddressSanitizer none of them is (Pools() is false).
    const bool pools = NetworkArena::Pools();
    Ptr<PfcNetDevice> device = CreateObject<PfcNetDevice>();
    Ptr<PfcSwitch> sw = CreateObject<PfcSwitch>();
    Ptr<RoceNic> nic = CreateObject<RoceNic>();
    Ptr<ForwardingTable> table = CreateObject<ForwardingTable>();
    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    auto mmu = std::make_unique<SharedBufferMmu>(SharedBufferMmu::Config{});
    Ptr<EventImpl> event = TestEvent::Make();
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(device)), pools);
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(sw)), pools);
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(nic)), pools);
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(table)), pools);
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(qp)), pools);
    EXPECT_EQ(NetworkArena::Holds(mmu.get()), pools);
    EXPECT_EQ(NetworkArena::Holds(PeekPointer(event)), pools);
    // And a plain object is not.
    auto plain = std::make_unique<uint64_t>(0);
    EXPECT_FALSE(NetworkArena::Holds(plain.get()));
    // A dropped device's block is the next device's (the arena's free list of its size).
    const void* freed = PeekPointer(device);
    device->Dispose();
    device = nullptr;
    Ptr<PfcNetDevice> next = CreateObject<PfcNetDevice>();
    if (pools)
    {
        EXPECT_EQ(PeekPointer(next), freed);
    }
    next->Dispose();
    sw->Dispose();
    nic->Dispose();
}

TEST(NetworkArena, AnArenaVectorKeepsItsElementsInTheArenaAsItGrows)
{
    // 1,000 doubles grow the vector through several capacities (each freed to the arena as
    // the next is taken); the elements stay in order and in the arena.
    ArenaVector<double> v;
    for (int i = 0; i < 1000; ++i)
    {
        v.push_back(i * 0.5);
    }
    EXPECT_EQ(NetworkArena::Holds(v.data()), NetworkArena::Pools());
    EXPECT_EQ(v.size(), 1000u);
    EXPECT_EQ(v[999], 499.5);
    // Moved and copied vectors: the same arena (every allocator frees what another took).
    ArenaVector<double> moved = std::move(v);
    ArenaVector<double> copy = moved;
    EXPECT_EQ(copy, moved);
    EXPECT_EQ(NetworkArena::Holds(copy.data()), NetworkArena::Pools());
    EXPECT_TRUE(NetworkArenaAllocator<double>() == NetworkArenaAllocator<int>());
}

} // namespace
} // namespace ns3
