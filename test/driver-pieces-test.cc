// Pure pieces of the driver: option validation, the HPCC flow-file parser, the results
// writer and the trace-event writer.
#include "ns3/driver-options.h"
#include "ns3/flow-list.h"
#include "ns3/option-values.h"
#include "ns3/results-writer.h"
#include "ns3/trace-event-writer.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace ns3;

namespace
{

std::string
ErrorOf(DriverOptions o)
{
    try
    {
        o.Validate();
    }
    catch (const OptionError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(DriverOptions, DefaultsValidateToTheDocumentedValues)
{
    DriverOptions o;
    o.Validate();
    EXPECT_DOUBLE_EQ(o.rateBps, 40e9);
    EXPECT_DOUBLE_EQ(o.delayS, 1e-6);
    EXPECT_EQ(o.mtu, 4096u);
    EXPECT_TRUE(o.pfc);
    EXPECT_EQ(o.iterations, 1u);
    EXPECT_EQ(o.priority, 3);
}

TEST(DriverOptions, AnEmptyModelsDirectoryDefaultIsNoErrorButTypedEmptyIs)
{
    // A binary copied away from its build finds no models directory: the default is empty.
    // That is no error for a run that reads no built-in model (a flow list, --model=bytes:);
    // ModelProfile::Load names the missing directory when a built-in model needs it.
    DriverOptions o;
    o.modelsDir.clear();
    EXPECT_EQ(ErrorOf(o), "");
    // Typed empty, it is refused as any option is.
    DriverOptions typed;
    const char* args[] = {"paramsync", "--models-dir="};
    EXPECT_THROW(typed.Read(2, const_cast<char**>(args)), OptionError);
}

TEST(DriverOptions, EachBadValueNamesItsOption)
{
    struct Case
    {
        std::string DriverOptions::*field;
        std::string value;
        std::string option;
    };
    std::vector<Case> cases = {
        {&DriverOptions::mtuText, "63", "--mtu"},
        {&DriverOptions::mtuText, "9001", "--mtu"},
        {&DriverOptions::mtuText, "4k", "--mtu"},
        {&DriverOptions::rateText, "fast", "--rate"},
        {&DriverOptions::rateText, "0Gbps", "--rate"},
        {&DriverOptions::delayText, "soon", "--delay"},
        {&DriverOptions::cc, "reno", "--cc"},
        {&DriverOptions::pfcText, "2", "--pfc"},
        {&DriverOptions::iterationsText, "0", "--iterations"},
        {&DriverOptions::backend, "gpu", "--backend"},
        {&DriverOptions::format, "xml", "--format"},
        {&DriverOptions::slowLinkFractionText, "0", "--slow-link-fraction"},
        {&DriverOptions::stragglerFactorText, "0.5", "--straggler-factor"},
        {&DriverOptions::bufferText, "1KB", "--buffer"},
        {&DriverOptions::priorityText, "7", "--priority"},
        {&DriverOptions::laneScheduling, "fair", "--lane-scheduling"},
        {&DriverOptions::out, "/nonexistent-parent-dir/out", "--out"},
        {&DriverOptions::trace, "/nonexistent-parent-dir/t.json", "--trace"},
    };
    for (const auto& c : cases)
    {
        DriverOptions o;
        o.*(c.field) = c.value;
        std::string msg = ErrorOf(o);
        EXPECT_EQ(msg.rfind(c.option + ":", 0), 0u) << c.option << "=" << c.value << " -> " << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

TEST(DriverOptions, UnknownArgumentNamesAreRejectedButNs3OnesPass)
{
    DriverOptions o;
    const char* good[] = {"paramsync", "--mtu=1000", "--RngRun=3", "--PrintHelp"};
    std::vector<std::string> left;
    EXPECT_NO_THROW(left = o.Read(4, const_cast<char**>(good)));
    EXPECT_EQ(o.mtuText, "1000");
    // Only the --Print* family is left for ns-3's CommandLine; the global went to ns-3.
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0], "--PrintHelp");
    ASSERT_EQ(o.ns3Given.size(), 1u);
    EXPECT_EQ(o.ns3Given[0].first, "RngRun");
    const char* bad[] = {"paramsync", "--topolgy=star:n=4"};
    try
    {
        DriverOptions fresh;
        fresh.Read(2, const_cast<char**>(bad));
        FAIL() << "unknown option accepted";
    }
    catch (const OptionError& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("--topolgy:", 0), 0u) << e.what();
    }
}

TEST(DriverOptions, ValuesAreTakenWholeAndAnEmptyOrRepeatedOptionIsRefused)
{
    // The whole text after '=' is the value, spaces included.
    DriverOptions o;
    const char* spaced[] = {"paramsync", "--out=dir with space/run1", "--topology=bcube: n=3, k=1"};
    o.Read(3, const_cast<char**>(spaced));
    EXPECT_EQ(o.out, "dir with space/run1");
    EXPECT_EQ(o.topology, "bcube: n=3, k=1");
    for (const auto& args :
         std::vector<std::vector<const char*>>{{"paramsync", "--algorithm="},
                                               {"paramsync", "--algorithm"},
                                               {"paramsync", "--mtu=1000", "--mtu=1000"},
                                               {"paramsync", "--RngRun=1", "--RngRun=2"}})
    {
        DriverOptions fresh;
        EXPECT_THROW(fresh.Read(static_cast<int>(args.size()), const_cast<char**>(args.data())),
                     OptionError)
            << args.back();
    }
}

TEST(OptionValues, UnitsAreRequiredAndScaleExactly)
{
    namespace V = OptionValues;
    // 12.5 Gb/s = 12.5e9 bit/s; 0.5 ms = 5e-4 s; 4 KiB = 4 x 1024 = 4096 B.
    EXPECT_DOUBLE_EQ(V::Rate("12.5Gbps", "--rate", 1e6, 1e14), 12.5e9);
    EXPECT_DOUBLE_EQ(V::Time("0.5ms", "--t", 0), 5e-4);
    EXPECT_DOUBLE_EQ(V::Time("1e3us", "--t", 0), 1e-3);
    EXPECT_EQ(V::Bytes("4KiB", "--b", 1, 1u << 20), 4096u);
    for (const std::string bad : {"10",
                                  "10 Gbps",
                                  " 10Gbps",
                                  "10Gbps ",
                                  "10Gbpsx",
                                  "Gbps",
                                  "-1Gbps",
                                  "inf",
                                  "0x10Gbps",
                                  "10G",
                                  ""})
    {
        EXPECT_THROW(V::Rate(bad, "--rate", 1e6, 1e14), OptionError) << "'" << bad << "'";
    }
    for (const std::string bad : {"5", "1 s", "1sec", "nan", "1e", "1.5.0s"})
    {
        EXPECT_THROW(V::Time(bad, "--t", 0), OptionError) << "'" << bad << "'";
    }
    EXPECT_THROW(V::Bytes("1000", "--b", 1, 1u << 20), OptionError); // no unit
    EXPECT_THROW(V::Bytes("1.5B", "--b", 1, 1u << 20), OptionError); // not whole
}

TEST(OptionValues, RangesIncludeNs3sTimeRange)
{
    namespace V = OptionValues;
    // 1 bps is below a 1 Mb/s floor; 1e10 s exceeds ns-3's (2^63 - 1) ns = 9.22e9 s.
    EXPECT_THROW(V::Rate("1bps", "--rate", 1e6, 1e14), OptionError);
    EXPECT_THROW(V::Time("1e10s", "--stop", 0), OptionError);
    EXPECT_DOUBLE_EQ(V::Time("9e9s", "--stop", 0), 9e9);
    // 0.5 ns would round to 0 at ns-3's 1 ns resolution; 0 itself is a time.
    EXPECT_THROW(V::Time("0.5ns", "--t", 0), OptionError);
    EXPECT_DOUBLE_EQ(V::Time("0s", "--t", 0), 0.0);
    EXPECT_THROW(V::Uint("70000", "--n", 1, 65535), OptionError);
    EXPECT_THROW(V::Uint("12abc", "--n", 1, 65535), OptionError); // trailing text
    EXPECT_THROW(V::Real("0.5x", "--f", 0, 1), OptionError);
}

TEST(OptionValues, ListsRefuseDuplicatesAndEmptyItems)
{
    namespace V = OptionValues;
    EXPECT_EQ(V::UintList("3,7,12", "--l", 100), (std::vector<uint32_t>{3, 7, 12}));
    for (const std::string bad : {"0,0,0", "1,,2", "1,", ",1"})
    {
        try
        {
            V::UintList(bad, "--slow-link", 100);
            ADD_FAILURE() << bad << " accepted";
        }
        catch (const OptionError& e)
        {
            EXPECT_EQ(std::string(e.what()).rfind("--slow-link:", 0), 0u) << e.what();
        }
    }
}

TEST(OptionValues, RangesAreTwoBoundedIntegersInOrderAndCountLimited)
{
    namespace V = OptionValues;
    using Range = std::pair<uint64_t, uint64_t>;
    EXPECT_EQ(V::UintRange("1-8", "--seeds", 1, 100, 1000), (Range{1, 8}));
    EXPECT_EQ(V::UintRange("5-5", "--seeds", 1, 100, 1000), (Range{5, 5})); // one value
    // 1-1000 holds 1000 values (the limit), 1-1001 one more.
    EXPECT_EQ(V::UintRange("1-1000", "--seeds", 1, 5000, 1000), (Range{1, 1000}));
    for (const std::string bad : {"1-1001", "8-1", "0-3", "1-", "-3", "3", "1-2-3", "a-b", "1 -2"})
    {
        EXPECT_THROW(V::UintRange(bad, "--seeds", 1, 5000, 1000), OptionError) << bad;
    }
}

TEST(OptionValues, ControlCharactersAreRefused)
{
    EXPECT_THROW(OptionValues::CheckText("nl\nx", "--out"), OptionError);
    EXPECT_THROW(OptionValues::CheckText("tab\tx", "--out"), OptionError);
    EXPECT_NO_THROW(OptionValues::CheckText("dir with space", "--out"));
}

TEST(FlowList, ParsesHpccFormatAndIgnoresTrailingLines)
{
    auto flows = FlowList::Parse("2\n2 1 3 100 2000000 2\n3 1 3 100 1000 2.5\ngarbage\n", "f");
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[0].src, 2u);
    EXPECT_EQ(flows[0].dst, 1u);
    EXPECT_EQ(flows[0].priority, 3u);
    EXPECT_EQ(flows[0].bytes, 2000000u);
    EXPECT_DOUBLE_EQ(flows[1].startS, 2.5);
}

TEST(FlowList, TheRealIncastFileHas32FlowsIntoHost1)
{
    auto flows = FlowList::Load(PARAMSYNC_SOURCE_DIR "/helper/data/flow_incast32.txt");
    ASSERT_EQ(flows.size(), 32u);
    for (const auto& f : flows)
    {
        EXPECT_EQ(f.dst, 1u);
        EXPECT_EQ(f.bytes, 2000000u);
    }
}

TEST(FlowList, MalformedFilesNameFileAndLine)
{
    struct Case
    {
        std::string text;
        std::string where;
    };
    std::vector<Case> cases = {
        {"", "f:1:"},
        {"x\n", "f:1:"},
        {"2\n1 2 3 100 10 0\n", "f:3:"},   // count larger than the lines
        {"1\n1 2 3 100 10\n", "f:2:"},     // five fields
        {"1\n1 2 9 100 10 0\n", "f:2:"},   // priority 9
        {"1\n1 2 3 100 0 0\n", "f:2:"},    // zero bytes
        {"1\n1 1 3 100 10 0\n", "f:2:"},   // src == dst
        {"1\n1 2 3 100 10 -1\n", "f:2:"},  // negative start
        {"1\n1 2 3 100 10 nan\n", "f:2:"}, // NaN start
        {"1\n1 2 3 100 1e30 0\n", "f:2:"}, // bytes not an integer
        {"1\n1 2 3 \x01\x02 10 0\n", "f:2: binary data (control byte 1)"}, // binary
        {"2222222222\n1 2 3 100 10 0\n", "f:3:"}, // a huge count (once reserved 53 GB)
    };
    for (const auto& c : cases)
    {
        try
        {
            FlowList::Parse(c.text, "f");
            ADD_FAILURE() << "accepted: " << c.text;
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_EQ(std::string(e.what()).rfind(c.where, 0), 0u) << e.what();
        }
    }
}

TEST(ResultsWriter, RowTableAndJsonCarryTheDesignColumns)
{
    RunResult r;
    r.topology = "star:n=4";
    r.algorithm = "ring";
    r.model = "bytes:1MB";
    r.backend = "fluid";
    r.workers = 4;
    r.gstS = 0.25;
    r.idealGstS = 0.125;
    r.drops = 7;
    std::string json = ResultsWriter::JsonLine(r);
    EXPECT_NE(json.find("\"gst_s\":0.25"), std::string::npos) << json;
    EXPECT_NE(json.find("\"ideal_gst_s\":0.125"), std::string::npos) << json;
    EXPECT_NE(json.find("\"drops\":7"), std::string::npos) << json;
    EXPECT_NE(json.find("\"topology\":\"star:n=4\""), std::string::npos) << json;
    for (const char* col : {"topology",
                            "algorithm",
                            "model",
                            "workers",
                            "gst_s",
                            "ideal_gst_s",
                            "pfc_pause_frames",
                            "pfc_paused_s",
                            "drops",
                            "ecn_marks",
                            "retransmits",
                            "events",
                            "pkt_hops",
                            "wall_s"})
    {
        EXPECT_NE(json.find(std::string("\"") + col + "\":"), std::string::npos) << col;
    }
    std::string table = ResultsWriter::Table({r, r});
    // Header + two rows.
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3);
    EXPECT_EQ(ResultsWriter::JsonString("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
}

TEST(ResultsWriter, WritesEveryFileAndLeavesNoTemporaries)
{
    std::string dir = "/tmp/paramsync-results-test-" + std::to_string(getpid());
    RunResult r;
    r.algorithm = "ring";
    r.transfers.push_back({0, 5, 1, 2, 1000, 1e-6, 2e-6, 0, 1});
    r.pfc.push_back({"sw0", 2, 3, 4, 0, 1.5e-6, 7});
    ResultsWriter::WriteDirectory(dir, {r}, {{"topology", "star:n=4"}}, {3, "ring: a \"why\""});
    std::ifstream t(dir + "/transfers.csv");
    std::string header, row;
    std::getline(t, header);
    std::getline(t, row);
    EXPECT_EQ(row, "ring,0,5,1,2,1000,1e-06,2e-06,0,1");
    std::ifstream p(dir + "/pfc.csv");
    std::getline(p, header);
    std::getline(p, row);
    EXPECT_EQ(row, "ring,sw0,2,3,4,0,1.5e-06,7"); // ..., paused_s, drops
    // The exit record ends summary.json, its reason JSON-escaped.
    std::ifstream s(dir + "/summary.json");
    const std::string summary((std::istreambuf_iterator<char>(s)),
                              std::istreambuf_iterator<char>());
    EXPECT_NE(summary.find("\"exit\":{\"code\":3,\"reason\":\"ring: a \\\"why\\\"\"}}"),
              std::string::npos)
        << summary;
    for (const char* f : {"summary.json", "flows.csv", "attributes.txt"})
    {
        EXPECT_TRUE(std::ifstream(dir + "/" + f).good()) << f;
    }
    EXPECT_EQ(system(("test -z \"$(ls " + dir + " | grep tmp)\"").c_str()), 0);
    EXPECT_EQ(system(("rm -rf " + dir).c_str()), 0);
}

TEST(TraceEventWriter, OneSpanPerTransferAndPause)
{
    RunResult r;
    r.algorithm = "ring";
    r.transfers.push_back({0, 0, 1, 2, 1000, 1e-6, 3e-6, 0, 0});
    r.pauses.push_back({"sw0/1", 3, 2e-6, 5e-6});
    std::string s = TraceEventWriter::Format({r});
    // A 2 us transfer starting at 1 us -> ts 1, dur 2 (microseconds).
    EXPECT_NE(s.find("\"ts\":1,\"dur\":2"), std::string::npos) << s;
    EXPECT_NE(s.find("\"ts\":2,\"dur\":3"), std::string::npos) << s;
    EXPECT_NE(s.find("\"name\":\"port sw0/1\""), std::string::npos) << s;
}

TEST(TraceEventWriter, LanesNeverHoldOverlappingSpans)
{
    // [1,3], [2,4], [3,5], [0,10] us: [0,10] overlaps all; [1,3] and [3,5] only touch. By
    // start: [0,10] lane 0, [1,3] lane 1, [2,4] lane 2, [3,5] lane 1 (free at 3).
    const auto lanes = TraceEventWriter::Lanes({{1, 3}, {2, 4}, {3, 5}, {0, 10}});
    EXPECT_EQ(lanes, (std::vector<uint32_t>{1, 2, 1, 0}));
}

TEST(TraceEventWriter, NoTwoSlicesOfAThreadOverlap)
{
    // Host 1 sends three transfers posted together and ending one after another (as a
    // worker's messages on several queue pairs do): [1,3], [1,4], [2,5] us, plus one pause
    // pair on a port. Parse every complete event back and check that per (pid, tid) the
    // slices, sorted by start, never overlap: the format forbids non-nested overlap on one
    // thread (4,300 such slices were on one track of the demo's trace).
    RunResult r;
    r.algorithm = "ring";
    r.transfers.push_back({0, 0, 1, 2, 1000, 1e-6, 3e-6, 0, 0});
    r.transfers.push_back({0, 1, 1, 3, 1000, 1e-6, 4e-6, 0, 0});
    r.transfers.push_back({0, 2, 1, 0, 1000, 2e-6, 5e-6, 0, 0});
    r.pauses.push_back({"sw0/1", 3, 2e-6, 5e-6});
    r.pauses.push_back({"sw0/1", 4, 3e-6, 6e-6});
    const std::string s = TraceEventWriter::Format({r});
    std::regex slice("\\{\"ph\":\"X\",\"pid\":([0-9]+),\"tid\":([0-9]+),[^}]*\"ts\":([-0-9.e+]+),"
                     "\"dur\":([-0-9.e+]+)");
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, double>>> threads;
    size_t slices = 0;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), slice); it != std::sregex_iterator();
         ++it)
    {
        const double ts = std::stod((*it)[3]);
        threads[{(*it)[1], (*it)[2]}].emplace_back(ts, ts + std::stod((*it)[4]));
        ++slices;
    }
    EXPECT_EQ(slices, 5u) << s;
    // Transfers need 3 lanes (all three overlap at 2-3 us), pauses 2: 5 threads.
    EXPECT_EQ(threads.size(), 5u) << s;
    for (auto& [thread, spans] : threads)
    {
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
        {
            EXPECT_LE(spans[i - 1].second, spans[i].first) << thread.first << "/" << thread.second;
        }
    }
}

