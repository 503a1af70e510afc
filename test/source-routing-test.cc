// --routing=source on the packet network: each queue pair of a transfer follows its own
// parallel path at every relay (model/forwarding-table.h SourceRouted, the route id in the
// UDP source port; helper/roce-sync-transport.h one QP per path), and the decomposition
// ideal <= bound <= packet GST holds on the source-routed paths.
#include "driver-run.h"

#include "ns3/boolean.h"
#include "ns3/forwarding-table.h"
#include "ns3/network-builder.h"
#include "ns3/roce-sync-transport.h"
#include "ns3/simulator.h"
#include "ns3/topology.h"

#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using paramsync_test::Field;
using paramsync_test::RunParamsync;
using paramsync_test::TextField;

namespace
{

/// Data frames a node's port sent on the data priorities (3 + lane; ACKs are on 7).
uint64_t
DataFrames(const PfcNetwork& net, NodeIndex v, uint32_t port)
{
    uint64_t n = 0;
    for (uint8_t p = 3; p < 7; ++p)
    {
        n += net.ports[v][port]->GetTxFrames(p);
    }
    return n;
}

/// Sends `bytes` from host src to host dst on each of the transport's QPs and runs; returns
/// the data frames of every (node, port) that sent any.
std::map<std::pair<NodeIndex, uint32_t>, uint64_t>
OneTransfer(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t& queuePairs)
{
    auto topology = MakeTopology("bcube:n=3,k=1", 40e9, 1e-6);
    NetworkBuilder builder;
    builder.SetTableAttribute("SourceRouted", BooleanValue(true));
    PfcNetwork net = builder.Build(*topology);
    RoceTransportConfig config;
    config.mtu = 1000;
    RoceSyncTransport transport(net, config);
    queuePairs = transport.QueuePairs(src, dst);
    for (uint32_t qp = 0; qp < queuePairs; ++qp)
    {
        transport.Send(src, dst, qp, bytes, nullptr);
    }
    Simulator::Run();
    std::map<std::pair<NodeIndex, uint32_t>, uint64_t> sent;
    for (NodeIndex v = 0; v < net.ports.size(); ++v)
    {
        for (uint32_t p = 0; p < net.ports[v].size(); ++p)
        {
            if (const uint64_t n = DataFrames(net, v, p))
            {
                sent[{v, p}] = n;
            }
        }
    }
    Simulator::Destroy();
    return sent;
}

} // namespace

TEST(SourceRouting, Bcube31TransferCrossesTheTwoDisjointPathsByHand)
{
    // BCube(3,1): ranks a1 a0 base 3, the level-l switch of index s is node 9 + 3 l + s,
    // server port l to its level-l switch, switch port j to the server whose digit l is j.
    // Host 0 (00) to host 4 (11), 10 kB per QP at MTU 1000: 10 data frames on each link.
    // Path 0 corrects digit 0 then 1: 0 -port 0-> sw0.0 (9) -port 1-> 01 (1) -port 1->
    // sw1.1 (13) -port 1-> 11. Path 1 corrects digit 1 then 0: 0 -port 1-> sw1.0 (12)
    // -port 1-> 10 (3) -port 0-> sw0.1 (10) -port 1-> 11.
    uint32_t qps = 0;
    auto sent = OneTransfer(0, 4, 10000, qps);
    EXPECT_EQ(qps, 2u); // k+1 paths
    const std::map<std::pair<NodeIndex, uint32_t>, uint64_t> expected = {{{0, 0}, 10},
                                                                         {{9, 1}, 10},
                                                                         {{1, 1}, 10},
                                                                         {{13, 1}, 10},
                                                                         {{0, 1}, 10},
                                                                         {{12, 1}, 10},
                                                                         {{3, 0}, 10},
                                                                         {{10, 1}, 10}};
    EXPECT_EQ(sent, expected);
}

TEST(SourceRouting, Bcube31DetourCarriesItsShareOverSixLinks)
{
    // Host 0 (00) to host 1 (01): a_1 == b_1, so path 1 detours (BCube source routing):
    // 0 -port 1-> sw1.0 (12) -port 1-> 10 (3) -port 0-> sw0.1 (10) -port 1-> 11 (4)
    // -port 1-> sw1.1 (13) -port 0-> 01. Path 0 is 0 -port 0-> sw0.0 (9) -port 1-> 01.
    // With ECMP hashing the whole transfer would take the one shortest path.
    uint32_t qps = 0;
    auto sent = OneTransfer(0, 1, 10000, qps);
    EXPECT_EQ(qps, 2u);
    const std::map<std::pair<NodeIndex, uint32_t>, uint64_t> expected = {{{0, 0}, 10},
                                                                         {{9, 1}, 10},
                                                                         {{0, 1}, 10},
                                                                         {{12, 1}, 10},
                                                                         {{3, 0}, 10},
                                                                         {{10, 1}, 10},
                                                                         {{4, 1}, 10},
                                                                         {{13, 0}, 10}};
    EXPECT_EQ(sent, expected);
}

