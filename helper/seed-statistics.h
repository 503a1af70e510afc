/*
 * SeedStatistics: one point (topology, algorithm, options) run over several seeds
 * (--seeds=A-B) summarized as min / median / max of every numeric figure of the result row
 * (ResultsWriter::Columns: GST, ideal, bound, pauses, ECN marks, packet-hops, wall time...).
 * Hashed topologies vary a lot from seed to seed (ECMP picks each queue pair's path), so a
 * single seed's GST can mislead; the spread is what a figure should show.
 */
#ifndef PARAMSYNC_SEED_STATISTICS_H
#define PARAMSYNC_SEED_STATISTICS_H

#include "run-result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Min / median / max over seeds of every numeric column of the result rows.
 */
class SeedStatistics
{
  public:
    /// \brief One figure's spread over the seeds.
    struct Spread
    {
        std::string column; ///< ResultsWriter::Columns() name
        double min{0};
        double median{0}; ///< the middle value; the mean of the two middle ones for even n
        double max{0};
    };

    /// \brief One row of the result table (a system on a topology) over every seed.
    struct Point
    {
        std::string topology;
        std::string algorithm;
        std::string model;
        std::string backend;
        uint32_t seeds{0};          ///< runs summarized
        uint32_t completed{0};      ///< of which finished every transfer with no invariant failed
        std::vector<Spread> spread; ///< numeric columns, in Columns() order
    };

    /**
     * \brief Summarizes runs: perSeed[s][i] is row i of seed s; every seed has the same rows
     * in the same order (the same systems prepared again). A column is numeric when every
     * seed's value of it parses whole as a number.
     */
    static std::vector<Point> Summarize(const std::vector<std::vector<RunResult>>& perSeed);

    /// \brief The median of values (sorted copy; the mean of the middle two for even n).
    static double Median(std::vector<double> values);

    /// \brief A table: one line per point and figure (min, median, max), after a heading
    /// that names the seed range.
    static std::string Table(const std::vector<Point>& points, const std::string& seeds);

    /// \brief One JSON object per point: {"seed_stats":{"topology":..,"algorithm":..,
    /// "seeds":"A-B","runs":n,"completed":c,"figures":{"gst_s":{"min":..,"median":..,
    /// "max":..},...}}}.
    static std::string JsonLine(const Point& point, const std::string& seeds);
};

} // namespace ns3

#endif
