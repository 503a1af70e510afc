/*
 * SpecString: the "name:key=value,key=value" strings that name topologies
 * ("bcube:n=3,k=1") and algorithms ("ring:order=gray,bidir=1"). Every getter names the
 * spec, the key and what is allowed when a value is bad, and Finish() rejects keys nobody
 * asked for, so a typo never becomes a silent default.
 */
#ifndef PARAMSYNC_SPEC_STRING_H
#define PARAMSYNC_SPEC_STRING_H

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief A parsed "name:key=value,..." spec with typed, validated getters.
 */
class SpecString
{
  public:
    /**
     * \brief Parses spec. `what` names the option for messages ("--topology").
     * \throws std::invalid_argument on an empty name, a key without '=', a duplicate key
     */
    SpecString(const std::string& spec, const std::string& what);

    /// \brief The part before ':'.
    const std::string&
    Name() const
    {
        return m_name;
    }
    /// \brief The whole spec as given.
    const std::string&
    Text() const
    {
        return m_text;
    }
    /// \brief True if key was given.
    bool Has(const std::string& key) const;

    /// \brief Unsigned integer in [min, max]; def when absent.
    uint64_t GetUint(const std::string& key, uint64_t def, uint64_t min, uint64_t max);
    /// \brief Finite double in [min, max]; def when absent.
    double GetDouble(const std::string& key, double def, double min, double max);
    /// \brief 0/1/true/false; def when absent.
    bool GetBool(const std::string& key, bool def);
    /// \brief One of allowed; def when absent.
    std::string GetChoice(const std::string& key,
                          const std::string& def,
                          const std::vector<std::string>& allowed);
    /// \brief Raw string; def when absent.
    std::string GetString(const std::string& key, const std::string& def);
    /// \brief Data rate such as "40Gbps", "100Mbps", "1e9bps" in bit/s, > 0.
    double GetRate(const std::string& key, double def);
    /// \brief Time such as "1us", "500ns", "0.001ms", "2s" in seconds, >= 0.
    double GetTime(const std::string& key, double def);

    /// \brief Throws if a key was given that no getter asked for.
    void Finish() const;

    /// \brief Error prefix "--topology 'bcube:n=1': " for messages.
    std::string Where() const;

  private:
    std::string m_what;
    std::string m_text;
    std::string m_name;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_used;
};

/// \brief s without its leading and trailing spaces, tabs, CRs and newlines.
std::string TrimSpace(const std::string& s);
/// \brief Parses a whole decimal unsigned integer: one or more digits 0-9 and nothing else
/// (no sign, no space, no unit). False, value untouched, when text is not that or the number
/// does not fit in 64 bits. Callers keep their own messages and range checks.
bool ParseUint(const std::string& text, uint64_t& value);

/// \brief Parses "40Gbps" / "100Mbps" / "10Kbps" / "1e9bps" / "40G" to bit/s.
/// \throws std::invalid_argument naming `what` when unparsable or not > 0
double ParseRate(const std::string& text, const std::string& what);
/// \brief Parses "1us" / "500ns" / "0.001ms" / "2s" / "1000ps" to seconds.
/// \throws std::invalid_argument naming `what` when unparsable or negative
double ParseTime(const std::string& text, const std::string& what);
/// \brief Parses "100MB" / "4KiB" / "1000" / "1.5GB" to bytes (KB = 1000, KiB = 1024).
/// \throws std::invalid_argument naming `what` when unparsable or not > 0
uint64_t ParseBytes(const std::string& text, const std::string& what);
/// \brief "12.3 GB"-style text of a byte count, the other way (decimal units, 3 significant
/// digits).
std::string BytesText(double bytes);

/**
 * \brief Checks that every line of a text input file is text: no control byte other than
 * tab (and a CR before the newline). One check for every file parser (topology, model,
 * flows), so that a binary file gets one clear line instead of its bytes echoed back.
 * \throws std::invalid_argument "FILE:LINE: binary data (control byte N); allowed: a text
 * KIND file"
 */
void CheckTextFile(const std::string& text, const std::string& file, const std::string& kind);

} // namespace ns3

#endif // PARAMSYNC_SPEC_STRING_H
