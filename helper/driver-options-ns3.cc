/*
 * DriverOptions' side that faces ns-3 (helper/driver-options.h): explicit
 * --ns3::Type::Attr= values and globals checked and set as defaults, the attributes a driver
 * option stands for turned into that option, a ConfigStore file loaded, and the options as
 * ns-3 attribute defaults (what ns3-attributes.txt records as run).
 */
#include "driver-options.h"

#include "ns3/config-store.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/network-builder.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <fcntl.h>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/**
 * Whether ns-3 takes value for the attribute default or global name. Tried in a child
 * process first: ns-3's value parsers abort the process on text they cannot read (the
 * ATTRIBUTE_VALUE_IMPLEMENT DeserializeFromString of ns-3.37 attribute-helper.h asserts
 * that the whole text was read), where a bad value must be one line and exit 2.
 */
bool
Ns3Accepts(const std::string& name, const std::string& value, bool isAttribute)
{
    auto set = [&] {
        return isAttribute ? Config::SetDefaultFailSafe(name, StringValue(value))
                           : Config::SetGlobalFailSafe(name, StringValue(value));
    };
    std::cout.flush();
    std::cerr.flush();
    const pid_t child = fork();
    if (child == 0)
    {
        const int devNull = open("/dev/null", O_WRONLY);
        dup2(devNull, STDERR_FILENO);
        dup2(devNull, STDOUT_FILENO);
        _exit(set() ? 0 : 1);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
    {
        return false;
    }
    return set();
}

/// An ns-3 attribute that a driver option sets on every object it applies to: given as
/// --ns3::Type::Attr= (or by a ConfigStore file) it becomes that option's value, so that it
/// is what runs; given beside the option itself, the pair is refused.
struct MappedAttribute
{
    const char* attribute;                               //!< ns3::Type::Attr
    const char* option;                                  //!< the driver option, without "--"
    std::string (*toOption)(const std::string& ns3Text); //!< ns-3 text -> option text
};

std::string
AsIs(const std::string& v)
{
    return v;
}

std::string
AsBytes(const std::string& v)
{
    return v + "B";
}

std::string
AsNanoseconds(const std::string& v)
{
    return std::to_string(Time(v).GetNanoSeconds()) + "ns";
}

std::string
AsFlag(const std::string& v)
{
    return (v == "true" || v == "1") ? "1" : "0";
}

std::string
AsRouting(const std::string& v)
{
    return (v == "true" || v == "1") ? "source" : "ecmp";
}

const MappedAttribute kMappedAttributes[] = {
    {"ns3::RoceNic::Mtu", "mtu", &AsIs},
    {"ns3::RoceNic::Priority", "priority", &AsIs},
    {"ns3::ForwardingTable::BasePriority", "priority", &AsIs},
    {"ns3::RoceNic::RetransmitTimeout", "rto", &AsNanoseconds},
    {"ns3::PfcSwitch::BufferSize", "buffer", &AsBytes},
    {"ns3::PfcSwitch::PfcEnabled", "pfc", &AsFlag},
    {"ns3::PfcNetDevice::PfcEnabled", "pfc", &AsFlag},
    {"ns3::ForwardingTable::SourceRouted", "routing", &AsRouting},
    {"ns3::PfcNetDevice::DataRate", "rate", &AsIs},
    {"ns3::PfcChannel::Delay", "delay", &AsNanoseconds},
    {"RngSeed", "seed", &AsIs},
};

/// Attributes the driver sets from its options or the topology in a form an attribute
/// value cannot stand for: refused, naming what sets them.
const std::pair<const char*, const char*> kDriverSetAttributes[] = {
    {"ns3::RoceNic::CongestionControl", "--cc"},
    {"ns3::RoceNic::HostRank", "the host's rank in --topology"},
    {"ns3::PfcSwitch::MaxFrameBytes", "--mtu"},
    {"ns3::PfcSwitch::WatchdogDetection", "--pfc-watchdog"},
    {"ns3::PfcSwitch::WatchdogRestore", "--pfc-watchdog"},
    {"ns3::ForwardingTable::HashSeed", "--seed"},
};

/// The initial value of an attribute default or global as text ("" when unknown).
std::string
CurrentNs3Value(const std::string& name)
{
    if (name.rfind("ns3::", 0) != 0)
    {
        StringValue v;
        return GlobalValue::GetValueByNameFailSafe(name, v) ? v.Get() : "";
    }
    const size_t sep = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid) ||
        !tid.LookupAttributeByName(name.substr(sep + 2), &info))
    {
        return "";
    }
    return info.initialValue->SerializeToString(info.checker);
}

} // namespace

