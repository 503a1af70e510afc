#include "shared-buffer-mmu.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

SharedBufferMmu::SharedBufferMmu(const Config& config)
    : m_queueReserveBytes(config.queueReserveBytes),
      m_hysteresisBytes(config.hysteresisBytes),
      m_losslessMask(config.pfcEnabled ? config.losslessMask : 0),
      m_dynamicThreshold(config.dynamicThreshold),
      m_config(config)
{
    if (!(config.headroomScale >= 0))
    {
        std::ostringstream os;
        os << "SharedBufferMmu: headroom scale = " << config.headroomScale << "; allowed: >= 0";
        throw std::invalid_argument(os.str());
    }
    if (config.queueReserveBytes > UINT32_MAX)
    {
        std::ostringstream os;
        os << "SharedBufferMmu: a queue reserve of " << config.queueReserveBytes
           << " B is over the 4 GiB a class's count holds; allowed: at most " << UINT32_MAX << " B";
        throw std::invalid_argument(os.str());
    }
    if (!(config.alpha > 0) || !(config.lossyAlpha > 0))
    {
        std::ostringstream os;
        os << "SharedBufferMmu: alpha = " << config.alpha << ", lossy alpha = " << config.lossyAlpha
           << "; allowed: both > 0";
        throw std::invalid_argument(os.str());
    }
}

uint32_t
SharedBufferMmu::AddPort(double rateBps, double delayS, double responseS)
{
    if (m_finalized)
    {
        throw std::logic_error("SharedBufferMmu::AddPort after Finalize");
    }
    if (!(rateBps > 0) || !(delayS >= 0) || !(responseS >= 0))
    {
        std::ostringstream os;
        os << "SharedBufferMmu: port " << m_ports.size() << " rate " << rateBps << " bit/s, delay "
           << delayS << " s, response " << responseS
           << " s; allowed: rate > 0, delay >= 0, response >= 0";
        throw std::invalid_argument(os.str());
    }
    Port p{};
    p.rateBps = rateBps;
    p.delayS = delayS;
    double bytes;
    if (m_config.headroomBdps > 0)
    {
        // HPCC's simulator: a multiple of the one-way bandwidth-delay product alone.
        bytes = m_config.headroomScale * m_config.headroomBdps * delayS * rateBps / 8.0;
    }
    else
    {
        // 2 x delay x rate + 3 x MTU + response time x rate (bytes), rounded up.
        bytes = m_config.headroomScale * (2.0 * delayS * rateBps / 8.0 + 3.0 * m_config.mtuBytes +
                                          (m_config.responseTimeS + responseS) * rateBps / 8.0);
    }
    p.headroom = static_cast<uint64_t>(std::ceil(bytes - 1e-9));
    // HPCC's free-buffer shift: one less per doubling of the port's rate above the reference
    // (the NIC rate), never below shift 0, i.e. alpha doubles while it stays <= 1.
    p.alpha = m_config.alpha;
    if (m_config.alphaReferenceRateBps > 0)
    {
        for (double r = rateBps; r > m_config.alphaReferenceRateBps && p.alpha * 2 <= 1.0; r /= 2)
        {
            p.alpha *= 2;
        }
    }
    m_ports.push_back(p);
    for (uint8_t q = 0; q < 8; ++q)
    {
        // The factor Admit checks the class against, in the line it reads anyway (a lossy
        // frame read m_config's line for it).
        Account a;
        a.alpha = Lossless(q) ? p.alpha : m_config.lossyAlpha;
        m_accounts.push_back(a);
    }
    return static_cast<uint32_t>(m_ports.size() - 1);
}

void
SharedBufferMmu::Finalize()
{
    uint64_t reserve = 0;
    uint32_t lossless = 0;
    for (uint8_t q = 0; q < 8; ++q)
    {
        lossless += Lossless(q) ? 1 : 0;
    }
    for (const Port& p : m_ports)
    {
        // Headroom and the private reserve of every lossless port-priority.
        reserve += (p.headroom + m_config.queueReserveBytes) * lossless;
    }
    if (reserve >= m_config.bufferBytes)
    {
        std::ostringstream os;
        os << "SharedBufferMmu: PFC headroom " << reserve << " B (" << m_ports.size() << " ports x "
           << lossless << " lossless priorities x (headroom + reserve)) does not fit the buffer of "
           << m_config.bufferBytes
           << " B; allowed: a larger BufferSize, fewer LosslessPriorities, or shorter links";
        throw std::invalid_argument(os.str());
    }
    m_sharedPool = m_config.bufferBytes - reserve;
    m_finalized = true;
}

uint64_t
SharedBufferMmu::HeadroomBytes(uint32_t port) const
{
    return m_ports.at(port).headroom;
}

double
SharedBufferMmu::Alpha(uint32_t port) const
{
    return m_ports.at(port).alpha;
}

