#include "pfc-mpi-crossing.h"

#include "pfc-frame-info-tag.h"
#include "pfc-net-device.h"

#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcMpiCrossing);

TypeId
PfcMpiCrossing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcMpiCrossing")
                            .SetParent<PfcChannelCrossing>()
                            .SetGroupName("Paramsync")
                            .AddConstructor<PfcMpiCrossing>();
    return tid;
}

void
PfcMpiCrossing::Cross(
    FrameRef frame, uint32_t bytes, PfcNetDevice* dst, Time after, const RoceFrameInfo* info)
{
    Ptr<Packet> p = frame.Release(info); // a header-only frame is built here
    if (info)
    {
        PfcFrameInfoTag tag;
        tag.info = *info;
        tag.bytes = bytes;
        p->AddPacketTag(tag);
    }
    MpiInterface::SendPacket(
        p, Simulator::Now() + after, dst->GetNode()->GetId(), dst->GetIfIndex());
}

void
PfcMpiCrossing::InstallReceiver(Ptr<PfcNetDevice> device)
{
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    PfcNetDevice* dev = PeekPointer(device); // the device owns the receiver (aggregate)
    receiver->SetReceiveCallback([dev](Ptr<Packet> p) {
        PfcFrameInfoTag tag;
        if (p->RemovePacketTag(tag))
        {
            dev->ReceiveFrame(FrameRef(p), tag.info, tag.bytes);
        }
        else
        {
            dev->Receive(p);
        }
    });
    device->AggregateObject(receiver);
}

} // namespace ns3
