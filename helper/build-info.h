/*
 * BuildInfo: which paramsync and which ns-3 made a result, for --version, every JSON row
 * and summary.json. The paramsync version is `git describe --always --dirty --tags` of the
 * checkout at build time (cmake/paramsync-version.cmake); ns-3's is its release number
 * from ns-3's version-defines.h (Debian's build leaves ns-3's version tag a placeholder).
 */
#ifndef PARAMSYNC_BUILD_INFO_H
#define PARAMSYNC_BUILD_INFO_H

#include <string>

namespace ns3
{

/// \brief The versions this program was built from.
namespace BuildInfo
{

/// \brief paramsync's git version at build time ("unknown ..." outside a git checkout).
std::string Version();

/// \brief ns-3's release, e.g. "3.37".
std::string Ns3Version();

} // namespace BuildInfo

} // namespace ns3

#endif // PARAMSYNC_BUILD_INFO_H