uint64_t
SharedBufferMmu::Xoff(uint32_t port, uint8_t priority) const
{
    if (!m_dynamicThreshold)
    {
        return m_config.staticXoffBytes;
    }
    return DynamicLimit(AccountOf(port, priority));
}

uint64_t
SharedBufferMmu::DynamicLimit(const Account& a) const
{
    uint64_t free = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    return static_cast<uint64_t>(a.alpha * static_cast<double>(free));
}

uint64_t
SharedBufferMmu::LossyLimit() const
{
    uint64_t free = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_config.lossyAlpha * static_cast<double>(free));
}

uint64_t
SharedBufferMmu::Xon(uint32_t port, uint8_t priority) const
{
    uint64_t xoff = Xoff(port, priority);
    return xoff > m_hysteresisBytes ? xoff - m_hysteresisBytes : 0;
}

SharedBufferMmu::Admission
SharedBufferMmu::Admit(uint32_t port, uint8_t priority, uint32_t bytes)
{
    Account& a = AccountOf(port, priority);
    bool lossless = Lossless(priority);
    // A lossless port-priority fills its private reserve first; only the rest is shared.
    uint64_t toReserve = 0;
    if (lossless && a.hdrm == 0 && a.reserved < m_queueReserveBytes)
    {
        toReserve = std::min<uint64_t>(bytes, m_queueReserveBytes - a.reserved);
    }
    const uint64_t toShared = bytes - toReserve;
    // Every class stays in the shared pool up to its threshold: a lossy class that could
    // take every free byte would drive the lossless XOFF to zero.
    bool sharedOk = toShared == 0 ||
                    (m_sharedUsed + toShared <= m_sharedPool &&
                     a.shared + toShared <= (lossless ? Xoff(port, priority) : DynamicLimit(a)));
    if (sharedOk && a.hdrm == 0)
    {
        a.reserved += static_cast<uint32_t>(toReserve);
        a.shared += toShared;
        m_sharedUsed += toShared;
        return SHARED;
    }
    Port& p = m_ports[port];
    if (lossless && a.hdrm + bytes <= p.headroom)
    {
        a.hdrm += bytes;
        return HEADROOM;
    }
    ++p.drops[priority];
    p.droppedBytes[priority] += bytes;
    return DROP;
}

void
SharedBufferMmu::Release(uint32_t port, uint8_t priority, uint32_t bytes)
{
    Account& a = AccountOf(port, priority);
    uint64_t fromHdrm = bytes < a.hdrm ? bytes : a.hdrm;
    a.hdrm -= fromHdrm;
    uint64_t rest = bytes - fromHdrm;
    if (rest > a.shared + a.reserved)
    {
        throw std::logic_error("SharedBufferMmu::Release of bytes never admitted");
    }
    // Shared bytes leave before the reserve's (the reserve refills last, as in HPCC).
    uint64_t fromShared = std::min(rest, a.shared);
    a.shared -= fromShared;
    m_sharedUsed -= fromShared;
    a.reserved -= static_cast<uint32_t>(rest - fromShared);
}

bool
SharedBufferMmu::ShouldPause(uint32_t port, uint8_t priority) const
{
    if (!Lossless(priority))
    {
        return false;
    }
    const Account& a = AccountOf(port, priority);
    return a.hdrm > 0 || a.shared >= Xoff(port, priority);
}

bool
SharedBufferMmu::ShouldResume(uint32_t port, uint8_t priority) const
{
    const Account& a = AccountOf(port, priority);
    return a.hdrm == 0 && a.shared <= Xon(port, priority);
}

uint64_t
SharedBufferMmu::SharedBytes(uint32_t port, uint8_t priority) const
{
    return m_accounts.at(8 * static_cast<std::size_t>(port) + priority).shared;
}

uint64_t
SharedBufferMmu::ReservedBytes(uint32_t port, uint8_t priority) const
{
    return m_accounts.at(8 * static_cast<std::size_t>(port) + priority).reserved;
}

uint64_t
SharedBufferMmu::HeadroomUsed(uint32_t port, uint8_t priority) const
{
    return m_accounts.at(8 * static_cast<std::size_t>(port) + priority).hdrm;
}

uint64_t
SharedBufferMmu::Drops(uint32_t port, uint8_t priority) const
{
    return m_ports.at(port).drops[priority];
}

uint64_t
SharedBufferMmu::DroppedBytes(uint32_t port, uint8_t priority) const
{
    return m_ports.at(port).droppedBytes[priority];
}

uint64_t
SharedBufferMmu::TotalDrops() const
{
    uint64_t n = 0;
    for (const Port& p : m_ports)
    {
        for (uint64_t d : p.drops)
        {
            n += d;
        }
    }
    return n;
}

} // namespace ns3
