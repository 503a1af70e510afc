// PfcNetDevice's warming hooks (warmable-event.h): which receiver's warm function a frame's
// arrival reaches, at which stage and port, through the plain function the device keeps in
// its receive line (FrameReceiveWarmer); and which puller a transmit event expects
// (LikelyPuller); and which hints (the addresses a receiver or puller named for the port,
// PortWarmHints, PullWarmHint) reach their first stage. Warming only prefetches, so no
// simulation result can show a wrong receiver or hint: these tests record the calls instead.
#include "ns3/pfc-net-device.h"
#include "ns3/roce-frame.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

/// One call of a warm function: (stage, port, destination host of the frame, the hint it
/// was handed: PortWarmHints::port, or a puller's hint).
struct WarmCall
{
    int stage;
    uint32_t port;
    uint32_t dstHost;
    const void* hint{nullptr};

    bool
    operator==(const WarmCall& o) const
    {
        return stage == o.stage && port == o.port && dstHost == o.dstHost && hint == o.hint;
    }
};

/// Per-port state a test receiver or puller names as its hints: port p's is &ports[p].
struct HintedState
{
    uint64_t ports[16]{};
    uint64_t shared{0};
};

/// A relay that records its WarmRelayReceive calls. With ownWarmer, it returns
/// WarmReceiveOf<itself> (as PfcSwitch does); otherwise the interface's default, which makes
/// the virtual call.
class RecordingRelay : public PfcFrameRelay
{
  public:
    explicit RecordingRelay(bool ownWarmer)
        : m_ownWarmer(ownWarmer)
    {
    }

    void
    RelayReceive(
        uint32_t, PfcNetDevice&, FrameRef, uint8_t, const RoceFrameInfo*, uint32_t) override
    {
    }

    FrameRef
    RelayPull(uint32_t, uint8_t, RoceFrameInfo&, uint32_t&) override
    {
        return FrameRef();
    }

    void
    WarmRelayReceive(int stage,
                     uint32_t port,
                     const RoceFrameInfo& info,
                     const PortWarmHints& hints) const override
    {
        calls.push_back({stage, port, info.dstHost, hints.port});
        shared.push_back(hints.shared);
    }

    PortWarmHints
    ReceiveWarmHints(uint32_t port) const override
    {
        return {&state.ports[port], &state.shared};
    }

    void
    WarmRelayPull(int stage, uint32_t port, uint8_t backlog, const void* hint) const override
    {
        pulls.push_back({stage, port, backlog, hint});
    }

    const void*
    PullWarmHint(uint32_t port) const override
    {
        return &state.ports[port];
    }

    FrameReceiveWarmer
    GetReceiveWarmer() const override
    {
        return m_ownWarmer ? &WarmReceiveOf<RecordingRelay> : PfcFrameRelay::GetReceiveWarmer();
    }

    mutable std::vector<WarmCall> calls;
    mutable std::vector<const void*> shared; //!< the shared hint of each call
    mutable std::vector<WarmCall> pulls;     //!< WarmRelayPull: dstHost holds the backlog
    HintedState state;

  private:
    bool m_ownWarmer;
};

/// A padding base, so that the sink's PfcFrameSink subobject does not start at the object's
/// address: the warmer must be given the subobject's address and convert it back.
struct Padding
{
    virtual ~Padding() = default;
    uint64_t words[5]{};
};

/// A sink (second base, as RoceNic's) that records its WarmSinkReceive calls (port: 0).
/// With ownWarmer it returns WarmReceiveOf<itself> (as RoceNic does), else the default.
class RecordingSink : public Padding, public PfcFrameSink
{
  public:
    explicit RecordingSink(bool ownWarmer = true)
        : m_ownWarmer(ownWarmer)
    {
    }

    void
    SinkReceive(PfcNetDevice&, FrameRef, uint8_t, const RoceFrameInfo*) override
    {
    }

    void
    WarmSinkReceive(int stage, const RoceFrameInfo& info) const override
    {
        calls.push_back({stage, 0, info.dstHost});
    }

    FrameReceiveWarmer
    GetReceiveWarmer() const override
    {
        return m_ownWarmer ? &WarmReceiveOf<RecordingSink> : PfcFrameSink::GetReceiveWarmer();
    }

    mutable std::vector<WarmCall> calls;

  private:
    bool m_ownWarmer;
};

/// A frame source that never has a frame; records its WarmSourcePull calls.
class IdleSource : public Padding, public PfcFrameSource
{
  public:
    FrameRef
    SourcePull(uint32_t, uint8_t, RoceFrameInfo&, uint32_t&) override
    {
        return FrameRef();
    }

    void
    WarmSourcePull(int stage, uint32_t port, const void* hint) const override
    {
        pulls.push_back({stage, port, 0, hint});
    }

    const void*
    PullWarmHint(uint32_t port) const override
    {
        return &state.ports[port];
    }

    mutable std::vector<WarmCall> pulls;
    HintedState state;
};

RoceFrameInfo
FrameFor(uint32_t dstHost)
{
    RoceFrameInfo info{};
    info.dstHost = dstHost;
    return info;
}

