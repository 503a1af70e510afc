#include "spec-string.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::string
TrimSpace(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool
ParseUint(const std::string& text, uint64_t& value)
{
    if (text.empty())
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        const auto digit = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - digit) / 10)
        {
            return false; // v * 10 + digit would wrap
        }
        v = v * 10 + digit;
    }
    value = v;
    return true;
}

namespace
{

/// Splits "12.5Gbps" into 12.5 and "Gbps"; false when no leading number.
bool
SplitNumberUnit(const std::string& text, double& number, std::string& unit)
{
    std::string t = TrimSpace(text);
    if (t.empty())
    {
        return false;
    }
    size_t used = 0;
    try
    {
        number = std::stod(t, &used);
    }
    catch (const std::exception&)
    {
        return false;
    }
    if (!std::isfinite(number))
    {
        return false;
    }
    unit = t.substr(used);
    return true;
}

} // namespace

double
ParseRate(const std::string& text, const std::string& what)
{
    static const std::pair<const char*, double> units[] = {{"bps", 1.0},
                                                           {"Kbps", 1e3},
                                                           {"Mbps", 1e6},
                                                           {"Gbps", 1e9},
                                                           {"Tbps", 1e12},
                                                           {"K", 1e3},
                                                           {"M", 1e6},
                                                           {"G", 1e9},
                                                           {"T", 1e12},
                                                           {"", 1.0}};
    double number;
    std::string unit;
    if (SplitNumberUnit(text, number, unit))
    {
        for (const auto& [name, scale] : units)
        {
            if (unit == name)
            {
                if (number * scale <= 0)
                {
                    break;
                }
                return number * scale;
            }
        }
    }
    throw std::invalid_argument(what + ": '" + text +
                                "' is not a data rate > 0 (e.g. 40Gbps, 100Mbps, 1e9bps)");
}

