#include "huge-page-heap.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gnu/libc-version.h>
#include <unistd.h>

namespace ns3
{

namespace
{
constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kTunable = "glibc.malloc.hugetlb";
constexpr const char* kOptOut = "PARAMSYNC_HUGE_PAGES";
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerBuild = true;
#else
constexpr bool kSanitizerBuild = false;
#endif
/// Set on the relaunch: a second start must not start again (and Describe tells it was ours).
constexpr const char* kRelaunched = "PARAMSYNC_HUGE_PAGES_RELAUNCHED";

std::string
Env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "";
}

/// glibc reads glibc.malloc.hugetlb from 2.35 on (older ones ignore it: no use relaunching).
bool
GlibcHasHugetlbTunable()
{
    int major = 0;
    int minor = 0;
    const std::string v = gnu_get_libc_version();
    if (std::sscanf(v.c_str(), "%d.%d", &major, &minor) != 2)
    {
        return false;
    }
    return major > 2 || (major == 2 && minor >= 35);
}
} // namespace

std::string
HugePageHeap::KernelMode()
{
    // "always [madvise] never": the bracketed word is the mode.
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(f, line))
    {
        return "";
    }
    const size_t open = line.find('[');
    const size_t close = line.find(']', open);
    return open == std::string::npos || close == std::string::npos
               ? ""
               : line.substr(open + 1, close - open - 1);
}

std::string
HugePageHeap::WhyNot()
{
    if (kSanitizerBuild)
    {
        return "a sanitizer build: its allocator is not glibc's";
    }
    if (Env(kOptOut) == "0")
    {
        return std::string(kOptOut) + "=0";
    }
    if (Env("LD_PRELOAD").find("vgpreload") != std::string::npos)
    {
        return "under valgrind, which a relaunch would leave";
    }
    if (Env(kTunables).find(kTunable) != std::string::npos)
    {
        return std::string(kTunables) + " sets " + kTunable;
    }
    if (!Env(kRelaunched).empty())
    {
        return "relaunched once already";
    }
    const std::string mode = KernelMode();
    if (mode == "always")
    {
        return "the kernel gives every process transparent huge pages (THP mode always)";
    }
    if (mode != "madvise")
    {
        return "the kernel has transparent huge pages off";
    }
    if (!GlibcHasHugetlbTunable())
    {
        return std::string("glibc ") + gnu_get_libc_version() + " has no " + kTunable;
    }
    return "";
}

void
HugePageHeap::RelaunchIfUseful(char** argv)
{
    if (!WhyNot().empty())
    {
        return;
    }
    const std::string before = Env(kTunables);
    const bool had = std::getenv(kTunables) != nullptr;
    const std::string tunables = (before.empty() ? "" : before + ":") + std::string(kTunable) +
                                 "=1";
    setenv(kTunables, tunables.c_str(), 1);
    setenv(kRelaunched, "1", 1);
    execv("/proc/self/exe", argv);
    // No exec (no /proc, say): go on as this process, with the environment as it was.
    if (had)
    {
        setenv(kTunables, before.c_str(), 1);
    }
    else
    {
        unsetenv(kTunables);
    }
    unsetenv(kRelaunched);
}

std::string
HugePageHeap::Describe()
{
    const std::string on = std::string(kTunable) + "=1";
    if (!kSanitizerBuild && Env(kTunables).find(on) != std::string::npos)
    {
        return "heap: transparent huge pages (" + std::string(kTunables) + " " + on +
               (Env(kRelaunched).empty() ? ", set by the user" : ", relaunched with it") + "; " +
               kOptOut + "=0 turns it off)";
    }
    if (!kSanitizerBuild && KernelMode() == "always")
    {
        return "heap: transparent huge pages (the kernel's THP mode is always)";
    }
    return "heap: 4 KiB pages (" + WhyNot() + ")";
}

} // namespace ns3
