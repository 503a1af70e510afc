/*
 * MessageMailbox<M>: typed messages over a SyncTransport. The transport moves bytes and
 * reports "a message from src reached dst on queue pair qp"; RC queue pairs deliver in
 * posting order, so the mailbox keeps one FIFO of posted messages per (src, dst, qp) and
 * hands the receiver back the message it posted. Jobs that exchange protocol messages
 * (AsyncPsJob, LapseJob) use it instead of each keeping its own FIFOs.
 */
#ifndef PARAMSYNC_MESSAGE_MAILBOX_H
#define PARAMSYNC_MESSAGE_MAILBOX_H

#include "sync-transport.h"

#include "ns3/abort.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <tuple>

namespace ns3
{

/**
 * \brief FIFOs of typed messages in flight over a SyncTransport (queue pair 0).
 */
template<typename M>
class MessageMailbox
{
  public:
    /// \brief The transport (not owned).
    void
    SetTransport(SyncTransport* transport)
    {
        m_transport = transport;
    }

    /**
     * \brief Posts m from srcHost to dstHost as `bytes` bytes on queue pair qp; onSent (may
     * be empty) fires when the sender sees it acknowledged.
     */
    void
    Post(uint32_t srcHost,
         uint32_t dstHost,
         const M& m,
         uint64_t bytes,
         uint32_t qp = 0,
         std::function<void()> onSent = nullptr)
    {
        NS_ABORT_MSG_IF(!m_transport, "MessageMailbox has no transport");
        m_inFlight[{srcHost, dstHost, qp}].push_back(m);
        m_bytes += bytes;
        ++m_messages;
        m_transport->Send(srcHost, dstHost, qp, bytes, std::move(onSent));
    }

    /// \brief The message that the transport reports delivered (FIFO per queue pair).
    M
    Take(uint32_t srcHost, uint32_t dstHost, uint32_t qp)
    {
        auto it = m_inFlight.find({srcHost, dstHost, qp});
        NS_ABORT_MSG_IF(it == m_inFlight.end() || it->second.empty(),
                        "MessageMailbox: a message " << srcHost << "->" << dstHost << " qp " << qp
                                                     << " that was never posted");
        M m = it->second.front();
        it->second.pop_front();
        return m;
    }

    /// \brief Bytes posted so far.
    uint64_t
    Bytes() const
    {
        return m_bytes;
    }
    /// \brief Messages posted so far.
    uint64_t
    Messages() const
    {
        return m_messages;
    }

  private:
    SyncTransport* m_transport{nullptr};                                          //!< moves bytes
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::deque<M>> m_inFlight; //!< FIFOs
    uint64_t m_bytes{0};                                                          //!< posted
    uint64_t m_messages{0};                                                       //!< posted
};

} // namespace ns3

#endif // PARAMSYNC_MESSAGE_MAILBOX_H
