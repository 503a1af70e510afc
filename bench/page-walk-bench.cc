// What a dependent memory load costs on this machine as the data it is drawn from spreads
// over more pages: a pointer chase (each load's address is the value of the one before, so
// loads cannot overlap) through lines in a random order.
//
// Four cases, each a ring of lines visited in a random order:
// - lines side by side in 2 MB and in 256 MB: the cache hierarchy, then memory;
// - one line per 4 KiB page, 16 MB and 128 MB of pages (4,096 and 32,768 pages, 0.25 MB and
//   2 MB of lines, both small enough for the caches): the difference is the address
//   translation. Where the guest's memory is mapped in 4 KiB pages by the host (nested
//   paging), a TLB miss walks both page tables, and 32,768 pages are more than a core's TLB
//   maps: the second costs about what a miss to memory does.
// The buffers ask for transparent huge pages, as the driver's heap does
// (helper/huge-page-heap.h): what is left of the translation cost is the host's.
//
// Usage: page-walk-bench [STEPS]   (loads timed per case, default 4,000,000)
// Output: one JSON line, nanoseconds per load for each case.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sys/mman.h>
#include <vector>

namespace
{

/// Nanoseconds per load of a chase through `regionBytes`, one line every `stride` bytes.
double
ChaseNs(std::size_t regionBytes, std::size_t stride, std::size_t steps)
{
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    void* raw = mmap(
        nullptr, regionBytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
    {
        return -1;
    }
    char* buf = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(raw) + kHuge - 1) &
                                        ~std::uintptr_t{kHuge - 1});
#ifdef MADV_HUGEPAGE
    madvise(buf, regionBytes, MADV_HUGEPAGE);
#endif
    const std::size_t lines = regionBytes / stride;
    std::vector<std::size_t> order(lines);
    for (std::size_t i = 0; i < lines; ++i)
    {
        order[i] = i;
    }
    std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
    for (std::size_t i = 0; i < lines; ++i)
    {
        *reinterpret_cast<void**>(buf + order[i] * stride) = buf + order[(i + 1) % lines] * stride;
    }
    void* p = buf + order[0] * stride;
    for (std::size_t i = 0; i < std::min<std::size_t>(lines, steps); ++i)
    {
        p = *static_cast<void**>(p); // one lap (or as many loads as timed) to warm up
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < steps; ++i)
    {
        p = *static_cast<void**>(p);
    }
    const auto t1 = std::chrono::steady_clock::now();
    // Keep the chase: its end is an input of the result (a pointer is never 1).
    const bool keep = reinterpret_cast<std::uintptr_t>(p) == 1;
    munmap(raw, regionBytes + kHuge);
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / steps + (keep ? 1 : 0);
}

} // namespace

int
main(int argc, char** argv)
{
    const std::size_t steps = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4000000;
    if (steps == 0)
    {
        std::fprintf(
            stderr, "page-walk-bench: STEPS must be a positive count, got '%s'\n", argv[1]);
        return 2;
    }
    constexpr std::size_t kMb = std::size_t{1} << 20;
    std::printf("{\"lines_2mb_ns\":%.1f,\"lines_256mb_ns\":%.1f,"
                "\"line_per_page_16mb_ns\":%.1f,\"line_per_page_128mb_ns\":%.1f,\"steps\":%zu}\n",
                ChaseNs(2 * kMb, 64, steps),
                ChaseNs(256 * kMb, 64, steps),
                ChaseNs(16 * kMb, 4096, steps),
                ChaseNs(128 * kMb, 4096, steps),
                steps);
    return 0;
}
