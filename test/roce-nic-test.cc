// RoceNic + QueuePair (one message, an incast with and without PFC, and the NIC's ACK/NACK/CNP
// behaviours): networks are built with NetworkBuilder on star and BCube topologies, one RoceNic per
// host.
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control-preset.h"
#include "ns3/congestion-control.h"
#include "ns3/double.h"
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
#include <stdexcept>
#include <string>
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
BuildFabric(const std::string& spec,
            NetworkBuilder builder = NetworkBuilder(),
            bool directSink = false)
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
        if (directSink)
        {
            f->net.SetHostSink(h, PeekPointer(nic));
        }
        else
        {
            f->net.SetHostReceive(h, MakeCallback(&RoceNic::Receive, nic));
        }
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

// One 10 MB message over 2 hosts + 1 switch at 40 Gb/s, 1 us links, CC none.
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
    const uint64_t wire = full * RoceWireBytes(4096, true, false) +
                          RoceWireBytes(tail, true, false);
    ASSERT_EQ(wire, 10210012u);
    // The sender's link is busy back to back for wire*8/R = 2042.0024 us. The switch stores
    // and forwards: its egress repeats the sender's schedule shifted by the first frame's
    // store time (4182 B -> 836.4 ns) and link 1 (1 us); the last frame (1750 B) arrives
    // while the one before it is still going out, so it does not overtake that shift. Then
    // link 2 (1 us): ideal = 2042.0024 + 0.8364 + 2 = 2044.8388 us.
    const double ideal = wire * 8.0 / kRate + RoceWireBytes(4096, true, false) * 8.0 / kRate +
                         2 * kDelay;
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

namespace
{

/// 8 -> 1 incast on star:n=9: hosts 0..7 each send `bytes` to host 8 at t = 0.
struct IncastResult
{
    uint32_t completed{0}; // sender-side completions
    double lastReceivedS{0};
};

IncastResult
RunIncast(Fabric& f, uint64_t bytes)
{
    IncastResult r;
    for (uint32_t s = 0; s < 8; ++s)
    {
        Ptr<QueuePair> qp = f.nics[s]->CreateQueuePair(8);
        f.nics[s]->PostSend(qp, bytes, [&r]() { ++r.completed; });
    }
    Simulator::Run();
    for (double t : f.receivedAtS)
    {
        r.lastReceivedS = std::max(r.lastReceivedS, t);
    }
    return r;
}

} // namespace

// 8 -> 1 incast at line rate, PFC on, default buffer (32 MiB).
TEST_F(RoceNicTest, IncastWithPfcIsLosslessAndKeepsTheReceiverLinkBusy)
{
    auto f = BuildFabric("star:n=9");
    // 8 MB per sender: without pauses the switch would have to hold 8 x 8 MB minus what
    // the receiver link drains meanwhile (1/8 of it): 7 x 8 MB = 56 MB > 32 MiB buffer, so
    // only PFC can keep it lossless.
    const uint64_t bytes = 8000000;
    IncastResult r = RunIncast(*f, bytes);
    EXPECT_EQ(r.completed, 8u);
    EXPECT_EQ(f->nics[8]->GetMessagesReceived(), 8u);
    EXPECT_EQ(f->receivedBytes, 8 * bytes);
    EXPECT_EQ(f->Drops(), 0u);
    EXPECT_GE(f->PausesSent(), 1u);
    EXPECT_EQ(f->Retransmits(), 0u);
    // Payload bound of the receiver link: 40 Gb/s x 4096 / 4182 (full frames) = 39.18 Gb/s.
    const double bound = kRate * 4096.0 / RoceWireBytes(4096, true, false);
    const double goodput = 8.0 * bytes * 8 / r.lastReceivedS;
    EXPECT_GE(goodput, 0.95 * bound);
    std::cout << "[ measured ] incast PFC on: pauses " << f->PausesSent() << ", last message "
              << r.lastReceivedS * 1e6 << " us, goodput " << goodput / 1e9 << " Gb/s of "
              << bound / 1e9 << std::endl;
}

