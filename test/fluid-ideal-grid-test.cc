// The ideal GST (per-QP FIFO fluid, perfect ECMP split, payload at line rate) against the
// packet run of the same plan, over a grid of topologies and every applicable algorithm
// (workloads/fluid-estimator.h). The packet run adds headers, latency and hashing to the
// same FIFO queue pairs, so it should not finish first.
#include "driver-run.h"

#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

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

TEST(FluidIdealGrid, IdealIsAtMostThePacketGst)
{
    // Both columns are printed with 6 significant digits: each may be off by half a unit in
    // the 6th digit, a relative 5e-6; 1e-5 covers the two roundings and nothing more.
    const double rounding = 1e-5;
    // Known exception, measured at 1 MB: trees on fattree:k=4 (packet 0.44 ms, ideal
    // 0.457 ms; 0.90 at 4 MB). Its heaviest host pairs sit under one edge switch (h10 ->
    // h11 carries the whole 1 MB gradient), and a PFC switch shares an egress port between
    // its ingress ports, not per flow: the local pair gets one ingress port's share where
    // max-min gives it one flow's share among the five crossing that downlink. Max-min
    // fairness is not the packet fabric's sharing, so the ideal is no bound here; it stays
    // within 10 % of it.
    const std::set<std::string> portFair = {"fattree:k=4 trees"};
    for (const std::string topology : {"bcube:n=3,k=1", "bcube:n=3,k=2", "torus:dims=4x4",
                                       "torus:dims=3x3x3", "fattree:k=4", "bigraph:s=4,m=4"})
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
                const std::string name = topology + " " + a.substr(0, a.find(':'));
                const double gst = Field(line, "gst_s");
                const double ideal = Field(line, "ideal_gst_s");
                std::cout << topology << " " << a << ": gst/ideal " << gst / ideal << "\n";
                if (portFair.count(name) && a.find("blocks=8") != std::string::npos)
                {
                    EXPECT_LE(ideal, gst * 1.10) << name;
                    continue;
                }
                EXPECT_LE(ideal, gst * (1 + rounding)) << topology << " " << a;
            }
            EXPECT_GE(runs, 1) << topology << " " << algorithm;
        }
    }
}
