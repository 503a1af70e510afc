// SeedStatistics (helper/seed-statistics.h): min / median / max over seeds of every numeric
// column of the result rows, as --seeds=A-B prints them.
#include "ns3/results-writer.h"
#include "ns3/seed-statistics.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

RunResult
Row(const std::string& algorithm, double gst, uint64_t pauses, bool completed = true)
{
    RunResult r;
    r.topology = "torus:dims=4x4";
    r.algorithm = algorithm;
    r.model = "bytes:4MB";
    r.backend = "packet";
    r.workers = 16;
    r.gstS = gst;
    r.pfcPauseFrames = pauses;
    r.completed = completed;
    return r;
}

const SeedStatistics::Spread*
Find(const SeedStatistics::Point& p, const std::string& column)
{
    for (const auto& s : p.spread)
    {
        if (s.column == column)
        {
            return &s;
        }
    }
    return nullptr;
}

} // namespace

TEST(SeedStatistics, MedianIsTheMiddleValueOrTheMeanOfTheMiddleTwo)
{
    EXPECT_EQ(SeedStatistics::Median({3, 1, 2}), 2);      // sorted 1 2 3
    EXPECT_EQ(SeedStatistics::Median({4, 1, 3, 2}), 2.5); // sorted 1 2 3 4: (2 + 3) / 2
    EXPECT_EQ(SeedStatistics::Median({7}), 7);
    EXPECT_THROW(SeedStatistics::Median({}), std::invalid_argument);
}

TEST(SeedStatistics, EveryNumericColumnSpreadPerRowOverTheSeeds)
{
    // Three seeds of two systems: mesh's GST 3, 1, 2 ms -> min 1, median 2, max 3; its
    // pauses 10, 40, 20 -> 10 / 20 / 40; ring identical on every seed; the second seed's
    // ring did not complete.
    const std::vector<std::vector<RunResult>> perSeed = {
        {Row("mesh", 3e-3, 10), Row("ring", 5e-3, 0)},
        {Row("mesh", 1e-3, 40), Row("ring", 5e-3, 0, false)},
        {Row("mesh", 2e-3, 20), Row("ring", 5e-3, 0)},
    };
    const auto points = SeedStatistics::Summarize(perSeed);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].algorithm, "mesh");
    EXPECT_EQ(points[0].seeds, 3u);
    EXPECT_EQ(points[0].completed, 3u);
    EXPECT_EQ(points[1].completed, 2u);
    const auto* gst = Find(points[0], "gst_s");
    ASSERT_NE(gst, nullptr);
    EXPECT_DOUBLE_EQ(gst->min, 1e-3);
    EXPECT_DOUBLE_EQ(gst->median, 2e-3);
    EXPECT_DOUBLE_EQ(gst->max, 3e-3);
    const auto* pauses = Find(points[0], "pfc_pause_frames");
    ASSERT_NE(pauses, nullptr);
    EXPECT_EQ(pauses->min, 10);
    EXPECT_EQ(pauses->median, 20);
    EXPECT_EQ(pauses->max, 40);
    const auto* ring = Find(points[1], "gst_s");
    ASSERT_NE(ring, nullptr);
    EXPECT_EQ(ring->min, ring->max);
    // Text columns (names, status) are not figures.
    EXPECT_EQ(Find(points[0], "algorithm"), nullptr);
    EXPECT_EQ(Find(points[0], "status"), nullptr);
    // The JSON line names the range and holds the spread.
    const std::string json = SeedStatistics::JsonLine(points[0], "1-3");
    EXPECT_NE(json.find("\"seeds\":\"1-3\",\"runs\":3,\"completed\":3"), std::string::npos) << json;
    EXPECT_NE(json.find("\"gst_s\":{\"min\":0.001,\"median\":0.002,\"max\":0.003}"),
              std::string::npos)
        << json;
}

TEST(SeedStatistics, SeedsThatRanDifferentSystemsAreRefused)
{
    EXPECT_THROW(SeedStatistics::Summarize({{Row("mesh", 1, 0)}, {Row("ring", 1, 0)}}),
                 std::logic_error);
}
