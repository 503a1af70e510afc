#include "lapse-ps.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

LapsePs::LapsePs(const LapseConfig& config)
    : m_config(config)
{
    if (config.nodes == 0 || config.keys == 0)
    {
        throw std::invalid_argument("LapsePs: nodes and keys must be > 0 (got " +
                                    std::to_string(config.nodes) + " nodes, " +
                                    std::to_string(config.keys) + " keys)");
    }
    const uint32_t n = config.nodes;
    m_held.resize(n);
    m_cache.resize(n);
    m_queue.resize(n);
    m_inFlight.resize(n);
    m_localizeDone.resize(n);
    m_seq.assign(n, 0);
    if (config.ssp)
    {
        m_ssp.resize(n);
    }
    m_owner.resize(config.keys);
    for (uint64_t k = 0; k < config.keys; ++k)
    {
        m_owner[k] = Home(k);
        Held& h = m_held[m_owner[k]][k];
        h.present = true;
    }
}

uint32_t
LapsePs::Home(uint64_t key) const
{
    // Range partition: keys [i K / N, (i+1) K / N) live at node i.
    return static_cast<uint32_t>(key * m_config.nodes / m_config.keys);
}

uint32_t
LapsePs::Owner(uint64_t key) const
{
    return m_owner.at(key);
}

std::optional<double>
LapsePs::Value(uint64_t key) const
{
    for (const auto& node : m_held)
    {
        auto it = node.find(key);
        if (it != node.end() && it->second.present)
        {
            return it->second.value;
        }
    }
    return std::nullopt;
}

void
LapsePs::SetValueBytes(uint64_t key, uint32_t bytes)
{
    NS_ABORT_MSG_IF(key >= m_config.keys, "LapsePs: key " << key << " out of range");
    m_valueBytes[key] = bytes;
}

uint32_t
LapsePs::ValueBytes(uint64_t key) const
{
    auto it = m_valueBytes.find(key);
    return it == m_valueBytes.end() ? m_config.valueBytes : it->second;
}

const std::vector<LapseApplied>&
LapsePs::AppliedLog(uint64_t key) const
{
    static const std::vector<LapseApplied> none;
    auto it = m_log.find(key);
    return it == m_log.end() ? none : it->second;
}

void
LapsePs::Pull(uint32_t node, uint64_t key, std::function<void(double)> done, uint64_t clock)
{
    if (m_config.ssp)
    {
        SspPull(node, key, std::move(done), clock);
        return;
    }
    Issue(node, key, false, 0, std::move(done));
}

void
LapsePs::Push(uint32_t node, uint64_t key, double delta, std::function<void()> done)
{
    if (m_config.ssp)
    {
        SspPush(node, key, delta);
        if (done)
        {
            done();
        }
        return;
    }
    Issue(node, key, true, delta, [done = std::move(done)](double) {
        if (done)
        {
            done();
        }
    });
}

void
LapsePs::Issue(
    uint32_t node, uint64_t key, bool push, double delta, std::function<void(double)> done)
{
    NS_ABORT_MSG_IF(node >= m_config.nodes || key >= m_config.keys,
                    "LapsePs: node " << node << " key " << key << " out of range");
    ++m_outstanding;
    auto& queue = m_queue[node][key];
    queue.push_back({Op{node, m_seq[node]++, push, delta}, std::move(done)});
    if (queue.size() == 1)
    {
        SendNext(node, key);
    }
}

void
LapsePs::SendNext(uint32_t node, uint64_t key)
{
    auto& queue = m_queue[node][key];
    if (queue.empty() || m_inFlight[node][key])
    {
        return;
    }
    auto held = m_held[node].find(key);
    if (held != m_held[node].end())
    {
        if (!held->second.present)
        {
            return; // the value is on its way here: served locally when it arrives
        }
        ++m_local;
        if (m_config.localAccessTime.IsStrictlyPositive())
        {
            // No fast local access: even a local key goes through the server thread (IPC).
            m_inFlight[node][key] = true;
            Simulator::Schedule(m_config.localAccessTime, [this, node, key]() {
                auto h = m_held[node].find(key);
                NS_ABORT_MSG_IF(h == m_held[node].end() || !h->second.present,
                                "LapsePs: a local key left during its local access");
                Complete(node, key, Apply(node, key, h->second, m_queue[node][key].front().op));
            });
            return;
        }
        const double value = Apply(node, key, held->second, queue.front().op);
        Complete(node, key, value);
        return;
    }
    ++m_remote;
    m_inFlight[node][key] = true;
    uint32_t target = Home(key);
    if (target == node)
    {
        target = m_owner[key]; // we are the home: we know the owner
    }
    if (m_config.locationCaches)
    {
        auto cached = m_cache[node].find(key);
        if (cached != m_cache[node].end())
        {
            target = cached->second;
        }
    }
    Message m{Kind::REQUEST, key, queue.front().op, 0, 0, 0, {}, {}, 0};
    Send(node, target, m);
}

