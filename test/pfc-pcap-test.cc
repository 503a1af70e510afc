// PCAP of a PfcNetDevice decoded by tshark: RoCEv2 (InfiniBand BTH over UDP 4791) and PFC.
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-frame.h"

#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace ns3
{
namespace
{

std::string
RunCommand(const std::string& cmd)
{
    std::string out;
    FILE* f = popen(cmd.c_str(), "r");
    if (!f)
    {
        return out;
    }
    std::array<char, 4096> buf;
    while (fgets(buf.data(), buf.size(), f))
    {
        out += buf.data();
    }
    pclose(f);
    return out;
}

TEST(PfcPcapTest, TsharkDecodesRoceAndPfc)
{
    if (std::system("command -v tshark > /dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    std::string file = "/tmp/paramsync-pfc-pcap-" + std::to_string(getpid()) + ".pcap";
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    Ptr<PfcNetDevice> d[2];
    for (auto& dev : d)
    {
        Ptr<Node> n = CreateObject<Node>();
        dev = CreateObject<PfcNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
    }
    d[0]->EnablePcap(file);
    RoceFrameInfo i;
    i.srcHost = 1;
    i.dstHost = 2;
    i.udpSrcPort = 49152;
    i.priority = 3;
    i.opcode = RoceOpcode::kSendOnly;
    i.destQp = 0x42;
    i.psn = 0x1234;
    i.ackRequest = true;
    i.payloadBytes = 256;
    d[0]->Enqueue(BuildRoceFrame(i), 3);
    d[0]->SendPause(5, 0xabcd);
    Simulator::Run();
    Simulator::Destroy();
    d[0]->Dispose(); // closes the capture

    std::string fields = RunCommand(
        "tshark -r " + file +
        " -d udp.port==4791,infiniband -T fields -E separator=, -e frame.len -e udp.dstport "
        "-e infiniband.bth.opcode -e infiniband.bth.psn -e infiniband.bth.destqp -e "
        "vlan.priority -e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c5 2>&1");
    std::remove(file.c_str());
    // Frame 1: the data frame, enqueued first on an idle port, so it leaves first:
    // 14 + 4 + 20 + 8 + 12 + 256 + 4 + 4 = 322 B, UDP 4791, opcode 4 (SEND Only),
    // PSN 0x1234 = 4660, dest QP 0x42, PCP 3.
    // Frame 2: PFC, 64 B, opcode 0x0101, enable vector 0x20 (priority 5), quanta 0xabcd.
    EXPECT_NE(fields.find("322,4791,4,4660,0x000042,3,,,"), std::string::npos) << fields;
    EXPECT_NE(fields.find("64,,,,,,0x0101,0x0020,43981"), std::string::npos) << fields;
}

} // namespace
} // namespace ns3
