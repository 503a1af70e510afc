/*
 * LapseMfWorkload: matrix factorization by DSGD with parameter blocking, the first workload
 * Lapse (Renz-Wieland et al., VLDB'20) evaluates, driven on a LapsePs.
 *
 * p = nodes x workers-per-node workers; the column factors are the PS keys (K keys in p
 * column blocks of K/p), the row factors stay in each worker's memory (DSGD: worker i owns
 * row block i). An epoch has p sub-epochs separated by a barrier; in sub-epoch j worker i
 * works on data block (i, (i + j) mod p): `stepsPerBlock` SGD steps, each a pull and a push
 * of one column key of that block (drawn uniformly) and `stepTime` of compute.
 *  - classic allocation: keys stay at their home (range partition); a worker's access is
 *    local only when its node is the key's home, remote otherwise;
 *  - dynamic allocation (Lapse): a worker localizes the keys of the column block it needs
 *    next as soon as it finished its current block (and the first block at the start), so
 *    the relocations overlap with the barrier wait and every access to a block is local
 *    once its keys arrived (accesses that come earlier wait for the value at the worker's
 *    node). Fetching earlier would take keys from the worker still using them: in DSGD
 *    every column block is in use in every sub-epoch.
 * Within a node, workers share the node's keys (local accesses are shared memory).
 * With `batchLocalize` a block is localized as one batch (3 messages per block that sits at
 * one node instead of 3 per key, see LapsePs).
 */
#ifndef PARAMSYNC_LAPSE_MF_WORKLOAD_H
#define PARAMSYNC_LAPSE_MF_WORKLOAD_H

#include "lapse-ps.h"
#include "lapse-workload.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <random>
#include <vector>

namespace ns3
{

/// \brief The shape of a matrix-factorization run.
struct LapseMfConfig : LapseWorkerConfig
{
    uint32_t stepsPerBlock{100}; //!< SGD steps per worker and sub-epoch
};

/**
 * \brief DSGD matrix factorization with parameter blocking on a LapsePs.
 */
class LapseMfWorkload : public LapseWorkload
{
  public:
    /// \throws std::invalid_argument if the PS has fewer keys than workers
    LapseMfWorkload(LapsePs& ps, uint32_t nodes, uint64_t keys, const LapseMfConfig& config);

    /// \brief Starts epoch 0 at `at`.
    void Start(Time at) override;

  private:
    /// \brief Worker w starts sub-epoch m_subEpoch.
    void StartBlock(uint32_t w);
    /// \brief Worker w's next SGD step (or the end of its block).
    void Step(uint32_t w);
    /// \brief Worker w finished its block: barrier.
    void BlockDone(uint32_t w);
    /// \brief Column block of worker w in sub-epoch j.
    uint32_t
    BlockOf(uint32_t w, uint32_t j) const
    {
        return (w + j) % m_workers;
    }
    /// \brief Localizes column block b at worker w's node.
    void LocalizeBlock(uint32_t w, uint32_t b);

    LapsePs& m_ps;                     //!< the parameter server
    uint32_t m_nodes;                  //!< nodes
    uint64_t m_keys;                   //!< keys
    LapseMfConfig m_config;            //!< shape
    uint32_t m_workers;                //!< p
    uint32_t m_subEpoch{0};            //!< current sub-epoch (0..p-1)
    std::vector<uint32_t> m_stepsLeft; //!< per worker in this block
    std::mt19937_64 m_rng;             //!< key choice
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_MF_WORKLOAD_H