// The same incast on a lossy switch with a small buffer.
TEST_F(RoceNicTest, IncastWithoutPfcDropsAndGoBackNRecovers)
{
    NetworkBuilder builder;
    builder.SetSwitchAttribute("PfcEnabled", BooleanValue(false));
    builder.SetSwitchAttribute("BufferSize", UintegerValue(300000));
    auto f = BuildFabric("star:n=9", builder);
    // 8 x 1 MB at 8 x 40 Gb/s into 40 Gb/s: the excess 7 MB cannot fit 300 kB.
    const uint64_t bytes = 1000000;
    IncastResult r = RunIncast(*f, bytes);
    EXPECT_GT(f->Drops(), 0u);
    EXPECT_EQ(r.completed, 8u);
    EXPECT_EQ(f->nics[8]->GetMessagesReceived(), 8u);
    EXPECT_EQ(f->receivedBytes, 8 * bytes);
    EXPECT_GT(f->Retransmits(), 0u);
    EXPECT_GT(f->nics[8]->GetNacksSent(), 0u);
    EXPECT_EQ(f->PausesSent(), 0u);
    uint64_t timeouts = 0;
    for (uint32_t s = 0; s < 8; ++s)
    {
        timeouts += f->nics[s]->GetTimeouts();
    }
    std::cout << "[ measured ] incast PFC off: drops " << f->Drops() << ", retransmits "
              << f->Retransmits() << ", NACKs " << f->nics[8]->GetNacksSent() << ", timeouts "
              << timeouts << ", last message " << r.lastReceivedS * 1e6 << " us" << std::endl;
}

namespace
{

/// Deliver a hand-made data frame of host 0's QP `qp` to host 1's NIC at time t.
void
InjectData(Fabric& f, double tS, uint32_t qp, uint32_t psn, uint8_t opcode, bool ce)
{
    RoceFrameInfo info;
    info.srcHost = 0;
    info.dstHost = 1;
    info.udpSrcPort = 49153;
    info.priority = kDataPriority;
    info.opcode = opcode;
    info.destQp = qp;
    info.psn = psn;
    info.ecnCe = ce;
    info.payloadBytes = 1000;
    Simulator::Schedule(Seconds(tS),
                        &RoceNic::Receive,
                        f.nics[1],
                        f.net.HostPorts(1)[0],
                        BuildRoceFrame(info),
                        kDataPriority);
}

} // namespace

TEST_F(RoceNicTest, ResponderNacksOncePerGapAndAcksOneDuplicate)
{
    auto f = BuildFabric("star:n=2");
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    const uint32_t n = qp->GetNumber();
    using namespace RoceOpcode;
    InjectData(*f, 1e-6, n, 0, kSendFirst, false);  // in order: expected 1
    InjectData(*f, 2e-6, n, 2, kSendMiddle, false); // gap: NACK(1)
    InjectData(*f, 3e-6, n, 3, kSendMiddle, false); // same gap: no NACK
    InjectData(*f, 4e-6, n, 4, kSendMiddle, false); // same gap: no NACK
    InjectData(*f, 5e-6, n, 1, kSendMiddle, false); // fills it: expected 2
    InjectData(*f, 6e-6, n, 3, kSendMiddle, false); // a new gap: NACK(2)
    InjectData(*f, 7e-6, n, 0, kSendMiddle, false); // duplicate: one ACK(1)
    InjectData(*f, 8e-6, n, 1, kSendMiddle, false); // duplicate again: nothing
    Simulator::Run();
    EXPECT_EQ(f->nics[1]->GetNacksSent(), 2u);
    EXPECT_EQ(f->nics[1]->GetDataPacketsReceived(), 2u); // PSN 0 and 1
    EXPECT_EQ(f->nics[1]->GetDataPacketsDiscarded(), 6u);
    // AckInterval 4: two in-order packets trigger no interval ACK; the duplicate one.
    EXPECT_EQ(f->nics[1]->GetAcksSent(), 1u);
    // The NACKs reach the sender (which never sent those PSNs, so it ignores them).
    EXPECT_EQ(qp->GetNacksReceived(), 2u);
    EXPECT_EQ(qp->GetRetransmittedPackets(), 0u);
}

