/*
 * Fault models of a PFC pause storm's origin (model/README-fabric.md, "Faults"):
 *  - PfcHeldPause: one pause a device keeps on one priority, as a storm origin does: sent
 *    with the largest quanta and refreshed every half pause until released (which resumes
 *    the peer at once with quanta 0) or until the run is over.
 *  - PfcPauseStorm: a faulty NIC that floods pause frames (the usual origin of a PFC storm,
 *    Guo et al., "RDMA over Commodity Ethernet at Scale", SIGCOMM'16, section 4.3): from
 *    Start, every port it is installed on holds a pause on every given priority, for
 *    Duration or, when Duration is 0, for as long as the run goes on.
 * "As long as the run goes on" is a predicate the installer gives (SetKeepGoing): a storm
 * that refreshed for ever would keep a finished simulation alive.
 */
#ifndef PARAMSYNC_PFC_PAUSE_STORM_H
#define PARAMSYNC_PFC_PAUSE_STORM_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

class PfcNetDevice;

/**
 * \brief A pause held by one device on one priority of its peer.
 */
class PfcHeldPause
{
  public:
    /**
     * \param dev the device that sends the pause frames (the peer's egress is paused)
     * \param priority the paused priority
     * \param quanta pause time of each frame, in 512-bit times (refreshed every half of it)
     * \param keepGoing false once the run is over: no more refreshes
     */
    PfcHeldPause(Ptr<PfcNetDevice> dev,
                 uint8_t priority,
                 uint16_t quanta,
                 std::function<bool()> keepGoing);
    ~PfcHeldPause();

    /// \brief Starts holding (sends the first pause now); no-op while held.
    void Hold();
    /// \brief Stops holding and resumes the peer at once (quanta 0); no-op when not held.
    void Release();
    /// \brief Whether this is the pause of (dev, priority).
    bool Is(const Ptr<PfcNetDevice>& dev, uint8_t priority) const;
    /// \brief Whether the pause is held now.
    bool
    IsHeld() const
    {
        return m_held;
    }

  private:
    void Refresh();

    Ptr<PfcNetDevice> m_dev;           //!< sender of the pause frames
    uint8_t m_priority;                //!< paused priority
    uint16_t m_quanta;                 //!< quanta of each pause frame
    std::function<bool()> m_keepGoing; //!< the run is not over
    bool m_held{false};                //!< holding now
    EventId m_refresh;                 //!< next refresh
};

/**
 * \brief A NIC flooding pause frames on every port and data priority.
 */
class PfcPauseStorm : public Object
{
  public:
    /// \brief The TypeId, with attributes Start, Duration and Quanta.
    static TypeId GetTypeId();
    PfcPauseStorm();
    ~PfcPauseStorm() override;

    /// \brief The run is over once keepGoing() is false (default: never, for tests that
    /// stop the simulator themselves).
    void SetKeepGoing(std::function<bool()> keepGoing);

    /**
     * \brief Schedules the storm on the given ports (the faulty NIC's) and priorities (the
     * data lanes' priorities), Start from now. Call once.
     */
    void Install(const std::vector<Ptr<PfcNetDevice>>& ports,
                 const std::vector<uint8_t>& priorities);

  protected:
    void DoDispose() override;

  private:
    void Begin();
    void End();

    Time m_start;                                        //!< Start attribute
    Time m_duration;                                     //!< Duration attribute (0: no end)
    uint16_t m_quanta;                                   //!< Quanta attribute
    std::function<bool()> m_keepGoing;                   //!< the run is not over
    std::vector<std::unique_ptr<PfcHeldPause>> m_pauses; //!< one per (port, priority)
    EventId m_begin;                                     //!< scheduled start
    EventId m_end;                                       //!< scheduled end
};

} // namespace ns3

#endif // PARAMSYNC_PFC_PAUSE_STORM_H
