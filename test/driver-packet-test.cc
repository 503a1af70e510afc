// Packet-level runs of the paramsync binary: GST against the fluid ideal, HiPS
// against the flat algorithms, linearity in bytes, incast on a star with and without PFC,
// and the HPCC 32-to-1 incast flow list.
#include "driver-run.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

using namespace paramsync_test;

/// A run whose stdout is JSON lines (what Field reads).
Outcome
RunJson(const std::string& args)
{
    return RunParamsync(args + " --format=json");
}

/// Idle fabric, no congestion control, PFC on, 10 MB synthetic model (the setting).
std::string
Idle(const std::string& topology, const std::string& algorithm, const std::string& model)
{
    return "--backend=packet --cc=none --pfc=1 --rate=40Gbps --delay=1us --mtu=4096 "
           "--topology=" +
           topology + " --algorithm=" + algorithm + " --model=" + model;
}

double
Gst(const std::string& topology,
    const std::string& algorithm,
    const std::string& model,
    double* ideal = nullptr)
{
    Outcome o = RunJson(Idle(topology, algorithm, model));
    EXPECT_EQ(o.code, 0) << algorithm << " on " << topology << ": " << o.err;
    EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
    if (ideal)
    {
        *ideal = Field(o.out, "ideal_gst_s");
    }
    // One iteration without compute starts at 0, so the work (sim_s, the last transfer's
    // end) ends at the GST.
    const double gst = Field(o.out, "gst_s");
    EXPECT_NEAR(Field(o.out, "sim_s"), gst, 1e-9 + 1e-6 * gst) << o.out;
    return gst;
}

} // namespace

TEST(DriverPacket, GstIsWithinTenPercentAboveTheIdealOnBcubeAndTorus)
{
    // The ideal counts payload bytes at line rate. Packets add framing: 4096 B payload
    // carries 66 B of headers + ICRC/FCS + 20 B preamble/IFG = 1.0210x the bytes, plus a
    // few microseconds of latency per dependent step; queueing on an idle fabric with
    // these plans stays small, so the packet GST sits within [1.0, 1.1] x the ideal.
    for (const char* topology : {"bcube:n=3,k=1", "torus:dims=3x3"})
    {
        for (const char* algorithm : {"ring", "mesh", "hips"})
        {
            double ideal = 0;
            double gst = Gst(topology, algorithm, "bytes:10MB", &ideal);
            ASSERT_GT(ideal, 0) << algorithm << " on " << topology;
            EXPECT_GE(gst, ideal) << algorithm << " on " << topology;
            EXPECT_LE(gst, 1.10 * ideal)
                << algorithm << " on " << topology << ": " << gst << " vs ideal " << ideal;
        }
    }
}

TEST(DriverPacket, HipsBeatsFlatRingAndMeshOnBcube)
{
    // W = 10 MB, B = 40 Gb/s, W/B = 2 ms. Fluid ideals on BCube(3,1) (9 servers, 2 ports):
    //  - ring (natural order, 2-hop neighbours split over both correction orders): each of
    //    2 (N-1) = 16 steps moves W/9 over a single bottleneck link: 16/9 W/B = 3.56 ms;
    //  - mesh: per phase every server sends W/9 to 4 one-hop peers (2 link traversals each)
    //    and 4 two-hop peers (4 traversals): 9 * (4*2 + 4*4) W/9 = 24 W over 36 directed
    //    links = 2/3 W per link; two phases: 4/3 W/B = 2.67 ms;
    //  - hips: two halves of the gradient cross the levels in opposite orders, one per
    //    port; a half moves 2/3 (W/2) at its first level and 2/3 (W/6) at its second, twice
    //    (reduce, then gather): 2 (W/3 + W/9) = 8/9 W per port, 8/9 W/B = 1.78 ms — the
    //    bound (N-1)/N W for servers with 2 ports.
    // So the ideal reductions are 1 - (8/9)/(16/9) = 50 % against ring and 1 - (8/9)/(4/3)
    // = 33.3 % against mesh. The issue asks for >= 35 % against both; against mesh that
    // exceeds what the ideal allows when both run at packet level within a few percent of
    // their ideals (the other test), so against mesh we assert 30 %: the closed form less
    // the framing and latency that both carry.
    double hips = Gst("bcube:n=3,k=1", "hips", "bytes:10MB");
    double ring = Gst("bcube:n=3,k=1", "ring", "bytes:10MB");
    double mesh = Gst("bcube:n=3,k=1", "mesh", "bytes:10MB");
    EXPECT_LE(hips, 0.65 * ring) << "hips " << hips << " ring " << ring;
    EXPECT_LE(hips, 0.70 * mesh) << "hips " << hips << " mesh " << mesh;
}

TEST(DriverPacket, HipsBeatsFlatRingAndMeshBy35PercentOnVgg19)
{
    // The 35 % with the model the HiPS paper evaluates (VGG-19, 38 tensors, 575 MB).
    // Ideal: hips 8/9 W/B, ring 16/9 W/B (50 % less), mesh 4/3 W/B (33.3 % less). Against
    // ring the 35 % holds with room. Against mesh it held only through a PFC penalty: mesh
    // ran 1.20x its ideal while every class was lossless and lanes were served by strict
    // priority; with deficit round robin between lanes (64 KiB quantum) and only the data
    // lanes lossless it stays near its ideal (measured: hips 104.9 ms, mesh 160.3 ms, a
    // reduction of 34.6 %), as the closed form's 33.3 % plus framing and latency allow. So
    // against mesh we assert 30 %, as HipsBeatsFlatRingAndMeshOnBcube does.
    double hips = Gst("bcube:n=3,k=1", "hips", "vgg19");
    double ring = Gst("bcube:n=3,k=1", "ring", "vgg19");
    double mesh = Gst("bcube:n=3,k=1", "mesh", "vgg19");
    EXPECT_LE(hips, 0.65 * ring) << "hips " << hips << " ring " << ring;
    EXPECT_LE(hips, 0.70 * mesh) << "hips " << hips << " mesh " << mesh;
}

TEST(DriverPacket, DoublingTheBytesDoublesGst)
{
    // Bandwidth-bound: GST = bytes / rate + a latency term that does not grow with bytes.
    double one = Gst("bcube:n=3,k=1", "ring", "bytes:10MB");
    double two = Gst("bcube:n=3,k=1", "ring", "bytes:20MB");
    EXPECT_NEAR(two / one, 2.0, 0.10) << one << " " << two;
}

TEST(DriverPacket, OneServerPsOnAStarPausesWithoutDrops)
{
    // Eight workers push their whole gradient to one server at once: an 8:1 incast at the
    // server's switch port. PFC must pause the senders (pauses > 0) and lose nothing.
    Outcome o = RunJson(Idle("star:n=9", "ps:servers=1", "bytes:4MB"));
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_GT(Field(o.out, "pfc_pause_frames"), 0) << o.out;
    EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
    EXPECT_GT(Field(o.out, "gst_s"), 0);
}

TEST(DriverPacket, WithoutPfcAndASmallBufferTheIncastDropsAndStillCompletes)
{
    // 200 KB of shared buffer cannot hold 8 x 4 MB arriving at 8x the drain rate: frames are
    // dropped; go-back-N retransmits them and the sync still completes (exit 0: drops are
    // only an invariant failure when PFC is on).
    Outcome o = RunJson("--backend=packet --cc=none --pfc=0 --buffer=200KB "
                        "--topology=star:n=9 --algorithm=ps:servers=1 --model=bytes:4MB");
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_GT(Field(o.out, "drops"), 0) << o.out;
    EXPECT_GT(Field(o.out, "retransmits"), 0) << o.out;
    EXPECT_EQ(Field(o.out, "pfc_pause_frames"), 0) << o.out;
    EXPECT_GT(Field(o.out, "gst_s"), 0);
}

