// LapsePs's bounded-staleness mode (Petuum's SSP, Ho et al., NIPS 2013): client caches,
// update buffers, clocks and server-side sync. The protocol is described in lapse-ps.h.
#include "lapse-ps.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
LapsePs::SspPull(uint32_t node, uint64_t key, std::function<void(double)> done, uint64_t clock)
{
    NS_ABORT_MSG_IF(node >= m_config.nodes || key >= m_config.keys,
                    "LapsePs: node " << node << " key " << key << " out of range");
    SspNode& n = m_ssp[node];
    auto row = n.cache.find(key);
    if (row != n.cache.end() && row->second.clock + m_config.staleness >= clock)
    {
        // Fresh enough: read from the node's cache (shared memory, no message).
        ++m_local;
        m_sspReads.push_back({node, key, clock, row->second.clock, row->second.value});
        if (done)
        {
            done(row->second.value);
        }
        return;
    }
    // From the home: over the network unless the node is the key's home (shared memory).
    ++(Home(key) == node ? m_local : m_remote);
    ++m_outstanding;
    const uint64_t seq = m_seq[node]++;
    n.waiting[seq] = {clock, std::move(done)};
    Message m{Kind::REQUEST, key, Op{node, seq, false, 0}, 0, 0, 0, {}, {}, clock};
    Send(node, Home(key), m);
}

void
LapsePs::SspPush(uint32_t node, uint64_t key, double delta)
{
    NS_ABORT_MSG_IF(node >= m_config.nodes || key >= m_config.keys,
                    "LapsePs: node " << node << " key " << key << " out of range");
    ++m_local;
    SspNode& n = m_ssp[node];
    n.buffer[key] += delta;
    auto row = n.cache.find(key);
    if (row != n.cache.end())
    {
        row->second.value += delta; // read-my-writes
    }
}

void
LapsePs::EndClock(uint32_t node, std::function<void()> flushed)
{
    NS_ABORT_MSG_IF(!m_config.ssp || node >= m_config.nodes,
                    "LapsePs: EndClock needs bounded staleness and a node in range");
    SspNode& n = m_ssp[node];
    if (flushed)
    {
        n.open.push_back(std::move(flushed));
    }
    if (++n.ended < m_config.workersPerNode)
    {
        return;
    }
    // Every worker of the node ended this clock: it is flushed after the flush in flight.
    n.ended = 0;
    ++n.endsWaiting;
    n.waitCbs.insert(n.waitCbs.end(), n.open.begin(), n.open.end());
    n.open.clear();
    if (!n.flushing)
    {
        SspStartFlush(node);
    }
}

void
LapsePs::SspStartFlush(uint32_t node)
{
    SspNode& n = m_ssp[node];
    n.flushing = true;
    n.covered = n.endsWaiting;
    n.endsWaiting = 0;
    n.flushCbs = std::move(n.waitCbs);
    n.waitCbs.clear();
    std::map<uint64_t, double> buffer = std::move(n.buffer);
    n.buffer.clear();
    n.flushAcks = buffer.size();
    if (buffer.empty())
    {
        Simulator::ScheduleNow(&LapsePs::SspFlushDone, this, node);
        return;
    }
    for (const auto& [key, delta] : buffer)
    {
        // One push per key with the updates of every worker of the node summed.
        Message m{Kind::REQUEST, key, Op{node, m_seq[node]++, true, delta}, 0, 0, 0, {}, {}, 0};
        Send(node, Home(key), m);
    }
}

void
LapsePs::SspFlushDone(uint32_t node)
{
    SspNode& n = m_ssp[node];
    n.flushing = false;
    n.clock += n.covered;
    std::vector<std::function<void()>> callbacks = std::move(n.flushCbs);
    n.flushCbs.clear();
    SspAdvance();
    for (auto& cb : callbacks)
    {
        cb();
    }
    if (n.endsWaiting > 0)
    {
        SspStartFlush(node);
    }
}

