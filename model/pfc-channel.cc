#include "pfc-channel.h"

#include "pfc-net-device.h"
#include "pooled-event.h"
#include "warmable-event.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

namespace
{
/**
 * The arrival of a RoCE frame whose header travels with it. MakeEvent would hold the frame
 * as a Ptr and copy it into the call and drop it after: two touches of a Packet that has left
 * the cache on the wire. This event moves its reference into the receiver instead; its
 * memory is reused from a free list (pooled-event.h). It is one cache line (the event's 16
 * bytes, the device, the frame and its 32-byte header; the size follows from the header):
 * it waits a propagation delay, long enough to leave the cache in a large network, and is
 * read whole when it runs.
 */
class alignas(64) FrameArrival final : public PooledEvent<FrameArrival, WarmableEvent>
{
  public:
    FrameArrival(PfcNetDevice* dst, FrameRef frame, const RoceFrameInfo& info)
        : m_dst(dst),
          m_frame(std::move(frame)),
          m_info(info)
    {
    }

    void
    Warm(int stage) const override
    {
        m_dst->WarmReceive(stage, m_info);
    }

  private:
    void
    Notify() override
    {
        m_dst->ReceiveFrame(std::move(m_frame), m_info, RoceFrameBytes(m_info));
    }

    PfcNetDevice* m_dst;  //!< the receiving device (the channel holds it)
    FrameRef m_frame;     //!< the frame
    RoceFrameInfo m_info; //!< its header
};
static_assert(sizeof(FrameArrival) == 64, "FrameArrival: one cache line");

/// \brief The end (0 or 1) of a link's two devices that receives what src sends.
std::size_t
PeerEnd(const Ptr<PfcNetDevice> (&ends)[2], const PfcNetDevice* src)
{
    return PeekPointer(ends[0]) == src ? 1 : 0;
}
} // namespace

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<PfcChannel>()
                            .AddAttribute(
                                "Delay",
                                "One-way propagation delay of each direction (s).",
                                TimeValue(MicroSeconds(1)),
                                MakeTimeAccessor(&PfcChannel::SetDelay, &PfcChannel::GetDelay),
                                MakeTimeChecker(Time(0)))
                            .AddTraceSource("LinkDrop",
                                            "A frame was lost because the link is down.",
                                            MakeTraceSourceAccessor(&PfcChannel::m_linkDropTrace),
                                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcChannel::PfcChannel() = default;

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel: a point-to-point link has two ends");
    m_ends[m_nDevices++] = device;
    ForgetDirectPaths();
}

void
PfcChannel::SetUp(bool up)
{
    m_up = up;
    ForgetDirectPaths();
}

void
PfcChannel::SetDelay(Time delay)
{
    m_delay = delay;
    ForgetDirectPaths();
}

void
PfcChannel::ForgetDirectPaths()
{
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_ends[i]->ForgetDirectPath();
    }
}

PfcChannel::DirectPath
PfcChannel::GetDirectPath(const PfcNetDevice* src) const
{
    DirectPath path;
    if (m_nDevices < 2 || !m_up)
    {
        return path;
    }
    const std::size_t end = PeerEnd(m_ends, src);
    Ptr<Node> node = m_ends[end]->GetNode();
    if (end == m_remoteEnd || !node)
    {
        return path;
    }
    path.peer = PeekPointer(m_ends[end]);
    path.delay = m_delay;
    path.context = node->GetId();
    return path;
}

void
PfcChannel::ScheduleArrival(
    PfcNetDevice* dst, uint32_t context, Time after, FrameRef frame, const RoceFrameInfo& info)
{
    Simulator::ScheduleWithContext(context, after, new FrameArrival(dst, std::move(frame), info));
}

bool
PfcChannel::TransmitFrame(
    FrameRef frame, uint32_t bytes, const PfcNetDevice* src, Time txTime, const RoceFrameInfo* info)
{
    if (m_nDevices < 2)
    {
        return false;
    }
    if (!m_up)
    {
        // A failed link: the sender serializes the frame into nothing.
        ++m_linkDrops;
        if (!m_linkDropTrace.IsEmpty())
        {
            m_linkDropTrace(frame.Share(info));
        }
        return true;
    }
    const std::size_t end = PeerEnd(m_ends, src);
    PfcNetDevice* dst = PeekPointer(m_ends[end]);
    if (end == m_remoteEnd)
    {
        // A link the partition cut (helper/rank-partition.h): the receiver is another
        // process's; it gets the frame at the same simulated time.
        m_crossing->Cross(std::move(frame), bytes, dst, txTime + m_delay, info);
        return true;
    }
    // The node id is the event context; looking it up through the device's node for every
    // frame touched two cold objects per hop in large topologies.
    uint32_t context = m_context[end];
    if (context == kNoContext)
    {
        Ptr<Node> node = dst->GetNode();
        context = node ? node->GetId() : 0;
        if (node)
        {
            m_context[end] = context;
        }
    }
    // The frame changes hands: the sender keeps no reference after TransmitComplete, so the
    // receiver may rewrite it in place without a copy. A raw device pointer is safe: the
    // channel holds both ends until the simulation is destroyed with its pending events.
    if (info)
    {
        // The parsed header rides in the event: the receiver need not read the frame's bytes
        // (nor its size: a frame with a header is the size the header says, which
        // PfcNetDevice checks where a Packet and a header are handed in together).
        NS_ASSERT(bytes == RoceFrameBytes(*info));
        ScheduleArrival(dst, context, txTime + m_delay, std::move(frame), *info);
    }
    else
    {
        Simulator::ScheduleWithContext(
            context, txTime + m_delay, &PfcNetDevice::Receive, dst, frame.Release(nullptr));
    }
    return true;
}

void
PfcChannel::SetCrossing(Ptr<PfcChannelCrossing> crossing, std::size_t remoteEnd)
{
    NS_ABORT_MSG_IF(crossing && remoteEnd > 1, "PfcChannel: an end is 0 or 1");
    m_crossing = crossing;
    m_remoteEnd = crossing ? remoteEnd : 2;
    ForgetDirectPaths();
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return m_ends[i];
}

Ptr<PfcNetDevice>
PfcChannel::GetPfcDevice(std::size_t i) const
{
    return m_ends[i];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