TEST_F(RoceNicTest, OneCnpPerIntervalAndDcqcnCutsTheRate)
{
    Config::SetDefault("ns3::RoceNic::CongestionControl",
                       StringValue("ns3::DcqcnCongestionControl"));
    // The rate-increase timer out of the way (the paper's 55 us would raise the rate here).
    Config::SetDefault("ns3::DcqcnCongestionControl::RpTimer", TimeValue(MicroSeconds(900)));
    auto f = BuildFabric("star:n=2");
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    std::vector<uint64_t> rates;
    qp->GetCongestionControl()->TraceConnectWithoutContext(
        "RateChange",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t, uint64_t now) { v->push_back(now); }, &rates));
    const uint32_t n = qp->GetNumber();
    using namespace RoceOpcode;
    // CE marks at 0, 10, 50.999, 51 and 120 us; CnpInterval 50 us: CNPs at 0 (first),
    // 51 (51 - 0 >= 50) and 120 (120 - 51 >= 50); 10 and 50.999 fall inside an interval.
    const double at[] = {0, 10e-6, 50.999e-6, 51e-6, 120e-6};
    for (uint32_t i = 0; i < 5; ++i)
    {
        InjectData(*f, at[i], n, i, i == 0 ? kSendFirst : kSendMiddle, true);
    }
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_EQ(f->nics[1]->GetCnpsSent(), 3u);
    EXPECT_EQ(f->nics[0]->GetCnpsReceived(), 3u);
    EXPECT_EQ(qp->GetCnpsReceived(), 3u);
    // DCQCN (Zhu et al. 2015, Fig. 6): the first CNP cuts Rc = Rc (1 - alpha / 2) with the
    // initial alpha 1: 40 Gb/s -> 20 Gb/s. Each later CNP is >= RateDecreaseInterval (50 us)
    // after the previous cut and RpTimer (900 us) never fires before 200 us: three cuts.
    ASSERT_EQ(rates.size(), 3u);
    EXPECT_EQ(rates[0], 20000000000u);
    EXPECT_LT(rates[1], rates[0]);
    EXPECT_LT(rates[2], rates[1]);
}

TEST_F(RoceNicTest, NoCnpWithoutNotificationPoint)
{
    // --cc=none turns the notification point off: CE-marked data makes no CNP at all (the
    // same marks as above made three with it on).
    Config::SetDefault("ns3::RoceNic::CnpEnabled", BooleanValue(false));
    auto f = BuildFabric("star:n=2");
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    using namespace RoceOpcode;
    const double at[] = {0, 10e-6, 50.999e-6, 51e-6, 120e-6};
    for (uint32_t i = 0; i < 5; ++i)
    {
        InjectData(*f, at[i], qp->GetNumber(), i, i == 0 ? kSendFirst : kSendMiddle, true);
    }
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_EQ(f->nics[1]->GetDataPacketsReceived(), 5u); // the data itself is accepted
    EXPECT_EQ(f->nics[1]->GetCnpsSent(), 0u);
    EXPECT_EQ(f->nics[0]->GetCnpsReceived(), 0u);
}

TEST_F(RoceNicTest, CnpInAckFlagsTheAckInsteadOfSendingACnp)
{
    // HPCC's DCQCN: ACK every packet, each CE-marked packet's ACK carries the notification
    // (BTH BECN bit). Five packets, marks on PSN 1 and 3: five ACKs, two of them flagged, no
    // CNP frame, and the requester's congestion control hears two notifications.
    Config::SetDefault("ns3::RoceNic::CnpInAck", BooleanValue(true));
    Config::SetDefault("ns3::RoceNic::CnpInterval", TimeValue(Seconds(0)));
    Config::SetDefault("ns3::RoceNic::AckInterval", UintegerValue(1));
    auto f = BuildFabric("star:n=2");
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    using namespace RoceOpcode;
    for (uint32_t i = 0; i < 5; ++i)
    {
        InjectData(*f,
                   1e-6 * (i + 1),
                   qp->GetNumber(),
                   i,
                   i == 0 ? kSendFirst : kSendMiddle,
                   i == 1 || i == 3);
    }
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(f->nics[1]->GetAcksSent(), 5u);
    EXPECT_EQ(f->nics[1]->GetCnpsSent(), 2u); // notifications, carried by two ACKs
    // Frames the responder put on its port at the ACK priority: the five ACKs and nothing
    // else (a CNP frame each would make seven).
    EXPECT_EQ(f->net.HostPorts(1)[0]->GetTxFrames(7), 5u);
    EXPECT_EQ(qp->GetCnpsReceived(), 2u);
    EXPECT_EQ(f->nics[0]->GetCnpsReceived(), 2u);
}

