// The decomposition ideal <= bound <= packet GST over a grid of topologies and every
// applicable algorithm. ideal: the relaxation (workloads/gst-lower-bound.h) on the perfect
// ECMP split, payload at line rate; bound: the relaxation on the paths the packet run's QPs
// took, framed, with each message's least path latency (helper/routed-bound.h), raised to
// the ideal. Both are proven lower bounds of any schedule, so the packet run may not finish
// below them anywhere (no exceptions), and the fluid backend's max-min run (one feasible
// schedule on the ideal's paths) not below the ideal.
#include "driver-run.h"

#include "ns3/routed-bound.h"

#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using paramsync_test::Field;
using paramsync_test::RunParamsync;
using paramsync_test::TextField;

TEST(FluidIdealGrid, IdealAtMostBoundAtMostPacketGst)
{
    // The columns are printed with 6 significant digits: each may be off by half a unit in
    // the 6th digit, a relative 5e-6; 1e-5 covers two roundings and nothing more.
    const double rounding = 1e-5;
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
                const double fair = Field(line, "fair_gst_s");
                std::cout << topology << " " << a << ": bound/ideal " << bound / ideal
                          << ", gst/bound " << gst / bound << ", gst/fair " << gst / fair << "\n";
                EXPECT_GT(ideal, 0) << topology << " " << a;
                EXPECT_LE(ideal, bound * (1 + rounding)) << topology << " " << a;
                EXPECT_LE(bound, gst * (1 + rounding)) << topology << " " << a;
            }
            EXPECT_GE(runs, 1) << topology << " " << algorithm;
        }
    }
}

TEST(FluidIdealGrid, FluidBackendRunIsNoFasterThanItsIdeal)
{
    // --backend=fluid: gst_s is the max-min run on the perfect split, a feasible schedule of
    // the plan on those paths; ideal_gst_s the relaxation on the same paths: gst >= ideal.
    // Besides the printed digits (1e-5), the run merges completions closer than its 1 ns
    // window, each moving a completion earlier by less than 1 ns (workloads/fluid-
    // estimator.h): 100 ns covers 100 merged completions on the critical path (ring on
    // torus:dims=3x3x3 ends 6 ns below its bound, 52 steps).
    const double rounding = 1e-5;
    const double mergeWindowS = 100e-9;
    for (const std::string topology :
         {"bcube:n=3,k=2", "torus:dims=3x3x3", "fattree:k=4", "bigraph:s=4,m=4"})
    {
        auto o = RunParamsync("--topology=" + topology +
                              " --algorithm=all --model=bytes:1MB --format=json --backend=fluid");
        ASSERT_EQ(o.code, 0) << topology << ": " << o.err;
        std::istringstream lines(o.out);
        std::string line;
        int runs = 0;
        while (std::getline(lines, line))
        {
            ++runs;
            const std::string a = TextField(line, "algorithm");
            const double ideal = Field(line, "ideal_gst_s");
            EXPECT_GT(ideal, 0) << topology << " " << a;
            EXPECT_LE(ideal, Field(line, "gst_s") * (1 + rounding) + mergeWindowS)
                << topology << " " << a;
            EXPECT_EQ(Field(line, "bound_gst_s"), -1) << topology << " " << a;
        }
        EXPECT_GE(runs, 4) << topology;
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
