/*
 * PauseSpread: how far PFC pauses travel from the congestion point where they started —
 * the "pause cascade" that HiPS (Geng et al., NetAI'18) argues server-centric networks avoid
 * and that PFC storm studies measure.
 *
 * Input: every interval during which an egress (node X's port towards Y) was paused on a
 * priority, and the network's adjacency. A pause of X by Y continues a cascade when Y
 * itself was paused on one of its egress ports (towards Z != X; minimal routes do not turn
 * back) at the moment it paused X: Y's buffer filled because it could not drain. Each pause
 * carries the root of its cascade — the pausing node of the first pause, whose own egress
 * was not paused (the congestion point) — and its reach is the hop distance from that root
 * to the paused node X. The run's pause depth is the largest reach (0: no pause; 1: pauses
 * stayed next to the congestion; +1 per hop they spread). An incast into a host has depth 1
 * until the switch's buffer fills; on fattree:k=4 a full cascade reaches the senders' NICs
 * 5 hops from the server's edge switch. Distances, not chain lengths: pauses that chase each
 * other around a torus ring stay within the ring's diameter.
 * Correlation by time approximates causation (Y may have paused X for another egress's
 * backlog); it never undercounts a real cascade.
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
    uint32_t node; //!< the paused sender
    uint32_t peer; //!< the node at the other end (the one that paused it)
    double startS; //!< pause start
    double endS;   //!< resume
};

/**
 * \brief The reach of pause cascades (see the file comment).
 */
class PauseSpread
{
  public:
    /**
     * \brief The run's pause depth: 0 without pauses, else the largest hop distance from a
     * cascade's congestion point to a node it paused.
     * \param intervals the paused egress intervals
     * \param adjacency [node] -> the nodes its ports lead to
     */
    static uint32_t Depth(std::vector<PausedEgress> intervals,
                          const std::vector<std::vector<uint32_t>>& adjacency);
};

} // namespace ns3

#endif // PARAMSYNC_PAUSE_SPREAD_H