TEST_F(RoceNicTest, OneControlPriorityFeedsTheDeviceAndTheNicsAcks)
{
    // PfcNetDevice::ControlPriority is the one source of the control class: moved to 6, the
    // device serves 6 first and the NIC (whose AckPriority only reads it) sends its ACKs on
    // 6. Six packets of 4096 B, ACK every 4 and at the message end: ACKs after packets 4 and
    // 6, two frames on priority 6 and none on 7 (before, the NIC's own AckPriority kept 7).
    Config::SetDefault("ns3::PfcNetDevice::ControlPriority", UintegerValue(6));
    auto f = BuildFabric("star:n=2");
    Ptr<PfcNetDevice> responderPort = f->net.HostPorts(1)[0];
    EXPECT_EQ(responderPort->GetControlPriority(), 6);
    UintegerValue ack;
    f->nics[1]->GetAttribute("AckPriority", ack);
    EXPECT_EQ(ack.Get(), 6u);
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    f->nics[0]->PostSend(qp, 6 * 4096, []() {});
    Simulator::Run();
    EXPECT_EQ(qp->GetMessagesCompleted(), 1u);
    EXPECT_EQ(f->nics[1]->GetAcksSent(), 2u);
    EXPECT_EQ(responderPort->GetTxFrames(6), 2u);
    EXPECT_EQ(responderPort->GetTxFrames(7), 0u);
    // Unset, both are kDefaultControlPriority (7).
    Config::Reset();
    EXPECT_EQ(CreateObject<PfcNetDevice>()->GetControlPriority(), kDefaultControlPriority);
    EXPECT_EQ(CreateObject<RoceNic>()->GetAckPriority(), kDefaultControlPriority);
    EXPECT_EQ(kDefaultControlPriority, 7);
}

TEST_F(RoceNicTest, QueuePairNumbersStartAboveTheReservedOnes)
{
    // IBA Vol. 1 §3.5.1 reserves QP0 (SMI) and QP1 (GSI): a data QP numbered 1 decodes as
    // management datagrams. The first QP is kFirstQpNumber = 0x100, the next one 0x101.
    auto f = BuildFabric("star:n=3");
    EXPECT_EQ(f->nics[0]->CreateQueuePair(1)->GetNumber(), 0x100u);
    EXPECT_EQ(f->nics[0]->CreateQueuePair(2)->GetNumber(), 0x101u);
    EXPECT_EQ(f->nics[0]->GetQueuePair(0x101)->GetDstHost(), 2u);
    EXPECT_FALSE(f->nics[0]->GetQueuePair(1)); // no QP 1 any more
    EXPECT_FALSE(f->nics[0]->GetQueuePair(0x102));
}