TEST(DriverPacket, HpccIncast32CompletesEveryFlowWithPausesAndNoDrops)
{
    const std::string dir = "/tmp/paramsync-incast-" + std::to_string(getpid());
    Outcome o = RunJson(
        std::string("--topology=file:") + PARAMSYNC_SOURCE_DIR +
        "/topologies/hpcc/topology.txt --algorithm=none --flows=" + PARAMSYNC_SOURCE_DIR +
        "/helper/data/flow_incast32.txt --mtu=1000 "
        "--cc=none --out=" +
        dir);
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_GT(Field(o.out, "pfc_pause_frames"), 0) << o.out;
    EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
    std::istringstream flows(Slurp(dir + "/flows.csv"));
    std::string line;
    std::getline(flows, line); // header
    int rows = 0;
    double lastEnd = 0;
    while (std::getline(flows, line))
    {
        ++rows;
        double fct = std::stod(line.substr(line.rfind(',') + 1));
        EXPECT_GT(fct, 0) << line;
        lastEnd = std::max(lastEnd, fct);
    }
    EXPECT_EQ(rows, 32);
    // 32 x 2 MB into one 100 Gb/s port: at least 64e6 * 8 / 100e9 = 5.12 ms for the last.
    EXPECT_GE(lastEnd, 5.12e-3);
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, HeavyPausingStaysLossless)
{
    // Halving-doubling (9 = 8 + 1 fold-in) and double binary trees of 100 MB on BCube(3,1)
    // congest relaying servers' switch ports hard enough to pause them thousands of times.
    // Each pause must stop the upstream within the port's headroom, 2 x delay x rate +
    // 3 x frame = 2 x 1 us x 40 Gb/s / 8 + 3 x 4162 = 22486 B: the frame that finds XOFF
    // crossed, the frame our pause waits behind, the upstream's frame in progress, and a
    // round trip of wire. With 2 frames (18324 B) these runs dropped 429 and 8 frames.
    for (const char* algorithm : {"hd", "dbtree"})
    {
        Outcome o = RunJson(Idle("bcube:n=3,k=1", algorithm, "bytes:100MB"));
        EXPECT_EQ(o.code, 0) << algorithm << ": " << o.err;
        EXPECT_GT(Field(o.out, "pfc_pause_frames"), 0) << o.out;
        EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
    }
}

TEST(DriverPacket, BackgroundFlowsBesideASyncJobCompleteAndSlowItDown)
{
    // Ring allreduce of 10 MB on star:n=9: every uplink carries 2 (N-1)/N W = 17.8 MB of
    // ring traffic. Two 5 MB background flows (0 -> 8 at t = 0 and 4 -> 2 at t = 0) share
    // the uplinks of hosts 0 and 4 and the downlinks of hosts 8 and 2 with the ring, so
    // the ring's GST must grow (the uplink of host 0 alone must now move 22.8 MB) and both
    // flows must complete (a positive FCT in flows.csv).
    const std::string dir = "/tmp/paramsync-bg-" + std::to_string(getpid());
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    std::ofstream(dir + "/flows.txt") << "2\n0 8 3 100 5000000 0\n4 2 3 100 5000000 0\n";
    const double alone = Gst("star:n=9", "ring", "bytes:10MB");
    Outcome o = RunJson(Idle("star:n=9", "ring", "bytes:10MB") + " --flows=" + dir +
                        "/flows.txt --out=" + dir + "/out");
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_GT(Field(o.out, "gst_s"), alone * 1.05) << o.out;
    std::istringstream flows(Slurp(dir + "/out/flows.csv"));
    std::string line;
    std::getline(flows, line); // header
    int rows = 0;
    while (std::getline(flows, line))
    {
        ++rows;
        EXPECT_GT(std::stod(line.substr(line.rfind(',') + 1)), 0) << line;
    }
    EXPECT_EQ(rows, 2);
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, ARunInAllGivesWhatItGivesAlone)
{
    // --algorithm=all runs every algorithm in one process. Each run must be the run that
    // algorithm gives alone with the same seed: the switches' ECN draws (RED between Kmin
    // and Kmax) come from a stream fixed per node, not from ns-3's next free stream, which
    // the earlier runs would have moved on. dbtree (after six others) marks thousands of
    // packets on BCube(3,1) with 32 MB, so a different stream would change its count.
    const std::string args = "--backend=packet --cc=none --pfc=1 --topology=bcube:n=3,k=1 "
                             "--model=bytes:32MB --algorithm=";
    Outcome all = RunJson(args + "all");
    Outcome alone = RunJson(args + "dbtree");
    ASSERT_EQ(all.code, 0) << all.err;
    ASSERT_EQ(alone.code, 0) << alone.err;
    const size_t at = all.out.find("\"algorithm\":\"dbtree");
    ASSERT_NE(at, std::string::npos) << all.out;
    const std::string row = all.out.substr(at, all.out.find('\n', at) - at);
    EXPECT_GT(Field(alone.out, "ecn_marks"), 1000) << alone.out;
    EXPECT_EQ(Field(row, "ecn_marks"), Field(alone.out, "ecn_marks")) << row;
    EXPECT_EQ(Field(row, "gst_s"), Field(alone.out, "gst_s")) << row;
    EXPECT_EQ(Field(row, "events"), Field(alone.out, "events")) << row;
}

TEST(DriverPacket, UndersizedHeadroomIsAnInvariantFailureWithResultsWritten)
{
    // Headroom at 0.3 x the formula cannot absorb what is in flight when a pause is sent:
    // an 8:1 PS incast with PFC on then drops. That breaks the lossless invariant: exit 3,
    // one line naming it on stderr, and the results still written (status FAIL).
    const std::string dir = "/tmp/paramsync-exit3-" + std::to_string(getpid());
    Outcome o = RunJson(Idle("star:n=9", "ps:servers=1", "bytes:4MB") +
                        " --ns3::PfcSwitch::HeadroomScale=0.3 --out=" + dir);
    EXPECT_EQ(o.code, 3) << o.err;
    EXPECT_GT(Field(o.out, "drops"), 0) << o.out;
    EXPECT_NE(o.err.find("drops with PFC on"), std::string::npos) << o.err;
    const std::string summary = Slurp(dir + "/summary.json");
    EXPECT_NE(summary.find("\"status\":\"FAIL\""), std::string::npos);
    // summary.json says how the run ended, with the same reason as stderr.
    EXPECT_NE(summary.find("\"exit\":{\"code\":3,\"reason\":\"ps:"), std::string::npos) << summary;
    EXPECT_NE(summary.find("drops with PFC on", summary.find("\"exit\"")), std::string::npos);
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, ASlowLinkOnACabledRingDoublesTheRingsGst)
{
    // ring:n=4 cables the 4 hosts in a cycle; the ring allreduce's 2 (N-1) = 6 steps each
    // move W/N = 2 MB over every cable at once, so GST = 6 x 2 MB / B = 2.4 ms at 40 Gb/s.
    // Link 0 at half rate makes every step wait for it: 4.8 ms, twice (ideal and packet).
    const std::string base = Idle("ring:n=4", "ring", "bytes:8MB");
    Outcome fast = RunJson(base);
    Outcome slow = RunJson(base + " --slow-link=0 --slow-link-fraction=0.5");
    ASSERT_EQ(fast.code, 0) << fast.err;
    ASSERT_EQ(slow.code, 0) << slow.err;
    EXPECT_NEAR(Field(fast.out, "ideal_gst_s"), 2.4e-3, 1e-9);
    EXPECT_NEAR(Field(slow.out, "ideal_gst_s"), 4.8e-3, 1e-9);
    EXPECT_NEAR(Field(slow.out, "gst_s") / Field(fast.out, "gst_s"), 2.0, 0.05);
    // A list: links 0 and 2 at a quarter of the rate make every step 4x longer: 9.6 ms.
    Outcome two = RunJson(base + " --slow-link=0,2 --slow-link-fraction=0.25");
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_NEAR(Field(two.out, "ideal_gst_s"), 9.6e-3, 1e-9);
    // --slow-hosts=0 halves both of host 0's cables: the ring's steps wait for them too.
    Outcome host = RunJson(base + " --slow-hosts=0 --slow-link-fraction=0.5");
    ASSERT_EQ(host.code, 0) << host.err;
    EXPECT_NEAR(Field(host.out, "ideal_gst_s"), 4.8e-3, 1e-9);
}