TEST(PfcNetDeviceWarm, AnArrivalReachesTheRelayOneStageDownAtItsPort)
{
    for (bool ownWarmer : {true, false})
    {
        RecordingRelay relay(ownWarmer);
        Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
        dev->SetFrameRelay(&relay, 7);
        // Stage 1 is the device's own receive line: the relay is not called.
        dev->WarmReceive(1, FrameFor(42));
        EXPECT_TRUE(relay.calls.empty());
        // Stages 2 and 3 are the relay's 1 and 2, at the port the device has there (7), with
        // the hints the relay named for port 7.
        dev->WarmReceive(2, FrameFor(42));
        dev->WarmReceive(3, FrameFor(43));
        const void* port7 = &relay.state.ports[7];
        const std::vector<WarmCall> expected{{1, 7, 42, port7}, {2, 7, 43, port7}};
        EXPECT_EQ(relay.calls, expected) << (ownWarmer ? "own warmer" : "default warmer");
        EXPECT_EQ(relay.shared,
                  (std::vector<const void*>{&relay.state.shared, &relay.state.shared}));
        dev->Dispose();
    }
}

TEST(PfcNetDeviceWarm, AnArrivalAtAHostReachesTheSinkOneStageDown)
{
    for (bool ownWarmer : {true, false})
    {
        RecordingSink sink(ownWarmer);
        Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
        dev->SetFrameSink(&sink);
        dev->WarmReceive(1, FrameFor(9));
        dev->WarmReceive(3, FrameFor(10));
        const std::vector<WarmCall> expected{{2, 0, 10}};
        EXPECT_EQ(sink.calls, expected) << (ownWarmer ? "own warmer" : "default warmer");
        dev->Dispose();
    }
}

TEST(PfcNetDeviceWarm, TheWarmerFollowsTheReceiverFramesGoTo)
{
    RecordingRelay relay(true);
    RecordingSink sink;
    Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
    // No receiver yet: nothing to call.
    dev->WarmReceive(2, FrameFor(1));
    // The relay receives.
    dev->SetFrameRelay(&relay, 3);
    dev->WarmReceive(2, FrameFor(2));
    // A sink takes the frames from the relay: it is warmed (through its PfcFrameSink
    // subobject, which is not at the object's address), the relay no longer.
    dev->SetFrameSink(&sink);
    dev->WarmReceive(2, FrameFor(3));
    dev->WarmReceive(4, FrameFor(4));
    // A callback takes them from the sink: neither is warmed.
    dev->SetFrameReceiveCallback(
        PfcNetDevice::FrameReceiveCallback([](Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t) {}));
    dev->WarmReceive(2, FrameFor(5));
    // The relay set again receives again.
    dev->SetFrameRelay(&relay, 3);
    dev->WarmReceive(3, FrameFor(6));
    const void* port3 = &relay.state.ports[3];
    const std::vector<WarmCall> relayExpected{{1, 3, 2, port3}, {2, 3, 6, port3}};
    const std::vector<WarmCall> sinkExpected{{1, 0, 3}, {3, 0, 4}};
    EXPECT_EQ(relay.calls, relayExpected);
    EXPECT_EQ(sink.calls, sinkExpected);
    // Disposed: no receiver is left to call.
    dev->Dispose();
    dev->WarmReceive(2, FrameFor(7));
    EXPECT_EQ(relay.calls, relayExpected);
    EXPECT_EQ(sink.calls, sinkExpected);
}

TEST(PfcNetDeviceWarm, TheLikelyPullerIsTheRelayWithABacklogElseTheSource)
{
    RecordingRelay relay(true);
    IdleSource source;
    Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
    EXPECT_EQ(dev->LikelyPuller(), nullptr);
    dev->SetFrameSource(&source, 0);
    // The PfcFrameSource subobject (where its vptr is), not the object's address.
    const void* sourceBase = static_cast<const PfcFrameSource*>(&source);
    ASSERT_NE(sourceBase, static_cast<const void*>(&source));
    EXPECT_EQ(dev->LikelyPuller(), sourceBase);
    // A relaying host's port: the relay only while it has a backlog.
    dev->SetFrameRelay(&relay, 1);
    EXPECT_EQ(dev->LikelyPuller(), sourceBase);
    dev->SetRelayBacklog(3, true);
    EXPECT_EQ(dev->LikelyPuller(), static_cast<const void*>(&relay));
    dev->SetRelayBacklog(3, false);
    EXPECT_EQ(dev->LikelyPuller(), sourceBase);
    dev->Dispose();
}

TEST(PfcNetDeviceWarm, ATransmissionsWarmingGetsThePullersHintForItsPort)
{
    // WarmTransmit's stage 1 is the device's own lines; from stage 2 on it calls the puller
    // one stage down with the hint the puller named for the device's port (PullWarmHint,
    // asked when the puller is set). A device keeps one: the relay's when it has one (its
    // source then warms without a hint), else the source's.
    RecordingRelay relay(true);
    IdleSource source;
    Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
    dev->SetFrameSource(&source, 2);
    dev->WarmTransmit(1);
    dev->WarmTransmit(2);
    EXPECT_EQ(source.pulls, (std::vector<WarmCall>{{1, 2, 0, &source.state.ports[2]}}));
    dev->SetFrameRelay(&relay, 5);
    dev->WarmTransmit(2);          // no backlog: the source, without a hint
    dev->SetRelayBacklog(3, true); // backlog 0b1000
    dev->WarmTransmit(3);
    EXPECT_EQ(source.pulls.back(), (WarmCall{1, 2, 0, nullptr}));
    EXPECT_EQ(relay.pulls, (std::vector<WarmCall>{{2, 5, 8, &relay.state.ports[5]}}));
    // Asked again when the relay is set again (as after its state moved: RefreshWarmHints).
    dev->SetFrameRelay(&relay, 6);
    dev->WarmTransmit(2);
    EXPECT_EQ(relay.pulls.back(), (WarmCall{1, 6, 8, &relay.state.ports[6]}));
    dev->Dispose();
}

} // namespace
} // namespace ns3