TEST_F(RoceNicTest, PresetsSetTheNicAndEveryQpsCongestionControl)
{
    auto f = BuildFabric("star:n=3");
    const DataRate line = f->net.HostPorts(0)[0]->GetDataRate(); // 40 Gb/s here
    // dcqcn-hpcc: HPCC's run.py gives Rai = 5 x bw / 25 and Rhai = 50 x bw / 25 Mb/s for a
    // bw Gb/s NIC: 8 and 80 Mb/s at 40 Gb/s; ACK every packet, a CNP per marked packet.
    CongestionControlPreset::Find("dcqcn-hpcc")->ApplyTo(f->nics[0], line);
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    Ptr<CongestionControl> cc = qp->GetCongestionControl();
    DataRateValue rate;
    cc->GetAttribute("RateAi", rate);
    EXPECT_EQ(rate.Get().GetBitRate(), 8000000u);
    cc->GetAttribute("RateHai", rate);
    EXPECT_EQ(rate.Get().GetBitRate(), 80000000u);
    cc->GetAttribute("MinRate", rate);
    EXPECT_EQ(rate.Get().GetBitRate(), 1000000000u);
    TimeValue t;
    cc->GetAttribute("RpTimer", t);
    EXPECT_EQ(t.Get(), MicroSeconds(300));
    UintegerValue u;
    f->nics[0]->GetAttribute("AckInterval", u);
    EXPECT_EQ(u.Get(), 1u);
    f->nics[0]->GetAttribute("CnpInterval", t);
    EXPECT_EQ(t.Get(), Time(0));
    // dcqcn (the paper) on another NIC: F = 5, 55 us timers.
    CongestionControlPreset::Find("dcqcn")->ApplyTo(f->nics[1], line);
    Ptr<CongestionControl> paper = f->nics[1]->CreateQueuePair(2)->GetCongestionControl();
    paper->GetAttribute("FastRecoveryStages", u);
    EXPECT_EQ(u.Get(), 5u);
    paper->GetAttribute("AlphaResumeInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(55));
    // none: RoceCcNone and no notification point.
    CongestionControlPreset::Find("none")->ApplyTo(f->nics[2], line);
    BooleanValue b;
    f->nics[2]->GetAttribute("CnpEnabled", b);
    EXPECT_FALSE(b.Get());
    EXPECT_EQ(f->nics[2]->CreateQueuePair(0)->GetCongestionControl()->GetInstanceTypeId().GetName(),
              "ns3::RoceCcNone");
    // A CongestionControl attribute the type does not have is refused by name.
    EXPECT_THROW(f->nics[2]->SetCongestionControlAttribute("RpTimer", TimeValue(Seconds(1))),
                 std::invalid_argument);
}

// New QPs' congestion controls are copies of one configured instance per (type, settings):
// each QP still owns its own, set as the NIC and the defaults were when the QP was made.
TEST_F(RoceNicTest, EachQueuePairOwnsACongestionControlWithTheSettingsOfItsTime)
{
    auto f = BuildFabric("star:n=3");
    const DataRate line = f->net.HostPorts(0)[0]->GetDataRate(); // 40 Gb/s here
    const CongestionControlPreset* dcqcn = CongestionControlPreset::Find("dcqcn");
    dcqcn->ApplyTo(f->nics[0], line);
    dcqcn->ApplyTo(f->nics[1], line);
    Ptr<CongestionControl> a = f->nics[0]->CreateQueuePair(1)->GetCongestionControl();
    Ptr<CongestionControl> b = f->nics[0]->CreateQueuePair(2)->GetCongestionControl();
    Ptr<CongestionControl> c = f->nics[1]->CreateQueuePair(0)->GetCongestionControl();
    ASSERT_NE(a, b);
    ASSERT_NE(a, c);
    // All start at line rate; a CNP to `a` alone cuts it to 40 x (1 - alpha/2) = 20 Gb/s
    // (alpha starts at 1, the cut is at the CNP in this preset) and leaves the others alone.
    EXPECT_EQ(a->GetRateBps(), 40000000000u);
    a->OnCnpReceived();
    EXPECT_EQ(a->GetRateBps(), 20000000000u);
    EXPECT_EQ(b->GetRateBps(), 40000000000u);
    EXPECT_EQ(c->GetRateBps(), 40000000000u);
    // A setting changed after QPs exist reaches the next QP only: F = 5 (preset), then 7.
    f->nics[0]->SetCongestionControlAttribute("FastRecoveryStages", UintegerValue(7));
    Ptr<CongestionControl> d = f->nics[0]->CreateQueuePair(1)->GetCongestionControl();
    UintegerValue stages;
    d->GetAttribute("FastRecoveryStages", stages);
    EXPECT_EQ(stages.Get(), 7u);
    a->GetAttribute("FastRecoveryStages", stages);
    EXPECT_EQ(stages.Get(), 5u);
    // A NIC without a preset takes the type's defaults as they are when the QP is made:
    // MinRate 100 Mb/s (the attribute's default), then 3 Gb/s once the default is changed.
    f->nics[2]->SetAttribute("CongestionControl", StringValue("ns3::DcqcnCongestionControl"));
    DataRateValue minRate;
    f->nics[2]->CreateQueuePair(0)->GetCongestionControl()->GetAttribute("MinRate", minRate);
    EXPECT_EQ(minRate.Get().GetBitRate(), 100000000u);
    Config::SetDefault("ns3::DcqcnCongestionControl::MinRate", DataRateValue(DataRate("3Gbps")));
    f->nics[2]->CreateQueuePair(1)->GetCongestionControl()->GetAttribute("MinRate", minRate);
    EXPECT_EQ(minRate.Get().GetBitRate(), 3000000000u);
    // A value handed over by Ptr is checked like one by reference: text that parses is
    // taken (RpTimer 7 us), a value outside the attribute's range (G is in [0, 1]) is refused.
    f->nics[2]->SetCongestionControlAttribute(
        "RpTimer", Ptr<const AttributeValue>(Create<StringValue>("7us")));
    TimeValue rpTimer;
    f->nics[2]->CreateQueuePair(0)->GetCongestionControl()->GetAttribute("RpTimer", rpTimer);
    EXPECT_EQ(rpTimer.Get(), MicroSeconds(7));
    EXPECT_THROW(f->nics[2]->SetCongestionControlAttribute(
                     "G", Ptr<const AttributeValue>(Create<DoubleValue>(2.0))),
                 std::invalid_argument);
}

TEST_F(RoceNicTest, DcqcnPacingSlowsAQueuePair)
{
    Config::SetDefault("ns3::RoceNic::CongestionControl",
                       StringValue("ns3::DcqcnCongestionControl"));
    // The rate-increase timer out of the way (the paper's 55 us would raise the rate here).
    Config::SetDefault("ns3::DcqcnCongestionControl::RpTimer", TimeValue(MicroSeconds(900)));
    auto f = BuildFabric("star:n=2");
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    // One CNP before any data: the QP sends at 20 Gb/s (see above) for the whole message,
    // since RpTimer (900 us here) and ByteCounter (10 MB) fire no increase within 1 MB at 20 Gb/s
    // (about 420 us).
    RoceFrameInfo cnp;
    cnp.srcHost = 1;
    cnp.dstHost = 0;
    cnp.opcode = RoceOpcode::kCnp;
    cnp.destQp = qp->GetNumber();
    cnp.payloadBytes = 16;
    cnp.priority = 7;
    f->nics[0]->Receive(f->net.HostPorts(0)[0], BuildRoceFrame(cnp), 7);
    EXPECT_EQ(qp->GetCongestionControl()->GetRateBps(), 20000000000u);
    const uint64_t bytes = 1000000;
    f->nics[0]->PostSend(qp, bytes, nullptr);
    Simulator::Run();
    ASSERT_EQ(f->receivedAtS.size(), 1u);
    // 1e6 B = 244 x 4096 + 576: 244 full frames (4182 B wire) and a tail of 662 B. Paced
    // at 20 Gb/s, frame i starts i x 4182 x 8 / 20e9 = i x 1672.8 ns after the first, so
    // the tail starts at 244 x 1672.8 ns = 408.1632 us; the receiver has it 2 x (1 us +
    // its 40 Gb/s serialization, 662 x 8 / 40e9 = 132.4 ns) later (the switch is idle).
    const double lastStart = 244.0 * 4182 * 8 / 20e9;
    const double expected = lastStart + 2 * kDelay + 2 * 662 * 8.0 / kRate;
    EXPECT_NEAR(f->receivedAtS[0], expected, 5e-9);
}

TEST_F(RoceNicTest, QueuePairOnAMultiPortBcubeHostIsRelayedByAServer)
{
    // BCube(2,1): hosts 00, 01, 10, 11 with two ports each. 0 -> 3 differs in both digits:
    // one level-0 switch, a relay server (1 or 2) and one level-1 switch.
    auto f = BuildFabric("bcube:n=2,k=1");
    ASSERT_EQ(f->nics[0]->GetNPorts(), 2u);
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(3);
    EXPECT_LT(qp->GetPort(), 2u);
    bool done = false;
    const uint64_t bytes = 100000; // 25 packets: 24 x 4096 + 1696
    f->nics[0]->PostSend(qp, bytes, [&done]() { done = true; });
    Simulator::Run();
    EXPECT_TRUE(done);
    ASSERT_EQ(f->receivedAtS.size(), 1u);
    EXPECT_EQ(f->receivedBytes, bytes);
    EXPECT_EQ(f->nics[3]->GetMessagesReceived(), 1u);
    // Every data packet crossed a relay server's switch (the ACKs too, maybe by the other).
    const uint64_t relayed = f->net.HostSwitch(1)->GetForwarded() +
                             f->net.HostSwitch(2)->GetForwarded();
    EXPECT_GE(relayed, 25u);
    EXPECT_EQ(f->Drops(), 0u);
}

TEST_F(RoceNicTest, TheNicAsADirectSinkReceivesWhatItsCallbackReceived)
{
    // The same runs with the NICs behind a FrameReceiveCallback and as direct frame sinks
    // (PfcNetwork::SetHostSink): a 8 -> 1 incast of 1 MB per sender on a star with a 300 kB
    // buffer (the host's device delivers; the excess 7 MB cannot fit: PFC pauses the senders)
    // and two crossing 100 kB messages on BCube(2,1) (the hosts' relay switches deliver
    // locally). Every message must complete at the same time both ways, with the same pauses.
    std::vector<double> times[2];
    uint64_t pauses[2] = {0, 0};
    for (int sink = 0; sink < 2; ++sink)
    {
        NetworkBuilder small;
        small.SetSwitchAttribute("BufferSize", UintegerValue(300000));
        auto f = BuildFabric("star:n=9", small, sink == 1);
        EXPECT_EQ(RunIncast(*f, 1000000).completed, 8u);
        times[sink] = f->receivedAtS;
        pauses[sink] = f->PausesSent();
        Simulator::Destroy();
        auto b = BuildFabric("bcube:n=2,k=1", NetworkBuilder(), sink == 1);
        b->nics[0]->PostSend(b->nics[0]->CreateQueuePair(3), 100000, nullptr);
        b->nics[3]->PostSend(b->nics[3]->CreateQueuePair(0), 100000, nullptr);
        Simulator::Run();
        ASSERT_EQ(b->receivedAtS.size(), 2u) << "sink " << sink;
        times[sink].insert(times[sink].end(), b->receivedAtS.begin(), b->receivedAtS.end());
        Simulator::Destroy();
    }
    ASSERT_EQ(times[0].size(), 10u);
    EXPECT_EQ(times[1], times[0]);
    EXPECT_GE(pauses[0], 1u);
    EXPECT_EQ(pauses[1], pauses[0]);
}

TEST_F(RoceNicTest, BadConfigurationIsRejectedByName)
{
    auto f = BuildFabric("star:n=2");
    EXPECT_THROW(f->nics[0]->CreateQueuePair(0), std::invalid_argument); // itself
    f->nics[0]->SetAttribute("CongestionControl", StringValue("ns3::NoSuchCc"));
    try
    {
        f->nics[0]->CreateQueuePair(1);
        FAIL() << "unknown congestion control accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::NoSuchCc"), std::string::npos);
    }
    // Priority 7 + lane 0 is allowed; the data then goes on priority 7.
    f->nics[0]->SetAttribute("CongestionControl", StringValue("ns3::RoceCcNone"));
    f->nics[0]->SetAttribute("Priority", UintegerValue(7));
    EXPECT_EQ(f->nics[0]->CreateQueuePair(1)->GetPriority().value, 7);
}

