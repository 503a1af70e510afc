/*
 * RunInvariants: what must hold at the end of every packet-level run, checked from the
 * network's own counters (not from what the job believes):
 *  - lossless: no frame dropped while PFC is on;
 *  - data conservation: data packets the NICs sent (retransmissions included) = data
 *    packets that reached a NIC (accepted in order or discarded by go-back-N) + data
 *    frames dropped in the network + data frames still in flight (0 once the run drained);
 *  - buffers drained: once nothing is left to do, every switch's shared and headroom
 *    accounting is back to zero and every egress queue is empty (a leak in the MMU's
 *    accounting or a frame stranded in a queue shows here);
 *  - completion: every posted message delivered (the job finished, every flow ended).
 * Each broken invariant is one line; the driver turns any into exit 3 with results kept.
 */
#ifndef PARAMSYNC_RUN_INVARIANTS_H
#define PARAMSYNC_RUN_INVARIANTS_H

#include "network-builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \brief The counters the invariants are checked on.
struct RunCounters
{
    bool pfc{true};          //!< PFC on
    bool drained{false};     //!< the simulation ran out of events (nothing in flight)
    bool completed{false};   //!< every message delivered
    uint64_t drops{0};       //!< frames dropped by MMUs, any priority
    uint64_t dataDrops{0};   //!< data frames dropped by MMUs
    uint64_t dataSent{0};    //!< data packets sent by the NICs (retransmissions included)
    uint64_t dataArrived{0}; //!< data packets that reached a NIC (accepted or discarded)
};

/**
 * \brief The end-of-run invariants.
 */
class RunInvariants
{
  public:
    /**
     * \brief Every broken invariant, one line each (empty: all hold).
     * \param net the network after the run (its switches and queues are inspected)
     * \param c the counters of the run
     */
    static std::vector<std::string> Check(const PfcNetwork& net, const RunCounters& c);
};

} // namespace ns3

#endif // PARAMSYNC_RUN_INVARIANTS_H
