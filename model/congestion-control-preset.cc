#include "congestion-control-preset.h"

#include "roce-nic.h"

#include "ns3/abort.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

using Target = CongestionControlPreset::Target;
using Setting = CongestionControlPreset::Setting;

/// A RoceNic attribute.
Setting
Nic(const std::string& name, const std::string& value, const std::string& source)
{
    return Setting{Target::Nic, name, value, false, source};
}

/// A CongestionControl attribute.
Setting
Cc(const std::string& name, const std::string& value, const std::string& source)
{
    return Setting{Target::CongestionControl, name, value, false, source};
}

/// A CongestionControl data rate given for a 25 Gb/s NIC, scaled with the line rate.
Setting
CcPer25G(const std::string& name, const std::string& value, const std::string& source)
{
    return Setting{Target::CongestionControl, name, value, true, source};
}

/// The message for a preset's NIC setting that RoceNic does not take.
std::string
NicRejects(const std::string& preset, const std::string& attribute, const AttributeValue& value)
{
    return "congestion control preset '" + preset + "': RoceNic rejects " + attribute + "=" +
           value.SerializeToString(nullptr);
}

std::vector<CongestionControlPreset>
MakePresets()
{
    const std::string paper = "Zhu et al., SIGCOMM'15";
    const std::string authorsNs3 = "DCQCN authors' ns-3, bobzhuyb/ns3-rdma mix/config.txt";
    const std::string hpccRun = "HPCC simulator, alibaba-edu/High-Precision-Congestion-Control "
                                "simulation/run.py, --cc dcqcn";
    const std::string hpccHw = "HPCC simulator, simulation/src/point-to-point/model/rdma-hw.cc "
                               "(Mellanox mode)";
    std::vector<CongestionControlPreset> presets;
    presets.push_back(CongestionControlPreset{
        "none",
        "no congestion control: line rate, PFC alone; no CNP is generated",
        "ns3::RoceCcNone",
        {Nic("CnpEnabled", "false", "no reaction point, so no notification point")}});
    presets.push_back(CongestionControlPreset{
        "dcqcn",
        "DCQCN as published: the paper's parameters, the rest from its authors' ns-3 setup",
        "ns3::DcqcnCongestionControl",
        {Nic("CnpEnabled", "true", paper + " §3.2: the NP sends CNPs"),
         Nic("CnpInterval",
             "50us",
             paper + " §3.2 (at most one CNP per 50 us per flow); " + authorsNs3 +
                 " CNP_INTERVAL 50"),
         Cc("G",
            "0.00390625",
            paper + " §5 parameter table g = 1/256; " + authorsNs3 + " DCTCP_GAIN"),
         Cc("InitialAlpha", "1", paper + " §3.1 (alpha starts at 1)"),
         Cc("AlphaResumeInterval",
            "55us",
            paper + " §3.1 K = 55 us; " + authorsNs3 + " ALPHA_RESUME_INTERVAL 55"),
         Cc("RateDecreaseInterval",
            "50us",
            paper + " §3.1 (a cut per CNP, CNPs 50 us apart); HPCC run.py dcqcn_paper t_dec 50"),
         Cc("CutAtDecreaseCheck", "false", paper + " §3.1 (the RP cuts when the CNP arrives)"),
         Cc("RpTimer",
            "55us",
            paper + " §5 parameter table timer 55 us (" + authorsNs3 + ": RP_TIMER 60)"),
         Cc("ByteCounter",
            "10000000",
            paper + " §5 parameter table byte counter 10 MB (" + authorsNs3 +
                ": BYTE_COUNTER 300000)"),
         Cc("FastRecoveryStages",
            "5",
            paper + " §3.1 F = 5; " + authorsNs3 + " FAST_RECOVERY_TIMES 5"),
         Cc("RateAi", "40Mbps", authorsNs3 + " RATE_AI 40Mb/s"),
         Cc("RateHai", "200Mbps", authorsNs3 + " RATE_HAI 200Mb/s"),
         Cc("ClampTargetRate",
            "true",
            authorsNs3 + " CLAMP_TARGET_RATE 1; " + paper + " Fig. 6 (Rt = Rc at every cut)"),
         Cc("MinRate", "100Mbps", "not in the paper; HPCC's RdmaHw MinRate default")}});
    presets.push_back(CongestionControlPreset{
        "dcqcn-hpcc",
        "the DCQCN run of HPCC's simulator (Li et al., SIGCOMM'19)",
        "ns3::DcqcnCongestionControl",
        {Nic("CnpEnabled", "true", hpccHw + ": ECN-marked data makes the ACK carry a CNP"),
         Nic("CnpInterval", "0us", hpccHw + ": every ECN-marked packet is notified"),
         Nic("CnpInAck", "true", hpccHw + ": the notification is a flag on the ACK"),
         Nic("AckInterval", "1", hpccRun + " L2_ACK_INTERVAL 1 (ACK every packet)"),
         Cc("G", "0.00390625", hpccRun + " EWMA_GAIN 0.00390625"),
         Cc("InitialAlpha", "1", hpccHw + " (alpha = 1 at the first CNP)"),
         Cc("AlphaResumeInterval", "1us", hpccRun + " ALPHA_RESUME_INTERVAL 1"),
         Cc("RateDecreaseInterval", "4us", hpccRun + " RATE_DECREASE_INTERVAL 4"),
         Cc("CutAtDecreaseCheck",
            "true",
            hpccHw + ": the cut is applied at the periodic rate-decrease check"),
         Cc("RpTimer", "300us", hpccRun + " RP_TIMER 300"),
         Cc("ByteCounter", "0", hpccHw + ": rate increase by the timer alone"),
         Cc("FastRecoveryStages", "1", hpccRun + " FAST_RECOVERY_TIMES 1"),
         CcPer25G("RateAi", "5Mbps", hpccRun + " RATE_AI = 5 * bw / 25 Mb/s (bw in Gb/s)"),
         CcPer25G("RateHai", "50Mbps", hpccRun + " RATE_HAI = 50 * bw / 25 Mb/s"),
         Cc("ClampTargetRate", "false", hpccRun + " CLAMP_TARGET_RATE 0"),
         Cc("MinRate", "1000Mbps", hpccRun + " MIN_RATE 1000Mb/s")}});
    return presets;
}

} // namespace