TEST(DriverPacket, IterationsRepeatTheSyncAfterTheComputeTime)
{
    // Three iterations of 1 ms compute then a ring sync: the network is idle between them,
    // so each iteration's GST is the same and the iteration time is 1 ms + GST.
    Outcome o = RunJson(Idle("star:n=4", "ring", "bytes:8MB") + " --iterations=3 --compute=1ms");
    ASSERT_EQ(o.code, 0) << o.err;
    std::smatch m;
    const std::regex re("\"gst_per_iteration_s\":\\[([0-9.e+-]+),([0-9.e+-]+),([0-9.e+-]+)\\]");
    ASSERT_TRUE(std::regex_search(o.out, m, re)) << o.out;
    const double gst = Field(o.out, "gst_s");
    for (int i = 1; i <= 3; ++i)
    {
        EXPECT_NEAR(std::stod(m[i]), gst, 1e-3 * gst) << i;
    }
    EXPECT_NEAR(Field(o.out, "iter_s"), 1e-3 + gst, 1e-3 * gst);
}

TEST(DriverPacket, APfcDeadlockOnACabledRingIsFoundAndNamed)
{
    // Mesh on ring:n=8 sends every host's shards up to 4 hops around the cabled ring through
    // relaying hosts. With one lossless lane (deadlockfree=0) the relays' buffers depend on
    // each other all the way around: h0 -> h1 -> ... -> h7 -> h0 (Dally & Seitz's cyclic
    // dependency). A 1 MB buffer fills quickly, every port of the cycle ends up paused and
    // silent, and the detector must stop the run with exit 3 and name all 8 hosts. With the
    // dateline lane (deadlockfree=1, the default) the same run completes.
    const std::string job = Idle("ring:n=8,deadlockfree=0", "mesh", "bytes:64MB") +
                            " --buffer=1MB --stop=1s";
    Outcome stuck = RunJson(job);
    EXPECT_EQ(stuck.code, 3) << stuck.err;
    EXPECT_NE(stuck.err.find("PFC deadlock"), std::string::npos) << stuck.err;
    for (int h = 0; h < 8; ++h)
    {
        EXPECT_NE(stuck.err.find("h" + std::to_string(h) + "/"), std::string::npos)
            << "h" << h << " missing from the cycle: " << stuck.err;
    }
    EXPECT_EQ(Field(stuck.out, "drops"), 0) << stuck.out;

    Outcome fine = RunJson(Idle("ring:n=8", "mesh", "bytes:64MB") + " --buffer=1MB");
    EXPECT_EQ(fine.code, 0) << fine.err;
    EXPECT_GT(Field(fine.out, "gst_s"), 0) << fine.out;
}

TEST(DriverPacket, TheEventLimitEndsALongRunWithExit3AndTheReason)
{
    // A 10 MB ring on BCube(3,1) needs about 2.6e5 events (two per packet-hop, 1.3e5
    // packet-hops); a limit of 5e4 must end it early, unfinished, with exit 3 and the
    // reason, well before its GST (3.8 ms) in simulated time.
    Outcome o = RunJson(Idle("bcube:n=3,k=1", "ring", "bytes:10MB") + " --max-events=50000");
    EXPECT_EQ(o.code, 3) << o.err;
    EXPECT_NE(o.err.find("event limit"), std::string::npos) << o.err;
    EXPECT_LT(Field(o.out, "events"), 2 * 50000) << o.out;
    EXPECT_EQ(Field(o.out, "gst_s"), -1) << o.out;
}

TEST(DriverPacket, PauseCascadeDepthOnStarAndFatTree)
{
    // A one-server PS incast. On star:n=9 only the switch pauses (hosts never do), and its
    // own egress ports are never paused: every pause has depth 1. On fattree:k=4 the server
    // (host 15, dedicated) sits under an edge switch; senders in other pods reach it over
    // sender NIC -> edge -> aggregation -> core -> aggregation -> edge, so with buffers that
    // fill (2 MB) the pauses cascade back over all 5 links upstream of the bottleneck: depth 5.
    Outcome star = RunJson(Idle("star:n=9", "ps:servers=1", "bytes:20MB") + " --buffer=2MB");
    ASSERT_EQ(star.code, 0) << star.err;
    EXPECT_GT(Field(star.out, "pfc_pause_frames"), 0) << star.out;
    EXPECT_EQ(Field(star.out, "pfc_pause_depth"), 1) << star.out;
    Outcome fat = RunJson(Idle("fattree:k=4", "ps:servers=1", "bytes:20MB") + " --buffer=2MB");
    ASSERT_EQ(fat.code, 0) << fat.err;
    EXPECT_EQ(Field(fat.out, "pfc_pause_depth"), 5) << fat.out;
}

TEST(DriverPacket, AsyncPsSystemsRunFromTheDriver)
{
    // 8 workers and one dedicated server on star:n=9, 4 MB model, 10 iterations of 1 ms
    // compute, worker 0 three times slower. ASP pushes all at once: an 8:1 incast into the
    // server's port, so PFC pauses. MLFabric reserves the server link for one push at a
    // time (a push arrives at the line rate the server's port drains at), so the switch
    // never needs to pause; with delay=2 no applied update is staler than 2 and the
    // straggler's stale updates are dropped instead. Every run applies every non-dropped
    // update: updates + dropped = 8 workers x 10 iterations.
    const std::string common = " --iterations=10 --compute=1ms "
                               "--straggler=0 --straggler-factor=3";
    Outcome asp = RunJson(Idle("star:n=9", "asp", "bytes:4MB") + common);
    Outcome mlf = RunJson(Idle("star:n=9", "mlfabric:delay=2", "bytes:4MB") + common);
    ASSERT_EQ(asp.code, 0) << asp.err;
    ASSERT_EQ(mlf.code, 0) << mlf.err;
    EXPECT_GT(Field(asp.out, "pfc_pause_frames"), 0) << asp.out;
    EXPECT_EQ(Field(mlf.out, "pfc_pause_frames"), 0) << mlf.out;
    EXPECT_EQ(Field(asp.out, "updates") + Field(asp.out, "dropped"), 80) << asp.out;
    EXPECT_EQ(Field(mlf.out, "updates") + Field(mlf.out, "dropped"), 80) << mlf.out;
    EXPECT_GT(Field(asp.out, "delay_max"), 2) << asp.out;
    EXPECT_LE(Field(mlf.out, "delay_max"), 2) << mlf.out;
    EXPECT_GT(Field(mlf.out, "dropped"), 0) << mlf.out;
    // Dropped updates never cross the server link: less server traffic than ASP's
    // 80 x (4 MB in + 4 MB out) = 640 MB.
    EXPECT_EQ(Field(asp.out, "server_bytes"), 640e6) << asp.out;
    EXPECT_LT(Field(mlf.out, "server_bytes"), 640e6) << mlf.out;
}

