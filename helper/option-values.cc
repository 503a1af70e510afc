#include "option-values.h"

#include "ns3/spec-string.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>

namespace ns3
{

namespace
{

using UnitTable = std::vector<std::pair<std::string, double>>;

const UnitTable kRateUnits = {
    {"bps", 1.0}, {"Kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}, {"Tbps", 1e12}};
const UnitTable kTimeUnits = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
const UnitTable kByteUnits = {{"B", 1.0},
                              {"KB", 1e3},
                              {"MB", 1e6},
                              {"GB", 1e9},
                              {"KiB", 1024.0},
                              {"MiB", 1048576.0},
                              {"GiB", 1073741824.0}};

/// Length of the decimal number at the start of text ("12.5e3Gbps" -> 6); 0 if none.
/// Signs, hex, inf and nan are not numbers here (strtod would take them).
size_t
NumberLength(const std::string& text)
{
    size_t i = 0;
    size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        ++i;
        ++digits;
    }
    if (i < text.size() && text[i] == '.')
    {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return 0;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E'))
    {
        size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-'))
        {
            ++j;
        }
        size_t expDigits = 0;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            ++j;
            ++expDigits;
        }
        if (expDigits > 0)
        {
            i = j;
        }
    }
    return i;
}

std::string
UnitList(const UnitTable& units)
{
    std::string list;
    for (const auto& u : units)
    {
        list += (list.empty() ? "" : ", ") + u.first;
    }
    return list;
}

/// value in the largest unit that keeps it >= 1 ("1e+06 bps" -> "1Mbps").
std::string
InUnits(double value, const UnitTable& units)
{
    const std::pair<std::string, double>* best = &units.front();
    for (const auto& u : units)
    {
        if (value >= u.second && u.second > best->second)
        {
            best = &u;
        }
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6g%s", value / best->second, best->first.c_str());
    return buf;
}

/// number * unit scale of text, or throws with what is allowed.
double
Quantity(const std::string& text,
         const std::string& option,
         const UnitTable& units,
         const std::string& allowed)
{
    OptionValues::CheckText(text, option);
    const size_t n = NumberLength(text);
    const std::string unit = text.substr(n);
    std::string why;
    if (text.find(' ') != std::string::npos)
    {
        why = " (no spaces)";
    }
    else if (n > 0 && unit.empty())
    {
        why = " (a unit is required)";
    }
    if (n > 0)
    {
        for (const auto& [name, scale] : units)
        {
            if (unit == name)
            {
                const double v = std::strtod(text.substr(0, n).c_str(), nullptr) * scale;
                if (std::isfinite(v))
                {
                    return v;
                }
            }
        }
    }
    throw OptionError(option + ": '" + text + "' is not allowed" + why + "; allowed: " + allowed +
                      " with a unit of " + UnitList(units));
}

} // namespace

namespace OptionValues
{

void
CheckText(const std::string& text, const std::string& option)
{
    if (text.empty())
    {
        throw OptionError(option + ": an empty value is not allowed; allowed: leave the option "
                                   "out for its default (see --help)");
    }
    for (unsigned char c : text)
    {
        if (c < 0x20 || c == 0x7f)
        {
            throw OptionError(option + ": the value contains a control character (code " +
                              std::to_string(c) + "); allowed: printable characters");
        }
    }
}

uint64_t
Uint(const std::string& text, const std::string& option, uint64_t min, uint64_t max)
{
    CheckText(text, option);
    const std::string allowed = "allowed: an integer from " + std::to_string(min) + " to " +
                                std::to_string(max);
    uint64_t v = 0; // "" stays 0 and meets the range check, as it always has
    if (text.size() > 19 || (!text.empty() && !ParseUint(text, v)))
    {
        throw OptionError(option + ": '" + text + "' is not an integer; " + allowed);
    }
    if (v < min || v > max)
    {
        throw OptionError(option + ": " + text + " is out of range; " + allowed);
    }
    return v;
}

std::pair<uint64_t, uint64_t>
UintRange(const std::string& text,
          const std::string& option,
          uint64_t min,
          uint64_t max,
          uint64_t maxCount)
{
    CheckText(text, option);
    const size_t dash = text.find('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == text.size())
    {
        throw OptionError(option + ": '" + text +
                          "' is not a range; allowed: A-B, A <= B (e.g. 1-8)");
    }
    const uint64_t first = Uint(text.substr(0, dash), option, min, max);
    const uint64_t last = Uint(text.substr(dash + 1), option, min, max);
    if (first > last || last - first >= maxCount)
    {
        throw OptionError(option + ": '" + text +
                          "' is not allowed; allowed: A-B with A <= B and at most " +
                          std::to_string(maxCount) + " values (e.g. 1-8)");
    }
    return {first, last};
}

double
Real(const std::string& text, const std::string& option, double min, double max, bool minExcluded)
{
    CheckText(text, option);
    char interval[96];
    std::snprintf(interval, sizeof(interval), "%s%g, %g]", minExcluded ? "(" : "[", min, max);
    const std::string allowed = std::string("allowed: a number in ") + interval;
    const size_t n = NumberLength(text);
    if (n == 0 || n != text.size())
    {
        throw OptionError(option + ": '" + text + "' is not a number; " + allowed);
    }
    const double v = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(v) || v < min || v > max || (minExcluded && v == min))
    {
        throw OptionError(option + ": " + text + " is out of range; " + allowed);
    }
    return v;
}

double
Rate(const std::string& text, const std::string& option, double minBps, double maxBps)
{
    const std::string range = "from " + InUnits(minBps, kRateUnits) + " to " +
                              InUnits(maxBps, kRateUnits);
    const double v = Quantity(text, option, kRateUnits, "a rate " + range);
    if (v < minBps || v > maxBps)
    {
        throw OptionError(option + ": " + text + " is out of range; allowed: a rate " + range);
    }
    return v;
}

double
Time(const std::string& text, const std::string& option, double minS, double maxS)
{
    maxS = std::min(maxS, kNs3TimeMaxS);
    const std::string range = "from " +
                              (minS == 0 ? std::string("0s") : InUnits(minS, kTimeUnits)) + " to " +
                              InUnits(maxS, kTimeUnits);
    const double v = Quantity(text, option, kTimeUnits, "a time " + range);
    if (v < minS || v > maxS)
    {
        throw OptionError(option + ": " + text + " is out of range; allowed: a time " + range +
                          (maxS == kNs3TimeMaxS ? " (ns-3's longest time)" : ""));
    }
    if (v > 0 && v < kNs3TimeResolutionS)
    {
        throw OptionError(option + ": " + text +
                          " is below ns-3's time resolution; allowed: 0 or at least 1ns");
    }
    return v;
}

uint64_t
Bytes(const std::string& text, const std::string& option, uint64_t min, uint64_t max)
{
    const std::string range = "from " + std::to_string(min) + "B to " + std::to_string(max) + "B";
    const double v = Quantity(text, option, kByteUnits, "a whole number of bytes " + range);
    if (v < static_cast<double>(min) || v > static_cast<double>(max))
    {
        throw OptionError(option + ": " + text + " is out of range; allowed: " + range);
    }
    if (std::floor(v) != v)
    {
        throw OptionError(option + ": " + text +
                          " is not a whole number of bytes; allowed: " + range);
    }
    return static_cast<uint64_t>(v);
}

bool
Flag(const std::string& text, const std::string& option)
{
    CheckText(text, option);
    if (text == "1" || text == "true")
    {
        return true;
    }
    if (text == "0" || text == "false")
    {
        return false;
    }
    throw OptionError(option + ": '" + text + "' is not allowed; allowed: 0 or 1");
}

void
Choice(const std::string& text, const std::string& option, const std::vector<std::string>& choices)
{
    CheckText(text, option);
    std::string list;
    for (const auto& c : choices)
    {
        if (c == text)
        {
            return;
        }
        list += (list.empty() ? "" : "|") + c;
    }
    throw OptionError(option + ": '" + text + "' is not allowed; allowed: " + list);
}

std::vector<uint32_t>
UintList(const std::string& text, const std::string& option, uint64_t max)
{
    CheckText(text, option);
    std::vector<uint32_t> values;
    std::set<uint32_t> seen;
    for (size_t start = 0; start <= text.size();)
    {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        if (item.empty())
        {
            throw OptionError(option + ": '" + text +
                              "' has an empty item; allowed: integers separated by single commas");
        }
        const auto v = static_cast<uint32_t>(Uint(item, option, 0, max));
        if (!seen.insert(v).second)
        {
            throw OptionError(option + ": " + item + " is given twice in '" + text +
                              "'; allowed: each at most once");
        }
        values.push_back(v);
        start = comma + 1;
    }
    return values;
}

} // namespace OptionValues

} // namespace ns3