namespace
{

/// Distinct route sets (the empty one included) of a BCube's switch sw0.0 (node n^(k+1)).
std::size_t
SwitchSets(const std::string& spec)
{
    auto topology = MakeTopology(spec, 40e9, 1e-6);
    NetworkBuilder builder;
    builder.SetTableAttribute("SourceRouted", BooleanValue(true));
    PfcNetwork net = builder.Build(*topology);
    const std::size_t sets = net.tables[topology->Graph().HostCount()]->GetSetCount();
    Simulator::Destroy();
    return sets;
}

} // namespace

TEST(SourceRouting, SwitchTablesStayCompact)
{
    // sw0.0 joins the servers whose digits other than a_0 are 0. Towards B, every route id
    // goes to port b_0 on lane (k+2) - (others + 1), others = B's other digits that are not
    // 0 (the server before it shares the switch's); the detour id of level 0 goes to port
    // b_0 + 1 mod 3 on lane (k+2) - (others + 2) when others > 0. So a set depends on
    // (b_0, others) only: BCube(3,1): 3 x 2 sets + the empty one = 7; BCube(3,2): 3 x 3 + 1
    // = 10, while the destinations grow from 9 to 27.
    EXPECT_EQ(SwitchSets("bcube:n=3,k=1"), 7u);
    EXPECT_EQ(SwitchSets("bcube:n=3,k=2"), 10u);
}

TEST(SourceRouting, SourcePortCarriesTheRouteIndex)
{
    // Port mod 4 == route: 49153 = 4 x 12288 + 1, so route 2 of 4 is 49154, route 0 49152.
    EXPECT_EQ(ForwardingTable::SourceRoutedPort(49153, 2, 4), 49154u);
    EXPECT_EQ(ForwardingTable::SourceRoutedPort(49153, 0, 4), 49152u);
    // 65535 = 6 x 10922 + 3: the block 65532..65537 passes the end; route 5 is 65531.
    EXPECT_EQ(ForwardingTable::SourceRoutedPort(65535, 5, 6), 65531u);
}

TEST(SourceRouting, TheTableSaysSoAboveItsColumnsAndEcmpDoesNot)
{
    const std::string args = "--topology=bcube:n=3,k=1 --algorithm=ring --model=bytes:1MB ";
    auto source = RunParamsync(args + "--routing=source");
    ASSERT_EQ(source.code, 0) << source.err;
    EXPECT_EQ(source.out.rfind("routing: source", 0), 0u) << source.out;
    auto ecmp = RunParamsync(args);
    ASSERT_EQ(ecmp.code, 0) << ecmp.err;
    EXPECT_EQ(ecmp.out.rfind("topology ", 0), 0u) << ecmp.out; // the columns come first
}

TEST(SourceRouting, IdealAtMostBoundAtMostPacketGst)
{
    // As FluidIdealGrid (test/fluid-ideal-grid-test.cc), with --routing=source, for every
    // algorithm: the ideal is the relaxation on the parallel path set split equally (what
    // the source-routed QPs carry, detours included), the bound the relaxation on the QPs'
    // own paths with framing and latency, raised to the ideal. Both are proven lower bounds
    // (workloads/gst-lower-bound.h), so no packet run may finish below either: hd on
    // bcube:n=3,k=2, whose detours use idle levels, finished 0.92x the old shortest-path
    // ideal. 6 significant digits per column: 1e-5 covers two roundings.
    const double rounding = 1e-5;
    for (const std::string topology : {"bcube:n=3,k=1", "bcube:n=3,k=2", "torus:dims=4x4"})
    {
        auto o = RunParamsync("--topology=" + topology +
                              " --algorithm=all --model=bytes:1MB --format=json --routing=source");
        ASSERT_EQ(o.code, 0) << topology << ": " << o.err;
        std::istringstream lines(o.out);
        std::string line;
        int runs = 0;
        bool hd = false;
        while (std::getline(lines, line))
        {
            ++runs;
            const std::string algorithm = TextField(line, "algorithm");
            hd = hd || algorithm.rfind("hd", 0) == 0;
            const double gst = Field(line, "gst_s");
            const double ideal = Field(line, "ideal_gst_s");
            const double bound = Field(line, "bound_gst_s");
            std::cout << topology << " " << algorithm << ": bound/ideal " << bound / ideal
                      << ", gst/bound " << gst / bound << "\n";
            EXPECT_GT(ideal, 0) << topology << " " << algorithm;
            EXPECT_LE(ideal, bound * (1 + rounding)) << topology << " " << algorithm;
            EXPECT_LE(bound, gst * (1 + rounding)) << topology << " " << algorithm;
            EXPECT_NE(line.find("\"routing\":\"source\""), std::string::npos) << line;
        }
        EXPECT_GE(runs, 4) << topology;
        EXPECT_TRUE(hd) << topology << ": hd ran";
    }
}
