/*
 * NetworkArena: the memory of the simulated network's long-lived objects (devices, switches,
 * NICs, their forwarding tables, buffer managers and queue pairs), of the arrays they read per
 * frame and of the pooled events, taken one after another from chunks of their own.
 *
 * Why: a large run is bound by the pages it touches as much as by the lines. On a VM whose
 * memory the host maps in 4 KiB pages (this project's CI and bench machines: bench/README.md,
 * "Pages, not lines") a miss in the TLB costs a nested page walk, as much as a miss in the
 * cache: a pointer chase through one line per 4 KiB page takes 23 ns a load over 16 MB of
 * pages (4,096) and 311 ns over 128 MB (32,768), through 2 MB of lines side by side 15 ns
 * (bench/page-walk-bench.cc). From the general
 * heap a device (then 896 B, three lines touched per frame) shares its pages with channels,
 * callbacks, vectors and the set-up's temporaries, and the queue pairs made as flows start
 * with frames and events; here they sit next to each other, so a hop's lines fall in fewer
 * pages.
 *
 * How: a class takes its memory here by deriving from NetworkArenaAllocated (class-specific
 * operator new and delete; ns-3's Object deletes through a virtual destructor, so the most
 * derived class's operator delete gets the block and its size), and an array it reads per
 * frame by being an ArenaVector (NetworkArenaAllocator). Blocks are multiples of 64
 * bytes, 64-byte aligned, from 2 MiB chunks (one transparent huge page each where the kernel
 * gives them); a freed block goes to the free list of its size and is reused by the next object
 * of that size (tests build and drop many networks), never back to the heap. One arena per
 * process, behind a mutex (allocation is rare: the set-up, a flow's start, an event pool or
 * an array that grows). Under
 * AddressSanitizer every object is new'd and deleted as usual, so that a use after free is
 * still reported.
 */
#ifndef PARAMSYNC_NETWORK_ARENA_H
#define PARAMSYNC_NETWORK_ARENA_H

#include <cstddef>
#include <new>
#include <vector>

namespace ns3
{

/**
 * \brief Chunked, size-classed memory for the network's long-lived objects (see above).
 */
class NetworkArena
{
  public:
    /// Alignment of every block (a cache line).
    static constexpr std::size_t kAlignment = 64;
    /// Size of a chunk (a transparent huge page).
    static constexpr std::size_t kChunkBytes = std::size_t{2} << 20;

    /// \brief A block of at least `bytes`, 64-byte aligned (larger than half a chunk: its own
    /// allocation, freed to the heap).
    static void* Allocate(std::size_t bytes);
    /// \brief Gives back a block Allocate returned for `bytes`.
    static void Free(void* block, std::size_t bytes);
    /// \brief Bytes of chunks the arena holds (for tests and reports).
    static std::size_t ChunkBytesHeld();
    /// \brief Whether p is inside one of the arena's chunks.
    static bool Holds(const void* p);
    /// \brief Whether blocks come from chunks and free lists (false under AddressSanitizer:
    /// each is its own allocation).
    static bool Pools();
};

/**
 * \brief Base of a class whose objects live in the NetworkArena: derive from it (publicly) and
 * `new` and `delete` (or ns-3's CreateObject and the last Unref) take and give back arena
 * blocks. Alignments up to NetworkArena::kAlignment.
 */
class NetworkArenaAllocated
{
  public:
    /// \brief An arena block for an object of `bytes`.
    static void*
    operator new(std::size_t bytes)
    {
        return NetworkArena::Allocate(bytes);
    }
    /// \brief An arena block for an over-aligned object (at most 64-byte aligned).
    static void*
    operator new(std::size_t bytes, std::align_val_t align)
    {
        static_assert(NetworkArena::kAlignment == 64, "blocks are cache-line aligned");
        if (static_cast<std::size_t>(align) > NetworkArena::kAlignment)
        {
            throw std::bad_alloc();
        }
        return NetworkArena::Allocate(bytes);
    }
    /// \brief Back to the arena.
    static void
    operator delete(void* block, std::size_t bytes)
    {
        NetworkArena::Free(block, bytes);
    }
    /// \brief Back to the arena (an over-aligned object).
    static void
    operator delete(void* block, std::size_t bytes, std::align_val_t)
    {
        NetworkArena::Free(block, bytes);
    }
};

/**
 * \brief A standard allocator on the NetworkArena, for the arrays a network object reads per
 * frame (a switch's ports, its buffer accounts, a forwarding table's compiled runs and hops,
 * a NIC's ports): they then sit beside the objects instead of among the heap's temporaries
 * (a table is compiled at its first lookup, in the middle of the run). Alignments up to 64.
 */
template<typename T>
class NetworkArenaAllocator
{
  public:
    using value_type = T; //!< as std::allocator

    NetworkArenaAllocator() = default;
    /// \brief From an allocator of another type (all are the same arena).
    template<typename U>
    NetworkArenaAllocator(const NetworkArenaAllocator<U>&) noexcept
    {
    }

    /// \brief Room for n objects.
    T*
    allocate(std::size_t n)
    {
        static_assert(alignof(T) <= NetworkArena::kAlignment, "at most cache-line aligned");
        if (n > static_cast<std::size_t>(-1) / sizeof(T))
        {
            throw std::bad_array_new_length();
        }
        return static_cast<T*>(NetworkArena::Allocate(n * sizeof(T)));
    }
    /// \brief Gives back what allocate(n) returned.
    void
    deallocate(T* p, std::size_t n) noexcept
    {
        NetworkArena::Free(p, n * sizeof(T));
    }

    /// \brief Every arena allocator frees what any other allocated.
    template<typename U>
    bool
    operator==(const NetworkArenaAllocator<U>&) const noexcept
    {
        return true;
    }
    /// \brief See operator==.
    template<typename U>
    bool
    operator!=(const NetworkArenaAllocator<U>&) const noexcept
    {
        return false;
    }
};

/// \brief A std::vector on the NetworkArena.
template<typename T>
using ArenaVector = std::vector<T, NetworkArenaAllocator<T>>;

} // namespace ns3

#endif // PARAMSYNC_NETWORK_ARENA_H