TEST(DriverPacket, MlfabricAggregationReplicaAndNetworkSchedulerFromTheDriver)
{
    // The same 8 workers x 10 iterations of a 4 MB model (80 updates, none dropped without
    // a delay bound). Plain mlfabric: 80 pushes + 80 model returns of 4 MB = 640 MB on the
    // server's link.
    const std::string common = " --iterations=10 --compute=1ms";
    auto run = [&](const std::string& topology, const std::string& algorithm) {
        return RunJson(Idle(topology, algorithm, "bytes:4MB") + common);
    };
    Outcome plain = run("star:n=9", "mlfabric");
    Outcome aggregate = run("star:n=9", "mlfabric:aggregate=1");
    Outcome net = run("star:n=9", "mlfabric:scheduler=net");
    Outcome replica = run("star:n=10", "mlfabric:replica=4"); // host 9: the replica
    for (const Outcome* o : {&plain, &aggregate, &net, &replica})
    {
        ASSERT_EQ(o->code, 0) << o->err;
        EXPECT_EQ(Field(o->out, "updates"), 80) << o->out;
    }
    EXPECT_EQ(Field(plain.out, "server_bytes"), 640e6) << plain.out;
    // Aggregation: a combined update of k deferred ones crosses the server link once, saving
    // k - 1 pushes of 4 MB. With a updates aggregated in groups of k >= 2, the saving s =
    // sum(k - 1) lies in [a / 2, a - 1].
    const double a = Field(aggregate.out, "aggregated");
    const double saved = (640e6 - Field(aggregate.out, "server_bytes")) / 4e6;
    EXPECT_GT(a, 0) << aggregate.out;
    EXPECT_DOUBLE_EQ(saved, std::round(saved)) << aggregate.out;
    EXPECT_GE(saved, a / 2) << aggregate.out;
    EXPECT_LE(saved, a - 1) << aggregate.out;
    // The scheduler over the network: a 64 B request and a 64 B grant per update.
    EXPECT_EQ(Field(net.out, "control_bytes"), 80 * 2 * 64) << net.out;
    // A replica within 4 versions: one combined 4 MB delta per 4 updates, floor(80 / 4) = 20
    // forwards (80 MB) instead of 80, and it never falls more than 4 versions behind.
    EXPECT_EQ(Field(replica.out, "replica_forwards"), 20) << replica.out;
    EXPECT_EQ(Field(replica.out, "replica_sync_bytes"), 80e6) << replica.out;
    EXPECT_LE(Field(replica.out, "replica_divergence_max"), 4) << replica.out;
    EXPECT_LT(Field(replica.out, "server_bytes"), 640e6) << replica.out;
}

TEST(DriverPacket, LapseDynamicAllocationBeatsClassicOnMatrixFactorization)
{
    // DSGD matrix factorization, 4 nodes (star:n=4) x 2 workers, 800 keys, 200 SGD steps per
    // block. Classic allocation: a worker's column block is at its own node in 2 of the 8
    // sub-epochs (its node's 2 workers' blocks), so 3/4 of all accesses are remote round
    // trips. Dynamic allocation relocates each next block while waiting at the barrier:
    // every access is local, and the epoch must be several times shorter.
    const std::string base = "--backend=packet --topology=star:n=4 --iterations=1 "
                             "--algorithm=lapse:workers=2,keys=800,steps=200,mode=";
    Outcome classic = RunJson(base + "classic");
    Outcome dynamic = RunJson(base + "dynamic");
    ASSERT_EQ(classic.code, 0) << classic.err;
    ASSERT_EQ(dynamic.code, 0) << dynamic.err;
    EXPECT_DOUBLE_EQ(Field(classic.out, "remote_fraction"), 0.75) << classic.out;
    EXPECT_EQ(Field(dynamic.out, "remote_accesses"), 0) << dynamic.out;
    // 8 workers x 8 sub-epochs x 200 steps x (pull + push) = 25600 accesses either way.
    EXPECT_EQ(Field(classic.out, "local_accesses") + Field(classic.out, "remote_accesses"), 25600);
    EXPECT_EQ(Field(dynamic.out, "local_accesses"), 25600);
    EXPECT_LT(3 * Field(dynamic.out, "epoch_s"), Field(classic.out, "epoch_s"))
        << dynamic.out << classic.out;
}

TEST(DriverPacket, LapseRunsKnowledgeGraphEmbeddingsAndOneNodeFromTheDriver)
{
    // KGE, 4 nodes x 2 workers, 500 triples per worker, uniform entities (zipf=0): each
    // triple touches 2 entities and 1 relation, pull + push each: 8 x 500 x 6 = 24000
    // accesses. Classic: a key is at one of 4 nodes, so 3/4 of the accesses are remote (in
    // expectation; 24000 draws keep it within 0.03). Dynamic localizes the entities ahead.
    const std::string kge = "--backend=packet --topology=star:n=4 --iterations=1 "
                            "--algorithm=lapse:workload=kge,workers=2,entities=10000,zipf=0,"
                            "triples=500,mode=";
    Outcome classic = RunJson(kge + "classic");
    Outcome dynamic = RunJson(kge + "dynamic");
    ASSERT_EQ(classic.code, 0) << classic.err;
    ASSERT_EQ(dynamic.code, 0) << dynamic.err;
    EXPECT_EQ(Field(classic.out, "local_accesses") + Field(classic.out, "remote_accesses"), 24000);
    EXPECT_NEAR(Field(classic.out, "remote_fraction"), 0.75, 0.03) << classic.out;
    EXPECT_LT(Field(dynamic.out, "remote_fraction"), 0.5) << dynamic.out;
    // One node (host 0 of the star), 2 workers, mf: p = 2 blocks, so 2 sub-epochs of 200
    // steps, every access local: 2 workers x 2 x 200 x 2 = 1600 accesses, no packet on the
    // network, and the epoch is the compute alone: 2 x 200 x 1 us = 0.4 ms.
    Outcome one = RunJson("--backend=packet --topology=star:n=4 --iterations=1 "
                          "--algorithm=lapse:nodes=1,workers=2,keys=800,steps=200");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(Field(one.out, "local_accesses"), 1600) << one.out;
    EXPECT_EQ(Field(one.out, "remote_accesses"), 0) << one.out;
    EXPECT_EQ(Field(one.out, "pkt_hops"), 0) << one.out;
    EXPECT_NEAR(Field(one.out, "epoch_s"), 0.4e-3, 1e-9) << one.out;
}

TEST(DriverPacket, APauseStormStallsTheRingForItsDurationAndForeverWithoutEnd)
{
    // A ring of 16 MB over fattree:k=4 (16 hosts): every step needs host 8 to receive and
    // send. Host 8's NIC floods pause frames from 1 ms to 4 ms: nothing reaches host 8 in
    // that time, the ring's dependency chain stalls, and GST grows by about the 3 ms of the
    // storm (the switch buffers absorb what is sent meanwhile: 3 ms x 40 Gb/s = 15 MB < 32 MB,
    // no drops). A storm without end never lets the ring finish: exit 3, stalled.
    const std::string base = Idle("fattree:k=4", "ring", "bytes:16MB");
    Outcome calm = RunJson(base);
    Outcome storm = RunJson(base + " --pause-storm=8@1ms+3ms");
    Outcome endless = RunJson(base + " --pause-storm=8@1ms --stop=50ms");
    ASSERT_EQ(calm.code, 0) << calm.err;
    ASSERT_EQ(storm.code, 0) << storm.err;
    EXPECT_GE(Field(storm.out, "gst_s"), Field(calm.out, "gst_s") + 2.5e-3) << storm.out;
    EXPECT_GT(Field(storm.out, "pfc_pause_frames"), 0) << storm.out;
    EXPECT_EQ(Field(storm.out, "drops"), 0) << storm.out;
    EXPECT_EQ(endless.code, 3) << endless.err;
    EXPECT_NE(endless.err.find("stalled"), std::string::npos) << endless.err;
    // Pauses still on at the stop count up to it: the storm's own pause of host 8's edge
    // switch (1 hop) at least, however far the backlog spread behind it.
    EXPECT_GE(Field(endless.out, "pfc_pause_depth"), 1) << endless.out;
}

