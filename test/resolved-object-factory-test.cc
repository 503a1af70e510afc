// ResolvedObjectFactory makes the objects ObjectFactory makes: the same type (GetObject finds
// them in an aggregate), every attribute equal to what ns-3's ConstructSelf gives (a value set
// on the factory, a default changed by Config::SetDefault, the rest the type's defaults), and
// values holding objects left to ns-3.
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/resolved-object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/// Every gettable attribute of obj's type and parents, "name=value;" in ConstructSelf order.
std::string
AttributeText(const Ptr<Object>& obj)
{
    std::string text;
    TypeId tid = obj->GetInstanceTypeId();
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
            info.accessor->Get(PeekPointer(obj), *value);
            text += info.name + "=" + value->SerializeToString(info.checker) + ";";
        }
        tid = tid.GetParent();
    } while (tid != ObjectBase::GetTypeId());
    return text;
}

} // namespace

TEST(ResolvedObjectFactory, DeviceAsObjectFactoryMakesIt)
{
    ResolvedObjectFactory resolved("ns3::PfcNetDevice");
    resolved.Set("Mtu", UintegerValue(4200));
    resolved.Set("Mtu", UintegerValue(2100));        // the later value wins, as in ObjectFactory
    resolved.Set("DataRate", StringValue("25Gbps")); // a string, parsed by the checker
    resolved.Resolve();
    ASSERT_TRUE(resolved.IsResolved());
    const Ptr<PfcNetDevice> fast = resolved.Create<PfcNetDevice>();
    const Ptr<PfcNetDevice> slow = resolved.Factory().Create<PfcNetDevice>();
    EXPECT_EQ(fast->GetInstanceTypeId(), PfcNetDevice::GetTypeId());
    EXPECT_EQ(fast->GetMtu(), 2100);
    EXPECT_EQ(fast->GetDataRate().GetBitRate(), 25000000000ULL);
    EXPECT_EQ(AttributeText(fast), AttributeText(slow));
    // Two objects, not one shared.
    EXPECT_NE(PeekPointer(resolved.Create<PfcNetDevice>()), PeekPointer(fast));
}

TEST(ResolvedObjectFactory, SwitchTakesCurrentDefaultsAndAggregates)
{
    // A default changed before Resolve is the value; one changed after waits for the next.
    Config::SetDefault("ns3::PfcChannel::Delay", TimeValue(NanoSeconds(250)));
    ResolvedObjectFactory channels("ns3::PfcChannel");
    channels.Resolve();
    Config::SetDefault("ns3::PfcChannel::Delay", TimeValue(NanoSeconds(750)));
    EXPECT_EQ(channels.Create<PfcChannel>()->GetDelay(), NanoSeconds(250));
    channels.Resolve();
    EXPECT_EQ(channels.Create<PfcChannel>()->GetDelay(), NanoSeconds(750));
    Config::SetDefault("ns3::PfcChannel::Delay", TimeValue(MicroSeconds(1))); // its default

    ResolvedObjectFactory switches("ns3::PfcSwitch");
    switches.Set("BufferSize", UintegerValue(123456));
    switches.Resolve();
    const Ptr<PfcSwitch> sw = switches.Create<PfcSwitch>();
    UintegerValue buffer;
    sw->GetAttribute("BufferSize", buffer);
    EXPECT_EQ(buffer.Get(), 123456U);
    EXPECT_EQ(AttributeText(sw), AttributeText(switches.Factory().Create<PfcSwitch>()));
    // GetObject walks an aggregate by each object's TypeId: a wrong one would not be found.
    const Ptr<Node> node = CreateObject<Node>();
    node->AggregateObject(sw);
    EXPECT_EQ(PeekPointer(node->GetObject<PfcSwitch>()), PeekPointer(sw));
    Simulator::Destroy();
}

TEST(ResolvedObjectFactory, ObjectValuedAttributesAndEnvironmentStayWithNs3)
{
    // SimpleNetDevice's ReceiveErrorModel and TxQueue are PointerValue attributes: ns-3 may
    // make an object per device from a string, so this factory does not share one.
    ResolvedObjectFactory simple("ns3::SimpleNetDevice");
    simple.Resolve();
    EXPECT_FALSE(simple.IsResolved());
    EXPECT_TRUE(simple.Create<Object>()); // still made, by ObjectFactory

    // Node's DeviceList and ApplicationList are object lists no accessor sets: resolved, and
    // each node still gets the next id from NodeList (its constructor's NodeList::Add).
    ResolvedObjectFactory nodes("ns3::Node");
    nodes.Resolve();
    EXPECT_TRUE(nodes.IsResolved());
    const Ptr<Node> first = nodes.Create<Node>();
    const Ptr<Node> second = nodes.Create<Node>();
    EXPECT_EQ(second->GetId(), first->GetId() + 1);
    EXPECT_EQ(second->GetNDevices(), 0U);
    Simulator::Destroy();

    // ConstructSelf reads NS_ATTRIBUTE_DEFAULT; an entry naming no attribute changes nothing.
    ResolvedObjectFactory tables("ns3::ForwardingTable");
    setenv("NS_ATTRIBUTE_DEFAULT", "ns3::NoSuchType::NoSuchAttribute=1", 1);
    tables.Resolve();
    unsetenv("NS_ATTRIBUTE_DEFAULT");
    EXPECT_FALSE(tables.IsResolved());
    tables.Resolve();
    EXPECT_TRUE(tables.IsResolved());
}
