#include "seed-statistics.h"

#include "results-writer.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The value of a result cell when it is a whole number; false for text (names, status).
bool
ParseNumber(const std::string& text, double& value)
{
    if (text.empty())
    {
        return false;
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

} // namespace

double
SeedStatistics::Median(std::vector<double> values)
{
    if (values.empty())
    {
        throw std::invalid_argument("SeedStatistics::Median of no values");
    }
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<SeedStatistics::Point>
SeedStatistics::Summarize(const std::vector<std::vector<RunResult>>& perSeed)
{
    std::vector<Point> points;
    if (perSeed.empty())
    {
        return points;
    }
    const std::vector<std::string>& columns = ResultsWriter::Columns();
    for (size_t i = 0; i < perSeed.front().size(); ++i)
    {
        const RunResult& first = perSeed.front()[i];
        Point p;
        p.topology = first.topology;
        p.algorithm = first.algorithm;
        p.model = first.model;
        p.backend = first.backend;
        std::vector<std::vector<std::string>> rows;
        for (const auto& seed : perSeed)
        {
            if (seed.size() != perSeed.front().size() || seed[i].algorithm != first.algorithm)
            {
                throw std::logic_error("SeedStatistics: the seeds ran different systems");
            }
            rows.push_back(ResultsWriter::Row(seed[i]));
            p.seeds += 1;
            p.completed += seed[i].completed && seed[i].invariant.empty() ? 1 : 0;
        }
        for (size_t c = 0; c < columns.size(); ++c)
        {
            std::vector<double> values;
            for (const auto& row : rows)
            {
                double v = 0;
                if (!ParseNumber(row[c], v))
                {
                    break;
                }
                values.push_back(v);
            }
            if (values.size() != rows.size())
            {
                continue; // a text column (names, status)
            }
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            p.spread.push_back({columns[c], *lo, Median(values), *hi});
        }
        points.push_back(p);
    }
    return points;
}

std::string
SeedStatistics::Table(const std::vector<Point>& points, const std::string& seeds)
{
    std::ostringstream s;
    s << "over seeds " << seeds << ": min / median / max\n";
    for (const auto& p : points)
    {
        s << p.topology << "  " << p.algorithm << "  " << p.model << "  " << p.backend << "  ("
          << p.completed << " of " << p.seeds << " runs completed)\n";
        for (const auto& f : p.spread)
        {
            s << "  " << std::left << std::setw(18) << f.column << ResultsWriter::Number(f.min)
              << " / " << ResultsWriter::Number(f.median) << " / " << ResultsWriter::Number(f.max)
              << "\n";
        }
    }
    return s.str();
}

std::string
SeedStatistics::JsonLine(const Point& p, const std::string& seeds)
{
    std::ostringstream s;
    s << "{\"seed_stats\":{\"topology\":" << ResultsWriter::JsonString(p.topology)
      << ",\"algorithm\":" << ResultsWriter::JsonString(p.algorithm)
      << ",\"model\":" << ResultsWriter::JsonString(p.model)
      << ",\"backend\":" << ResultsWriter::JsonString(p.backend)
      << ",\"seeds\":" << ResultsWriter::JsonString(seeds) << ",\"runs\":" << p.seeds
      << ",\"completed\":" << p.completed << ",\"figures\":{";
    for (size_t i = 0; i < p.spread.size(); ++i)
    {
        const Spread& f = p.spread[i];
        s << (i ? "," : "") << ResultsWriter::JsonString(f.column)
          << ":{\"min\":" << ResultsWriter::Number(f.min)
          << ",\"median\":" << ResultsWriter::Number(f.median)
          << ",\"max\":" << ResultsWriter::Number(f.max) << "}";
    }
    s << "}}}";
    return s.str();
}

} // namespace ns3