TEST(DriverPacket, APfcWatchdogStopsAStormFromSpreadingToVictims)
{
    // fattree:k=4, two 20 MB flows from pod 0: 0 -> 8 (into the host whose NIC floods pause
    // frames from 0.5 to 10.5 ms) and 1 -> 12 (the victim: it never touches host 8). Without
    // a watchdog, host 8's edge switch fills and pauses its aggregation switches, they pause
    // the cores, the cores pod 0's aggregation and pod 0's edge switch, which pauses host 1
    // too (PFC stops a priority, not a flow): the victim waits for the storm to end, FCT ~18
    // ms against 20 MB / 40 Gb/s = 4 ms alone. With a 500 us watchdog, host 8's edge switch
    // drops the stormed queue's frames instead, the spread stops, and the victim finishes in
    // well under the storm; the dropped frames are recovered by go-back-N after the storm
    // (watchdog_drops > 0, no MMU drop, every flow completes).
    const std::string dir = "/tmp/paramsync-watchdog-" + std::to_string(getpid());
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    std::ofstream(dir + "/flows.txt") << "2\n0 8 3 100 20000000 0\n1 12 3 100 20000000 0\n";
    auto victimFct = [&](const std::string& watchdog, Outcome& o) {
        o = RunJson("--backend=packet --cc=none --topology=fattree:k=4 --algorithm=none "
                    "--buffer=4MB --pause-storm=8@0.5ms+10ms --flows=" +
                    dir + "/flows.txt --pfc-watchdog=" + watchdog + " --out=" + dir + "/" +
                    watchdog);
        std::istringstream flows(Slurp(dir + "/" + watchdog + "/flows.csv"));
        std::string line;
        double fct = -1;
        while (std::getline(flows, line))
        {
            if (line.rfind("none,1,", 0) == 0)
            {
                fct = std::stod(line.substr(line.rfind(',') + 1));
            }
        }
        return fct;
    };
    Outcome without;
    Outcome with;
    const double slow = victimFct("0", without);
    const double fast = victimFct("500us", with);
    ASSERT_EQ(without.code, 0) << without.err;
    ASSERT_EQ(with.code, 0) << with.err;
    EXPECT_GT(slow, 10e-3) << without.out;
    EXPECT_GT(fast, 4e-3);
    EXPECT_LT(fast, 0.6 * slow) << fast << " vs " << slow;
    EXPECT_EQ(Field(without.out, "watchdog_drops"), 0) << without.out;
    EXPECT_GT(Field(with.out, "watchdog_drops"), 0) << with.out;
    EXPECT_EQ(Field(with.out, "drops"), 0) << with.out;
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, ALinkFailureIsRoutedAroundAndTheSyncCompletes)
{
    // A 16 MB ring (natural order) on BCube(3,1): h0 sends to h1 through sw0.0. That cable
    // fails at 1 ms. Routing switches to shortest paths around it (h0 -> sw1.0 -> h3 ->
    // sw0.1 -> h4 -> sw1.1 -> h1: 6 links instead of 2, shared with other ring edges), the
    // queue pairs on it resend from their oldest unacknowledged packet, and the ring
    // completes, later than without the failure; back after 2 ms, the original routes
    // return and the loss is shorter. Nothing is dropped by a buffer.
    const std::string base = Idle("bcube:n=3,k=1", "ring", "bytes:16MB");
    Outcome calm = RunJson(base);
    Outcome blip = RunJson(base + " --link-down=h0-sw0.0@1ms+2ms");
    Outcome gone = RunJson(base + " --link-down=sw0.0-h0@1ms");
    ASSERT_EQ(calm.code, 0) << calm.err;
    ASSERT_EQ(blip.code, 0) << blip.err;
    ASSERT_EQ(gone.code, 0) << gone.err;
    EXPECT_GT(Field(blip.out, "gst_s"), Field(calm.out, "gst_s")) << blip.out;
    EXPECT_GT(Field(gone.out, "gst_s"), Field(blip.out, "gst_s")) << gone.out;
    EXPECT_GT(Field(blip.out, "retransmits"), 0) << blip.out;
    EXPECT_EQ(Field(gone.out, "drops"), 0) << gone.out;
}

TEST(DriverPacket, AHostCutOffUntilARepairWaitsAndResendsAndLosesNothingForGood)
{
    // A 16 MB ring on a 4-host star; h0's only cable fails at 1 ms for 3 ms, cutting h0 off
    // (a partition). Frames into the dead cable and frames a switch can no longer route
    // towards h0 are lost (link_drops), the queue pairs resend them on their timeout after
    // the repair, and the ring completes: exit 0, no buffer drop. Every ring step sends over
    // h0's cable, which carries nothing for 3 ms, so the sync ends at least 3 ms later than
    // without the failure (the ring keeps every link equally busy: no slack to absorb it).
    const std::string base = Idle("star:n=4", "ring", "bytes:16MB");
    Outcome calm = RunJson(base);
    Outcome cut = RunJson(base + " --link-down=h0-sw0@1ms+3ms");
    ASSERT_EQ(calm.code, 0) << calm.err;
    ASSERT_EQ(cut.code, 0) << cut.err;
    EXPECT_GE(Field(cut.out, "gst_s"), Field(calm.out, "gst_s") + 3e-3) << cut.out;
    EXPECT_GT(Field(cut.out, "link_drops"), 0) << cut.out;
    EXPECT_GT(Field(cut.out, "retransmits"), 0) << cut.out;
    EXPECT_EQ(Field(cut.out, "drops"), 0) << cut.out;
    EXPECT_NE(cut.err.find("2 groups that cannot reach each other: {h0} {h1 h2 h3}"),
              std::string::npos)
        << cut.err;
    // Without the repair h0 would never be reached again: refused before anything runs.
    Outcome forever = RunJson(base + " --link-down=h0-sw0@1ms");
    EXPECT_EQ(forever.code, 2) << forever.err;
    EXPECT_NE(forever.err.find("for good into 2 groups {h0} {h1 h2 h3}"), std::string::npos)
        << forever.err;
}

TEST(DriverPacket, SoakManyIterationsWithBackgroundFlowsAndALinkFlap)
{
    // 30 iterations of a 4 MB hips sync with 1 ms compute on BCube(3,1) under DCQCN, six
    // background flows of 2 MB starting through the run, and the cable h4-sw1.1 failing
    // at 10 ms for 5 ms then again at 40 ms for 3 ms. Every monitor must hold at the end:
    // exit 0 (no drop with PFC on, packets conserved, buffers drained, every message
    // delivered), all 30 iterations measured, every flow completed.
    const std::string dir = "/tmp/paramsync-soak-" + std::to_string(getpid());
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    std::ofstream(dir + "/flows.txt") << "6\n0 8 3 100 2000000 0.002\n8 0 3 100 2000000 0.011\n"
                                         "2 6 3 100 2000000 0.02\n3 7 3 100 2000000 0.03\n"
                                         "5 1 3 100 2000000 0.041\n7 4 3 100 2000000 0.05\n";
    Outcome o = RunJson("--backend=packet --cc=dcqcn --pfc=1 --topology=bcube:n=3,k=1 "
                        "--algorithm=hips --model=bytes:4MB --iterations=30 --compute=1ms "
                        "--flows=" +
                        dir +
                        "/flows.txt "
                        "--link-down=h4-sw1.1@10ms+5ms,h4-sw1.1@40ms+3ms --out=" +
                        dir + "/out");
    EXPECT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find("\"status\":\"ok\""), std::string::npos) << o.out;
    EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(o.out, m, std::regex("\"gst_per_iteration_s\":\\[([^\\]]*)\\]")));
    const std::string list = m[1];
    EXPECT_EQ(std::count(list.begin(), list.end(), ',') + 1, 30) << list;
    std::istringstream flows(Slurp(dir + "/out/flows.csv"));
    std::string line;
    std::getline(flows, line);
    int done = 0;
    while (std::getline(flows, line))
    {
        done += std::stod(line.substr(line.rfind(',') + 1)) > 0 ? 1 : 0;
    }
    EXPECT_EQ(done, 6);
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, AReceiverThatStopsDrainingPausesItsUpstreamAndLosesNothing)
{
    // The same 16 MB ring over fattree:k=4, host 8's NIC taking no frame off the wire from
    // 1 ms to 4 ms: its receive buffer fills past 256 KB and it pauses its edge switch, so
    // the ring stalls for about the 3 ms (GST + >= 2.5 ms); when it drains, every held frame
    // is processed, so nothing is lost or resent (the RTO, 12.8 ms, exceeds the stall).
    const std::string base = Idle("fattree:k=4", "ring", "bytes:16MB");
    Outcome calm = RunJson(base);
    Outcome stalled = RunJson(base + " --stop-draining=8@1ms+3ms");
    ASSERT_EQ(calm.code, 0) << calm.err;
    ASSERT_EQ(stalled.code, 0) << stalled.err;
    EXPECT_GE(Field(stalled.out, "gst_s"), Field(calm.out, "gst_s") + 2.5e-3) << stalled.out;
    EXPECT_GT(Field(stalled.out, "pfc_pause_frames"), 0) << stalled.out;
    EXPECT_EQ(Field(stalled.out, "drops"), 0) << stalled.out;
    EXPECT_EQ(Field(stalled.out, "retransmits"), 0) << stalled.out;
}