double
ParseTime(const std::string& text, const std::string& what)
{
    static const std::pair<const char*, double> units[] = {
        {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
    double number;
    std::string unit;
    if (SplitNumberUnit(text, number, unit) && number >= 0)
    {
        for (const auto& [name, scale] : units)
        {
            if (unit == name)
            {
                return number * scale;
            }
        }
    }
    throw std::invalid_argument(what + ": '" + text +
                                "' is not a time >= 0 with a unit (e.g. 1us, 500ns, 0.001ms, 2s)");
}

uint64_t
ParseBytes(const std::string& text, const std::string& what)
{
    static const std::pair<const char*, double> units[] = {{"", 1.0},
                                                           {"B", 1.0},
                                                           {"KB", 1e3},
                                                           {"MB", 1e6},
                                                           {"GB", 1e9},
                                                           {"KiB", 1024.0},
                                                           {"MiB", 1048576.0},
                                                           {"GiB", 1073741824.0}};
    double number;
    std::string unit;
    if (SplitNumberUnit(text, number, unit))
    {
        for (const auto& [name, scale] : units)
        {
            double bytes = number * scale;
            if (unit == name && bytes >= 1 && bytes < 1e18 && std::floor(bytes) == bytes)
            {
                return static_cast<uint64_t>(bytes);
            }
        }
    }
    throw std::invalid_argument(what + ": '" + text +
                                "' is not a whole number of bytes >= 1 (e.g. 100MB, 4KiB, 1000)");
}

SpecString::SpecString(const std::string& spec, const std::string& what)
    : m_what(what),
      m_text(spec)
{
    size_t colon = spec.find(':');
    m_name = TrimSpace(spec.substr(0, colon));
    if (m_name.empty())
    {
        throw std::invalid_argument(Where() + "missing a name before ':'");
    }
    if (colon == std::string::npos)
    {
        return;
    }
    std::string rest = spec.substr(colon + 1);
    size_t start = 0;
    while (start <= rest.size())
    {
        size_t comma = rest.find(',', start);
        std::string item = TrimSpace(rest.substr(start, comma - start));
        if (!item.empty())
        {
            size_t eq = item.find('=');
            if (eq == std::string::npos || eq == 0)
            {
                throw std::invalid_argument(Where() + "'" + item + "' is not key=value");
            }
            std::string key = TrimSpace(item.substr(0, eq));
            if (!m_values.emplace(key, TrimSpace(item.substr(eq + 1))).second)
            {
                throw std::invalid_argument(Where() + "key '" + key + "' given twice");
            }
        }
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
}

std::string
SpecString::Where() const
{
    return m_what + " '" + m_text + "': ";
}

bool
SpecString::Has(const std::string& key) const
{
    return m_values.count(key) != 0;
}

std::string
SpecString::GetString(const std::string& key, const std::string& def)
{
    m_used.insert(key);
    auto it = m_values.find(key);
    return it == m_values.end() ? def : it->second;
}

std::string
BytesText(double bytes)
{
    const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    size_t u = 0;
    while (bytes >= 1000 && u + 1 < sizeof(units) / sizeof(units[0]))
    {
        bytes /= 1000;
        ++u;
    }
    std::ostringstream os;
    os.precision(3);
    os << bytes << " " << units[u];
    return os.str();
}

uint64_t
SpecString::GetUint(const std::string& key, uint64_t def, uint64_t min, uint64_t max)
{
    if (!Has(key))
    {
        m_used.insert(key);
        return def;
    }
    std::string v = GetString(key, "");
    uint64_t value = 0;
    const bool ok = v.size() <= 19 && ParseUint(v, value);
    if (!ok || value < min || value > max)
    {
        throw std::invalid_argument(Where() + key + "=" + v + " is not allowed: " + key +
                                    " must be an integer from " + std::to_string(min) + " to " +
                                    std::to_string(max));
    }
    return value;
}

double
SpecString::GetDouble(const std::string& key, double def, double min, double max)
{
    if (!Has(key))
    {
        m_used.insert(key);
        return def;
    }
    std::string v = GetString(key, "");
    double number;
    std::string unit;
    if (!SplitNumberUnit(v, number, unit) || !unit.empty() || number < min || number > max)
    {
        throw std::invalid_argument(Where() + key + "=" + v + " is not allowed: " + key +
                                    " must be a number from " + std::to_string(min) + " to " +
                                    std::to_string(max));
    }
    return number;
}

bool
SpecString::GetBool(const std::string& key, bool def)
{
    if (!Has(key))
    {
        m_used.insert(key);
        return def;
    }
    std::string v = GetString(key, "");
    if (v == "1" || v == "true")
    {
        return true;
    }
    if (v == "0" || v == "false")
    {
        return false;
    }
    throw std::invalid_argument(Where() + key + "=" + v + " is not allowed: use 0 or 1");
}

std::string
SpecString::GetChoice(const std::string& key,
                      const std::string& def,
                      const std::vector<std::string>& allowed)
{
    std::string v = GetString(key, def);
    for (const auto& a : allowed)
    {
        if (v == a)
        {
            return v;
        }
    }
    std::string list;
    for (const auto& a : allowed)
    {
        list += (list.empty() ? "" : ", ") + a;
    }
    throw std::invalid_argument(Where() + key + "=" + v + " is not allowed: one of " + list);
}

double
SpecString::GetRate(const std::string& key, double def)
{
    if (!Has(key))
    {
        m_used.insert(key);
        return def;
    }
    return ParseRate(GetString(key, ""), Where() + key);
}

double
SpecString::GetTime(const std::string& key, double def)
{
    if (!Has(key))
    {
        m_used.insert(key);
        return def;
    }
    return ParseTime(GetString(key, ""), Where() + key);
}

void
SpecString::Finish() const
{
    for (const auto& [key, value] : m_values)
    {
        if (!m_used.count(key))
        {
            std::string known;
            for (const auto& k : m_used)
            {
                known += (known.empty() ? "" : ", ") + k;
            }
            throw std::invalid_argument(
                Where() + "unknown key '" + key + "'" +
                (known.empty() ? " (this name takes no options)" : " (known: " + known + ")"));
        }
    }
}

void
CheckTextFile(const std::string& text, const std::string& file, const std::string& kind)
{
    size_t line = 1;
    for (size_t i = 0; i < text.size(); ++i)
    {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n')
        {
            ++line;
            continue;
        }
        const bool crBeforeNewline = c == '\r' && (i + 1 == text.size() || text[i + 1] == '\n');
        if (((c < 0x20 && c != '\t') || c == 0x7f) && !crBeforeNewline)
        {
            throw std::invalid_argument(file + ":" + std::to_string(line) +
                                        ": binary data (control byte " + std::to_string(c) +
                                        "); allowed: a text " + kind + " file");
        }
    }
}

} // namespace ns3