TEST(TraceEventWriter, ALimitKeepsAWholePrefixAndEndsWithTheMarker)
{
    // 50 transfers of one host, one after another (no overlap: one lane). Whatever the limit
    // from 1000 B up, the document stays within it, keeps whole events in their order and
    // counts the rest in the marker; kept + left out = all (50 slices + 2 process names + 1
    // thread name = 53 events).
    RunResult r;
    r.algorithm = "ring";
    for (uint32_t i = 0; i < 50; ++i)
    {
        r.transfers.push_back({0, i, 1, 2, 1000, i * 1e-6, (i + 1) * 1e-6, 0, 0});
    }
    const std::string whole = TraceEventWriter::Format({r});
    ASSERT_GT(whole.size(), 5000u); // ~130 B a slice
    for (uint64_t limit : {1000, 2500, 4000, 5000})
    {
        TraceOutcome outcome;
        const std::string s = TraceEventWriter::Format({r}, limit, &outcome);
        EXPECT_LE(s.size(), limit);
        EXPECT_EQ(outcome.bytes, s.size());
        EXPECT_GT(outcome.dropped, 0u) << limit;
        EXPECT_EQ(outcome.events + outcome.dropped, 53u) << limit;
        // The kept events are the whole trace's first ones, character for character.
        const size_t marker = s.rfind(",\n{\"ph\":\"i\"");
        ASSERT_NE(marker, std::string::npos) << s;
        EXPECT_EQ(whole.compare(0, marker, s, 0, marker), 0) << limit;
        EXPECT_NE(s.find("\"events_left_out\":" + std::to_string(outcome.dropped)),
                  std::string::npos);
        EXPECT_EQ(s.substr(s.size() - 4), "\n]}\n");
    }
    // A limit with room for the whole document and the marker's reserve (200 B) keeps all.
    TraceOutcome all;
    EXPECT_EQ(TraceEventWriter::Format({r}, whole.size() + 200, &all), whole);
    EXPECT_EQ(all.dropped, 0u);
}

