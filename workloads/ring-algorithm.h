/*
 * RingAlgorithm: ring allreduce (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms
 * for clusters of workstations", JPDC 2009; Baidu's ring allreduce): N-1 reduce-scatter
 * steps then N-1 all-gather steps around a ring of workers, each worker sending one 1/N
 * chunk per step to its successor. Options add the usual variants: topology-aware rank
 * orders, two opposite rings, one ring per NIC and segment pipelining.
 */
#ifndef PARAMSYNC_RING_ALGORITHM_H
#define PARAMSYNC_RING_ALGORITHM_H

#include "sync-algorithm.h"

#include "ns3/topology-graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Ring allreduce.
 *
 * Spec `ring[:order=natural|topo|gray|snake][,bidir=0|1][,nics=1|all][,segments=K]`:
 *  - order: rank order around the ring. natural = 0..N-1; topo = Topology::RingOrder();
 *    gray = BCube's modular Gray code (consecutive servers share a switch; BCube only);
 *    snake = the torus boustrophedon (consecutive servers are cabled; torus/ring only).
 *  - bidir=1: every ring also runs reversed, each direction on its own share of the data
 *    (the two directions of a full-duplex link both carry traffic).
 *  - nics=all: one ring per host port, P = the smallest port count of a host. Ring p uses
 *    the order with its dimensions rotated by p mod D (D = BCube levels or torus
 *    dimensions, 1 elsewhere) and runs reversed when (p / D) is odd. On BCube(n,k) ring p
 *    therefore changes digit p on (n-1)/n of its hops, i.e. it leaves most servers through
 *    its level-p port; on a d-dimensional torus rings p and p+d both walk dimension d-1-p
 *    fastest in opposite directions, so at a server they use its + and - ports of that
 *    dimension; on other families every host has one port (one ring) or, for file
 *    topologies, rings alternate direction over the same order. The remaining hops (a
 *    carry of the Gray code, the end of a snake row) can put two rings on one port of a
 *    host, and that port then paces both rings. Exception: a square 2-D torus (side >= 3)
 *    with order topo or snake gets two edge-disjoint Hamiltonian cycles and their reverses
 *    (see RingOrders), which use every directed cable exactly once. Fluid GST against one
 *    ring: exactly 1/(k+1) on BCube(n,1), 1/2 on a cabled ring, 1/4 on a square torus; but
 *    2/3 (not 1/3) on BCube(4,2) and 1/2 (not 1/d) on other tori: port-disjoint ring sets
 *    there (Hamiltonian decompositions of BCube and non-square tori) are not built.
 *  - segments=K: each chunk is cut into K segments that move independently: segment s of
 *    step t waits only for segment s of step t-1 (its receipt and the worker's own send of
 *    it), so a segment never waits for a slower one; as separate messages, the segments
 *    of one hop can go out on different queue pairs where the transport keeps several to
 *    a peer (SyncJob spreads messages over them round-robin; RoceSyncTransport keeps one
 *    per source port), and so on different ECMP paths. On an ideal fabric the GST is
 *    unchanged: every step of a ring is bandwidth-bound on every worker already.
 * Data split: W into R rings (R = ports x (bidir ? 2 : 1)), each ring's range into N chunks,
 * each chunk into K segments; every split gives the first (size mod parts) parts one byte
 * more. Each worker sends and receives 2(N-1)/N of every ring's range, so 2(N-1)W/N in all
 * (exactly when R*N divides W) whatever the options.
 * Dependencies: a send waits for the worker's previous send of the same segment in the same
 * ring (one message in flight per ring, segment and worker) and for the receive that
 * delivered its data.
 */
class RingAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses the spec above. \throws std::invalid_argument naming the bad option
    explicit RingAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;
    /**
     * \brief Round form: every ring's positions send to their successors together, one
     * flow per segment, each step; n-1 reduce-scatter rounds (phase 0) then n-1 all-gather
     * rounds (phase n-1), every flow carrying the largest segment. Same transfers and,
     * when R n K divides W, the same bytes as Compile(). std::nullopt when some segment
     * would be empty (W < R n K), as Compile() then skips transfers.
     */
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    std::optional<RoundPlan> CompileRounds(const Topology& topology,
                                           const ModelProfile& model) const override;

    /**
     * \brief The rank order of every ring the options give on this topology (rings in
     * the order their data ranges follow). Public so tests can check the port choice.
     * \throws std::invalid_argument when the order does not apply to the topology
     */
    std::vector<std::vector<HostRank>> RingOrders(const Topology& topology) const;

  private:
    std::string m_order;
    bool m_bidir;
    bool m_allNics;
    uint32_t m_segments;
};

} // namespace ns3

#endif // PARAMSYNC_RING_ALGORITHM_H
