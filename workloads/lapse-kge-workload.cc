#include "lapse-kge-workload.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

LapseZipfSampler::LapseZipfSampler(uint64_t n, double s)
{
    if (n == 0 || !(s >= 0))
    {
        throw std::invalid_argument("LapseZipfSampler: needs n > 0 and s >= 0 (got n = " +
                                    std::to_string(n) + ", s = " + std::to_string(s) + ")");
    }
    m_cdf.resize(n);
    double sum = 0;
    for (uint64_t r = 0; r < n; ++r)
    {
        sum += std::pow(static_cast<double>(r + 1), -s);
        m_cdf[r] = sum;
    }
    for (double& c : m_cdf)
    {
        c /= sum;
    }
}

uint64_t
LapseZipfSampler::Draw(std::mt19937_64& rng) const
{
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
    return std::min<uint64_t>(it - m_cdf.begin(), m_cdf.size() - 1);
}

LapseKgeWorkload::LapseKgeWorkload(LapsePs& ps,
                                   uint32_t nodes,
                                   uint64_t keys,
                                   const LapseKgeConfig& config)
    : LapseWorkload(nodes * config.workersPerNode, config.epochs),
      m_ps(ps),
      m_config(config),
      m_nodes(nodes),
      m_workers(nodes * config.workersPerNode),
      m_zipf(std::max<uint64_t>(config.entities, 1), config.zipf),
      m_clocks(nodes * config.workersPerNode, config.clockSteps)
{
    if (config.entities < 2 || config.relations == 0 || keys != config.entities + config.relations)
    {
        throw std::invalid_argument("LapseKgeWorkload: needs >= 2 entities, >= 1 relation and "
                                    "one key each (got " +
                                    std::to_string(config.entities) + " entities, " +
                                    std::to_string(config.relations) + " relations, " +
                                    std::to_string(keys) + " keys)");
    }
    if (config.clusterRelations && config.relations < nodes)
    {
        throw std::invalid_argument("LapseKgeWorkload: clustering by relation needs at least "
                                    "one relation per node (got " +
                                    std::to_string(config.relations) + " relations, " +
                                    std::to_string(nodes) + " nodes)");
    }
    if (m_workers == 0 || config.epochs == 0 || config.triplesPerEpoch == 0)
    {
        throw std::invalid_argument(
            "LapseKgeWorkload: workers, epochs and triples per epoch must be > 0");
    }
    m_key.resize(keys);
    std::iota(m_key.begin(), m_key.end(), 0);
    std::mt19937_64 placement(config.seed);
    std::shuffle(m_key.begin(), m_key.end(), placement);
    for (uint64_t r = 0; config.relationBytes > 0 && r < config.relations; ++r)
    {
        ps.SetValueBytes(m_key[r], config.relationBytes);
    }
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        std::seed_seq s{config.seed, w};
        m_rng.emplace_back(s);
    }
    m_window.resize(m_workers);
    m_drawn.assign(m_workers, 0);
    m_left.assign(m_workers, 0);
}

LapseKgeWorkload::Triple
LapseKgeWorkload::Draw(uint32_t w)
{
    std::mt19937_64& rng = m_rng[w];
    const uint64_t head = m_zipf.Draw(rng);
    uint64_t tail = m_zipf.Draw(rng);
    while (tail == head)
    {
        tail = m_zipf.Draw(rng);
    }
    uint64_t relation = rng() % m_config.relations;
    if (m_config.clusterRelations)
    {
        // The node's relations are node, node + N, node + 2N, ... < R.
        const uint64_t node = w / m_config.workersPerNode;
        const uint64_t own = (m_config.relations - node + m_nodes - 1) / m_nodes;
        relation = node + (relation % own) * m_nodes;
    }
    const uint64_t r = m_config.relations;
    return Triple{m_key[r + head], m_key[relation], m_key[r + tail]};
}

void
LapseKgeWorkload::Prefetch(uint32_t w)
{
    const Triple t = Draw(w);
    m_window[w].push_back(t);
    ++m_drawn[w];
    if (!m_config.dynamic)
    {
        return;
    }
    const uint32_t node = w / m_config.workersPerNode;
    if (m_config.batchLocalize)
    {
        m_ps.Localize(node, std::vector<uint64_t>{t.head, t.tail}, nullptr);
        return;
    }
    m_ps.Localize(node, t.head, nullptr);
    m_ps.Localize(node, t.tail, nullptr);
}

void
LapseKgeWorkload::Start(Time at)
{
    Simulator::Schedule(at, [this]() {
        if (m_config.clusterRelations && m_config.dynamic)
        {
            for (uint32_t node = 0; node < m_nodes; ++node)
            {
                std::vector<uint64_t> own;
                for (uint64_t rel = node; rel < m_config.relations; rel += m_nodes)
                {
                    own.push_back(m_key[rel]);
                }
                if (m_config.batchLocalize)
                {
                    m_ps.Localize(node, own, nullptr);
                    continue;
                }
                for (uint64_t k : own)
                {
                    m_ps.Localize(node, k, nullptr);
                }
            }
        }
        StartEpoch();
    });
}

void
LapseKgeWorkload::Next(uint32_t w)
{
    if (m_left[w] == 0)
    {
        EpochDone(w);
        return;
    }
    --m_left[w];
    if (m_window[w].empty())
    {
        Prefetch(w);
    }
    const Triple t = m_window[w].front();
    m_window[w].pop_front();
    // Keep the window full, but never draw beyond the last epoch's triples.
    const uint64_t total = static_cast<uint64_t>(m_config.epochs) * m_config.triplesPerEpoch;
    const uint32_t window = m_config.dynamic ? m_config.window : 0;
    while (m_window[w].size() < window && m_drawn[w] < total)
    {
        Prefetch(w);
    }
    const uint32_t node = w / m_config.workersPerNode;
    if (m_clocks.StepEndsClock(w))
    {
        m_ps.EndClock(node, nullptr);
    }
    const uint64_t clock = m_clocks.Clock(w);
    auto pulls = std::make_shared<int>(3);
    auto pulled = [this, w, node, t, pulls](double) {
        if (--*pulls > 0)
        {
            return;
        }
        // Score the triple (and its negative samples) and compute the updates.
        Simulator::Schedule(m_config.stepTime, [this, w, node, t]() {
            auto pushes = std::make_shared<int>(3);
            auto pushed = [this, w, pushes]() {
                if (--*pushes == 0)
                {
                    Next(w);
                }
            };
            m_ps.Push(node, t.head, 1.0, pushed);
            m_ps.Push(node, t.relation, 1.0, pushed);
            m_ps.Push(node, t.tail, 1.0, pushed);
        });
    };
    m_ps.Pull(node, t.head, pulled, clock);
    m_ps.Pull(node, t.relation, pulled, clock);
    m_ps.Pull(node, t.tail, pulled, clock);
}

void
LapseKgeWorkload::EpochDone(uint32_t w)
{
    FinishWorkerEpoch(w, w / m_config.workersPerNode, m_clocks, m_ps, [this]() { StartEpoch(); });
}

void
LapseKgeWorkload::StartEpoch()
{
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        m_left[w] = m_config.triplesPerEpoch;
        Next(w);
    }
}

} // namespace ns3
