// InFlightSampler: frames queued in devices plus frames on the links (memory per
// frame in flight).
//
// One link at 8 Gb/s (1 byte = 1 ns) with 1000 ns delay: a 1000 B-payload frame (1066 B +
// 20 B framing) takes 1086 ns to send and arrives 1086 + 1000 = 2086 ns after it started.
#include "ns3/data-rate.h"
#include "ns3/in-flight-sampler.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

PfcNetwork
OneLink()
{
    PfcNetwork net;
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    ch->SetAttribute("Delay", TimeValue(NanoSeconds(1000)));
    net.channels.push_back(ch);
    for (int i = 0; i < 2; ++i)
    {
        Ptr<Node> n = CreateObject<Node>();
        Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate("8Gbps")));
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
        net.nodes.Add(n);
        net.ports.push_back({dev});
        net.switches.push_back(nullptr);
    }
    net.ports[1][0]->SetFrameReceiveCallback(
        PfcNetDevice::FrameReceiveCallback([](Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t) {}));
    return net;
}

Ptr<Packet>
DataFrame()
{
    RoceFrameInfo info;
    info.payloadBytes = 1000;
    info.priority = 3;
    return BuildRoceFrame(info);
}

TEST(InFlightSampler, CountsQueuedAndOnTheWire)
{
    PfcNetwork net = OneLink();
    EXPECT_EQ(InFlightSampler::Count(net), 0u);
    // Three frames at t = 0: one starts at once (on the wire), two wait in the queue.
    for (int i = 0; i < 3; ++i)
    {
        net.ports[0][0]->Enqueue(DataFrame(), 3);
    }
    EXPECT_EQ(net.ports[0][0]->QueuedFrames(), 2u);
    EXPECT_EQ(InFlightSampler::Count(net), 3u);
    uint64_t at2500 = 0;
    uint64_t at4000 = 0;
    // At 2500 ns frame 1 arrived (2086), frame 2 is on the wire (sent 1086..2172), frame 3
    // is being sent (2172..3258): 2 exist. At 4000 ns frame 2 arrived (3172), frame 3 has
    // not (4258): 1.
    Simulator::Schedule(NanoSeconds(2500), [&]() { at2500 = InFlightSampler::Count(net); });
    Simulator::Schedule(NanoSeconds(4000), [&]() { at4000 = InFlightSampler::Count(net); });
    Simulator::Run();
    EXPECT_EQ(at2500, 2u);
    EXPECT_EQ(at4000, 1u);
    EXPECT_EQ(InFlightSampler::Count(net), 0u);
    EXPECT_EQ(net.ports[1][0]->GetRxFrames(), 3u);
    Simulator::Destroy();
}

TEST(InFlightSampler, KeepsThePeak)
{
    PfcNetwork net = OneLink();
    // Samples every 500 ns from t = 0: the 3 frames enqueued at 0 are the most that exist.
    InFlightSampler sampler(
        net, NanoSeconds(500), [] { return Simulator::Now() < NanoSeconds(6000); });
    for (int i = 0; i < 3; ++i)
    {
        net.ports[0][0]->Enqueue(DataFrame(), 3);
    }
    sampler.Start();
    Simulator::Run();
    EXPECT_EQ(sampler.Peak(), 3u);
    Simulator::Destroy();
}

TEST(InFlightSampler, RefusesAZeroInterval)
{
    PfcNetwork net;
    EXPECT_THROW(InFlightSampler(net, Seconds(0), [] { return false; }), std::invalid_argument);
}

} // namespace
} // namespace ns3
