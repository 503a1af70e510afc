/**
 * \file
 * \brief CongestionControlPreset: named sets of congestion-control settings (the NIC's
 * notification point and ACKs, the per-QP CongestionControl's type and attributes), each
 * value with its source, so that `--cc=NAME` reproduces a published configuration.
 *
 * Presets: "none" (line rate, PFC alone, no CNP generated), "dcqcn" (Zhu et al., SIGCOMM'15,
 * and the authors' ns-3 configuration), "dcqcn-hpcc" (the DCQCN run of HPCC's simulator,
 * Li et al., SIGCOMM'19: its run.py and rdma-hw.cc). README "Congestion control presets"
 * tabulates them.
 */
#ifndef PARAMSYNC_CONGESTION_CONTROL_PRESET_H
#define PARAMSYNC_CONGESTION_CONTROL_PRESET_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ptr.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RoceNic;

/**
 * \brief One named congestion-control configuration: plain data, applied to a NIC.
 */
struct CongestionControlPreset
{
    /// \brief Which object a setting goes to.
    enum class Target
    {
        Nic,              //!< a RoceNic attribute
        CongestionControl //!< an attribute of every QP's CongestionControl
    };

    /// \brief One attribute value and where it comes from.
    struct Setting
    {
        Target target;      //!< object
        std::string name;   //!< attribute name
        std::string value;  //!< value as ns-3 parses it ("55us", "40Mbps", "5", "true")
        bool per25Gbps;     //!< value is a data rate for a 25 Gb/s NIC, scaled to the line rate
        std::string source; //!< paper or file the value comes from
    };

    std::string name;              //!< --cc name
    std::string description;       //!< one line
    std::string ccType;            //!< CongestionControl TypeId name
    std::vector<Setting> settings; //!< in the order applied

    /**
     * \brief Set the NIC's CongestionControl type, its attributes and the preset's
     * CongestionControl attributes for a NIC whose ports run at lineRate. Call before the
     * NIC's first QP. Throws std::invalid_argument on a setting the objects reject.
     */
    void ApplyTo(Ptr<RoceNic> nic, DataRate lineRate) const;

    /**
     * \brief The settings' values at lineRate, one per setting in order: parsed by the
     * attribute's own checker (the same value the object would parse from the text), or the
     * text itself where the attribute is unknown or rejects it (ApplyTo then throws for it).
     * A network of 8,192 NICs at one rate parses them once instead of per NIC.
     */
    std::vector<Ptr<const AttributeValue>> ParseValues(DataRate lineRate) const;
    /**
     * \brief ApplyTo with values from ParseValues of this preset (the same effect as
     * ApplyTo(nic, lineRate) with the lineRate they were parsed for).
     */
    void ApplyTo(Ptr<RoceNic> nic, const std::vector<Ptr<const AttributeValue>>& values) const;

    /// \brief A RoceNic attribute (name, value) the preset sets.
    using NicAttribute = std::pair<std::string, Ptr<const AttributeValue>>;
    /**
     * \brief The RoceNic attributes ApplyTo sets, in its order: CongestionControl (the type),
     * then the NIC settings, each parsed by RoceNic's checker. None scales with the line
     * rate, so a NIC factory can take them once for every NIC (RoceSyncTransport). Throws
     * std::invalid_argument, as ApplyTo, on a setting RoceNic rejects.
     */
    std::vector<NicAttribute> NicAttributes() const;
    /**
     * \brief The CongestionControl half of ApplyTo: the settings for the NIC's QPs, with
     * values from ParseValues; the NIC must have its CongestionControl type already (from
     * NicAttributes).
     */
    void ApplyCongestionControlTo(RoceNic& nic,
                                  const std::vector<Ptr<const AttributeValue>>& values) const;

    /// \brief The preset called name, nullptr if there is none.
    static const CongestionControlPreset* Find(const std::string& name);
    /// \brief Every preset, in a fixed order ("none", "dcqcn", "dcqcn-hpcc").
    static const std::vector<CongestionControlPreset>& All();
    /// \brief The names, comma separated (for error messages and --help).
    static std::string Names();
};

} // namespace ns3

#endif // PARAMSYNC_CONGESTION_CONTROL_PRESET_H
