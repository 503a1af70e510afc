/*
 * PfcWatchdog: the PFC storm watchdog switches implement (e.g. Cisco NX-OS "priority-flow-
 * control watch-dog", Arista "pfc watchdog", SONiC's PFC watchdog): an egress queue that, for
 * longer than the detection time, is paused, has frames waiting AND has transmitted nothing
 * is declared stormed (its downstream stopped draining, e.g. a faulty NIC flooding pause
 * frames). A queue that is paused from time to time but still sends between pauses (a
 * congested incast draining at its fair share) is not a storm: each look that finds it sent
 * a frame since the look before starts the detection window again (SONiC's detector reads
 * the queue's transmit counter the same way). The switch then drops that queue's
 * frames and every frame that arrives for it, so that the backlog does not fill the
 * buffer and pause the switch's own upstream (the storm stops spreading, at the price of
 * the stormed queue's losses, which go-back-N recovers); once the egress has stayed
 * unpaused for the restore time the queue is lossless again.
 *
 * Detection is by polling every detection / 4 while some egress is paused (a pause frame
 * wakes the watchdog; it sleeps again when nothing is paused or stormed), so a queue that
 * stopped sending under a continuous pause is recognised between 1 and 1.25 detection times
 * after its last frame left.
 * The switch owns the watchdog and gives it its view of the ports through Hooks.
 */
#ifndef PARAMSYNC_PFC_WATCHDOG_H
#define PARAMSYNC_PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \brief Storm detection and restoration per (egress port, priority).
 */
class PfcWatchdog
{
  public:
    /// \brief What the watchdog needs from its switch.
    struct Hooks
    {
        /// Whether egress (port, priority) is paused by its peer.
        std::function<bool(uint32_t, uint8_t)> paused;
        /// Whether frames wait in egress (port, priority).
        std::function<bool(uint32_t, uint8_t)> backlogged;
        /// Frames egress (port, priority) has transmitted so far (a running counter).
        std::function<uint64_t(uint32_t, uint8_t)> sent;
        /// Drop every frame waiting in egress (port, priority).
        std::function<void(uint32_t, uint8_t)> flush;
        /// A storm on (port, priority) was detected (true) or restored (false).
        std::function<void(uint32_t, uint8_t, bool)> changed;
    };

    /// \throws std::invalid_argument unless detection > 0 and restore > 0
    PfcWatchdog(uint32_t ports, Time detection, Time restore, Hooks hooks);
    ~PfcWatchdog();

    /// \brief A pause frame arrived on some port: start looking if not already.
    void Wake();
    /// \brief Whether frames for egress (port, priority) are dropped (a storm is on).
    bool
    Dropping(uint32_t port, uint8_t priority) const
    {
        return m_state[port][priority].stormed;
    }
    /// \brief Storms detected so far.
    uint64_t
    Storms() const
    {
        return m_storms;
    }

  private:
    /// One egress queue's watch.
    struct Watch
    {
        bool stormed{false};     //!< dropping
        Time pausedSince{-1};    //!< paused with backlog and silent since (negative: not)
        uint64_t sentAtStart{0}; //!< the sent counter when pausedSince was set
        Time clearSince{-1};     //!< stormed and unpaused since (negative: not)
    };

    /// \brief One look at every egress queue; reschedules while something is to watch.
    void Poll();

    std::vector<std::array<Watch, 8>> m_state; //!< [port][priority]
    Time m_detection;                          //!< continuous pause that is a storm
    Time m_restore;                            //!< unpaused time that ends it
    Hooks m_hooks;                             //!< the switch
    EventId m_poll;                            //!< next look
    uint64_t m_storms{0};                      //!< detected
};

} // namespace ns3

#endif // PARAMSYNC_PFC_WATCHDOG_H