void
DriverOptions::SetNs3Attribute(const std::string& name, const std::string& value, bool hasValue)
{
    const std::string option = "--" + name;
    const bool isAttribute = name.rfind("ns3::", 0) == 0 && name.rfind("::") > 3;
    StringValue global;
    if (!isAttribute && !GlobalValue::GetValueByNameFailSafe(name, global))
    {
        throw OptionError(option + ": unknown option; allowed: the options --help lists, ns-3 "
                                   "attributes --ns3::Type::Attribute=VALUE and the globals "
                                   "--PrintGlobals lists");
    }
    if (!hasValue || value.empty())
    {
        throw OptionError(option + ": no value; allowed: " + option + "=VALUE");
    }
    for (const auto& given : ns3Given)
    {
        if (given.first == name)
        {
            throw OptionError(option + ": given more than once; allowed: once");
        }
    }
    if (isAttribute)
    {
        const size_t sep = name.rfind("::");
        const std::string typeName = name.substr(0, sep);
        const std::string attribute = name.substr(sep + 2);
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(typeName, &tid))
        {
            throw OptionError(option + ": '" + typeName +
                              "' is not an ns-3 type; allowed: a name --PrintTypeIds lists");
        }
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(attribute, &info))
        {
            throw OptionError(option + ": " + typeName + " has no attribute '" + attribute +
                              "'; allowed: one --PrintAttributes=" + typeName + " lists");
        }
        if (!Ns3Accepts(name, value, true))
        {
            throw OptionError(option + ": '" + value + "' is not a valid value; allowed: " +
                              info.checker->GetUnderlyingTypeInformation());
        }
    }
    else if (!Ns3Accepts(name, value, false))
    {
        throw OptionError(option + ": '" + value +
                          "' is not a valid value; allowed: see --PrintGlobals");
    }
    ns3Given.emplace_back(name, value);
}

bool
DriverOptions::SameAttributeValue(const std::string& attribute,
                                  const std::string& a,
                                  const std::string& b) const
{
    const auto valueOf = [&](const std::string& text) {
        DriverOptions scratch; // defaults, so that dependent parsers (--rto) have their inputs
        for (const auto& m : kMappedAttributes)
        {
            if (attribute == m.attribute)
            {
                *scratch.Table().Find(m.option)->text = text;
            }
        }
        scratch.Validate();
        for (const auto& [name, value] : scratch.Ns3Defaults())
        {
            if (name == attribute)
            {
                return value;
            }
        }
        return std::string();
    };
    try
    {
        return valueOf(a) == valueOf(b);
    }
    catch (const OptionError&)
    {
        return false;
    }
}

std::vector<std::pair<std::string, std::string>>
DriverOptions::Ns3Defaults() const
{
    std::vector<std::pair<std::string, std::string>> d = {
        {"ns3::RoceNic::Mtu", std::to_string(mtu)},
        {"ns3::RoceNic::Priority", std::to_string(priority)},
        {"ns3::ForwardingTable::BasePriority", std::to_string(priority)},
        {"ns3::RoceNic::RetransmitTimeout",
         std::to_string(static_cast<int64_t>(std::llround(rtoS * 1e9))) + "ns"},
        {"ns3::PfcSwitch::BufferSize", std::to_string(bufferBytes)},
        {"ns3::PfcSwitch::PfcEnabled", pfc ? "true" : "false"},
        {"ns3::PfcNetDevice::PfcEnabled", pfc ? "true" : "false"},
        {"ns3::ForwardingTable::SourceRouted", routing == "source" ? "true" : "false"},
        // Links take their own rate and delay (the topology's, else these).
        {"ns3::PfcNetDevice::DataRate",
         std::to_string(static_cast<uint64_t>(std::llround(rateBps))) + "bps"},
        {"ns3::PfcChannel::Delay",
         std::to_string(static_cast<int64_t>(std::llround(delayS * 1e9))) + "ns"},
        {"RngSeed", std::to_string(seed)},
        {"RngRun", std::to_string(rngRun)},
    };
    if (watchdogDetectionS > 0)
    {
        d.emplace_back("ns3::PfcSwitch::WatchdogDetection",
                       std::to_string(std::llround(watchdogDetectionS * 1e9)) + "ns");
        d.emplace_back("ns3::PfcSwitch::WatchdogRestore",
                       std::to_string(std::llround(watchdogRestoreS * 1e9)) + "ns");
    }
    return d;
}

