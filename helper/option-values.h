/*
 * OptionValues: the strict parsers behind every driver option (ARCHITECTURE.md, Outputs). A value
 * is taken whole, exactly as given: no trimming, no text after the number, a unit required for
 * every rate, time and size, a range checked, and every refusal is one OptionError line
 * naming the option and what is allowed. Plain C++, no simulator.
 */
#ifndef PARAMSYNC_OPTION_VALUES_H
#define PARAMSYNC_OPTION_VALUES_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Bad user input of the driver: the message is one line naming the option.
 * The driver prints it and exits 2.
 */
class OptionError : public std::invalid_argument
{
  public:
    /// \brief message must name the option ("--mtu: ...") and what is allowed.
    explicit OptionError(const std::string& message)
        : std::invalid_argument(message)
    {
    }
};

/**
 * \brief The longest time ns-3 represents: its Time is a signed 64-bit count of the
 * resolution unit, nanoseconds by default (ns-3 nstime.h), so (2^63 - 1) ns, 292 years.
 * A longer time wraps to a negative one inside the simulator.
 */
constexpr double kNs3TimeMaxS = 9223372036.854775807;

/// \brief ns-3's default time resolution: a non-zero time below it rounds to 0 (nstime.h).
constexpr double kNs3TimeResolutionS = 1e-9;

/// \brief Parsers of option values; option is the name to blame ("--rate").
namespace OptionValues
{

/// \brief Refuses an empty value and control characters (newlines, tabs, NUL, escape).
void CheckText(const std::string& text, const std::string& option);

/// \brief A decimal integer in [min, max], digits only.
uint64_t Uint(const std::string& text, const std::string& option, uint64_t min, uint64_t max);

/// \brief An integer range A-B, both in [min, max], A <= B, at most maxCount values.
std::pair<uint64_t, uint64_t> UintRange(const std::string& text,
                                        const std::string& option,
                                        uint64_t min,
                                        uint64_t max,
                                        uint64_t maxCount);

/// \brief A plain decimal number in [min, max] ((min, max] when minExcluded), no unit.
double Real(const std::string& text,
            const std::string& option,
            double min,
            double max,
            bool minExcluded = false);

/// \brief A rate with its unit (bps, Kbps, Mbps, Gbps, Tbps), bit/s, in [minBps, maxBps].
double Rate(const std::string& text, const std::string& option, double minBps, double maxBps);

/**
 * \brief A time with its unit (s, ms, us, ns), seconds, in [minS, maxS]; maxS at most
 * kNs3TimeMaxS; a non-zero time below 1 ns is refused (ns-3 would make it 0).
 */
double Time(const std::string& text,
            const std::string& option,
            double minS,
            double maxS = kNs3TimeMaxS);

/// \brief A whole number of bytes with its unit (B, KB, MB, GB, KiB, MiB, GiB) in [min, max].
uint64_t Bytes(const std::string& text, const std::string& option, uint64_t min, uint64_t max);

/// \brief 1 / true or 0 / false.
bool Flag(const std::string& text, const std::string& option);

/// \brief One of the choices, spelled exactly.
void Choice(const std::string& text,
            const std::string& option,
            const std::vector<std::string>& choices);

/// \brief "3,7,12": integers in [0, max], each at most once, no empty item.
std::vector<uint32_t> UintList(const std::string& text, const std::string& option, uint64_t max);

} // namespace OptionValues

} // namespace ns3

#endif // PARAMSYNC_OPTION_VALUES_H