void
LapsePs::Complete(uint32_t node, uint64_t key, double value)
{
    auto& queue = m_queue[node][key];
    NS_ABORT_MSG_IF(queue.empty(), "LapsePs: completion without an operation");
    Pending p = std::move(queue.front());
    queue.pop_front();
    m_inFlight[node][key] = false;
    --m_outstanding;
    if (p.done)
    {
        p.done(value);
    }
    SendNext(node, key);
}

double
LapsePs::Apply(uint32_t owner, uint64_t key, Held& held, const Op& op)
{
    if (op.push)
    {
        held.value += op.delta;
    }
    m_log[key].push_back({op.node, op.seq, op.push, op.push ? op.delta : held.value});
    return held.value;
}

void
LapsePs::Serve(uint32_t owner, uint64_t key, Held& held, const Message& m)
{
    const double value = Apply(owner, key, held, m.op);
    Message r{Kind::RESPONSE, key, m.op, value, 0, owner, {}, {}, 0};
    Send(owner, m.op.node, r);
}

void
LapsePs::Localize(uint32_t node, uint64_t key, std::function<void()> done)
{
    Localize(node, std::vector<uint64_t>{key}, std::move(done));
}

void
LapsePs::Localize(uint32_t node, const std::vector<uint64_t>& keys, std::function<void()> done)
{
    NS_ABORT_MSG_IF(m_config.ssp, "LapsePs: bounded staleness keeps every key at its home");
    std::map<uint32_t, std::vector<uint64_t>> byHome; // keys to fetch, one LOCALIZE per home
    std::vector<uint64_t> awaited;                    // keys whose value is not here yet
    for (uint64_t key : keys)
    {
        NS_ABORT_MSG_IF(node >= m_config.nodes || key >= m_config.keys,
                        "LapsePs: node " << node << " key " << key << " out of range");
        auto held = m_held[node].find(key);
        if (held != m_held[node].end() && held->second.present)
        {
            continue;
        }
        awaited.push_back(key);
        if (held != m_held[node].end())
        {
            continue; // already on its way here
        }
        m_held[node][key]; // awaiting: requests that reach us now wait for the value
        byHome[Home(key)].push_back(key);
        ++m_localizes;
    }
    if (done)
    {
        if (awaited.empty())
        {
            done();
        }
        else
        {
            // One callback per awaited key; the last one to arrive completes the batch.
            auto left = std::make_shared<size_t>(awaited.size());
            auto all = std::make_shared<std::function<void()>>(std::move(done));
            for (uint64_t key : awaited)
            {
                m_localizeDone[node][key].push_back([left, all]() {
                    if (--*left == 0)
                    {
                        (*all)();
                    }
                });
            }
        }
    }
    for (auto& [home, ks] : byHome)
    {
        Message m{Kind::LOCALIZE, 0, Op{}, 0, node, 0, std::move(ks), {}, 0};
        Send(node, home, m);
    }
}

void
LapsePs::Send(uint32_t from, uint32_t to, const Message& m)
{
    if (from == to)
    {
        // Same node: no network, handled as the next event.
        Simulator::ScheduleNow(&LapsePs::Handle, this, to, m);
        return;
    }
    uint64_t bytes = m_config.headerBytes;
    if (m.kind == Kind::TRANSFER)
    {
        for (uint64_t k : m.keys)
        {
            bytes += ValueBytes(k);
        }
    }
    else if (m.kind == Kind::ROWS)
    {
        for (uint64_t k : m.keys)
        {
            bytes += 8 + ValueBytes(k); // key and value of each updated row
        }
    }
    else if (m.kind == Kind::LOCALIZE || m.kind == Kind::HANDOVER)
    {
        bytes += 8 * (m.keys.size() - 1); // the key list of a batch
    }
    else if ((m.kind == Kind::REQUEST && m.op.push) || (m.kind == Kind::RESPONSE && !m.op.push))
    {
        bytes += ValueBytes(m.key);
    }
    m_mail.Post(from, to, m, bytes);
}

