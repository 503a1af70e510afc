// FlaggedTracedCallback: the owner's flag follows whether a sink is connected, through the
// direct calls and through an Object's trace source (the accessor connects by the member's
// own type), and the sinks still fire.
#include "ns3/flagged-traced-callback.h"
#include "ns3/object.h"
#include "ns3/trace-source-accessor.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

void
Add(int* sum, int x)
{
    *sum += x;
}

/// An object with one flagged trace source, as PfcNetDevice's Dequeue.
class FlaggedSource : public Object
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FlaggedTracedCallbackTestSource")
                                .SetParent<Object>()
                                .AddTraceSource("Value",
                                                "A value (test).",
                                                MakeTraceSourceAccessor(&FlaggedSource::m_trace),
                                                "ns3::TracedValueCallback::Int32");
        return tid;
    }

    bool m_traced{true}; // set before the callback's constructor lowers it
    FlaggedTracedCallback<int> m_trace{&m_traced};
};

TEST(FlaggedTracedCallbackTest, TheFlagFollowsDirectConnections)
{
    bool connected = true;
    FlaggedTracedCallback<int> trace(&connected);
    EXPECT_FALSE(connected); // no sink yet
    int a = 0;
    int b = 0;
    trace.ConnectWithoutContext(MakeBoundCallback(&Add, &a));
    EXPECT_TRUE(connected);
    trace.ConnectWithoutContext(MakeBoundCallback(&Add, &b));
    trace(5);
    EXPECT_EQ(a, 5);
    EXPECT_EQ(b, 5);
    trace.DisconnectWithoutContext(MakeBoundCallback(&Add, &a));
    EXPECT_TRUE(connected); // b is still there
    trace.DisconnectWithoutContext(MakeBoundCallback(&Add, &b));
    EXPECT_FALSE(connected);
}

TEST(FlaggedTracedCallbackTest, TheFlagFollowsConnectionsThroughTheObjectsTraceSource)
{
    Ptr<FlaggedSource> source = CreateObject<FlaggedSource>();
    EXPECT_FALSE(source->m_traced);
    int sum = 0;
    ASSERT_TRUE(source->TraceConnectWithoutContext("Value", MakeBoundCallback(&Add, &sum)));
    EXPECT_TRUE(source->m_traced);
    source->m_trace(3);
    EXPECT_EQ(sum, 3);
    ASSERT_TRUE(source->TraceDisconnectWithoutContext("Value", MakeBoundCallback(&Add, &sum)));
    EXPECT_FALSE(source->m_traced);
}

} // namespace
} // namespace ns3
