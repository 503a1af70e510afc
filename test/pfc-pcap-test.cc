// PCAP of a PfcNetDevice decoded by tshark: RoCEv2 (InfiniBand BTH over UDP 4791) and PFC;
// a data packet, an ACK, a NAK, a CNP, a pause and a resume, each with a good Ethernet FCS,
// at nanosecond timestamps.
#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

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

/// Two PfcNetDevices on one PfcChannel, the first one captured to a pcap file; Decode runs
/// the simulation to its end, closes the capture and returns tshark's field output.
class CapturedLink
{
  public:
    explicit CapturedLink(const std::string& name)
        : m_file("/tmp/paramsync-" + name + "-" + std::to_string(getpid()) + ".pcap")
    {
        Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
        for (auto& dev : m_dev)
        {
            Ptr<Node> n = CreateObject<Node>();
            dev = CreateObject<PfcNetDevice>();
            dev->SetAddress(Mac48Address::Allocate());
            n->AddDevice(dev);
            dev->Attach(ch);
        }
        m_dev[0]->EnablePcap(m_file);
    }

    /// The captured device.
    Ptr<PfcNetDevice>
    Sender() const
    {
        return m_dev[0];
    }

    /// Runs the simulation, closes the capture and decodes it with tshark's `options`.
    std::string
    Decode(const std::string& options)
    {
        Simulator::Run();
        Simulator::Destroy();
        m_dev[0]->Dispose(); // closes the capture
        std::string out = RunCommand("tshark -r " + m_file + " " + options);
        std::remove(m_file.c_str());
        return out;
    }

  private:
    std::string m_file;
    Ptr<PfcNetDevice> m_dev[2];
};

bool
TsharkMissing()
{
    return std::system("command -v tshark > /dev/null 2>&1") != 0;
}

TEST(PfcPcapTest, TsharkDecodesRoceAndPfc)
{
    if (TsharkMissing())
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    CapturedLink link("pfc-pcap");
    Ptr<PfcNetDevice> sender = link.Sender();
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
    sender->Enqueue(BuildRoceFrame(i), 3);
    sender->SendPause(5, 0xabcd);

    std::string fields = link.Decode(
        "-d udp.port==4791,infiniband -T fields -E separator=, -e frame.len -e udp.dstport "
        "-e infiniband.bth.opcode -e infiniband.bth.psn -e infiniband.bth.destqp -e "
        "vlan.priority -e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c5 2>&1");
    // Frame 1: the data frame, enqueued first on an idle port, so it leaves first:
    // 14 + 4 + 20 + 8 + 12 + 256 + 4 + 4 = 322 B, UDP 4791, opcode 4 (SEND Only),
    // PSN 0x1234 = 4660, dest QP 0x42, PCP 3.
    // Frame 2: PFC, 64 B, opcode 0x0101, enable vector 0x20 (priority 5), quanta 0xabcd.
    EXPECT_NE(fields.find("322,4791,4,4660,0x000042,3,,,"), std::string::npos) << fields;
    EXPECT_NE(fields.find("64,,,,,,0x0101,0x0020,43981"), std::string::npos) << fields;
}