TEST(DriverPacket, GoldenResultsOfSmallScenariosDoNotDrift)
{
    // Golden values (no speed-up may change results silently), pinned to 0.1 %: a model change that
    // moves them must say why and update them. Each sits above its closed-form ideal by framing,
    // latency and queueing:
    //  - ring, 10 MB, BCube(3,1): 3.76310 ms; ideal 16/9 W/B = 3.5556 ms (+5.8 %). It was
    //    3.82549 ms (+7.6 %) under strict priority between lanes, the default until deficit
    //    round robin became it: strict priority still gives exactly 3.82549 ms (no pause
    //    in this run, so the PFC changes of the same step do not touch it), and round robin
    //    stops relayed second hops (lane 1) from delaying first hops (lane 0) at a port;
    //  - hips, 10 MB, BCube(3,1): 1.84433 ms; ideal 8/9 W/B = 1.7778 ms (+3.7 %);
    //  - PS, 4 MB, star:n=9, one server: 13.0742 ms; ideal 2 x 8 x 4 MB / 40 Gb/s = 12.8 ms
    //    (push incast then pull, +2.1 %);
    //  - HPCC incast32, the slowest 2 MB flow; bound 32 x 2 MB / 100 Gb/s = 5.12 ms. With
    //    --cc=dcqcn-hpcc (HPCC simulator's DCQCN run): 6.00998 ms (6.1897 while all eight
    //    classes were lossless). With --cc=dcqcn (the paper's DCQCN: Rai 40 Mb/s, 55 us
    //    timers, F = 5 recover slowly at 100 Gb/s): 8.10899 ms (8.8873 with all lossless). (Until
    //    the presets, --cc=dcqcn ran HPCC's HPCC-mode keys, alpha timer 1 us, RP timer 900 us, F 1,
    //    Rai 50 Mb/s: 5.56241 ms with only the data lane lossless, 5.75894 ms when all eight
    //    classes were (headroom for 8 classes on every port shrank the shared pool and so the
    //    dynamic XOFF: 1577 pauses against 915), 5.67599 ms before each switch's ECN draws got a
    //    fixed stream.)
    auto near = [](double got, double golden) { return std::abs(got / golden - 1) < 1e-3; };
    const double ring = Gst("bcube:n=3,k=1", "ring", "bytes:10MB");
    const double ringStrict = Gst("bcube:n=3,k=1", "ring", "bytes:10MB --lane-scheduling=strict");
    const double hips = Gst("bcube:n=3,k=1", "hips", "bytes:10MB");
    const double ps = Gst("star:n=9", "ps:servers=1", "bytes:4MB");
    EXPECT_TRUE(near(ring, 3.76310e-3)) << ring;
    EXPECT_TRUE(near(ringStrict, 3.82549e-3)) << ringStrict;
    EXPECT_TRUE(near(hips, 1.84433e-3)) << hips;
    EXPECT_TRUE(near(ps, 13.0742e-3)) << ps;
    // --preset=hpcc is --cc=dcqcn-hpcc with --mtu=1000, switch-seeded ECMP hashes (a star has
    // no ECMP choice) and HPCC's switch buffer (4 KiB reserve per queue, headroom 3 x BDP,
    // resume 3072 B below XOFF, pauses obeyed at once): 6.25981 ms, where it gave the
    // dcqcn-hpcc 6.00998 ms exactly before the buffer. It is not one knob's doing: alone, the
    // reserve gives 6.239 ms, the immediate pause 6.241, headroom 3 x BDP (with it) 5.956,
    // resume 3072 B 6.010 ms; this run's slowest flow moves by a few % whenever its 32-64
    // pauses fall at other times (README "Congestion control presets").
    for (const auto& [cc, golden] : {std::pair<std::string, double>{"--cc=dcqcn-hpcc", 6.00998e-3},
                                     std::pair<std::string, double>{"--cc=dcqcn", 8.10899e-3},
                                     std::pair<std::string, double>{"--preset=hpcc", 6.25981e-3}})
    {
        const std::string dir = "/tmp/paramsync-golden-" + std::to_string(getpid());
        Outcome o = RunJson(
            std::string("--topology=file:") + PARAMSYNC_SOURCE_DIR +
            "/topologies/hpcc/topology.txt --algorithm=none --flows=" + PARAMSYNC_SOURCE_DIR +
            "/helper/data/flow_incast32.txt --mtu=1000 " + cc + " --out=" + dir);
        ASSERT_EQ(o.code, 0) << o.err;
        std::istringstream flows(Slurp(dir + "/flows.csv"));
        std::string line;
        std::getline(flows, line);
        double slowest = 0;
        while (std::getline(flows, line))
        {
            slowest = std::max(slowest, std::stod(line.substr(line.rfind(',') + 1)));
        }
        EXPECT_TRUE(near(slowest, golden)) << cc << " " << slowest;
        EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
    }
}

TEST(DriverPacket, ACongestedDrainingIncastIsNeverAPfcStorm)
{
    // PS on fattree:k=4, 4 MB: 15 workers push to one server at once, so its edge port is
    // congested and PFC pauses spread (pauses > 0), but every paused queue keeps sending
    // between pauses. A 1 ms watchdog must declare no storm: no watchdog drop and the same
    // GST as without a watchdog (ideal 2 x 15 x 4 MB / 40 Gb/s = 24 ms; a watchdog that
    // declares a storm on any queue paused and backlogged at every look gives 48.6 ms and
    // 14,151 watchdog drops).
    const std::string base = Idle("fattree:k=4", "ps", "bytes:4MB");
    Outcome plain = RunJson(base);
    Outcome dog = RunJson(base + " --pfc-watchdog=1ms");
    ASSERT_EQ(plain.code, 0) << plain.err;
    ASSERT_EQ(dog.code, 0) << dog.err;
    EXPECT_GT(Field(dog.out, "pfc_pause_frames"), 0) << dog.out;
    EXPECT_EQ(Field(dog.out, "watchdog_drops"), 0) << dog.out;
    EXPECT_EQ(Field(dog.out, "gst_s"), Field(plain.out, "gst_s")) << dog.out;
}