void
LapsePs::Delivered(uint32_t srcHost, uint32_t dstHost, uint32_t qp)
{
    Message m = m_mail.Take(srcHost, dstHost, qp);
    if (m_config.hostOverhead.IsStrictlyPositive())
    {
        Simulator::Schedule(m_config.hostOverhead, &LapsePs::Handle, this, dstHost, m);
        return;
    }
    Handle(dstHost, m);
}

void
LapsePs::Handle(uint32_t node, Message m)
{
    if (m_config.ssp)
    {
        SspHandle(node, m);
        return;
    }
    const uint64_t key = m.key;
    auto held = m_held[node].find(key);
    switch (m.kind)
    {
    case Kind::REQUEST:
        if (held != m_held[node].end() && held->second.present)
        {
            Serve(node, key, held->second, m);
        }
        else if (held != m_held[node].end())
        {
            held->second.waiting.push_back(m); // served when the value arrives
        }
        else if (node == Home(key))
        {
            Send(node, m_owner[key], m); // the home knows the owner
        }
        else
        {
            Send(node, Home(key), m); // a stale guess: ask the home
        }
        return;
    case Kind::RESPONSE:
        if (m_config.locationCaches)
        {
            m_cache[node][key] = m.owner;
        }
        Complete(node, key, m.value);
        return;
    case Kind::LOCALIZE:
    {
        // The home records the new owner of each key and asks each old owner, once, for
        // the keys it holds.
        std::map<uint32_t, std::vector<uint64_t>> byOwner;
        for (uint64_t k : m.keys)
        {
            const uint32_t old = m_owner[k];
            NS_ABORT_MSG_IF(old == m.newOwner,
                            "LapsePs: node " << old << " localizes key " << k
                                             << " it already owns");
            m_owner[k] = m.newOwner;
            byOwner[old].push_back(k);
        }
        for (auto& [old, ks] : byOwner)
        {
            Message h{Kind::HANDOVER, 0, Op{}, 0, m.newOwner, 0, std::move(ks), {}, 0};
            Send(node, old, h);
        }
        return;
    }
    case Kind::HANDOVER:
    {
        Message t{Kind::TRANSFER, 0, Op{}, 0, m.newOwner, 0, {}, {}, 0};
        for (uint64_t k : m.keys)
        {
            auto h = m_held[node].find(k);
            NS_ABORT_MSG_IF(h == m_held[node].end(),
                            "LapsePs: handover of key " << k << " at node " << node
                                                        << ", which neither owns nor awaits it");
            if (!h->second.present)
            {
                // Our own transfer first, then hand this key on (alone: the rest of the
                // batch need not wait for it).
                Message one = m;
                one.keys = {k};
                h->second.waiting.push_back(one);
                continue;
            }
            t.keys.push_back(k);
            t.values.push_back(h->second.value);
            m_held[node].erase(h);
            if (m_config.locationCaches)
            {
                m_cache[node][k] = m.newOwner;
            }
        }
        if (!t.keys.empty())
        {
            Send(node, m.newOwner, t);
        }
        return;
    }
    case Kind::TRANSFER:
        for (size_t i = 0; i < m.keys.size(); ++i)
        {
            Arrive(node, m.keys[i], m.values[i]);
        }
        return;
    case Kind::ROWS:
        NS_ABORT_MSG("LapsePs: rows pushed outside bounded staleness");
    }
}

void
LapsePs::Arrive(uint32_t node, uint64_t key, double value)
{
    Held& held = m_held[node][key];
    held.present = true;
    held.value = value;
    std::deque<Message> waiting = std::move(held.waiting);
    held.waiting.clear();
    // Our own operations first (they are why we localized), then the localize callbacks,
    // then the messages that waited here, in arrival order (a queued handover hands the key
    // on; what waited behind it is forwarded, as Handle does for a key we no longer hold).
    SendNext(node, key);
    auto callbacks = std::move(m_localizeDone[node][key]);
    m_localizeDone[node].erase(key);
    for (auto& cb : callbacks)
    {
        cb();
    }
    for (const Message& m : waiting)
    {
        Handle(node, m);
    }
}

} // namespace ns3