namespace
{

/// Host 1 receives through this filter: the data frame with PSN `dropPsn` is lost once.
struct DropOnce
{
    Ptr<RoceNic> nic;
    uint32_t dropPsn;
    bool dropped{false};

    void
    Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> frame, uint8_t priority)
    {
        RoceFrameInfo info;
        if (!dropped && ReadRoceFrame(frame, info) && info.opcode != RoceOpcode::kAck &&
            info.opcode != RoceOpcode::kCnp && info.psn == dropPsn)
        {
            dropped = true;
            return;
        }
        nic->Receive(dev, frame, priority);
    }
};

} // namespace

TEST_F(RoceNicTest, NackMakesTheSenderGoBackToTheLostPacket)
{
    Config::SetDefault("ns3::RoceNic::Mtu", UintegerValue(1000));
    auto f = BuildFabric("star:n=2");
    DropOnce filter{f->nics[1], 3};
    f->net.SetHostReceive(1, MakeCallback(&DropOnce::Receive, &filter));
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    bool done = false;
    f->nics[0]->PostSend(qp, 10000, [&done]() { done = true; }); // PSN 0..9, 1000 B each
    Simulator::Run();
    EXPECT_TRUE(filter.dropped);
    EXPECT_TRUE(done);
    EXPECT_EQ(f->receivedBytes, 10000u);
    // PSN 4 reveals the gap: one NACK(3); 4..9 are discarded (6 packets). The 10 frames
    // (1086 B wire, 217.2 ns each) have all left by 2.172 us, while the NACK needs PSN 4's
    // arrival (5 x 217.2 ns + 2 x 1 us + 217.2 ns = 3.3 us) plus its own way back (> 2 us):
    // go-back-N resends all of 3..9 = 7 packets, and no timeout is involved.
    EXPECT_EQ(f->nics[1]->GetNacksSent(), 1u);
    EXPECT_EQ(qp->GetNacksReceived(), 1u);
    EXPECT_EQ(f->nics[1]->GetDataPacketsDiscarded(), 6u);
    EXPECT_EQ(qp->GetRetransmittedPackets(), 7u);
    EXPECT_EQ(qp->GetPacketsSent(), 17u);
    EXPECT_EQ(qp->GetTimeouts(), 0u);
}

