/*
 * PauseSpread: how far PFC pauses travel upstream of where congestion started — the
 * "pause cascade" that HiPS (Geng et al., NetAI'18) argues server-centric networks avoid
 * and that PFC storm studies measure.
 *
 * Input: every interval during which an egress (node X's port towards Y) was paused on a
 * priority. A pause of X by Y is a cascade step when Y itself was paused on one of its
 * egress ports (towards Z != X; minimal routes do not turn back) at the moment it paused
 * X: Y's buffer filled because it could not drain. The depth of a pause interval is 1 +
 * the largest depth of such a Y interval (1 for a pause with no paused egress behind it);
 * the run's pause depth is the largest depth of any interval (0: no pause). An incast into
 * a host has depth 1 (the switch's egress to the host pauses nobody else) until the
 * switch's buffer fills and pauses the senders: depth 2; every further hop adds one.
 * Correlation by time is an approximation of causation (Y may have paused X for another
 * egress's backlog); it never undercounts a real cascade.
 */
#ifndef PARAMSYNC_PAUSE_SPREAD_H
#define PARAMSYNC_PAUSE_SPREAD_H

#include <cstdint>
#include <vector>

namespace ns3
{

/// \brief An egress (node -> peer) paused on a priority from startS to endS.
struct PausedEgress
{
    uint32_t node;  //!< the paused sender
    uint32_t peer;  //!< the node at the other end (the one that paused it)
    double startS;  //!< pause start
    double endS;    //!< resume
};

/**
 * \brief The longest cascade of pauses (see the file comment).
 */
class PauseSpread
{
  public:
    /// \brief The run's pause depth: 0 without pauses, 1 without cascade, +1 per hop.
    static uint32_t Depth(std::vector<PausedEgress> intervals);
};

} // namespace ns3

#endif // PARAMSYNC_PAUSE_SPREAD_H