TEST(DriverPacket, AStalledReceiverIsStillAPfcStorm)
{
    // Host 8's NIC takes nothing off the wire from 1 ms to 4 ms (ring, 16 MB, fattree:k=4):
    // its edge switch's egress to it is paused with frames waiting and sends nothing for
    // 3 ms, six 500 us detection windows: the watchdog declares the storm and drops that
    // queue's frames (watchdog_drops > 0), go-back-N resends them, and the ring completes.
    const std::string base = Idle("fattree:k=4", "ring", "bytes:16MB");
    Outcome o = RunJson(base + " --stop-draining=8@1ms+3ms --pfc-watchdog=500us");
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_GT(Field(o.out, "watchdog_drops"), 0) << o.out;
    EXPECT_EQ(Field(o.out, "drops"), 0) << o.out;
}

TEST(DriverPacket, DataLanesStayOffTheAckPriority)
{
    // bcube:n=2,k=4 routes on 5 lanes: from the default base priority 3 they would be
    // 3..7 and lane 4 would share priority 7 with ACK/NAK/CNP: refused, exit 2, one line
    // naming --priority and the bases that fit (0, 1, 2). From base 2 the lanes are 2..6:
    // the run completes, nothing dropped.
    const std::string base = "--backend=packet --cc=none --topology=bcube:n=2,k=4 "
                             "--algorithm=ring --model=bytes:1MB";
    Outcome refused = RunJson(base);
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("--priority=3"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("priorities 3..7"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("{0,1,2}"), std::string::npos) << refused.err;
    Outcome placed = RunJson(base + " --priority=2");
    ASSERT_EQ(placed.code, 0) << placed.err;
    EXPECT_EQ(Field(placed.out, "drops"), 0) << placed.out;
}

TEST(DriverPacket, LaneSchedulingIsInEveryRowAndTheSummary)
{
    // dbtree on BCube(3,2), 32 MB, idle: relayed traffic rides higher lanes. Strict priority
    // serves them first and a hop-1 transfer sharing their port waits; deficit round robin
    // (the default) shares each port between the lanes. The default must record "rr", the
    // option "strict", in the row and in summary.json's options, and round robin must not
    // be slower than strict priority here.
    const std::string dir = "/tmp/paramsync-lanes-" + std::to_string(getpid());
    const std::string base = Idle("bcube:n=3,k=2", "dbtree", "bytes:32MB");
    Outcome rr = RunJson(base + " --out=" + dir);
    Outcome strict = RunJson(base + " --lane-scheduling=strict");
    ASSERT_EQ(rr.code, 0) << rr.err;
    ASSERT_EQ(strict.code, 0) << strict.err;
    EXPECT_NE(rr.out.find("\"lane_scheduling\":\"rr\""), std::string::npos) << rr.out;
    EXPECT_NE(strict.out.find("\"lane_scheduling\":\"strict\""), std::string::npos);
    const std::string summary = Slurp(dir + "/summary.json");
    EXPECT_NE(summary.find("\"lane_scheduling\":\"rr\""), std::string::npos) << summary;
    EXPECT_NE(summary.find("\"lane-scheduling\":\"rr\""), std::string::npos) << summary;
    EXPECT_LT(Field(rr.out, "gst_s"), Field(strict.out, "gst_s"));
    EXPECT_EQ(std::system(("rm -rf " + dir).c_str()), 0);
}

TEST(DriverPacket, StopIsAnAbsoluteSimulatedTime)
{
    // One 1 MB flow from host 0 to host 1 of star:n=4 at 1 Gb/s, starting at 50 ms: its
    // payload alone takes 1e6 x 8 / 1e9 = 8 ms, so it ends after 58 ms. --stop=55ms is an
    // absolute limit: the flow cannot finish (a limit counted from the last flow start, as
    // before, would have run to 105 ms and finished it). --stop=70ms lets it finish.
    const std::string flows = "/tmp/paramsync-stop-flow-" + std::to_string(getpid()) + ".txt";
    std::ofstream(flows) << "1\n0 1 3 100 1000000 0.05\n";
    const std::string base = "--topology=star:n=4 --algorithm=none --rate=1Gbps --flows=" + flows;
    Outcome cut = RunJson(base + " --stop=55ms");
    Outcome whole = RunJson(base + " --stop=70ms");
    std::remove(flows.c_str());
    EXPECT_EQ(cut.code, 3) << cut.err;
    EXPECT_NE(cut.err.find("1 of 1 flows not finished by --stop=55ms"), std::string::npos)
        << cut.err;
    ASSERT_EQ(whole.code, 0) << whole.err;
    EXPECT_GT(Field(whole.out, "sim_s"), 0.058) << whole.out;
    EXPECT_LT(Field(whole.out, "sim_s"), 0.070) << whole.out;
}

TEST(DriverPacket, AStallNamesWhatDidNotFinishAndBlamesNoDeadlockWithoutACycle)
{
    // A 1 MB ring over star:n=4 at 1 Mb/s: each of the 2 (N - 1) = 6 steps sends W / N =
    // 250 KB per host, 2 s at 1 Mb/s, so nothing finishes by --stop=100ms. The ring has
    // 6 steps x 4 hosts = 24 transfers. Nothing is paused in a cycle: the line must say
    // the detector found none (it used to say "PFC deadlock?"), or that it was off.
    const std::string base = "--topology=star:n=4 --algorithm=ring --model=bytes:1MB "
                             "--rate=1Mbps --stop=100ms";
    Outcome on = RunJson(base);
    Outcome off = RunJson(base + " --deadlock-check=0");
    EXPECT_EQ(on.code, 3) << on.err;
    EXPECT_NE(on.err.find("24 of 24 transfers not finished by --stop=100ms"), std::string::npos)
        << on.err;
    EXPECT_NE(on.err.find("found no cycle"), std::string::npos) << on.err;
    EXPECT_EQ(on.err.find("deadlock?"), std::string::npos) << on.err;
    EXPECT_EQ(off.code, 3) << off.err;
    EXPECT_NE(off.err.find("detector was off"), std::string::npos) << off.err;
}

TEST(DriverPacket, InputsStartingAtOrAfterStopAreRefused)
{
    // A flow at 1e9 s with --stop=1s used to run past 1,600 s of simulated time.
    const std::string flows = "/tmp/paramsync-late-flow-" + std::to_string(getpid()) + ".txt";
    std::ofstream(flows) << "1\n0 1 3 100 1000 1e9\n";
    const std::string ring = "--topology=star:n=4 --algorithm=ring --model=bytes:1MB --stop=1s ";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--topology=star:n=4 --algorithm=none --stop=1s --flows=" + flows,
         "--flows: flow 0 starts at 1e+09 s, not before --stop=1s"},
        {ring + "--compute=2s", "--compute: the first synchronization starts at 2 s"},
        // 0.5 s of compute x 3 for the straggler = 1.5 s.
        {ring + "--compute=500ms --straggler=0 --straggler-factor=3",
         "--compute: the first synchronization starts at 1.5 s"},
        {ring + "--link-down=h0-sw0@1s+1ms", "--link-down: the failure of h0-sw0 starts at 1 s"},
        {ring + "--pause-storm=1@2s", "--pause-storm: the storm starts at 2 s"},
    };
    for (const auto& [args, message] : cases)
    {
        Outcome o = RunJson(args);
        EXPECT_EQ(o.code, 2) << args << "\n" << o.err;
        EXPECT_NE(o.err.find(message), std::string::npos) << args << "\n" << o.err;
        EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    }
    std::remove(flows.c_str());
}

