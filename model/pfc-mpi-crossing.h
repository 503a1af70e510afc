/*
 * PfcMpiCrossing: PfcChannel's crossing over ns-3's distributed engine (src/mpi). Compiled
 * only in an ns-3 tree configured with --enable-mpi (CMakeLists.txt, model/sources.cmake).
 *
 * The frame is serialized by MpiInterface::SendPacket to the rank that owns the receiving
 * node, addressed by (node id, device interface index), with its parsed header in a
 * PfcFrameInfoTag; the MpiReceiver aggregated to the receiving device schedules its arrival
 * at the sender's now + serialization + propagation, the time the local path would deliver
 * it. The link's delay is the engine's lookahead (DistributedSimulatorImpl reads the
 * channel's Delay attribute), so the arrival is never in the receiver's past.
 */
#ifndef PARAMSYNC_PFC_MPI_CROSSING_H
#define PARAMSYNC_PFC_MPI_CROSSING_H

#include "pfc-channel-crossing.h"

#include "ns3/ptr.h"

namespace ns3
{

class PfcNetDevice;

/**
 * \brief Sends frames of cut links to other ranks; receives them on this rank's devices.
 */
class PfcMpiCrossing : public PfcChannelCrossing
{
  public:
    /// \brief Register the type.
    static TypeId GetTypeId();

    void Cross(FrameRef frame,
               uint32_t bytes,
               PfcNetDevice* dst,
               Time after,
               const RoceFrameInfo* info) override;

    /**
     * \brief Lets device (on this rank, at the local end of a cut link) receive frames from
     * other ranks: aggregates an MpiReceiver that hands each to the device as PfcChannel
     * would (ReceiveFrame with the tag's header, or Receive for a frame without one).
     */
    static void InstallReceiver(Ptr<PfcNetDevice> device);
};

} // namespace ns3

#endif // PARAMSYNC_PFC_MPI_CROSSING_H
