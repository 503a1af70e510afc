#include "build-info.h"

#include "ns3/version-defines.h"

// Generated at build time by cmake/paramsync-version.cmake; builds without it (waf, an
// ns-3 tree) say so instead of guessing.
#if __has_include("paramsync-version.h")
#include "paramsync-version.h"
#else
#define PARAMSYNC_VERSION "unknown (built without cmake/paramsync-version.cmake)"
#endif

namespace ns3
{

namespace BuildInfo
{

std::string
Version()
{
    return PARAMSYNC_VERSION;
}

std::string
Ns3Version()
{
    std::string v = std::to_string(NS3_VERSION_MAJOR) + "." + std::to_string(NS3_VERSION_MINOR);
    if (NS3_VERSION_PATCH != 0)
    {
        v += "." + std::to_string(NS3_VERSION_PATCH);
    }
    return v + NS3_VERSION_RELEASE_CANDIDATE;
}

} // namespace BuildInfo

} // namespace ns3
