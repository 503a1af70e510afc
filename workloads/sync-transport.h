/*
 * SyncTransport and MessageSink: the small interface between a job that exchanges messages
 * (SyncJob, AsyncPsJob, LapsePs) and what moves their bytes (RoceSyncTransport over RoCE
 * queue pairs in helper/, fake transports in tests). The transport moves bytes between
 * hosts and tells the job's MessageSink when a message's last byte arrived; the job knows
 * which message it was from the order it posted them (MessageMailbox).
 */
#ifndef PARAMSYNC_SYNC_TRANSPORT_H
#define PARAMSYNC_SYNC_TRANSPORT_H

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \brief Told when a message's last byte reached its destination host. Messages on one
 * (src host, dst host, queue pair) arrive in posting order (RC semantics), so the sink
 * knows which message it was from its own FIFO of posted messages.
 */
class MessageSink
{
  public:
    virtual ~MessageSink() = default;
    /// \brief A message from srcHost on queue pair qp reached dstHost.
    virtual void Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp) = 0;
};

/**
 * \brief How a job moves a transfer's bytes between hosts.
 */
class SyncTransport
{
  public:
    virtual ~SyncTransport() = default;
    /**
     * \brief Number of queue pairs from host src to host dst, one per equal-cost path: the
     * job stripes every transfer over them in equal parts.
     */
    virtual uint32_t QueuePairs(uint32_t srcHost, uint32_t dstHost) const = 0;
    /**
     * \brief Posts a message of `bytes` from srcHost to dstHost on queue pair `qp`.
     * Must call MessageSink::Delivered(srcHost, dstHost, qp) of the job when its last byte
     * reached dstHost
     * and onSent when the sender sees it complete (acknowledged).
     */
    virtual void Send(uint32_t srcHost,
                      uint32_t dstHost,
                      uint32_t qp,
                      uint64_t bytes,
                      std::function<void()> onSent) = 0;
};

} // namespace ns3

#endif // PARAMSYNC_SYNC_TRANSPORT_H