void
LapsePs::SspAdvance()
{
    uint64_t least = m_ssp[0].clock;
    for (const SspNode& n : m_ssp)
    {
        least = std::min(least, n.clock);
    }
    if (least <= m_minClock)
    {
        return;
    }
    m_minClock = least;
    // Reads held at their home until every update of clocks < c - s was applied.
    std::vector<std::pair<uint32_t, Message>> held = std::move(m_sspHeld);
    m_sspHeld.clear();
    for (auto& [server, m] : held)
    {
        SspServe(server, m);
    }
    if (!m_config.serverPush)
    {
        return;
    }
    // Server-side sync: each server sends each node caching its rows one message with the
    // updated ones (the rest only advance their clock).
    std::map<std::pair<uint32_t, uint32_t>, Message> rows; // (server, node) -> ROWS
    for (const auto& [key, nodes] : m_cachedAt)
    {
        const uint32_t server = Home(key);
        for (uint32_t node : nodes)
        {
            auto it = rows.find({server, node});
            if (it == rows.end())
            {
                Message m{Kind::ROWS, 0, Op{}, 0, 0, server, {}, {}, m_minClock};
                it = rows.emplace(std::make_pair(server, node), m).first;
            }
            if (m_updated.count(key))
            {
                it->second.keys.push_back(key);
                it->second.values.push_back(m_held[server].at(key).value);
            }
        }
    }
    m_updated.clear();
    for (auto& [pair, m] : rows)
    {
        Send(pair.first, pair.second, m);
    }
}

void
LapsePs::SspServe(uint32_t server, const Message& m)
{
    const uint64_t need = m.clock > m_config.staleness ? m.clock - m_config.staleness : 0;
    if (m_minClock < need)
    {
        m_sspHeld.emplace_back(server, m); // SSP: the read waits for the slowest node
        return;
    }
    const double value = Apply(server, m.key, m_held[server].at(m.key), m.op);
    m_cachedAt[m.key].insert(m.op.node);
    Message r{Kind::RESPONSE, m.key, m.op, value, 0, server, {}, {}, m_minClock};
    Send(server, m.op.node, r);
}

void
LapsePs::SspHandle(uint32_t node, const Message& m)
{
    SspNode& n = m_ssp[node];
    switch (m.kind)
    {
    case Kind::REQUEST:
        if (m.op.push)
        {
            // A flushed update: applied at the home and acknowledged.
            Apply(node, m.key, m_held[node].at(m.key), m.op);
            m_updated.insert(m.key);
            Message ack{Kind::RESPONSE, m.key, m.op, 0, 0, node, {}, {}, 0};
            Send(node, m.op.node, ack);
            return;
        }
        SspServe(node, m);
        return;
    case Kind::RESPONSE:
        if (m.op.push)
        {
            if (--n.flushAcks == 0)
            {
                SspFlushDone(node);
            }
            return;
        }
        {
            // The row with this node's updates not yet flushed (read-my-writes; updates in
            // a flush not yet applied at the home are missing until the next read).
            auto buffered = n.buffer.find(m.key);
            const double value = m.value + (buffered == n.buffer.end() ? 0 : buffered->second);
            SspRow& row = n.cache[m.key]; // a new row: clock 0
            if (row.clock <= m.clock)
            {
                row = SspRow{value, m.clock};
            }
            auto it = n.waiting.find(m.op.seq);
            NS_ABORT_MSG_IF(it == n.waiting.end(), "LapsePs: an SSP answer without its read");
            auto [clock, done] = std::move(it->second);
            n.waiting.erase(it);
            --m_outstanding;
            m_sspReads.push_back({node, m.key, clock, m.clock, value});
            if (done)
            {
                done(value);
            }
        }
        return;
    case Kind::ROWS:
        // Server-side sync: the sender's rows here are current as of its clock (a row a
        // later answer already refreshed keeps that answer).
        for (size_t i = 0; i < m.keys.size(); ++i)
        {
            SspRow& row = n.cache[m.keys[i]];
            if (row.clock <= m.clock)
            {
                auto buffered = n.buffer.find(m.keys[i]);
                row.value = m.values[i] + (buffered == n.buffer.end() ? 0 : buffered->second);
            }
        }
        for (auto& [key, row] : n.cache)
        {
            if (Home(key) == m.owner && row.clock < m.clock)
            {
                row.clock = m.clock;
            }
        }
        return;
    default:
        NS_ABORT_MSG("LapsePs: a message bounded staleness does not send");
    }
}

} // namespace ns3