void
DriverOptions::SetNs3Defaults() const
{
    for (const auto& [name, value] : Ns3Defaults())
    {
        const bool ok = name.rfind("ns3::", 0) == 0
                            ? Config::SetDefaultFailSafe(name, StringValue(value))
                            : Config::SetGlobalFailSafe(name, StringValue(value));
        if (!ok)
        {
            throw OptionError("--" + name + ": ns-3 does not take the driver's value " + value);
        }
    }
}

void
DriverOptions::ApplyNs3Given()
{
    LoadConfigStore();
    const OptionTable table = Table();
    std::set<std::string> fromAttributes; // options set by an attribute, each once
    for (const auto& [name, value] : ns3Given)
    {
        if (name == "RngRun")
        {
            rngRun = std::strtoull(value.c_str(), nullptr, 10); // ns-3 took it
        }
        for (const auto& [attribute, setBy] : kDriverSetAttributes)
        {
            if (name == attribute)
            {
                throw OptionError("--" + name + ": paramsync sets it on every object from " +
                                  setBy + "; allowed: " + setBy);
            }
        }
        // The attributes --preset=hpcc sets on the builder's factories: given beside it they
        // would be overridden, so the pair is refused.
        for (const std::string& attribute : NetworkBuilder::HpccMmuAttributeNames())
        {
            if (preset == "hpcc" && name == attribute)
            {
                throw OptionError("--" + name + "=" + value +
                                  ": conflicts with --preset=hpcc, which sets it to HPCC's "
                                  "value; allowed: one of the two");
            }
        }
        for (const auto& m : kMappedAttributes)
        {
            if (name != m.attribute)
            {
                continue;
            }
            const std::string option = std::string("--") + m.option;
            const std::string text = m.toOption(value);
            if (m_given.count(m.option) && !fromAttributes.count(m.option))
            {
                if (SameAttributeValue(name, *table.Find(m.option)->text, text))
                {
                    continue; // e.g. a loaded ns3-attributes.txt of a run with these options
                }
                throw OptionError("--" + name + "=" + value + ": conflicts with " + option + "=" +
                                  *table.Find(m.option)->text +
                                  ", which sets the same; "
                                  "allowed: one of the two");
            }
            if (fromAttributes.count(m.option))
            {
                if (*table.Find(m.option)->text != text)
                {
                    throw OptionError("--" + name + "=" + value +
                                      ": conflicts with another "
                                      "attribute that sets " +
                                      option + " to " + *table.Find(m.option)->text +
                                      "; allowed: one value");
                }
                continue;
            }
            fromAttributes.insert(m.option);
            table.Give(m.option, text, m_given);
            try
            {
                table.Find(m.option)->parse(text);
            }
            catch (const OptionError& e)
            {
                throw OptionError("--" + name + " (which sets " + option + "): " + e.what());
            }
        }
    }
}

void
DriverOptions::LoadConfigStore()
{
    bool load = false;
    for (const auto& [name, value] : ns3Given)
    {
        load |= name == "ns3::ConfigStore::Mode" && value == "Load";
    }
    if (!load)
    {
        return;
    }
    // The attributes a driver option sets: what the file changes becomes given, so that it
    // wins or conflicts like --ns3::Type::Attr= instead of being overridden silently.
    std::vector<std::pair<std::string, std::string>> before;
    for (const auto& m : kMappedAttributes)
    {
        before.emplace_back(m.attribute, CurrentNs3Value(m.attribute));
    }
    for (const auto& [attribute, setBy] : kDriverSetAttributes)
    {
        before.emplace_back(attribute, CurrentNs3Value(attribute));
    }
    before.emplace_back("RngRun", CurrentNs3Value("RngRun"));
    {
        ConfigStore store;
        store.ConfigureDefaults();
    }
    for (const auto& [name, old] : before)
    {
        const std::string now = CurrentNs3Value(name);
        const bool given = std::any_of(
            ns3Given.begin(), ns3Given.end(), [&](const auto& g) { return g.first == name; });
        if (now != old && !given)
        {
            ns3Given.emplace_back(name, now);
        }
    }
}

} // namespace ns3
