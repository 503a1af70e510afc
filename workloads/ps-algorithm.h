/*
 * PsAlgorithm: parameter-server synchronization (Li et al., "Scaling Distributed Machine
 * Learning with the Parameter Server", OSDI 2014): the gradient is sharded over S servers;
 * every worker pushes each shard to its server, which sums the N contributions, and every
 * worker pulls the summed shard back.
 */
#ifndef PARAMSYNC_PS_ALGORITHM_H
#define PARAMSYNC_PS_ALGORITHM_H

#include "sync-algorithm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Parameter server with push then pull. Options:
 *  - servers=S (default 1);
 *  - placement=dedicated|colocated (default dedicated): dedicated servers run on the LAST
 *    S hosts, which are not workers (N = hosts - S); co-located server s runs inside worker
 *    s (N = hosts), so that worker's push to its own shard stays local (no transfer);
 *  - shard=bytes|tensor|greedy (default bytes): equal byte ranges (the first W mod S one
 *    byte longer); whole tensors round robin in backprop order; or whole tensors largest
 *    first, each to the least loaded server (Graham's LPT rule) — the tensor boundaries come
 *    from the ModelProfile;
 *  - chunk=SIZE (default 0 = one chunk per contiguous shard range): each shard range is cut
 *    into chunks of at most SIZE bytes; a chunk is pulled as soon as all N pushes of that
 *    chunk are in, so pulls of early chunks overlap pushes of later ones.
 *
 * Closed form (dedicated, shard=bytes, S | W): each server receives N*W/S and sends N*W/S;
 * each worker sends W and receives W.
 *
 * Assumptions where the paper is silent: the gradient exists when the synchronization
 * starts; a worker's pushes to one server go one after another in offset order (each waits
 * for the previous one; with all chunks in flight at once, fair sharing would finish them
 * all together and nothing would be pulled early), while its pushes to different servers run
 * in parallel; a pull depends on exactly the pushes of its chunk;
 * adjacent tensors assigned to one server form one range (one message per chunk, not per
 * tensor); ties in the greedy rule go to the lowest server index.
 */
class PsAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "ps[:servers=S,placement=...,shard=...,chunk=SIZE]".
    /// \throws std::invalid_argument naming the spec and what is allowed
    explicit PsAlgorithm(const std::string& spec);
    std::string Spec() const override;
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;

    /// \brief One contiguous byte range of a server's shard.
    struct ShardRange
    {
        uint32_t server; //!< server index 0..S-1
        uint64_t offset; //!< first byte in the flattened gradient
        uint64_t bytes;  //!< length, > 0
    };

    /**
     * \brief The shard ranges of the chosen policy, in increasing offset order; they tile
     * [0, W) exactly. Exposed for tests (per-server loads of tensor / greedy sharding).
     */
    std::vector<ShardRange> Shards(const ModelProfile& model) const;

  private:
    uint32_t m_servers;
    std::string m_placement;
    std::string m_shard;
    uint64_t m_chunk;
};

} // namespace ns3

#endif // PARAMSYNC_PS_ALGORITHM_H
