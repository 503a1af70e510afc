/*
 * LapseWorkload: what the driver needs of a workload that runs on a LapsePs (matrix
 * factorization, knowledge-graph embeddings): start it, know when it is done, and read its
 * epoch ends and barrier waits for the metrics.
 */
#ifndef PARAMSYNC_LAPSE_WORKLOAD_H
#define PARAMSYNC_LAPSE_WORKLOAD_H

#include "lapse-ps.h"

#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <functional>
#include <vector>

namespace ns3
{

/**
 * \brief The clocks of the workers under bounded staleness (LapsePs's ssp mode): a worker's
 * clock ends every `steps` steps and at the end of each epoch (steps = 0: no clocks).
 */
class LapseClocks
{
  public:
    LapseClocks(uint32_t workers, uint32_t steps)
        : m_steps(steps),
          m_clock(workers, 0),
          m_inClock(workers, 0)
    {
    }
    /// \brief Whether the workers count clocks.
    bool
    On() const
    {
        return m_steps > 0;
    }
    /// \brief Worker w starts a step. \return whether its clock ended before it.
    bool
    StepEndsClock(uint32_t w)
    {
        if (!On())
        {
            return false;
        }
        if (m_inClock[w] == m_steps)
        {
            m_inClock[w] = 1;
            ++m_clock[w];
            return true;
        }
        ++m_inClock[w];
        return false;
    }
    /// \brief Worker w ended an epoch, and with it its clock.
    void
    EpochEnds(uint32_t w)
    {
        m_inClock[w] = 0;
        ++m_clock[w];
    }
    /// \brief Worker w's clock.
    uint64_t
    Clock(uint32_t w) const
    {
        return m_clock.empty() ? 0 : m_clock[w];
    }

  private:
    uint32_t m_steps;                //!< steps per clock
    std::vector<uint64_t> m_clock;   //!< per worker
    std::vector<uint32_t> m_inClock; //!< per worker: steps in its open clock
};

/**
 * \brief What every Lapse workload's workers share: how many per node, their compute per
 * step, the epochs, the allocation mode and the seed. Each workload's config extends it.
 */
struct LapseWorkerConfig
{
    uint32_t workersPerNode{1};     //!< workers per node
    Time stepTime{MicroSeconds(1)}; //!< compute per step (an SGD step, a triple, a pair)
    uint32_t epochs{1};             //!< epochs
    bool dynamic{true};             //!< Lapse (true) or classic static allocation
    bool batchLocalize{false};      //!< localize a step's keys in one batch (not key by key)
    uint32_t seed{1};               //!< key placement and the workload's random draws
};

/**
 * \brief A training workload driven on a LapsePs. Both workloads separate their rounds of
 * work by a barrier of all workers; this base keeps that barrier and the epoch record.
 */
class LapseWorkload
{
  public:
    virtual ~LapseWorkload() = default;
    /// \brief Starts epoch 0 at `at`.
    virtual void Start(Time at) = 0;

    /// \brief Whether every epoch finished.
    bool
    Finished() const
    {
        return m_epochEnds.size() == m_epochs;
    }
    /// \brief End time of each epoch.
    const std::vector<Time>&
    EpochEnds() const
    {
        return m_epochEnds;
    }
    /// \brief Time spent in barriers, summed over workers.
    Time
    BarrierWait() const
    {
        return m_barrierWait;
    }

  protected:
    /// \param workers workers meeting at the barrier \param epochs epochs to run
    LapseWorkload(uint32_t workers, uint32_t epochs)
        : m_epochs(epochs),
          m_doneAt(workers, Seconds(0))
    {
    }

    /**
     * \brief Worker w reached the barrier now. \return true when it was the last one: the
     * barrier opens, and every worker's wait since its arrival is counted.
     */
    bool
    ArriveAtBarrier(uint32_t w)
    {
        m_doneAt[w] = Simulator::Now();
        if (++m_atBarrier < m_doneAt.size())
        {
            return false;
        }
        for (Time arrived : m_doneAt)
        {
            m_barrierWait += Simulator::Now() - arrived;
        }
        m_atBarrier = 0;
        return true;
    }
    /**
     * \brief Worker w (on `node`) finished its epoch's work. Under bounded staleness
     * (clocks on) its clock ends first and it waits until the PS flushed its node's buffered
     * updates; then it meets the barrier. The last arrival ends the epoch and, when epochs
     * remain, calls `nextEpoch` to start every worker again.
     */
    void
    FinishWorkerEpoch(uint32_t w,
                      uint32_t node,
                      LapseClocks& clocks,
                      LapsePs& ps,
                      std::function<void()> nextEpoch)
    {
        auto barrier = [this, w, nextEpoch]() {
            if (ArriveAtBarrier(w) && !EndEpoch())
            {
                nextEpoch();
            }
        };
        if (!clocks.On())
        {
            barrier();
            return;
        }
        clocks.EpochEnds(w);
        ps.EndClock(node, barrier);
    }
    /// \brief An epoch ended now. \return whether it was the last one.
    bool
    EndEpoch()
    {
        m_epochEnds.push_back(Simulator::Now());
        return Finished();
    }
    /// \brief Epochs finished so far.
    uint32_t
    EpochsDone() const
    {
        return static_cast<uint32_t>(m_epochEnds.size());
    }
    /// \brief Epochs to run.
    uint32_t
    Epochs() const
    {
        return m_epochs;
    }

  private:
    uint32_t m_epochs;              //!< epochs to run
    uint32_t m_atBarrier{0};        //!< workers at the barrier
    std::vector<Time> m_doneAt;     //!< per worker: when it reached the barrier
    Time m_barrierWait{Seconds(0)}; //!< summed barrier waits
    std::vector<Time> m_epochEnds;  //!< per epoch
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_WORKLOAD_H
