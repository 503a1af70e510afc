/*
 * RankResults: one run's measurements as each MPI rank saw them, packed into bytes for the
 * gather onto rank 0 and merged there into the RunResult one process would have measured
 * (README "Running across MPI ranks"). Every rank builds every node but simulates only its
 * own (ParamsyncHelper::SetRanks), so each counter of a port or a NIC is non-zero on one rank
 * alone and the whole-fabric counters add up; what one side of a transfer or flow sees (its
 * start at the source, its end at the destination) is put back together by its key.
 *
 * Merge rules (rank order 0, 1, ...):
 *  - sums: pause frames, paused time, drops (MMU, watchdog, link), ECN marks, retransmits,
 *    events, packet hops, the routed bound's wall time;
 *  - max: simS (the last end any rank saw), GST and iteration time (each rank's SyncJob
 *    measures from the same last backprop to its own last delivery);
 *  - the pause depth: PauseSpread's over the merged pauses (a rank alone sees a cascade that
 *    crosses ranks in parts);
 *  - pfc.csv rows: rows of one (node, port, priority) summed, in the recorder's order (node
 *    index, port, priority), the node named as in the network's names;
 *  - pause intervals: concatenated and sorted by (end, port, priority, start): one process
 *    appends them as they end, so this is its order except between pauses that end in the
 *    same nanosecond;
 *  - flows: by index; the destination's rank has the completion time (< 0 elsewhere);
 *  - transfers: by (iteration, id); the source's rank has the start, the destination's the
 *    end; rows ordered by (start, iteration, id): the order one process posts them in, except
 *    between posts of the same nanosecond;
 *  - completed: every flow and transfer ended, and every rank's own work finished;
 *  - invariant: the distinct lines of every rank, in rank order.
 * Asynchronous systems, the in-flight sampler and updates are not merged (refused over
 * ranks).
 *
 * The routed bound's paths (helper/routed-bound.h) travel apart (PackPaths, JoinPaths): a
 * queue pair is opened, and its path traced, on its source's rank only.
 */
#ifndef PARAMSYNC_RANK_RESULTS_H
#define PARAMSYNC_RANK_RESULTS_H

#include "run-result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \brief Packs, unpacks and merges the RunResults of the ranks of one run.
 */
class RankResults
{
  public:
    /// \brief What Merge needs of one rank's result, as bytes (native byte order: every rank
    /// runs the same program on one machine or one cluster of the same architecture).
    static std::string Pack(const RunResult& r);
    /// \brief The inverse of Pack. \throws std::runtime_error for bytes Pack did not write
    static RunResult Unpack(const std::string& bytes);
    /// \brief The ranks' results (rank 0 first) as one process would have measured them;
    /// nodeNames and peers: the network's node names and each port's peer node by node
    /// index (PfcNetwork::names, PfcNetwork::PeerNodes()).
    /// \throws std::runtime_error for results of different runs
    static RunResult Merge(const std::vector<RunResult>& ranks,
                           const std::vector<std::string>& nodeNames,
                           const std::vector<std::vector<uint32_t>>& peers);

    /// \brief Directed links of each queue pair by (source host, destination host, QP
    /// index), as RoutedBound::OrderedPaths.
    using QueuePairPaths =
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>>;
    /// \brief One rank's traced paths and whether its job finished, as bytes.
    static std::string PackPaths(bool finished, const QueuePairPaths& paths);
    /**
     * \brief Every rank's paths (PackPaths' bytes, rank 0 first) joined; none when some
     * rank's job did not finish (one process computes no bound then either).
     * \throws std::runtime_error for bytes PackPaths did not write, or a queue pair traced
     * on two ranks
     */
    static std::optional<QueuePairPaths> JoinPaths(const std::vector<std::string>& ranks);
};

} // namespace ns3

#endif // PARAMSYNC_RANK_RESULTS_H
