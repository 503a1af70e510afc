// RoceNic + QueuePair (issue 2, tests 1-3, and the NIC's ACK/NACK/CNP behaviours): networks
// are built with NetworkBuilder on star and BCube topologies, one RoceNic per host.
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control.h"
#include "ns3/network-builder.h"
#include "ns3/pfc-switch.h"
#include "ns3/queue-pair.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <iomanip>
#include <iostream>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kRate = 40e9;       // 40 Gb/s links
constexpr double kDelay = 1e-6;      // 1 us links
constexpr uint8_t kDataPriority = 3; // ForwardingTable BasePriority default

/// A built network with one RoceNic per host and what the test watches.
struct Fabric
{
    std::unique_ptr<Topology> topology;
    PfcNetwork net;
    std::vector<Ptr<RoceNic>> nics;
    std::vector<double> receivedAtS; // per message received (any host), in arrival order
    uint64_t receivedBytes{0};

    uint64_t
    Drops() const
    {
        uint64_t d = 0;
        for (const auto& sw : net.switches)
        {
            d += sw ? sw->GetTotalDrops() : 0;
        }
        return d;
    }

    uint64_t
    PausesSent() const
    {
        uint64_t n = 0;
        for (const auto& node : net.ports)
        {
            for (const auto& dev : node)
            {
                for (uint8_t p = 0; p < kPfcPriorities; ++p)
                {
                    n += dev->GetPauseFramesSent(p);
                }
            }
        }
        return n;
    }

    uint64_t
    Retransmits() const
    {
        uint64_t n = 0;
        for (const auto& nic : nics)
        {
            n += nic->GetRetransmittedPackets();
        }
        return n;
    }
};

std::unique_ptr<Fabric>
BuildFabric(const std::string& spec, NetworkBuilder builder = NetworkBuilder())
{
    auto f = std::make_unique<Fabric>();
    f->topology = MakeTopology(spec, kRate, kDelay);
    f->net = builder.Build(*f->topology);
    Fabric* raw = f.get();
    const auto hosts = static_cast<uint32_t>(f->net.hostNode.size());
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<RoceNic> nic = CreateObject<RoceNic>();
        nic->SetAttribute("HostRank", UintegerValue(h));
        f->net.Host(h)->AggregateObject(nic);
        for (const auto& dev : f->net.HostPorts(h))
        {
            nic->AddPort(dev);
        }
        f->net.SetHostReceive(h, MakeCallback(&RoceNic::Receive, nic));
        nic->SetMessageReceivedCallback([raw](uint32_t, uint32_t, uint64_t bytes) {
            raw->receivedAtS.push_back(Simulator::Now().GetSeconds());
            raw->receivedBytes += bytes;
        });
        f->nics.push_back(nic);
    }
    return f;
}

class RoceNicTest : public ::testing::Test
{
  protected:
    void
    SetUp() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

// Issue 2 test 1: one 10 MB message over 2 hosts + 1 switch at 40 Gb/s, 1 us links, CC none.
TEST_F(RoceNicTest, OneMessageCompletesAtWireBytesOverRatePlusPathLatency)
{
    auto f = BuildFabric("star:n=2");
    const uint64_t bytes = 10000000;
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    EXPECT_EQ(qp->GetPriority().value, kDataPriority);
    double senderDoneS = -1;
    f->nics[0]->PostSend(qp, bytes, [&]() { senderDoneS = Simulator::Now().GetSeconds(); });
    Simulator::Run();

    // MTU 4096: 10e6 / 4096 = 2441 full packets (9,998,336 B) + one of 1,664 B.
    // RoceWireBytes = payload + 14 Ethernet + 4 VLAN + 20 IPv4 + 8 UDP + 12 BTH + 4 ICRC
    // + 4 FCS + 20 preamble/SFD/IFG = payload + 86: 4182 B and 1750 B.
    const uint64_t full = bytes / 4096;
    const uint32_t tail = static_cast<uint32_t>(bytes - full * 4096);
    ASSERT_EQ(full, 2441u);
    ASSERT_EQ(tail, 1664u);
    ASSERT_EQ(RoceWireBytes(4096, true, false), 4182u);
    ASSERT_EQ(RoceWireBytes(tail, true, false), 1750u);
    const uint64_t wire =
        full * RoceWireBytes(4096, true, false) + RoceWireBytes(tail, true, false);
    ASSERT_EQ(wire, 10210012u);
    // The sender's link is busy back to back for wire*8/R = 2042.0024 us. The switch stores
    // and forwards: its egress repeats the sender's schedule shifted by the first frame's
    // store time (4182 B -> 836.4 ns) and link 1 (1 us); the last frame (1750 B) arrives
    // while the one before it is still going out, so it does not overtake that shift. Then
    // link 2 (1 us): ideal = 2042.0024 + 0.8364 + 2 = 2044.8388 us.
    const double ideal =
        wire * 8.0 / kRate + RoceWireBytes(4096, true, false) * 8.0 / kRate + 2 * kDelay;
    EXPECT_NEAR(ideal, 2044.8388e-6, 1e-12);
    ASSERT_EQ(f->receivedAtS.size(), 1u);
    EXPECT_EQ(f->receivedBytes, bytes);
    EXPECT_NEAR(f->receivedAtS[0], ideal, 0.01 * ideal);
    // Nothing else shares the path, so it is in fact exact to the nanosecond per frame.
    EXPECT_NEAR(f->receivedAtS[0], ideal, 2e-9);
    std::cout << std::setprecision(9) << "[ measured ] 10 MB completion " << f->receivedAtS[0] * 1e6
              << " us, ideal " << ideal * 1e6 << " us" << std::endl;
    // The sender learns of it one ACK later: the ACK (90 B wire = 18 ns per link) goes back
    // over 2 links: 2 x (18 ns + 1 us) after the last byte.
    EXPECT_NEAR(senderDoneS, f->receivedAtS[0] + 2 * (90 * 8.0 / kRate + kDelay), 2e-9);
    EXPECT_EQ(qp->GetMessagesCompleted(), 1u);
    EXPECT_EQ(qp->GetPacketsSent(), full + 1);
    EXPECT_EQ(f->nics[0]->GetRetransmittedPackets(), 0u);
    EXPECT_EQ(f->Drops(), 0u);
    // ACK every 4 packets and at the end: floor(2441 / 4) = 610 interval ACKs (the 2442nd
    // packet is the last: its ACK is the message-end one) + 1.
    EXPECT_EQ(f->nics[1]->GetAcksSent(), 2442u / 4 + 1);
}