TEST(DriverPacket, RngRunSelectsAnotherRandomStream)
{
    // ns-3's --RngRun was rejected as unknown, then overridden by the driver's SetRun(1).
    // ECN marking draws at random between the thresholds: an 8-to-1 incast under DCQCN
    // marks a different set of packets with another run number, and the same set with the
    // same one (1 is the default). The row records the run number.
    const std::string base = "--topology=star:n=9 --algorithm=ps:servers=1 --model=bytes:8MB "
                             "--cc=dcqcn --buffer=4MB";
    Outcome byDefault = RunJson(base);
    Outcome one = RunJson(base + " --RngRun=1");
    Outcome two = RunJson(base + " --RngRun=2");
    ASSERT_EQ(byDefault.code, 0) << byDefault.err;
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(Field(byDefault.out, "gst_s"), Field(one.out, "gst_s"));
    EXPECT_EQ(Field(byDefault.out, "ecn_marks"), Field(one.out, "ecn_marks"));
    EXPECT_NE(Field(one.out, "gst_s"), Field(two.out, "gst_s"));
    EXPECT_EQ(Field(two.out, "rng_run"), 2);
}

TEST(DriverPacket, APresetRunsNs3AttributesHoldThePresetsSwitchBuffer)
{
    // --preset=hpcc sets HPCC's switch buffer on the builder's factories
    // (NetworkBuilder::SetHpccMmu), not as defaults: ns3-attributes.txt listed the defaults
    // (QueueReserveBytes "0", AlphaReferenceRate "0bps"), not what ran. HPCC's values (README,
    // "Congestion control presets"): reserve 4096 B, headroom 3 one-way BDPs, resume 3072 B
    // below XOFF, pauses obeyed on arrival (0 bit times), and the alpha reference at the NIC
    // rate: here --rate=10Gbps, so 10,000,000,000 bps.
    const std::string base = "--topology=star:n=4 --algorithm=ring --model=bytes:64KB";
    const std::string out = "/tmp/paramsync-preset-attrs-" + std::to_string(getpid());
    Outcome preset = RunJson(base + " --preset=hpcc --rate=10Gbps --out=" + out);
    ASSERT_EQ(preset.code, 0) << preset.err;
    const std::string attrs = Slurp(out + "/ns3-attributes.txt");
    for (const char* line : {"default ns3::PfcSwitch::QueueReserveBytes \"4096\"",
                             "default ns3::PfcSwitch::HeadroomOneWayBdps \"3\"",
                             "default ns3::PfcSwitch::XonHysteresis \"3072\"",
                             "default ns3::PfcNetDevice::PfcReactionBitTimes \"0\"",
                             "default ns3::PfcSwitch::AlphaReferenceRate \"10000000000bps\""})
    {
        EXPECT_NE(attrs.find(line), std::string::npos) << line;
    }
    // Loaded back beside the same options, the record is no conflict and gives the same run.
    const std::string load = " --ns3::ConfigStore::Filename=" + out +
                             "/ns3-attributes.txt --ns3::ConfigStore::Mode=Load "
                             "--ns3::ConfigStore::FileFormat=RawText";
    Outcome loaded = RunJson(base + " --preset=hpcc --rate=10Gbps" + load);
    ASSERT_EQ(loaded.code, 0) << loaded.err;
    EXPECT_EQ(Field(loaded.out, "gst_s"), Field(preset.out, "gst_s"));
    std::system(
        ("rm -rf " + out + " /tmp/.paramsync-preset-attrs-" + std::to_string(getpid()) + ".lock")
            .c_str());
    // Without the preset the defaults are what ran, and are recorded as such.
    Outcome plain = RunJson(base + " --rate=10Gbps --out=" + out);
    ASSERT_EQ(plain.code, 0) << plain.err;
    const std::string plainAttrs = Slurp(out + "/ns3-attributes.txt");
    EXPECT_NE(plainAttrs.find("default ns3::PfcSwitch::QueueReserveBytes \"0\""),
              std::string::npos);
    EXPECT_NE(plainAttrs.find("default ns3::PfcSwitch::AlphaReferenceRate \"0bps\""),
              std::string::npos);
    std::system(
        ("rm -rf " + out + " /tmp/.paramsync-preset-attrs-" + std::to_string(getpid()) + ".lock")
            .c_str());
}

TEST(DriverPacket, ExplicitNs3AttributesWinOrConflictAndTheSavedAttributesReproduceTheRun)
{
    // --ns3::RoceNic::Mtu=1000 and --ns3::PfcSwitch::BufferSize=1000000 used to be
    // overridden by the driver's own --mtu / --buffer defaults (identical results). Now the
    // explicit attribute is the option's value: the same run as --mtu=1000 --buffer=1MB.
    const std::string base = "--topology=star:n=4 --algorithm=ring --model=bytes:1MB";
    Outcome attr = RunJson(base + " --ns3::RoceNic::Mtu=1000 --ns3::PfcSwitch::BufferSize=1000000");
    Outcome option = RunJson(base + " --mtu=1000 --buffer=1MB");
    Outcome plain = RunJson(base);
    ASSERT_EQ(attr.code, 0) << attr.err;
    ASSERT_EQ(option.code, 0) << option.err;
    EXPECT_EQ(Field(attr.out, "mtu"), 1000);
    EXPECT_EQ(Field(attr.out, "buffer_bytes"), 1e6);
    EXPECT_EQ(Field(attr.out, "gst_s"), Field(option.out, "gst_s"));
    // 1000 B payloads carry more headers per byte than 4096 B ones: a longer GST.
    EXPECT_GT(Field(attr.out, "gst_s"), Field(plain.out, "gst_s"));
    // Both ways at once with different values: refused; an attribute the driver sets in
    // a form an attribute cannot stand for: refused, naming the option.
    Outcome both = RunJson(base + " --ns3::RoceNic::Mtu=1000 --mtu=2000");
    EXPECT_EQ(both.code, 2);
    EXPECT_NE(both.err.find("conflicts with --mtu=2000"), std::string::npos) << both.err;
    Outcome cc = RunJson(base + " --ns3::RoceNic::CongestionControl=ns3::RoceCcNone");
    EXPECT_EQ(cc.code, 2);
    EXPECT_NE(cc.err.find("allowed: --cc"), std::string::npos) << cc.err;

    // ns3-attributes.txt records what ran (it recorded ns-3's defaults: DataRate 40Gbps in
    // a 10 Gb/s run), and ConfigStore Load of it reproduces the run exactly.
    const std::string out = "/tmp/paramsync-attrs-" + std::to_string(getpid());
    Outcome saved = RunJson(base + " --mtu=1000 --rate=10Gbps --buffer=2MB --out=" + out);
    ASSERT_EQ(saved.code, 0) << saved.err;
    const std::string attrs = Slurp(out + "/ns3-attributes.txt");
    EXPECT_NE(attrs.find("default ns3::RoceNic::Mtu \"1000\""), std::string::npos) << attrs;
    EXPECT_NE(attrs.find("default ns3::PfcNetDevice::DataRate \"10000000000bps\""),
              std::string::npos)
        << attrs;
    EXPECT_NE(attrs.find("default ns3::PfcSwitch::BufferSize \"2000000\""), std::string::npos);
    const std::string load = " --ns3::ConfigStore::Filename=" + out +
                             "/ns3-attributes.txt --ns3::ConfigStore::Mode=Load "
                             "--ns3::ConfigStore::FileFormat=RawText";
    Outcome loaded = RunJson(base + load);
    ASSERT_EQ(loaded.code, 0) << loaded.err;
    EXPECT_EQ(Field(loaded.out, "gst_s"), Field(saved.out, "gst_s"));
    EXPECT_EQ(Field(loaded.out, "rate_bps"), 1e10);
    // The same values spelled otherwise are no conflict (2000KB = 2000000 B); others are.
    EXPECT_EQ(RunJson(base + load + " --buffer=2000KB --mtu=1000").code, 0);
    Outcome clash = RunJson(base + load + " --mtu=4096");
    EXPECT_EQ(clash.code, 2);
    EXPECT_NE(clash.err.find("--ns3::RoceNic::Mtu=1000: conflicts with --mtu=4096"),
              std::string::npos)
        << clash.err;
    std::system(
        ("rm -rf " + out + " /tmp/.paramsync-attrs-" + std::to_string(getpid()) + ".lock").c_str());
}