TEST(TraceEventWriter, WriteStreamsFormatsBytesPieceByPiece)
{
    // 50 transfers of one host in a row (one lane) and 20 pauses on two ports (10 each, one
    // after another: one lane each): 50 + 20 slices, 2 process names, 3 thread names = 75
    // events, about 8 KB (~100 B a slice). With 512 B pieces that is more than 12 pieces,
    // each cut between two events' texts (1 B pieces: each text alone); the file must be Format's
    // string byte for byte, whole and cut by a limit (the limit counts the bytes already
    // written out, not the piece in memory), with the same outcome.
    RunResult r;
    r.algorithm = "ring";
    for (uint32_t i = 0; i < 50; ++i)
    {
        r.transfers.push_back({0, i, 1, 2, 1000, i * 1e-6, (i + 1) * 1e-6, 0, 0});
    }
    for (uint32_t i = 0; i < 20; ++i)
    {
        r.pauses.push_back({i % 2 ? "sw0/1" : "sw1/2", 3, i * 1e-6, (i + 2) * 1e-6});
    }
    const size_t piece = 512;
    ASSERT_GT(TraceEventWriter::Format({r}).size(), 12 * piece);
    const std::string path = "/tmp/paramsync-trace-pieces-" + std::to_string(getpid()) + ".json";
    for (uint64_t limit : {uint64_t{UINT64_MAX}, uint64_t{2500}, uint64_t{6000}})
    {
        for (size_t pieceBytes : {size_t{1}, piece, TraceEventWriter::kPieceBytes})
        {
            TraceOutcome formatted;
            const std::string expected = TraceEventWriter::Format({r}, limit, &formatted);
            const TraceOutcome written = TraceEventWriter::Write(path, {r}, limit, pieceBytes);
            std::ifstream f(path, std::ios::binary);
            const std::string file((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
            EXPECT_EQ(file, expected) << limit << " " << pieceBytes;
            EXPECT_EQ(written.bytes, file.size()) << limit << " " << pieceBytes;
            EXPECT_EQ(written.events, formatted.events) << limit << " " << pieceBytes;
            EXPECT_EQ(written.dropped, formatted.dropped) << limit << " " << pieceBytes;
            EXPECT_EQ(written.events + written.dropped, 75u) << limit << " " << pieceBytes;
            // Only the limits below the document's ~8 KB truncate it.
            EXPECT_EQ(written.dropped > 0, limit != UINT64_MAX) << limit << " " << pieceBytes;
        }
    }
    std::remove(path.c_str());
}

TEST(ResultsWriter, AFillThatThrowsLeavesNoFile)
{
    // A document written in pieces (the trace) that fails half-way leaves neither the file
    // nor its temporary, and the error reaches the caller.
    const std::string dir = "/tmp/paramsync-atomic-fill-" + std::to_string(getpid());
    ASSERT_EQ(system(("mkdir -p " + dir).c_str()), 0);
    EXPECT_THROW(ResultsWriter::WriteFileAtomically(dir + "/trace.json",
                                                    [](std::ostream& f) {
                                                        f << "{\"traceEvents\":[";
                                                        throw std::runtime_error("half-way");
                                                    }),
                 std::runtime_error);
    EXPECT_EQ(system(("test -z \"$(ls -A " + dir + ")\"").c_str()), 0);
    EXPECT_EQ(system(("rm -rf " + dir).c_str()), 0);
}

TEST(ResultsWriter, AFailedWriteNamesThePathAndLeavesNothing)
{
    const std::string path = "/nonexistent-dir-paramsync/summary.json";
    try
    {
        ResultsWriter::WriteFileAtomically(path, "x");
        FAIL() << "wrote into a missing directory";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << e.what();
    }
    // Replacing an existing file is atomic: the old content stays until the rename.
    const std::string file = "/tmp/paramsync-atomic-" + std::to_string(getpid());
    ResultsWriter::WriteFileAtomically(file, "old");
    ResultsWriter::WriteFileAtomically(file, "new");
    std::ifstream f(file);
    std::string content;
    f >> content;
    EXPECT_EQ(content, "new");
    std::remove(file.c_str());
}

TEST(ResultsWriter, CsvFieldsWithCommasOrQuotesAreQuoted)
{
    // Algorithm specs carry commas; RFC 4180 quotes such fields and doubles inner quotes.
    EXPECT_EQ(ResultsWriter::CsvField("ring"), "ring");
    EXPECT_EQ(ResultsWriter::CsvField("ring:order=gray,bidir=1"), "\"ring:order=gray,bidir=1\"");
    EXPECT_EQ(ResultsWriter::CsvField("a\"b"), "\"a\"\"b\"");
}
