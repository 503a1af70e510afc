// RoceSyncTransport makes its NICs with the ResolvedObjectFactory it is handed plus the
// preset's NIC settings, resolved once: each NIC must be the one
// ns-3's ObjectFactory::Create followed by CongestionControlPreset::ApplyTo made (every
// gettable attribute equal, the same per-QP congestion control), and a preset RoceNic
// rejects is still refused with its name.
#include "ns3/boolean.h"
#include "ns3/congestion-control-preset.h"
#include "ns3/congestion-control.h"
#include "ns3/network-builder.h"
#include "ns3/nstime.h"
#include "ns3/queue-pair.h"
#include "ns3/resolved-object-factory.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-sync-transport.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// Every gettable attribute of obj's type and parents, "name=value;" in ConstructSelf order.
std::string
AttributeText(const ObjectBase& obj)
{
    std::string text;
    TypeId tid = obj.GetInstanceTypeId();
    do
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            Ptr<AttributeValue> value = info.checker->Create();
            info.accessor->Get(&obj, *value);
            text += info.name + "=" + value->SerializeToString(info.checker) + ";";
        }
        tid = tid.GetParent();
    } while (tid != ObjectBase::GetTypeId());
    return text;
}

/// The NIC factory the driver hands RoceSyncTransport: --mtu, a priority, a timeout.
ResolvedObjectFactory
DriverNicFactory()
{
    RoceTransportConfig config;
    config.mtu = 1500;
    config.priority = 5;
    config.rto = MicroSeconds(300);
    return config.NicFactory();
}

/// A NIC as ns-3 makes it (ObjectFactory::Create) with a preset applied by name to it.
Ptr<RoceNic>
Ns3Nic(const ObjectFactory& factory, const CongestionControlPreset& preset, DataRate rate)
{
    Ptr<RoceNic> nic = factory.Create<RoceNic>();
    nic->SetAttribute("HostRank", UintegerValue(1));
    preset.ApplyTo(nic, rate);
    return nic;
}

} // namespace

TEST(ResolvedNicFactory, NicsEqualTheNs3FactorysBesideIt)
{
    // The driver's values, the later of two for one attribute, then a Set after a Resolve
    // replacing one of them: each time a NIC equal to the one ns-3's ObjectFactory with the
    // same Sets makes.
    ResolvedObjectFactory resolved = DriverNicFactory();
    resolved.Set("AckInterval", UintegerValue(7));
    resolved.Set("AckInterval", UintegerValue(9));
    const ObjectFactory& factory = resolved.Factory();
    resolved.Resolve();
    ASSERT_TRUE(resolved.IsResolved());
    const Ptr<RoceNic> fast = resolved.Create<RoceNic>();
    EXPECT_EQ(AttributeText(*fast), AttributeText(*factory.Create<RoceNic>()));
    UintegerValue value;
    fast->GetAttribute("Mtu", value);
    EXPECT_EQ(value.Get(), 1500U);
    fast->GetAttribute("AckInterval", value);
    EXPECT_EQ(value.Get(), 9U);
    TimeValue rto;
    fast->GetAttribute("RetransmitTimeout", rto);
    EXPECT_EQ(rto.Get(), MicroSeconds(300));

    resolved.Set("Mtu", UintegerValue(4000));
    resolved.Resolve();
    EXPECT_EQ(AttributeText(*resolved.Create<RoceNic>()),
              AttributeText(*resolved.Factory().Create<RoceNic>()));
    resolved.Factory().Create<RoceNic>()->GetAttribute("Mtu", value);
    EXPECT_EQ(value.Get(), 4000U); // the ns-3 factory beside it got the Set as well
}

TEST(ResolvedNicFactory, TransportNicsEqualNs3NicsWithThePresetApplied)
{
    // star:n=3 at 100 Gb/s: dcqcn-hpcc's rates per 25 Gb/s scale by 4 (RateAi 5 -> 20 Mb/s),
    // and its NIC settings (CnpInterval 0, CnpInAck, AckInterval 1) are not RoceNic's
    // defaults (50 us, false, 4): a NIC missing them would differ here.
    for (const std::string cc : {"dcqcn-hpcc", "dcqcn", "none"})
    {
        SCOPED_TRACE(cc);
        const CongestionControlPreset& preset = *CongestionControlPreset::Find(cc);
        auto topology = MakeTopology("star:n=3", 100e9, 1e-6);
        PfcNetwork net = NetworkBuilder().Build(*topology);
        const ResolvedObjectFactory factory = DriverNicFactory();
        RoceSyncTransport transport(net, factory, &preset);
        const DataRate rate = net.HostPorts(1).front()->GetDataRate();
        ASSERT_EQ(rate.GetBitRate(), 100000000000ULL);
        const Ptr<RoceNic> ns3Nic = Ns3Nic(factory.Factory(), preset, rate);
        const Ptr<RoceNic> nic = transport.Nic(1);
        EXPECT_EQ(AttributeText(*nic), AttributeText(*ns3Nic));
        if (cc == "dcqcn-hpcc")
        {
            BooleanValue inAck;
            nic->GetAttribute("CnpInAck", inAck);
            EXPECT_TRUE(inAck.Get());
            UintegerValue ackInterval;
            nic->GetAttribute("AckInterval", ackInterval);
            EXPECT_EQ(ackInterval.Get(), 1U);
        }
        // The preset's CongestionControl settings: a QP's congestion control the same as one
        // from the NIC ns-3 made (the NIC needs a port and table for a QP: host 0's).
        ns3Nic->AddPort(net.HostPorts(0).front());
        ns3Nic->SetForwardingTable(net.Host(0)->GetObject<ForwardingTable>());
        const Ptr<QueuePair> qp = nic->CreateQueuePair(2);
        const Ptr<QueuePair> ns3Qp = ns3Nic->CreateQueuePair(2);
        EXPECT_EQ(qp->GetCongestionControl()->GetInstanceTypeId().GetName(), preset.ccType);
        EXPECT_EQ(AttributeText(*qp->GetCongestionControl()),
                  AttributeText(*ns3Qp->GetCongestionControl()));
        Simulator::Destroy();
    }
}

TEST(ResolvedNicFactory, PresetRoceNicRejectsIsRefusedByName)
{
    // Mtu allows 64..9000: 10 is refused before any NIC is made, with the preset's name.
    CongestionControlPreset bad{
        "tiny-mtu",
        "a NIC setting out of range",
        "ns3::RoceCcNone",
        {{CongestionControlPreset::Target::Nic, "Mtu", "10", false, "test"}}};
    try
    {
        bad.NicAttributes();
        FAIL() << "Mtu=10 accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "congestion control preset 'tiny-mtu': RoceNic rejects Mtu=10");
    }
    // A name RoceNic does not have, and one it only reads (AckPriority), are refused too.
    bad.settings[0].name = "NoSuchAttribute";
    EXPECT_THROW(bad.NicAttributes(), std::invalid_argument);
    bad.settings[0] = {CongestionControlPreset::Target::Nic, "AckPriority", "3", false, "test"};
    EXPECT_THROW(bad.NicAttributes(), std::invalid_argument);
}