TEST(PfcPcapTest, TsharkDecodesEveryFrameKindWithAGoodFcs)
{
    if (TsharkMissing())
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    CapturedLink link("pfc-kinds");
    Ptr<PfcNetDevice> sender = link.Sender();
    RoceFrameInfo data;
    data.srcHost = 1;
    data.dstHost = 2;
    data.udpSrcPort = 49153;
    data.priority = 3;
    data.opcode = RoceOpcode::kSendOnly;
    data.destQp = 0x100; // RoceNic::kFirstQpNumber
    data.psn = 77;
    data.ackRequest = true;
    data.payloadBytes = 1000;
    RoceFrameInfo ack = data;
    ack.priority = 7;
    ack.opcode = RoceOpcode::kAck;
    ack.ackRequest = false;
    ack.payloadBytes = 0;
    ack.ecnCapable = false;
    ack.aethSyndrome = 0x00;
    ack.aethMsn = 5;
    RoceFrameInfo nak = ack;
    nak.aethSyndrome = 0x60; // NAK, PSN sequence error
    nak.becn = true;         // congestion notified on it (RoceNic CnpInAck)
    RoceFrameInfo cnp = ack;
    cnp.opcode = RoceOpcode::kCnp;
    cnp.payloadBytes = 16;
    // One frame a microsecond (plus 1 ns, which only a nanosecond capture keeps), the data
    // frame a second time CE-marked (its FCS updated in place).
    const std::vector<RoceFrameInfo> roce = {data, ack, nak, cnp};
    for (uint32_t k = 0; k < roce.size(); ++k)
    {
        Simulator::Schedule(NanoSeconds(1000 * k + 1), [sender, &roce, k]() {
            sender->Enqueue(BuildRoceFrame(roce[k]), roce[k].priority);
        });
    }
    Simulator::Schedule(NanoSeconds(4001), [sender]() { sender->SendPause(3, 0xffff); });
    Simulator::Schedule(NanoSeconds(5001), [sender]() { sender->SendPause(3, 0); });
    Simulator::Schedule(NanoSeconds(6001), [sender, &data]() {
        Ptr<Packet> marked = BuildRoceFrame(data);
        MarkRoceFrameCe(marked);
        sender->Enqueue(marked, 3);
    });

    std::string out = link.Decode(
        "-o eth.fcs:Always -o eth.check_fcs:TRUE -d udp.port==4791,infiniband -T fields "
        "-E separator=, -e frame.time_epoch -e frame.len -e eth.fcs.status -e "
        "infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn -e "
        "infiniband.aeth.syndrome -e infiniband.aeth.msn -e ip.dsfield.ecn -e macc.opcode -e "
        "macc.cbfc.enbv -e macc.cbfc.pause_time.c3 -e infiniband.bth 2>/dev/null");
    std::vector<std::string> rows;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
    {
        rows.push_back(line);
    }
    ASSERT_EQ(rows.size(), 7u) << out;
    // Sizes: data 14 + 4 (802.1Q) + 20 + 8 + 12 (BTH) + 1000 + 4 (ICRC) + 4 (FCS) = 1066 B;
    // ACK/NAK + 4 (AETH), no payload: 70 B; CNP 16 B payload, no AETH: 82 B; PFC 64 B.
    // FCS status 1 = Good. Opcodes: 4 SEND Only, 17 Acknowledge, 129 CNP; QP 0x100, not 1
    // (the GSI). ECN: ECT(0) = 2 on data, 0 on control frames, CE = 3 after marking.
    // Times: k us + 1 ns, which a microsecond capture would round to k us. Last column, the
    // BTH's 12 bytes (tshark 4.0 shows byte 4, FECN/BECN, only as "reserved"): opcode, 0x40
    // (M bit), P_Key ffff, byte 4 = 0x40 (BECN) on the NAK only, QP 000100, 0x80 (A bit) on
    // the data frames, PSN 00004d = 77.
    EXPECT_EQ(rows[0], "0.000000001,1066,1,4,0x000100,77,,,2,,,,0440ffff000001008000004d") << out;
    EXPECT_EQ(rows[1], "0.000001001,70,1,17,0x000100,77,0,5,0,,,,1140ffff000001000000004d") << out;
    EXPECT_EQ(rows[2], "0.000002001,70,1,17,0x000100,77,96,5,0,,,,1140ffff400001000000004d") << out;
    EXPECT_EQ(rows[3], "0.000003001,82,1,129,0x000100,77,,,0,,,,8140ffff000001000000004d") << out;
    EXPECT_EQ(rows[4], "0.000004001,64,1,,,,,,,0x0101,0x0008,65535,") << out;
    EXPECT_EQ(rows[5], "0.000005001,64,1,,,,,,,0x0101,0x0008,0,") << out;
    EXPECT_EQ(rows[6], "0.000006001,1066,1,4,0x000100,77,,,3,,,,0440ffff000001008000004d") << out;
}

} // namespace
} // namespace ns3
