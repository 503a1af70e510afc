// The decomposition ideal <= bound <= packet GST over a grid of topologies and every
// applicable algorithm. ideal: per-QP FIFO fluid, perfect ECMP split, payload at line rate
// (workloads/fluid-estimator.h); bound: the same on the paths the packet run's QPs took,
// with framing (helper/routed-bound.h); the packet run adds latency, PFC and queueing to
// the bound's paths and FIFO queue pairs, so it should not finish first.
#include "driver-run.h"

#include "ns3/routed-bound.h"

#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using paramsync_test::Field;
using paramsync_test::RunParamsync;

namespace
{

/// The text field `key` of a JSON line ("" when missing).
std::string
TextField(const std::string& json, const std::string& key)
{
    const std::string open = "\"" + key + "\":\"";
    const size_t at = json.find(open);
    if (at == std::string::npos)
    {
        return "";
    }
    const size_t begin = at + open.size();
    return json.substr(begin, json.find('"', begin) - begin);
}

} // namespace

TEST(FluidIdealGrid, IdealAtMostBoundAtMostPacketGst)
{
    // The columns are printed with 6 significant digits: each may be off by half a unit in
    // the 6th digit, a relative 5e-6; 1e-5 covers two roundings and nothing more.
    const double rounding = 1e-5;
    // Known exceptions, measured at 1 MB (gst/bound): trees on fattree:k=4 0.912 (blocks=8)
    // and 0.923 (blocks=1) with the column-generation packing, hd on bcube:n=3,k=2 0.989
    // with deficit round robin among the lanes, mesh on bcube:n=3,k=2 0.980, trees:blocks=1 on
    // torus:dims=4x4 0.995. The fluid model shares every link max-min fairly per queue pair; a PFC
    // switch serves an egress FIFO fed by its ingress ports and pauses an ingress port whose buffer
    // share grows (model/pfc-switch.h), which shares an egress roughly per ingress port. Where a
    // plan's heaviest pairs have an ingress port to themselves (trees on the fat-tree: h10 ->
    // h11 under one edge switch carries the whole gradient; max-min gives it one flow's
    // share among the five crossing h11's downlink) the packet run serves them faster than
    // max-min does and finishes first. Neither fluid figure bounds the packet GST there;
    // the bound stays within 10 % of it (and ideal <= bound still holds).
    struct Exception
    {
        std::string topology;
        std::string algorithm; //!< prefix of the canonical spec
        std::string option;    //!< an option the spec must hold ("" for any)
    };
    const std::vector<Exception> perPortSharing = {{"fattree:k=4", "trees:", ""},
                                                   {"bcube:n=3,k=2", "mesh", ""},
                                                   {"bcube:n=3,k=2", "hd", ""},
                                                   {"torus:dims=4x4", "trees:", "blocks=1"}};
    auto isException = [&](const std::string& topology, const std::string& a) {
        for (const Exception& e : perPortSharing)
        {
            if (e.topology == topology && a.rfind(e.algorithm, 0) == 0 &&
                a.find(e.option) != std::string::npos)
            {
                return true;
            }
        }
        return false;
    };
    for (const std::string topology : {"bcube:n=3,k=1",
                                       "bcube:n=3,k=2",
                                       "torus:dims=4x4",
                                       "torus:dims=3x3x3",
                                       "fattree:k=4",
                                       "bigraph:s=4,m=4"})
    {
        for (const std::string algorithm : {"all", "trees:blocks=1"})
        {
            auto o = RunParamsync("--topology=" + topology + " --algorithm=" + algorithm +
                                  " --model=bytes:1MB --format=json");
            ASSERT_EQ(o.code, 0) << topology << " " << algorithm << ": " << o.err;
            std::istringstream lines(o.out);
            std::string line;
            int runs = 0;
            while (std::getline(lines, line))
            {
                ++runs;
                const std::string a = TextField(line, "algorithm");
                const double gst = Field(line, "gst_s");
                const double ideal = Field(line, "ideal_gst_s");
                const double bound = Field(line, "bound_gst_s");
                std::cout << topology << " " << a << ": bound/ideal " << bound / ideal
                          << ", gst/bound " << gst / bound << "\n";
                EXPECT_LE(ideal, bound * (1 + rounding)) << topology << " " << a;
                if (isException(topology, a))
                {
                    EXPECT_LE(bound, gst * 1.10) << topology << " " << a;
                    continue;
                }
                EXPECT_LE(bound, gst * (1 + rounding)) << topology << " " << a;
            }
            EXPECT_GE(runs, 1) << topology << " " << algorithm;
        }
    }
}

TEST(RoutedBound, FramesEveryPacketOfAMessage)
{
    // A VLAN-tagged RoCEv2 data packet carries Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 +
    // BTH 12 + ICRC 4 + FCS 4 = 66 B besides its payload, and 20 B of preamble and gap on
    // the wire (model/roce-frame.h): 2,500 B at MTU 1,000 are two full packets of 1,086 B
    // and one of 500 + 86 = 586 B, 2,758 B in all; without the tag 4 B less per packet.
    EXPECT_DOUBLE_EQ(ns3::RoutedBound::WireBytes(2500, 1000, true), 2758.0);
    EXPECT_DOUBLE_EQ(ns3::RoutedBound::WireBytes(2500, 1000, false), 2746.0);
    EXPECT_DOUBLE_EQ(ns3::RoutedBound::WireBytes(1000, 1000, true), 1086.0);
    // MTU 4096: 4096 + 86 = 4182 B a packet, +2.1 % on the wire.
    EXPECT_DOUBLE_EQ(ns3::RoutedBound::WireBytes(4096 * 3, 4096, true), 3 * 4182.0);
}