const std::vector<CongestionControlPreset>&
CongestionControlPreset::All()
{
    static const std::vector<CongestionControlPreset> presets = MakePresets();
    return presets;
}

const CongestionControlPreset*
CongestionControlPreset::Find(const std::string& name)
{
    for (const auto& p : All())
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

std::string
CongestionControlPreset::Names()
{
    std::string names;
    for (const auto& p : All())
    {
        names += (names.empty() ? "" : ", ") + p.name;
    }
    return names;
}

void
CongestionControlPreset::ApplyTo(Ptr<RoceNic> nic, DataRate lineRate) const
{
    ApplyTo(nic, ParseValues(lineRate));
}

std::vector<Ptr<const AttributeValue>>
CongestionControlPreset::ParseValues(DataRate lineRate) const
{
    TypeId ccTid;
    const bool ccKnown = TypeId::LookupByNameFailSafe(ccType, &ccTid);
    std::vector<Ptr<const AttributeValue>> values;
    values.reserve(settings.size());
    for (const Setting& s : settings)
    {
        std::string value = s.value;
        if (s.per25Gbps)
        {
            // Integer arithmetic: 5 Mb/s at 25 Gb/s is 20 Mb/s at 100 Gb/s exactly.
            const uint64_t bps = DataRate(s.value).GetBitRate() * lineRate.GetBitRate() /
                                 DataRate("25Gbps").GetBitRate();
            value = std::to_string(bps) + "bps";
        }
        const StringValue text(value);
        // The checker's CreateValidValue is what SetAttribute applies to the text: handing
        // its result over instead only skips the parse.
        TypeId::AttributeInformation info;
        const bool known = s.target == Target::Nic
                               ? RoceNic::GetTypeId().LookupAttributeByName(s.name, &info)
                               : ccKnown && ccTid.LookupAttributeByName(s.name, &info);
        Ptr<const AttributeValue> parsed = known ? info.checker->CreateValidValue(text) : nullptr;
        values.push_back(parsed ? parsed : Ptr<const AttributeValue>(text.Copy()));
    }
    return values;
}

void
CongestionControlPreset::ApplyTo(Ptr<RoceNic> nic,
                                 const std::vector<Ptr<const AttributeValue>>& values) const
{
    NS_ABORT_MSG_UNLESS(values.size() == settings.size(),
                        "CongestionControlPreset::ApplyTo: values not from ParseValues");
    nic->SetAttribute("CongestionControl", StringValue(ccType));
    for (size_t i = 0; i < settings.size(); ++i)
    {
        const Setting& s = settings[i];
        if (s.target == Target::Nic && !nic->SetAttributeFailSafe(s.name, *values[i]))
        {
            throw std::invalid_argument(NicRejects(name, s.name, *values[i]));
        }
    }
    ApplyCongestionControlTo(*nic, values);
}

std::vector<CongestionControlPreset::NicAttribute>
CongestionControlPreset::NicAttributes() const
{
    std::vector<NicAttribute> attributes{{"CongestionControl", Create<StringValue>(ccType)}};
    const TypeId nicTid = RoceNic::GetTypeId();
    for (const Setting& s : settings)
    {
        if (s.target != Target::Nic)
        {
            continue;
        }
        // What SetAttributeFailSafe accepts: a known attribute, settable, a value its checker
        // takes (the text parsed as ParseValues parses it).
        const StringValue text(s.value);
        TypeId::AttributeInformation info;
        Ptr<const AttributeValue> parsed;
        if (nicTid.LookupAttributeByName(s.name, &info) && (info.flags & TypeId::ATTR_SET) &&
            (info.flags & TypeId::ATTR_CONSTRUCT))
        {
            parsed = info.checker->CreateValidValue(text);
        }
        if (!parsed)
        {
            throw std::invalid_argument(NicRejects(name, s.name, text));
        }
        attributes.emplace_back(s.name, parsed);
    }
    return attributes;
}

void
CongestionControlPreset::ApplyCongestionControlTo(
    RoceNic& nic, const std::vector<Ptr<const AttributeValue>>& values) const
{
    NS_ABORT_MSG_UNLESS(values.size() == settings.size(),
                        "CongestionControlPreset::ApplyCongestionControlTo: values not from "
                        "ParseValues");
    for (size_t i = 0; i < settings.size(); ++i)
    {
        if (settings[i].target == Target::CongestionControl)
        {
            nic.SetCongestionControlAttribute(settings[i].name, values[i]);
        }
    }
}

} // namespace ns3
