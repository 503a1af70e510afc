// MLFabric's delay bound under stragglers, run from the driver as a user runs it: the
// straggler scenario of the MLFabric experiment (star:n=11: 10 workers, one dedicated
// server; 8 MB model, 30 iterations of 2 ms compute; 40 Gb/s, PFC on, no congestion
// control). Each run applies or drops each of the 10 x 30 = 300 updates exactly once.
#include "driver-run.h"

#include <gtest/gtest.h>
#include <string>

using namespace paramsync_test;

namespace
{

Outcome
RunStar(const std::string& algorithm, const std::string& straggler)
{
    return RunParamsync("--backend=packet --cc=none --pfc=1 --rate=40Gbps --delay=1us "
                        "--mtu=4096 --topology=star:n=11 --model=bytes:8MB --iterations=30 "
                        "--compute=2ms --format=json --algorithm=" +
                        algorithm + " " + straggler);
}

const std::string kNetwork = "--slow-hosts=1 --slow-link-fraction=0.5";
const std::string kCompute = "--straggler=0 --straggler-factor=4";

} // namespace

TEST(MlfabricStraggler, WithoutABoundNoUpdateIsStalerThanTwiceTheMedian)
{
    // Host 1's links at half rate: its 8 MB push takes 3.2 ms, the others' 1.6 ms, so
    // shortest-job-first always prefers a fast worker while one requests. The server's
    // link carries 10 pushes of >= 1.6 ms per 2 ms compute: it is always busy, so there
    // is always a fast request and plain SJF starves host 1 (its update waits for every
    // other worker's next ones). The scheduler lets SJF overtake a request only until its
    // delay reaches N - 1 = 9, what every update has when the 10 push in turn; the median
    // is about that (8-9), so the slowest update stays within 2x the median.
    for (const std::string& straggler : {kNetwork, kCompute})
    {
        Outcome o = RunStar("mlfabric", straggler);
        ASSERT_EQ(o.code, 0) << o.err;
        EXPECT_EQ(Field(o.out, "updates"), 300) << straggler << ": " << o.out;
        EXPECT_EQ(Field(o.out, "dropped"), 0) << straggler << ": " << o.out;
        EXPECT_GE(Field(o.out, "delay_p50"), 1) << straggler << ": " << o.out;
        EXPECT_LE(Field(o.out, "delay_max"), 2 * Field(o.out, "delay_p50"))
            << straggler << ": " << o.out;
    }
}

TEST(MlfabricStraggler, TheConfiguredDelayBoundHoldsForBothKindsOfStraggler)
{
    // delay=4: no applied update is staler than 4 (those that would be are dropped, the
    // worker gets the current model instead); every update is applied or dropped once.
    // Requests that would exceed the bound after one more slot go first, so some updates
    // are applied at exactly the bound.
    for (const std::string& straggler : {kNetwork, kCompute})
    {
        Outcome o = RunStar("mlfabric:delay=4", straggler);
        ASSERT_EQ(o.code, 0) << o.err;
        EXPECT_EQ(Field(o.out, "updates") + Field(o.out, "dropped"), 300) << o.out;
        EXPECT_LE(Field(o.out, "delay_max"), 4) << straggler << ": " << o.out;
        EXPECT_EQ(Field(o.out, "delay_max"), 4) << straggler << ": " << o.out;
    }
}

TEST(MlfabricStraggler, ScheduledPushesFinishBeforePlainAspWithANetworkStraggler)
{
    // ASP pushes all 10 at once into the server's port (a 10:1 incast that PFC pauses, and
    // host 1 shares it at half rate); MLFabric gives each push the link to itself and no
    // longer starves host 1, so its makespan is shorter (the paper's claim).
    Outcome asp = RunStar("asp", kNetwork);
    Outcome mlf = RunStar("mlfabric", kNetwork);
    ASSERT_EQ(asp.code, 0) << asp.err;
    ASSERT_EQ(mlf.code, 0) << mlf.err;
    EXPECT_LT(Field(mlf.out, "makespan_s"), Field(asp.out, "makespan_s")) << mlf.out << asp.out;
}
