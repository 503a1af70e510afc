#include "lapse-wv-workload.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

LapseWvWorkload::LapseWvWorkload(LapsePs& ps,
                                 uint32_t nodes,
                                 uint64_t keys,
                                 const LapseWvConfig& config)
    : LapseWorkload(nodes * config.workersPerNode, config.epochs),
      m_ps(ps),
      m_config(config),
      m_workers(nodes * config.workersPerNode),
      m_negative(std::max<uint64_t>(config.vocab, 1), 0.75 * config.zipf),
      m_clocks(nodes * config.workersPerNode, config.clockSteps)
{
    if (config.vocab < 2 || keys != 2 * config.vocab || config.wordsPerEpoch < 2 ||
        config.context == 0)
    {
        throw std::invalid_argument("LapseWvWorkload: needs >= 2 words, two keys per word, "
                                    ">= 2 words per shard and a context >= 1 (got " +
                                    std::to_string(config.vocab) + " words, " +
                                    std::to_string(keys) + " keys, " +
                                    std::to_string(config.wordsPerEpoch) +
                                    " words per shard, "
                                    "context " +
                                    std::to_string(config.context) + ")");
    }
    if (m_workers == 0 || config.epochs == 0)
    {
        throw std::invalid_argument("LapseWvWorkload: workers and epochs must be > 0");
    }
    m_key.resize(keys);
    std::iota(m_key.begin(), m_key.end(), 0);
    std::mt19937_64 placement(config.seed);
    std::shuffle(m_key.begin(), m_key.end(), placement);
    // The pairs of a shard in order: each position with its contexts left to right.
    const int64_t n = config.wordsPerEpoch;
    const int64_t c = config.context;
    for (int64_t i = 0; i < n; ++i)
    {
        for (int64_t j = std::max<int64_t>(0, i - c); j <= std::min(n - 1, i + c); ++j)
        {
            if (j != i)
            {
                m_pairs.emplace_back(static_cast<uint32_t>(i), static_cast<uint32_t>(j));
            }
        }
    }
    const LapseZipfSampler words(config.vocab, config.zipf);
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        std::seed_seq s{config.seed, w};
        m_rng.emplace_back(s);
        std::vector<uint64_t> shard(config.wordsPerEpoch);
        for (uint64_t& word : shard)
        {
            word = words.Draw(m_rng.back());
        }
        m_shard.push_back(std::move(shard));
    }
    m_window.resize(m_workers);
    m_drawn.assign(m_workers, 0);
    m_left.assign(m_workers, 0);
}

std::vector<uint64_t>
LapseWvWorkload::Draw(uint32_t w)
{
    const auto& [i, j] = m_pairs[m_drawn[w] % m_pairs.size()];
    const uint64_t context = m_shard[w][j];
    std::vector<uint64_t> keys{InputKey(m_shard[w][i]), OutputKey(context)};
    for (uint32_t s = 0; s < m_config.negatives; ++s)
    {
        uint64_t negative = m_negative.Draw(m_rng[w]);
        while (negative == context)
        {
            negative = m_negative.Draw(m_rng[w]);
        }
        keys.push_back(OutputKey(negative));
    }
    return keys;
}

void
LapseWvWorkload::Prefetch(uint32_t w)
{
    std::vector<uint64_t> keys = Draw(w);
    ++m_drawn[w];
    m_window[w].push_back(keys);
    if (!m_config.dynamic)
    {
        return;
    }
    const uint32_t node = w / m_config.workersPerNode;
    if (m_config.batchLocalize)
    {
        m_ps.Localize(node, keys, nullptr);
        return;
    }
    for (uint64_t k : keys)
    {
        m_ps.Localize(node, k, nullptr);
    }
}

void
LapseWvWorkload::Start(Time at)
{
    Simulator::Schedule(at, [this]() { StartEpoch(); });
}

void
LapseWvWorkload::Next(uint32_t w)
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
    const std::vector<uint64_t> keys = std::move(m_window[w].front());
    m_window[w].pop_front();
    // Keep the window full, but never draw beyond the last epoch's pairs.
    const uint64_t total = static_cast<uint64_t>(Epochs()) * m_pairs.size();
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
    auto pulls = std::make_shared<size_t>(keys.size());
    auto pulled = [this, w, node, keys, pulls](double) {
        if (--*pulls > 0)
        {
            return;
        }
        // The pair's and the negatives' gradients.
        Simulator::Schedule(m_config.stepTime, [this, w, node, keys]() {
            auto pushes = std::make_shared<size_t>(keys.size());
            for (uint64_t k : keys)
            {
                m_ps.Push(node, k, 1.0, [this, w, pushes]() {
                    if (--*pushes == 0)
                    {
                        Next(w);
                    }
                });
            }
        });
    };
    for (uint64_t k : keys)
    {
        m_ps.Pull(node, k, pulled, clock);
    }
}

void
LapseWvWorkload::EpochDone(uint32_t w)
{
    FinishWorkerEpoch(w, w / m_config.workersPerNode, m_clocks, m_ps, [this]() { StartEpoch(); });
}

void
LapseWvWorkload::StartEpoch()
{
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        m_left[w] = m_pairs.size();
        Next(w);
    }
}

} // namespace ns3
