/*
 * LapseKgeWorkload: knowledge-graph embeddings (KGE: ComplEx, RESCAL, ...) trained by SGD
 * on a LapsePs, the second workload Lapse (Renz-Wieland et al., VLDB'20, section 5)
 * evaluates.
 *
 * p = nodes x workers-per-node workers each process `triplesPerEpoch` triples (head,
 * relation, tail) per epoch; the epochs are separated by a barrier. A triple needs the
 * parameters of its two entities and of its relation: three pulls (together), `stepTime` of
 * compute, three pushes (together), then the next triple. Entities are drawn Zipf-skewed
 * (exponent `zipf`, 0 = uniform; the tail is redrawn until it differs from the head),
 * relations uniformly: knowledge graphs have many entities with a few very frequent ones,
 * and few relations. The PS keys are the E entities and R relations, placed by a random
 * permutation of the keys (from the seed) so that neither the hot entities nor the
 * relations share one home.
 *  - classic allocation: every key stays at its home; an access is local when the
 *    worker's node is the key's home.
 *  - dynamic allocation (Lapse): a worker keeps a prefetch window of its next `window`
 *    triples and localizes their entities as a triple enters the window (one batch per
 *    triple with `batchLocalize`), so relocations overlap the work on earlier triples.
 *    Relations are few and hot, used by every worker all the time: moving them would only
 *    bounce them between nodes, so they stay at their home and are pulled and pushed there
 *    (`clusterRelations` off), or
 *  - with `clusterRelations` (data clustering by relation, the way we read Lapse's KGE
 *    setup): relation r's triples are trained at node r mod N only, and with dynamic
 *    allocation each node localizes its relations once at the start, so relation accesses
 *    are local and only entities move. Classic allocation draws the same triples, its
 *    relations stay at their home.
 */
#ifndef PARAMSYNC_LAPSE_KGE_WORKLOAD_H
#define PARAMSYNC_LAPSE_KGE_WORKLOAD_H

#include "lapse-ps.h"
#include "lapse-workload.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace ns3
{

/// \brief Draws ranks 0..n-1 with P(r) proportional to 1 / (r + 1)^s.
class LapseZipfSampler
{
  public:
    /// \throws std::invalid_argument for n = 0 or s < 0
    LapseZipfSampler(uint64_t n, double s);
    /// \brief One rank.
    uint64_t Draw(std::mt19937_64& rng) const;

  private:
    std::vector<double> m_cdf; //!< cumulative probabilities by rank
};

/// \brief The shape of a knowledge-graph-embedding run.
struct LapseKgeConfig : LapseWorkerConfig
{
    uint64_t entities{1000};       //!< E (keys 0..E-1 after the permutation)
    uint64_t relations{10};        //!< R
    double zipf{1.0};              //!< skew of the entity draw (0 = uniform)
    uint32_t triplesPerEpoch{100}; //!< per worker
    uint32_t window{8};            //!< dynamic: triples ahead whose entities are localized
    bool clusterRelations{false};  //!< relation r trained at node r mod N only
    uint32_t clockSteps{0};        //!< ssp PS: steps per clock (0: no clocks)
    /// Bytes of a relation's value (0: the PS's value size, as an entity's); RESCAL's
    /// relations are d x d matrices of floats where entities are d-vectors.
    uint32_t relationBytes{0};
};

/**
 * \brief KGE training by SGD with entity prefetching on a LapsePs.
 */
class LapseKgeWorkload : public LapseWorkload
{
  public:
    /// \throws std::invalid_argument if the PS does not have E + R keys, E < 2, R = 0 or
    /// (clustered) R < nodes
    LapseKgeWorkload(LapsePs& ps, uint32_t nodes, uint64_t keys, const LapseKgeConfig& config);

    void Start(Time at) override;
    /// \brief The PS key of a relation.
    uint64_t
    RelationKey(uint64_t r) const
    {
        return m_key[r];
    }

  private:
    /// A triple as PS keys.
    struct Triple
    {
        uint64_t head;
        uint64_t relation;
        uint64_t tail;
    };
    /// \brief Worker w's next triple from its stream.
    Triple Draw(uint32_t w);
    /// \brief Worker w draws a triple into its window and (dynamic) localizes its entities.
    void Prefetch(uint32_t w);
    /// \brief Worker w's next triple (or the end of its epoch).
    void Next(uint32_t w);
    /// \brief Worker w finished its epoch: (ssp) its clock ends, then the barrier.
    void EpochDone(uint32_t w);
    /// \brief Every worker starts the epoch's work.
    void StartEpoch();

    LapsePs& m_ps;                            //!< the parameter server
    LapseKgeConfig m_config;                  //!< shape
    uint32_t m_nodes;                         //!< N
    uint32_t m_workers;                       //!< p
    std::vector<uint64_t> m_key;              //!< relations 0..R-1, then entities by Zipf rank
    LapseZipfSampler m_zipf;                  //!< entity ranks
    std::vector<std::mt19937_64> m_rng;       //!< per worker: its triples
    std::vector<std::deque<Triple>> m_window; //!< per worker: drawn, not started
    std::vector<uint64_t> m_drawn;            //!< per worker: triples drawn over all epochs
    LapseClocks m_clocks;                     //!< ssp: the workers' clocks
    std::vector<uint32_t> m_left;             //!< per worker: triples left in this epoch
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_KGE_WORKLOAD_H
