#include "queue-pair.h"

#include "congestion-control.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QueuePair);

TypeId
QueuePair::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QueuePair").SetParent<Object>().SetGroupName("Paramsync");
    return tid;
}

QueuePair::QueuePair() = default;

QueuePair::~QueuePair() = default;

void
QueuePair::DoDispose()
{
    m_rtoEvent.Cancel();
    m_rtoArmed = false;
    m_messages.clear();
    if (m_cc)
    {
        m_cc->Dispose();
        m_cc = nullptr;
    }
    Object::DoDispose();
}

uint32_t
QueuePair::GetNumber() const
{
    return m_number;
}

QpNumber
QueuePair::GetQpNumber() const
{
    return QpNumber{m_number};
}

uint32_t
QueuePair::GetSrcHost() const
{
    return m_srcHost;
}

uint32_t
QueuePair::GetDstHost() const
{
    return m_dstHost;
}

uint16_t
QueuePair::GetUdpSrcPort() const
{
    return m_udpSrcPort;
}

uint32_t
QueuePair::GetPort() const
{
    return m_port;
}

PfcPriority
QueuePair::GetPriority() const
{
    return PfcPriority{m_priority};
}

void
QueuePair::SetTag(uint32_t tag)
{
    m_tag = tag;
}

uint32_t
QueuePair::GetTag() const
{
    return m_tag;
}

Ptr<CongestionControl>
QueuePair::GetCongestionControl() const
{
    return m_cc;
}

uint64_t
QueuePair::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
QueuePair::GetRetransmittedPackets() const
{
    return m_retransmits;
}

uint64_t
QueuePair::GetBytesAcked() const
{
    return m_bytesAcked;
}

uint64_t
QueuePair::GetMessagesCompleted() const
{
    return m_completed;
}

uint64_t
QueuePair::GetMessagesPending() const
{
    return m_messages.size();
}

uint64_t
QueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
QueuePair::GetNacksReceived() const
{
    return m_nacksRecv;
}

uint64_t
QueuePair::GetCnpsReceived() const
{
    return m_cnpsRecv;
}

} // namespace ns3
