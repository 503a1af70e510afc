#include "network-arena.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ns3
{

namespace
{
#if defined(__SANITIZE_ADDRESS__)
/// Under AddressSanitizer every block is its own allocation (a use after free is reported).
constexpr bool kPlainAllocation = true;
#else
constexpr bool kPlainAllocation = false; //!< see the sanitizer branch
#endif

/// A free block: its first word links the next one of the same size.
struct FreeBlock
{
    FreeBlock* next;
};

/// The arena: the chunk being filled, the free lists by block size, the chunks.
struct ArenaState
{
    std::mutex mutex;    //!< taken by every Allocate and Free (rare: network-arena.h)
    char* next{nullptr}; //!< the next free byte of the current chunk
    std::size_t left{0}; //!< bytes left in it
    std::unordered_map<std::size_t, FreeBlock*> freeLists; //!< block size -> free blocks
    std::vector<void*> chunks;                             //!< every chunk taken (never freed)
};

/// The process's arena. Never destroyed: an object may be deleted by a static destructor
/// after every other static is gone (its chunks stay reachable until the process ends).
ArenaState&
State()
{
    static ArenaState* state = new ArenaState;
    return *state;
}

/// Bytes rounded up to whole blocks.
std::size_t
BlockBytes(std::size_t bytes)
{
    const std::size_t a = NetworkArena::kAlignment;
    return (bytes + a - 1) / a * a;
}

/// A block too large for a chunk, or any block under a sanitizer: plain aligned allocation.
bool
IsPlain(std::size_t block)
{
    return kPlainAllocation || block > NetworkArena::kChunkBytes / 2;
}
} // namespace

void*
NetworkArena::Allocate(std::size_t bytes)
{
    const std::size_t block = BlockBytes(bytes == 0 ? 1 : bytes);
    if (IsPlain(block))
    {
        return ::operator new (block, std::align_val_t{kAlignment});
    }
    ArenaState& s = State();
    const std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.freeLists.find(block);
    if (it != s.freeLists.end() && it->second != nullptr)
    {
        FreeBlock* b = it->second;
        it->second = b->next;
        return b;
    }
    if (s.left < block)
    {
        // The rest of the chunk (less than one block of this size) stays unused.
        void* chunk = std::aligned_alloc(kChunkBytes, kChunkBytes);
        if (chunk == nullptr)
        {
            throw std::bad_alloc();
        }
#ifdef MADV_HUGEPAGE
        madvise(chunk, kChunkBytes, MADV_HUGEPAGE); // a hint: without THP the chunk is 4 KiB pages
#endif
        s.chunks.push_back(chunk);
        s.next = static_cast<char*>(chunk);
        s.left = kChunkBytes;
    }
    void* p = s.next;
    s.next += block;
    s.left -= block;
    return p;
}

void
NetworkArena::Free(void* p, std::size_t bytes)
{
    if (p == nullptr)
    {
        return;
    }
    const std::size_t block = BlockBytes(bytes == 0 ? 1 : bytes);
    if (IsPlain(block))
    {
        ::operator delete (p, std::align_val_t{kAlignment});
        return;
    }
    ArenaState& s = State();
    const std::lock_guard<std::mutex> lock(s.mutex);
    FreeBlock*& head = s.freeLists[block];
    head = new (p) FreeBlock{head};
}

std::size_t
NetworkArena::ChunkBytesHeld()
{
    ArenaState& s = State();
    const std::lock_guard<std::mutex> lock(s.mutex);
    return s.chunks.size() * kChunkBytes;
}

bool
NetworkArena::Holds(const void* p)
{
    ArenaState& s = State();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    for (const void* chunk : s.chunks)
    {
        const auto start = reinterpret_cast<std::uintptr_t>(chunk);
        if (address >= start && address - start < kChunkBytes)
        {
            return true;
        }
    }
    return false;
}

bool
NetworkArena::Pools()
{
    return !kPlainAllocation;
}

} // namespace ns3
