/*
 * Small helpers the topology families share to read their specs: required integer keys and
 * the canonical echo of the options a user gave. Internal to topologies/.
 */
#ifndef PARAMSYNC_FAMILY_OPTIONS_H
#define PARAMSYNC_FAMILY_OPTIONS_H

#include "spec-string.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Reads a key the family cannot default (a size), in [min, max].
 * \param usage the family's grammar, quoted in the message when the key is missing
 */
inline uint64_t
RequireUint(
    SpecString& spec, const std::string& key, uint64_t min, uint64_t max, const std::string& usage)
{
    if (!spec.Has(key))
    {
        throw std::invalid_argument(spec.Where() + "missing '" + key + "'; usage: " + usage);
    }
    return spec.GetUint(key, min, min, max);
}

/**
 * \brief ",key=value" for each of keys the user gave, in the order of keys, so Spec() names
 * every non-default choice and nothing else.
 */
inline std::string
ExplicitOptions(SpecString& spec, const std::vector<std::string>& keys)
{
    std::string out;
    for (const auto& key : keys)
    {
        if (spec.Has(key))
        {
            out += "," + key + "=" + spec.GetString(key, "");
        }
    }
    return out;
}

} // namespace ns3

#endif // PARAMSYNC_FAMILY_OPTIONS_H
