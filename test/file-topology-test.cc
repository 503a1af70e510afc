/*
 * Tests of FileTopology: HPCC's topology files load as HPCC loads them, round-trip through
 * the native format, route by shortest-path ECMP, and malformed files name file and line.
 */
#include "ns3/file-topology.h"
#include "ns3/topology.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

using namespace ns3;

namespace
{

std::string
Data(const std::string& name)
{
    return std::string(PARAMSYNC_SOURCE_DIR) + "/topologies/hpcc/" + name;
}

/// A scratch file, removed when the test ends.
class TempFile
{
  public:
    explicit TempFile(const std::string& content, const std::string& tag = "t")
        : m_path(::testing::TempDir() + "paramsync-topo-" + std::to_string(::getpid()) + "-" + tag +
                 ".txt")
    {
        std::ofstream(m_path, std::ios::binary) << content;
    }

    ~TempFile() { std::remove(m_path.c_str()); }

    const std::string&
    Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

/// The message of the invalid_argument that loading content throws ("" if none).
std::string
LoadError(const std::string& content, const std::string& format = "auto")
{
    TempFile f(content, "bad");
    try
    {
        FileTopology t(f.Path(), format);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(FileTopologyTest, HpccFatTreeLoads)
{
    auto t = MakeTopology("file:" + Data("fat.txt"), 40e9, 1e-6);
    const auto& f = dynamic_cast<const FileTopology&>(*t);
    const TopologyGraph& g = t->Graph();
    // Line 1 "376 56 480": 376 - 56 = 320 hosts.
    EXPECT_EQ(f.Format(), "hpcc");
    EXPECT_EQ(g.HostCount(), 320u);
    EXPECT_EQ(g.SwitchCount(), 56u);
    EXPECT_EQ(g.LinkCount(), 480u);
    EXPECT_EQ(t->LaneCount(), 1);
    // Host ids 0..319 come first, so rank == id; switches 320.. have no rank.
    EXPECT_EQ(f.HostRankOfFileId(17), 17u);
    EXPECT_EQ(f.FileIdOfHostRank(17), 17u);
    EXPECT_THROW(f.HostRankOfFileId(320), std::invalid_argument);
    EXPECT_THROW(f.HostRankOfFileId(376), std::invalid_argument);
    // The file's rates (not the 40 Gb/s default): "0 320 100Gbps 1000ns", fabric 400Gbps.
    EXPECT_DOUBLE_EQ(g.Link(0).rateBps, 100e9);
    EXPECT_DOUBLE_EQ(g.Link(0).delayS, 1e-6);
    EXPECT_DOUBLE_EQ(g.Link(479).rateBps, 400e9);
    // Three-tier fat-tree: 16 hosts per ToR, 4 ToRs per pod, 5 pods. From host 0: 15 hosts
    // 2 links away, 3 * 16 = 48 at 4, 320 - 64 = 256 at 6; ECMP 1 / 4 aggs / 4 x 4 cores.
    std::map<size_t, uint32_t> byLength;
    std::map<size_t, std::set<std::vector<LinkIndex>>> paths;
    for (HostRank d = 1; d < 320; ++d)
    {
        size_t len = t->Path(0, d, d).size();
        ++byLength[len];
        EXPECT_EQ(f.Distance(g.HostNode(0), d), len);
    }
    EXPECT_EQ(byLength, (std::map<size_t, uint32_t>{{2, 15}, {4, 48}, {6, 256}}));
    std::set<std::vector<LinkIndex>> toFar;
    std::set<std::vector<LinkIndex>> toPod;
    for (uint64_t h = 0; h < 2000; ++h)
    {
        toFar.insert(t->Path(0, 319, h));
        toPod.insert(t->Path(0, 20, h));
    }
    EXPECT_EQ(toPod.size(), 4u);
    EXPECT_EQ(toFar.size(), 16u);
}

TEST(FileTopologyTest, HpccSingleSwitchIgnoresTrailingLines)
{
    auto t = MakeTopology("file:" + Data("topology.txt"), 40e9, 1e-6);
    const auto& f = dynamic_cast<const FileTopology&>(*t);
    // Line 1 "66 1 65": switch 0 and hosts 1..65; the 65 links are read and the lines
    // after them (links to ids >= 66, a format description) ignored as HPCC does.
    EXPECT_EQ(t->Graph().HostCount(), 65u);
    EXPECT_EQ(t->Graph().SwitchCount(), 1u);
    EXPECT_EQ(t->Graph().LinkCount(), 65u);
    // Ranks by increasing id: id 1 -> rank 0, id 65 -> rank 64. flow_incast32.txt's first
    // flow "2 1 3 100 2000000 2" is rank 1 -> rank 0.
    EXPECT_EQ(f.HostRankOfFileId(1), 0u);
    EXPECT_EQ(f.HostRankOfFileId(2), 1u);
    EXPECT_EQ(f.HostRankOfFileId(65), 64u);
    EXPECT_THROW(f.HostRankOfFileId(0), std::invalid_argument);
    EXPECT_EQ(t->Path(1, 0, 0).size(), 2u);
}

TEST(FileTopologyTest, NativeRoundTrip)
{
    for (std::string name : {"fat.txt", "topology.txt"})
    {
        FileTopology hpcc(Data(name));
        TempFile out("", "rt-" + name);
        FileTopology::WriteNativeFile(hpcc.Graph(), out.Path());
        FileTopology native(out.Path());
        EXPECT_EQ(native.Format(), "native");
        const TopologyGraph& a = hpcc.Graph();
        const TopologyGraph& b = native.Graph();
        ASSERT_EQ(a.NodeCount(), b.NodeCount());
        ASSERT_EQ(a.LinkCount(), b.LinkCount());
        for (NodeIndex n = 0; n < a.NodeCount(); ++n)
        {
            EXPECT_EQ(a.Node(n).name, b.Node(n).name);
            EXPECT_EQ(a.Node(n).isHost, b.Node(n).isHost);
            EXPECT_EQ(a.Node(n).rank, b.Node(n).rank);
        }
        for (LinkIndex l = 0; l < a.LinkCount(); ++l)
        {
            EXPECT_EQ(a.Link(l).a, b.Link(l).a);
            EXPECT_EQ(a.Link(l).b, b.Link(l).b);
            EXPECT_EQ(a.Link(l).portA, b.Link(l).portA);
            EXPECT_EQ(a.Link(l).rateBps, b.Link(l).rateBps); // exact: written to round-trip
            EXPECT_EQ(a.Link(l).delayS, b.Link(l).delayS);
        }
        EXPECT_EQ(hpcc.Path(0, a.HostCount() - 1, 7), native.Path(0, a.HostCount() - 1, 7));
    }
}

TEST(FileTopologyTest, FamiliesRoundTripAndRouteTheSameLengths)
{
    // A server-centric graph written out and read back routes through relaying hosts by BFS
    // with the same hop counts as the family's closed-form routing.
    for (std::string spec : {"bcube:n=3,k=1", "torus:dims=3x4", "bigraph:s=3,m=2"})
    {
        auto family = MakeTopology(spec, 10e9, 2.5e-6);
        TempFile out("", "fam");
        FileTopology::WriteNativeFile(family->Graph(), out.Path());
        auto file = MakeTopology("file:" + out.Path(), 1, 0);
        const uint32_t n = family->Graph().HostCount();
        ASSERT_EQ(file->Graph().HostCount(), n);
        EXPECT_DOUBLE_EQ(file->Graph().Link(0).rateBps, 10e9);
        EXPECT_DOUBLE_EQ(file->Graph().Link(0).delayS, 2.5e-6);
        for (HostRank s = 0; s < n; ++s)
        {
            for (HostRank d = 0; d < n; ++d)
            {
                EXPECT_EQ(file->Path(s, d, s + d).size(), family->Path(s, d, 0).size())
                    << spec << " " << s << "->" << d;
            }
        }
    }
}

TEST(FileTopologyTest, FamiliesWrittenInHpccFormatKeepNodesRanksLinksAndRoutes)
{
    // HPCC's format has node ids instead of names: a family written by WriteHpcc and read
    // back has node index == id, the same hosts and switches in the same places (so the same
    // ranks), the same cables with exact rates and delays, and the same route lengths.
    for (std::string spec : {"bcube:n=3,k=1", "torus:dims=4x4", "fattree:k=4"})
    {
        auto family = MakeTopology(spec, 40e9, 1e-6);
        std::ostringstream text;
        FileTopology::WriteHpcc(family->Graph(), text);
        TempFile out(text.str(), "hpcc");
        FileTopology file(out.Path());
        EXPECT_EQ(file.Format(), "hpcc") << spec;
        const TopologyGraph& a = family->Graph();
        const TopologyGraph& b = file.Graph();
        ASSERT_EQ(a.NodeCount(), b.NodeCount()) << spec;
        ASSERT_EQ(a.LinkCount(), b.LinkCount()) << spec;
        for (NodeIndex n = 0; n < a.NodeCount(); ++n)
        {
            EXPECT_EQ(a.Node(n).isHost, b.Node(n).isHost) << spec << " node " << n;
            EXPECT_EQ(a.Node(n).rank, b.Node(n).rank) << spec << " node " << n;
        }
        for (LinkIndex l = 0; l < a.LinkCount(); ++l)
        {
            EXPECT_EQ(a.Link(l).a, b.Link(l).a);
            EXPECT_EQ(a.Link(l).b, b.Link(l).b);
            EXPECT_EQ(a.Link(l).rateBps, b.Link(l).rateBps); // exact: written to round-trip
            EXPECT_EQ(a.Link(l).delayS, b.Link(l).delayS);
        }
        for (HostRank d = 1; d < a.HostCount(); ++d)
        {
            EXPECT_EQ(file.Path(0, d, d).size(), family->Path(0, d, 0).size()) << spec << " " << d;
        }
    }
    // BCube(3,1) by hand: 9 hosts + 6 switches, 18 cables; the first line is the counts.
    std::ostringstream bcube;
    FileTopology::WriteHpcc(MakeTopology("bcube:n=3,k=1", 40e9, 1e-6)->Graph(), bcube);
    EXPECT_EQ(bcube.str().substr(0, bcube.str().find('\n')), "15 6 18");
    EXPECT_NE(bcube.str().find(" 40Gbps 1us 0\n"), std::string::npos) << bcube.str();
}

TEST(FileTopologyTest, NativeFormatByHandAndOptions)
{
    TempFile f("# two hosts on a switch\n"
               "host a\n"
               "switch s   # the switch\n"
               "\n"
               "host b\n"
               "link a s 10Gbps 1us\n"
               "link s b 25Gbps 0ns\n",
               "hand");
    auto t = MakeTopology("file:" + f.Path(), 40e9, 1e-6);
    EXPECT_EQ(t->Graph().HostCount(), 2u);
    EXPECT_EQ(t->Graph().Node(t->Graph().HostNode(1)).name, "b");
    EXPECT_DOUBLE_EQ(t->Graph().Link(1).rateBps, 25e9);
    EXPECT_EQ(t->Path(0, 1, 0).size(), 2u);
    // rate= overrides every link; format=hpcc forces the other parser (which rejects it).
    auto o = MakeTopology("file:path=" + f.Path() + ",rate=1Gbps", 40e9, 1e-6);
    EXPECT_DOUBLE_EQ(o->Graph().Link(1).rateBps, 1e9);
    EXPECT_THROW(MakeTopology("file:" + f.Path() + ",format=hpcc", 40e9, 1e-6),
                 std::invalid_argument);
    EXPECT_THROW(MakeTopology("file:" + f.Path() + ",colour=red", 40e9, 1e-6),
                 std::invalid_argument);
}

TEST(FileTopologyTest, MalformedFilesNameFileLineAndWhatIsAllowed)
{
    struct Case
    {
        std::string content;
        std::string line;   //!< ":N:" expected in the message
        std::string reason; //!< a word of the explanation
    };
    const std::string hpccHead = "3 1 2\n2\n";
    for (const Case& c : std::vector<Case>{
             {"", ":1:", "empty"},
             {"\n  \n# only a comment\n", ":1:", "empty"},
             {std::string("host a\nho\0st b\n", 15), ":2:", "binary"},
             // HPCC: missing field, unknown id, zero and unparsable rates, duplicate link,
             // fewer links than line 1 declares, self link, bad error rate.
             {hpccHead + "0 2 100Gbps 1us 0\n1 2 100Gbps 1us\n", ":4:", "fields"},
             {hpccHead + "0 2 100Gbps 1us 0\n1 7 100Gbps 1us 0\n", ":4:", "node id '7'"},
             {hpccHead + "0 2 0Gbps 1us 0\n1 2 100Gbps 1us 0\n", ":3:", "rate"},
             {hpccHead + "0 2 fastGbps 1us 0\n1 2 100Gbps 1us 0\n", ":3:", "rate"},
             {hpccHead + "0 2 1Gbps soon 0\n1 2 100Gbps 1us 0\n", ":3:", "delay"},
             {hpccHead + "0 2 100Gbps 1us 0\n2 0 100Gbps 1us 0\n", ":4:", "duplicate"},
             {hpccHead + "0 2 100Gbps 1us 0\n", ":3:", "1 of the 2 links"},
             {hpccHead + "0 0 100Gbps 1us 0\n", ":3:", "itself"},
             {hpccHead + "0 2 100Gbps 1us x\n", ":3:", "error rate"},
             {"3 1 2\n5\n", ":2:", "switch id '5'"},
             {"3 1 2\n2 1\n", ":2:", "more switch ids"},
             {"3 4 2\n2\n", ":1:", "switches < nodes"},
             // A header alone declared a million nodes for one link line (test/fuzz/
             // topology-file-fuzz.cc: 7,777,714 nodes, 1.2 GB of graph and a 121 TB table
             // of hop counts that aborted the run): fewer than nodes - 1 links leave a node
             // unlinked, so the header is refused before a node is made.
             {"1000000 1 1\n3\n0 3 100Gbps 0.001ms 0\n", ":1:", "links >= nodes - 1"},
             {"4 1 2\n3\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n", ":1:", "every node linked"},
             // Native: unknown keyword, missing fields, unknown node, duplicate name and
             // link, zero rate.
             {"host a\nrouter r\n", ":2:", "unknown keyword"},
             {"host a\nhost b\nlink a b 1Gbps\n", ":3:", "4 fields"},
             {"host a\nhost b\nlink a c 1Gbps 1us\n", ":3:", "unknown node 'c'"},
             {"host a\nhost a\n", ":2:", "twice"},
             {"host a\nhost b\nlink a b 1Gbps 1us\nlink b a 1Gbps 1us\n", ":4:", "duplicate"},
             {"host a\nhost b\nlink a b 0bps 1us\n", ":3:", "rate"},
         })
    {
        std::string what = LoadError(c.content);
        ASSERT_FALSE(what.empty()) << "accepted: " << c.content;
        EXPECT_NE(what.find("paramsync-topo-"), std::string::npos) << what; // the file
        EXPECT_NE(what.find(c.line), std::string::npos) << what;
        EXPECT_NE(what.find(c.reason), std::string::npos) << what;
    }
    // Disconnected and host-less graphs cannot be routed.
    EXPECT_NE(LoadError("host a\nhost b\n").find("cannot reach"), std::string::npos);
    EXPECT_NE(LoadError("host a\nswitch s\nlink a s 1Gbps 1us\n").find("at least 2 hosts"),
              std::string::npos);
    EXPECT_NE(LoadError("host a\n", "hpcc").find("3 integers"), std::string::npos);
    try
    {
        FileTopology missing("/nonexistent/topo.txt");
        ADD_FAILURE() << "missing file accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/topo.txt"), std::string::npos);
    }
}
