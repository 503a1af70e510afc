#include "rank-crossings.h"

#include "ns3/pfc-channel.h"
#include "ns3/pfc-mpi-crossing.h"
#include "ns3/pfc-net-device.h"

namespace ns3
{

uint32_t
InstallRankCrossings(const PfcNetwork& net,
                     const TopologyGraph& graph,
                     const RankPartition& partition,
                     uint32_t self)
{
    Ptr<PfcMpiCrossing> crossing = CreateObject<PfcMpiCrossing>();
    uint32_t crossings = 0;
    for (LinkIndex l = 0; l < graph.LinkCount(); ++l)
    {
        const TopologyLink& link = graph.Link(l);
        const uint32_t rankA = partition.RankOf(link.a);
        const uint32_t rankB = partition.RankOf(link.b);
        if (rankA == rankB || (rankA != self && rankB != self))
        {
            continue; // inside one rank, or between two others
        }
        const Ptr<PfcNetDevice> local = rankA == self ? net.ports[link.a][link.portA]
                                                      : net.ports[link.b][link.portB];
        const Ptr<PfcChannel>& channel = net.channels[l];
        const std::size_t remoteEnd = channel->GetPfcDevice(0) == local ? 1 : 0;
        channel->SetCrossing(crossing, remoteEnd);
        PfcMpiCrossing::InstallReceiver(local);
        ++crossings;
    }
    return crossings;
}

} // namespace ns3
