// RoceSyncTransport: sync messages reuse one QP per (src, dst, QP index), replayed flows get
// their own QP and are reported at the receiver's last byte, bad --cc is rejected by name.
#include "ns3/network-builder.h"
#include "ns3/queue-pair.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-sync-transport.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

RoceTransportConfig
Options(const std::string& cc)
{
    RoceTransportConfig o;
    o.mtu = 1000;
    o.cc = cc;
    o.priority = 3;
    return o;
}

} // namespace

TEST(RoceSyncTransport, FlowsAreDeliveredAtTheLastByteAndSyncQpsAreReused)
{
    auto topology = MakeTopology("star:n=3", 40e9, 1e-6);
    PfcNetwork net = NetworkBuilder().Build(*topology);
    RoceTransportConfig options = Options("none");
    RoceSyncTransport transport(net, options);
    EXPECT_EQ(transport.QueuePairs(0, 2), 1u); // one port per star host

    double arrivedFrom0 = -1;
    transport.Nic(2)->TraceConnectWithoutContext(
        "MessageReceived",
        MakeBoundCallback(
            +[](double* at, uint32_t src, uint32_t, uint64_t) {
                if (src == 0)
                {
                    *at = Simulator::Now().GetSeconds();
                }
            },
            &arrivedFrom0));
    double deliveredAt = -1;
    transport.SendFlow(0, 2, 10000, [&]() { deliveredAt = Simulator::Now().GetSeconds(); });
    int sent = 0;
    double firstSentAt = -1;
    transport.Send(1, 2, 0, 5000, [&]() {
        if (++sent == 1)
        {
            firstSentAt = Simulator::Now().GetSeconds();
        }
    });
    transport.Send(1, 2, 0, 5000, [&]() { ++sent; });
    Simulator::Run();

    // The flow's callback is the receiver's last byte, not the sender's ACK (which comes
    // one ACK trip, > 2 us, later).
    ASSERT_GT(arrivedFrom0, 0);
    EXPECT_DOUBLE_EQ(deliveredAt, arrivedFrom0);
    // Both sync messages went on one QP (the first number, 0x100) of host 1; onSent at the
    // sender, after the 5000 B crossed 2 links (> 2 us).
    EXPECT_EQ(sent, 2);
    EXPECT_GT(firstSentAt, 2e-6);
    ASSERT_TRUE(transport.Nic(1)->GetQueuePair(0x100));
    EXPECT_FALSE(transport.Nic(1)->GetQueuePair(0x101));
    EXPECT_EQ(transport.Nic(1)->GetQueuePair(0x100)->GetMessagesCompleted(), 2u);
    EXPECT_EQ(transport.Nic(2)->GetMessagesReceived(), 3u);
    EXPECT_EQ(transport.Retransmits(), 0u);
    Simulator::Destroy();
}

TEST(RoceSyncTransport, UnknownCongestionControlIsRejectedByOption)
{
    auto topology = MakeTopology("star:n=2", 40e9, 1e-6);
    PfcNetwork net = NetworkBuilder().Build(*topology);
    RoceTransportConfig options = Options("hpcc");
    try
    {
        RoceSyncTransport transport(net, options);
        FAIL() << "--cc=hpcc accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("--cc"), std::string::npos);
    }
    Simulator::Destroy();
}
