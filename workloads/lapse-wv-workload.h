/*
 * LapseWvWorkload: word vectors by skip-gram with negative sampling (SGNS: Mikolov,
 * Sutskever, Chen, Corrado, Dean, "Distributed Representations of Words and Phrases and
 * their Compositionality", NIPS 2013), the third workload Lapse (Renz-Wieland et al.,
 * VLDB'20) evaluates, driven on a LapsePs.
 *
 * The corpus is synthetic: each of the p = nodes x workers-per-node workers holds a shard of
 * `wordsPerEpoch` words drawn Zipf(zipf) over a vocabulary of V words (seeded per worker,
 * the same shard every epoch). A step is one (word, context) pair: the word at position i
 * and one at j, 0 < |i - j| <= `context`, inside the shard (a position near an end has fewer
 * contexts). The step reads and writes 2 + `negatives` parameters: the input vector of the
 * word, the output vector of the context word and the output vectors of `negatives` words
 * drawn from the unigram distribution raised to 3/4 (Zipf(0.75 zipf), as word2vec; a draw
 * equal to the context word is redrawn): 2 + k pulls (together), `stepTime` of compute,
 * 2 + k pushes (together), then the next pair. The PS keys are the V input and V output
 * vectors, placed by a random permutation (from the seed), each a vector of d floats.
 *  - classic allocation: every key stays at its home.
 *  - dynamic allocation (Lapse: latency hiding by prefetching): a worker keeps a window of
 *    its next `window` pairs and localizes their keys as a pair enters the window (one
 *    batch per pair with `batchLocalize`).
 * Epochs are separated by a barrier of all workers.
 */
#ifndef PARAMSYNC_LAPSE_WV_WORKLOAD_H
#define PARAMSYNC_LAPSE_WV_WORKLOAD_H

#include "lapse-kge-workload.h"
#include "lapse-ps.h"
#include "lapse-workload.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace ns3
{

/// \brief The shape of a word-vector run.
struct LapseWvConfig : LapseWorkerConfig
{
    uint64_t vocab{1000};        //!< V words (2V keys)
    double zipf{1.0};            //!< skew of the word frequencies (0 = uniform)
    uint32_t wordsPerEpoch{100}; //!< words of each worker's shard
    uint32_t context{2};         //!< c: contexts within c positions of the word
    uint32_t negatives{5};       //!< k negative samples per pair
    uint32_t window{8};          //!< dynamic: pairs ahead whose keys are localized
    uint32_t clockSteps{0};      //!< ssp PS: steps per clock (0: no clocks)
};

/**
 * \brief Skip-gram with negative sampling by SGD, with prefetching, on a LapsePs.
 */
class LapseWvWorkload : public LapseWorkload
{
  public:
    /// \throws std::invalid_argument if the PS does not have 2V keys, V < 2, the shard has
    /// fewer than 2 words or the context is 0
    LapseWvWorkload(LapsePs& ps, uint32_t nodes, uint64_t keys, const LapseWvConfig& config);

    void Start(Time at) override;
    /// \brief The PS key of word v's input vector.
    uint64_t
    InputKey(uint64_t v) const
    {
        return m_key[v];
    }
    /// \brief The PS key of word v's output vector.
    uint64_t
    OutputKey(uint64_t v) const
    {
        return m_key[m_config.vocab + v];
    }
    /// \brief Worker w's shard of the corpus.
    const std::vector<uint64_t>&
    Shard(uint32_t w) const
    {
        return m_shard[w];
    }
    /// \brief (word, context) pairs per worker and epoch.
    uint64_t
    PairsPerEpoch() const
    {
        return m_pairs.size();
    }

  private:
    /// \brief Worker w's next pair as PS keys: input, output of the context, negatives.
    std::vector<uint64_t> Draw(uint32_t w);
    /// \brief Worker w draws a pair into its window and (dynamic) localizes its keys.
    void Prefetch(uint32_t w);
    /// \brief Worker w's next pair (or the end of its epoch).
    void Next(uint32_t w);
    /// \brief Worker w finished its epoch: (ssp) its clock ends, then the barrier.
    void EpochDone(uint32_t w);
    /// \brief Every worker starts the epoch's work.
    void StartEpoch();

    LapsePs& m_ps;               //!< the parameter server
    LapseWvConfig m_config;      //!< shape
    uint32_t m_workers;          //!< p
    std::vector<uint64_t> m_key; //!< input vectors 0..V-1, output vectors V..2V-1
    LapseZipfSampler m_negative; //!< negative samples: unigram^(3/4)
    std::vector<std::pair<uint32_t, uint32_t>> m_pairs;      //!< (word, context) positions
    std::vector<std::vector<uint64_t>> m_shard;              //!< per worker: its words
    std::vector<std::mt19937_64> m_rng;                      //!< per worker: its negatives
    std::vector<std::deque<std::vector<uint64_t>>> m_window; //!< per worker: drawn, not started
    std::vector<uint64_t> m_drawn;                           //!< per worker: pairs drawn
    LapseClocks m_clocks;                                    //!< ssp: the workers' clocks
    std::vector<uint64_t> m_left;                            //!< per worker: pairs left
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_WV_WORKLOAD_H
