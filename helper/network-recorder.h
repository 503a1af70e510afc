/*
 * NetworkRecorder: connects to the trace sources of every PfcNetDevice and PfcSwitch of a
 * PfcNetwork and keeps the counts the results need — pause frames sent per port and
 * priority, pause intervals (for the trace file), drops and ECN marks — then fills a
 * RunResult, with what the devices count themselves (pauses received, paused time,
 * packet-hops). Measurement is configuration, not model code (STYLE.md).
 */
#ifndef PARAMSYNC_NETWORK_RECORDER_H
#define PARAMSYNC_NETWORK_RECORDER_H

#include "network-builder.h"
#include "pause-spread.h"
#include "run-result.h"

#include "ns3/nstime.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \brief Counts what the network did.
 */
class NetworkRecorder
{
  public:
    /// \brief Connects to every device and switch of net (which must outlive the recorder's use).
    explicit NetworkRecorder(const PfcNetwork& net);

    /// \brief Pause frames (quanta > 0) sent by any port.
    uint64_t
    PauseFrames() const
    {
        return m_pauseFrames;
    }
    /// \brief Frames dropped by any MMU.
    uint64_t
    Drops() const
    {
        return m_drops;
    }
    /// \brief Frames marked CE.
    uint64_t
    EcnMarks() const
    {
        return m_ecnMarks;
    }
    /// \brief Frames of one priority dropped by any MMU.
    uint64_t DropsOfPriority(uint8_t priority) const;
    /// \brief Frames lost on failed links (--link-down), and how many carried data.
    uint64_t
    LinkDrops() const
    {
        return m_linkDrops;
    }
    /// \brief Data frames lost on failed links.
    uint64_t
    DataLinkDrops() const
    {
        return m_dataLinkDrops;
    }
    /// \brief Frames the PFC watchdogs dropped (stormed queues), all priorities.
    uint64_t WatchdogDrops() const;
    /// \brief Frames of one priority the PFC watchdogs dropped.
    uint64_t
    WatchdogDropsOfPriority(uint8_t priority) const
    {
        return m_watchdogDrops[priority];
    }

    /// \brief Adds the network's counters (pfc rows, pause intervals, totals) to result.
    void Fill(RunResult& result) const;

  private:
    /// One port of the network.
    struct Port
    {
        uint32_t node;
        uint32_t port;
        std::array<uint64_t, 8> pausesSent{};
        std::array<uint64_t, 8> drops{};      //!< frames dropped on arrival at this port
        std::array<double, 8> endedPausedS{}; //!< paused time of the pauses that ended
    };
    static void OnPauseSent(NetworkRecorder* self,
                            uint32_t port,
                            uint8_t priority,
                            uint16_t quanta);
    static void OnResume(NetworkRecorder* self, uint32_t port, uint8_t priority, Time paused);
    static void OnDrop(NetworkRecorder* self,
                       uint32_t firstPort,
                       Ptr<const Packet> frame,
                       uint32_t inPort,
                       uint8_t prio);
    static void OnMark(NetworkRecorder* self, Ptr<const Packet> frame, uint32_t port, uint8_t prio);

    /**
     * A pause that ended, by port index: 24 B. The trace's PauseInterval (56 B, the port's
     * name in a string) and the pause spread's PausedEgress (24 B) are both made from it in
     * Fill, one after the other; keeping both during the run and copying them in Fill took
     * ~277 B per pause, most of the demo mesh's 64 MB peak (178,866 pauses; README,
     * Resource estimate).
     */
    struct EndedPause
    {
        uint32_t port;     //!< index in m_ports
        uint32_t priority; //!< PFC priority
        double startS;     //!< pause start
        double endS;       //!< resume
    };

    const PfcNetwork& m_net;                   //!< the network
    std::vector<Port> m_ports;                 //!< every port
    std::vector<EndedPause> m_ended;           //!< ended pauses, in the order they ended
    std::vector<std::vector<uint32_t>> m_peer; //!< [node][port] -> node at the other end
    uint64_t m_pauseFrames{0};                 //!< pauses sent
    uint64_t m_drops{0};                       //!< MMU drops
    std::array<uint64_t, 8> m_watchdogDrops{}; //!< PFC watchdog drops per priority
    uint64_t m_linkDrops{0};                   //!< frames lost to link failures (cable, no route)
    uint64_t m_dataLinkDrops{0};               //!< of which data
    uint64_t m_ecnMarks{0};                    //!< CE marks
};

} // namespace ns3

#endif // PARAMSYNC_NETWORK_RECORDER_H