TEST_F(RoceNicTest, LostLastPacketIsResentAfterTheTimeout)
{
    Config::SetDefault("ns3::RoceNic::Mtu", UintegerValue(1000));
    auto f = BuildFabric("star:n=2");
    DropOnce filter{f->nics[1], 9};
    f->net.SetHostReceive(1, MakeCallback(&DropOnce::Receive, &filter));
    Ptr<QueuePair> qp = f->nics[0]->CreateQueuePair(1);
    f->nics[0]->PostSend(qp, 10000, nullptr);
    Simulator::Run();
    EXPECT_TRUE(filter.dropped);
    ASSERT_EQ(f->receivedAtS.size(), 1u);
    EXPECT_EQ(f->receivedBytes, 10000u);
    // Nothing follows PSN 9, so no NACK: the last ACK (AckInterval 4: ACK(7), PSN 7 arrives
    // at 8 x 217.2 ns + 2 x 1 us + 217.2 ns = 3.9548 us, back at the sender 2.036 us later =
    // 5.9908 us) is the last progress; RetransmitTimeout 1 ms later the QP resends from PSN 8
    // (2 packets; 8 is a duplicate, answered by one ACK). PSN 9 then arrives 2 x 217.2 ns +
    // 2 x 1 us + 217.2 ns after the timeout.
    EXPECT_EQ(qp->GetTimeouts(), 1u);
    EXPECT_EQ(qp->GetNacksReceived(), 0u);
    EXPECT_EQ(qp->GetRetransmittedPackets(), 2u);
    const double hop = 1086 * 8.0 / kRate;
    const double lastAckBack = 8 * hop + 2 * kDelay + hop + 2 * (90 * 8.0 / kRate + kDelay);
    EXPECT_NEAR(lastAckBack, 5.9908e-6, 1e-12);
    EXPECT_NEAR(f->receivedAtS[0], lastAckBack + 1e-3 + 2 * hop + 2 * kDelay + hop, 3e-9);
}
