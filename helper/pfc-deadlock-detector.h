/*
 * PfcDeadlockDetector: finds a PFC deadlock while a packet-level run goes on, and names it.
 *
 * A PFC deadlock is a cycle of ports each paused by the next one's node: node v cannot send
 * to w on priority q because w's ingress from v is above XOFF, and w's frames wait to leave
 * towards the next node of the cycle, which pauses w, and so on back to v (cyclic buffer
 * dependency; Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form, and How to
 * Avoid Them", HotNets'16). Nothing in the cycle can move again: the pauses are refreshed
 * for ever.
 *
 * Every `interval` of simulated time the detector looks at every port and priority: a port
 * is stuck on q when it has been paused on q since the previous look and has not sent a
 * frame of q in between. Stuck port (v, p) towards w depends on each stuck port of w that
 * does not lead back to v (w's ingress from v drains only there). A cycle in that graph is
 * a deadlock (a pause storm in a tree — an incast — has no cycle, and a cycle whose ports
 * still send now and then is congestion, not deadlock). On the first cycle found the
 * detector records it and stops the simulation, so that a stuck run ends at once with the
 * reason instead of at --stop.
 */
#ifndef PARAMSYNC_PFC_DEADLOCK_DETECTOR_H
#define PARAMSYNC_PFC_DEADLOCK_DETECTOR_H

#include "network-builder.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Periodic PFC deadlock (cycle of paused ports) detection over a PfcNetwork.
 */
class PfcDeadlockDetector
{
  public:
    /**
     * \param net the network (must outlive the detector)
     * \param interval time between two looks (> 0)
     * \param keepLooking checked after each look: false ends the periodic looks (so that the
     *        detector does not keep a finished simulation alive)
     */
    PfcDeadlockDetector(const PfcNetwork& net, Time interval, std::function<bool()> keepLooking);

    /// \brief Schedules the first look one interval from now.
    void Start();

    /// \brief Whether a deadlock was found.
    bool
    Found() const
    {
        return !m_cycle.empty();
    }

    /**
     * \brief The cycle found, e.g. "priority 3: h0/1 -> h1/1 -> h2/1 -> h0/1" (node/port of
     * each stuck egress, back to the first); empty if none.
     */
    const std::string&
    Cycle() const
    {
        return m_cycle;
    }

    /// \brief Simulated time the deadlock was found (negative if none).
    Time
    FoundAt() const
    {
        return m_foundAt;
    }

    /**
     * \brief One look now, without scheduling: updates the snapshot and returns the cycle
     * found (empty if none). Public for tests.
     */
    std::string Look();

  private:
    /// A port's state at the previous look.
    struct PortSnapshot
    {
        uint8_t pausedMask{0};              //!< priorities paused then
        std::array<uint64_t, 8> txFrames{}; //!< frames sent per priority until then
    };

    /// \brief Periodic look; stops the simulation on a deadlock.
    void Tick();
    /// \brief A cycle in the stuck-port graph of priority q, or empty.
    std::string FindCycle(uint8_t q,
                          const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& out) const;

    const PfcNetwork& m_net;                       //!< the network
    Time m_interval;                               //!< between looks
    std::function<bool()> m_keepLooking;           //!< continue after a look?
    std::vector<std::vector<uint32_t>> m_peer;     //!< [node][port] -> node at the other end
    std::vector<std::vector<PortSnapshot>> m_last; //!< [node][port] at the previous look
    std::string m_cycle;                           //!< the deadlock found
    Time m_foundAt{Seconds(-1)};                   //!< when
    EventId m_next;                                //!< next look
};

} // namespace ns3

#endif // PARAMSYNC_PFC_DEADLOCK_DETECTOR_H
