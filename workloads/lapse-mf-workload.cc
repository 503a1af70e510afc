#include "lapse-mf-workload.h"

#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

LapseMfWorkload::LapseMfWorkload(LapsePs& ps,
                                 uint32_t nodes,
                                 uint64_t keys,
                                 const LapseMfConfig& config)
    : LapseWorkload(nodes * config.workersPerNode, config.epochs),
      m_ps(ps),
      m_nodes(nodes),
      m_keys(keys),
      m_config(config),
      m_workers(nodes * config.workersPerNode),
      m_rng(config.seed)
{
    if (m_workers == 0 || keys < m_workers)
    {
        throw std::invalid_argument("LapseMfWorkload: " + std::to_string(keys) +
                                    " keys cannot form a column block for each of " +
                                    std::to_string(m_workers) + " workers");
    }
    if (config.epochs == 0 || config.stepsPerBlock == 0)
    {
        throw std::invalid_argument("LapseMfWorkload: epochs and steps per block must be > 0");
    }
    m_stepsLeft.assign(m_workers, 0);
}

void
LapseMfWorkload::Start(Time at)
{
    Simulator::Schedule(at, [this]() {
        for (uint32_t w = 0; w < m_workers; ++w)
        {
            if (m_config.dynamic)
            {
                LocalizeBlock(w, BlockOf(w, 0)); // the first block, before working on it
            }
            StartBlock(w);
        }
    });
}

void
LapseMfWorkload::LocalizeBlock(uint32_t w, uint32_t b)
{
    const uint32_t node = w / m_config.workersPerNode;
    const uint64_t first = b * m_keys / m_workers;
    const uint64_t last = (b + 1) * m_keys / m_workers;
    if (m_config.batchLocalize)
    {
        std::vector<uint64_t> block;
        for (uint64_t k = first; k < last; ++k)
        {
            block.push_back(k);
        }
        m_ps.Localize(node, block, nullptr);
        return;
    }
    for (uint64_t k = first; k < last; ++k)
    {
        m_ps.Localize(node, k, nullptr);
    }
}

void
LapseMfWorkload::StartBlock(uint32_t w)
{
    m_stepsLeft[w] = m_config.stepsPerBlock;
    Step(w);
}

void
LapseMfWorkload::Step(uint32_t w)
{
    if (m_stepsLeft[w] == 0)
    {
        BlockDone(w);
        return;
    }
    --m_stepsLeft[w];
    const uint32_t node = w / m_config.workersPerNode;
    const uint32_t b = BlockOf(w, m_subEpoch);
    const uint64_t first = b * m_keys / m_workers;
    const uint64_t last = (b + 1) * m_keys / m_workers;
    const uint64_t key = first + m_rng() % (last - first);
    // One SGD step: read the column factor, compute, write the update back.
    m_ps.Pull(node, key, [this, w, node, key](double) {
        Simulator::Schedule(m_config.stepTime, [this, w, node, key]() {
            m_ps.Push(node, key, 1.0, [this, w]() { Step(w); });
        });
    });
}

void
LapseMfWorkload::BlockDone(uint32_t w)
{
    const bool lastBlock = m_subEpoch + 1 == m_workers && EpochsDone() + 1 == Epochs();
    if (m_config.dynamic && !lastBlock)
    {
        // Fetch the next sub-epoch's block while waiting at the barrier. (Earlier would
        // take it from the worker still using it: every block is in use in every sub-epoch.)
        LocalizeBlock(w, BlockOf(w, m_subEpoch + 1));
    }
    if (!ArriveAtBarrier(w))
    {
        return;
    }
    if (++m_subEpoch == m_workers)
    {
        m_subEpoch = 0;
        if (EndEpoch())
        {
            return;
        }
    }
    for (uint32_t v = 0; v < m_workers; ++v)
    {
        StartBlock(v);
    }
}

} // namespace ns3
