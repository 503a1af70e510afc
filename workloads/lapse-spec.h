/*
 * LapseSpec: the --algorithm spec of the Lapse parameter server (LapsePs) with one of its
 * workloads, a system that is neither an allreduce plan nor a dense-gradient PS:
 *
 *   lapse[:workload=mf|kge|wv,preset=none|paper,mode=dynamic|classic|ssp,nodes=HOSTS,
 *          workers=4,dim=0,value=100,step=1us,caches=0,overhead=0us,local=0us,batch=0,seed=1,
 *          (ssp) staleness=1,sync=client|server,clock=10,
 *          (mf)  keys=100000,steps=1000,
 *          (kge) entities=100000,relations=100,zipf=1,triples=1000,window=8,
 *                relations-at=home|cluster,
 *          (wv)  vocab=100000,zipf=1,words=1000,context=2,negatives=5,window=8]
 *
 * workload: matrix factorization with parameter blocking (LapseMfWorkload),
 * knowledge-graph embeddings (LapseKgeWorkload) or word vectors by skip-gram with negative
 * sampling (LapseWvWorkload); preset=paper (kge, wv): the settings of Lapse's evaluation
 * as defaults (workers=4, dim=100, relations-at=cluster, context=5, negatives=5, the
 * measured step: 4.3us RESCAL, 1.6us skip-gram; lapse-spec.cc says where they come from),
 * any option given overrides them; dim: embeddings of dim floats (overrides value: kge
 * entities 4 dim B and relations, RESCAL's matrices, 4 dim^2 B; wv 4 dim B); mode: dynamic
 * parameter allocation (Lapse), classic static allocation or (kge, wv) ssp: classic
 * allocation with client caches under bounded staleness (Petuum's SSP, see LapsePs), with
 * staleness = s in clocks, sync = client-side (a stale row is read again) or server-side
 * (servers push updated rows as clocks advance), clock = steps per clock; mode dynamic is
 * Lapse; nodes: PS nodes, on hosts 0..nodes-1 of the
 * topology (default every host; nodes=1 runs on host 0 alone, every access local); workers
 * per node; value: bytes of one key's value; step: compute per SGD step (mf) or triple
 * (kge); caches: location caches; overhead: per-message host overhead at the receiver;
 * local: time of an access to a key the node holds (0: fast local access through shared
 * memory; > 0: through the local server process, as classic PSs without fast local
 * access); batch: localize a block (mf) or a triple's entities (kge) in one batch.
 * mf: keys = column-factor keys, steps = SGD steps per worker and sub-epoch. kge: E
 * entities drawn Zipf(zipf)-skewed, R relations, triples per worker and epoch, window =
 * triples ahead whose entities are localized, relations-at: relations stay at their home
 * (pulled) or are clustered (relation r trained and, dynamic, localized at node r mod
 * nodes). wv: a vocabulary of V words drawn Zipf(zipf)-skewed, words per worker's shard,
 * context = positions either side of a word, negatives per pair, window = pairs ahead
 * whose keys are localized. --iterations = epochs.
 */
#ifndef PARAMSYNC_LAPSE_SPEC_H
#define PARAMSYNC_LAPSE_SPEC_H

#include "lapse-kge-workload.h"
#include "lapse-mf-workload.h"
#include "lapse-ps.h"
#include "lapse-workload.h"
#include "lapse-wv-workload.h"

#include <memory>
#include <string>

namespace ns3
{

/// \brief A parsed lapse spec.
struct LapseSpec
{
    std::string canonical; //!< the spec with every option
    std::string workload;  //!< "mf", "kge" or "wv" (the run's model column)
    LapseConfig ps;        //!< the parameter server
    LapseMfConfig mf;      //!< the mf workload
    LapseKgeConfig kge;    //!< the kge workload
    LapseWvConfig wv;      //!< the wv workload

    /// \brief Whether an --algorithm name is "lapse".
    static bool
    IsLapseName(const std::string& name)
    {
        return name == "lapse";
    }
    /**
     * \brief Parses a lapse spec for a topology of `hosts` hosts.
     * \throws std::invalid_argument naming --algorithm, the key and what is allowed
     */
    static LapseSpec Parse(const std::string& spec, uint32_t hosts);
    /// \brief Sets the epochs (--iterations) of the workload.
    void SetEpochs(uint32_t epochs);
    /// \brief The workload the spec names, driven on ps.
    std::unique_ptr<LapseWorkload> MakeWorkload(LapsePs& ps) const;
    /// \brief Workers in all (nodes x workers per node).
    uint32_t Workers() const;
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_SPEC_H
