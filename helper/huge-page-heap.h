/*
 * HugePageHeap: the driver's heap on transparent huge pages, where the kernel gives them only
 * on request (THP mode "madvise", Debian's default).
 *
 * Why: a packet-level run of a large network is bound by memory latency, not instructions.
 * cachegrind on the fat-tree permutation of bench/scaling_bench.py counts the same ~4,500
 * instructions and ~65 L1 data misses per packet-hop at 128 and at 1,024 hosts; what grows is
 * where those misses are served (47 of them miss a 512 KB L2 at 1,024 hosts, 31 at 128) and
 * the address translation of each: 116 MB of state on 4 KiB pages is ~30,000 pages, far more
 * than a core's second-level TLB maps (a few thousand entries), so nearly every cold line
 * also walks the page table. On 2 MiB pages the whole state is ~60 TLB entries. Measured on
 * the 1,024-host case: 10-20 % less CPU (README, "Speed at scale").
 *
 * How: glibc's malloc asks for huge pages on the memory it takes from the kernel when its
 * tunable glibc.malloc.hugetlb=1 is set (glibc >= 2.35), and tunables are read only at
 * process start: so the driver starts itself again, once, with the tunable added to
 * GLIBC_TUNABLES, before it reads any option or starts MPI (the process keeps its pid, so
 * mpirun and the shell see one program). Nothing simulated depends on addresses: results are
 * identical either way (test/driver-cli-test.cc).
 *
 * Not done when: the kernel has no THP or gives it to every process already ("never",
 * "always"); the user set glibc.malloc.hugetlb themselves; PARAMSYNC_HUGE_PAGES=0; under
 * valgrind (the relaunched program would leave the tool); in a sanitizer build (its allocator
 * is not glibc's).
 */
#ifndef PARAMSYNC_HUGE_PAGE_HEAP_H
#define PARAMSYNC_HUGE_PAGE_HEAP_H

#include <string>

namespace ns3
{

/**
 * \brief Relaunches the program with glibc's malloc on transparent huge pages (see above).
 */
class HugePageHeap
{
  public:
    /**
     * \brief Starts argv again with the tunable when that helps; returns only when it did
     * not (not useful, opted out, or the exec failed: the run goes on as before).
     */
    static void RelaunchIfUseful(char** argv);
    /// \brief One line for --version: whether this process's heap asks for huge pages, and why.
    static std::string Describe();

  private:
    /// \brief Why no relaunch is done (empty: it is useful).
    static std::string WhyNot();
    /// \brief The kernel's THP mode: "always", "madvise", "never" or "" (no THP).
    static std::string KernelMode();
};

} // namespace ns3

#endif // PARAMSYNC_HUGE_PAGE_HEAP_H
