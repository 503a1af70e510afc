// A test transport that delivers every message 100 us after it is posted (no bandwidth,
// no contention, no acknowledgement), so that every time in a protocol test can be derived
// by hand. Shared by the AsyncPsJob and LapsePs tests.
#ifndef PARAMSYNC_TEST_FIXED_LATENCY_TRANSPORT_H
#define PARAMSYNC_TEST_FIXED_LATENCY_TRANSPORT_H

#include "ns3/simulator.h"
#include "ns3/sync-transport.h"

namespace ns3
{

class FixedLatencyTransport : public SyncTransport
{
  public:
    explicit FixedLatencyTransport(MessageSink* sink)
        : m_sink(sink)
    {
    }

    uint32_t
    QueuePairs(uint32_t, uint32_t) const override
    {
        return 1;
    }

    void
    Send(uint32_t src, uint32_t dst, uint32_t qp, uint64_t, std::function<void()>) override
    {
        Simulator::Schedule(MicroSeconds(100), &MessageSink::Delivered, m_sink, src, dst, qp);
    }

  private:
    MessageSink* m_sink;
};

} // namespace ns3

#endif // PARAMSYNC_TEST_FIXED_LATENCY_TRANSPORT_H
