/*
 * PfcChannelCrossing: where a PfcChannel hands a frame whose receiving end lives in another
 * process (a rank of ns-3's distributed engine, model/pfc-mpi-crossing.h). The channel keeps
 * the local path as it is; only a link cut by the partition has a crossing.
 */
#ifndef PARAMSYNC_PFC_CHANNEL_CROSSING_H
#define PARAMSYNC_PFC_CHANNEL_CROSSING_H

#include "frame-ref.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

class PfcNetDevice;
struct RoceFrameInfo;

/**
 * \brief Carries a frame to a PfcNetDevice of another process.
 */
class PfcChannelCrossing : public Object
{
  public:
    /**
     * \brief Deliver frame (bytes: its size; info: its parsed header, or null for a frame
     * the receiver parses itself, as PFC pause frames) to dst after `after` (serialization
     * plus propagation), as PfcChannel's local path would.
     */
    virtual void Cross(FrameRef frame,
                       uint32_t bytes,
                       PfcNetDevice* dst,
                       Time after,
                       const RoceFrameInfo* info) = 0;
};

} // namespace ns3

#endif // PARAMSYNC_PFC_CHANNEL_CROSSING_H
