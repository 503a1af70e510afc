/*
 * HipsAlgorithm: HiPS, hierarchical parameter synchronization (Geng, Li, Cheng, Wang, Li,
 * "HiPS: Hierarchical Parameter Synchronization in Large-Scale Distributed Machine
 * Learning", ACM SIGCOMM NetAI workshop 2018, doi:10.1145/3229543.3229544). The allreduce
 * runs one stage per level of the topology's hierarchy (BCube level, torus dimension): a
 * reduce-scatter inside every group of the first level, then of the next level on the part
 * each host now owns, ..., then the all-gather back in reverse level order. The gradient is
 * cut into parts that run the levels in rotated order, so every NIC of a multi-NIC server
 * works at once.
 *
 * The stage engine (AddHierarchicalAllreduce) is shared with the hierarchical ring
 * (TwoDRingAlgorithm).
 */
#ifndef PARAMSYNC_HIPS_ALGORITHM_H
#define PARAMSYNC_HIPS_ALGORITHM_H

#include "sync-algorithm.h"

#include "ns3/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief How the groups of a hierarchical allreduce exchange their data at every stage.
 */
enum class GroupExchange : uint8_t
{
    AsGrouped, //!< a ring where HostGroup::ring is set, a direct exchange otherwise
    Direct,    //!< every group by direct exchange (mesh: diffuse, then collect)
    Ring,      //!< every group as a ring in member order
};

/**
 * \brief One independent pipeline of a hierarchical allreduce: which dimensions it visits in
 * which order, and which way its rings turn.
 */
struct HierarchicalFlow
{
    /// \brief Dimensions (indices into the HostDimension list) in reduce-scatter order; the
    /// all-gather visits them in reverse. Each dimension at most once.
    std::vector<uint32_t> dimOrder;
    /// \brief Ring groups are walked against their member order (the "-" direction).
    bool reverse;
};

/**
 * \brief Appends a hierarchical allreduce of [0, plan.gradientBytes) over the workers
 * 0..plan.workers-1 to `plan`. Groups name workers (participant indices); plan.hostOf says
 * where they run (identity for HiPS, the rank mapping for hdrm).
 *
 * The gradient is split into flows.size() contiguous parts (the first W mod F one byte
 * longer); part f runs flows[f]. At every reduce-scatter stage each host's current range is
 * split into g sub-chunks (g = its group's size, again the first ones one byte longer) and
 * the group reduce-scatters it:
 *  - direct exchange (exchange Direct, or AsGrouped and group.ring false): member j sends
 *    sub-chunk i to member i, member j keeps sub-chunk j (the "diffuse" of a mesh stage);
 *  - ring (otherwise): g-1 ring steps along the member order (reversed when flow.reverse),
 *    position i keeps sub-chunk (i+1) mod g, as in ring allreduce.
 * The all-gather stages undo them in reverse order (direct "collect" or ring).
 * Dependencies: a host's transfers of one stage (ring: one step) wait for its sends and
 * receives of that flow's previous stage (step); when a host sent nothing in a stage (empty
 * sub-chunks send nothing) it keeps waiting on its earlier ones too.
 * Per host per flow this sends 2(N-1)/N of the flow's bytes when every group size divides
 * them (sum over stages s of (g_s - 1)/(g_0...g_s)).
 *
 * \param who algorithm spec, for error messages
 * \throws std::invalid_argument when a dimension does not partition the hosts (or has an
 * empty group), a flow visits a dimension twice, or the groups do not form a product
 * (members of one group would hold different ranges or overlapping contributions at a
 * stage: the dimensions are not independent coordinates); `plan` is then unchanged
 */
void AddHierarchicalAllreduce(SyncPlan& plan,
                              const std::vector<HostDimension>& dims,
                              const std::vector<HierarchicalFlow>& flows,
                              GroupExchange exchange,
                              const std::string& who);

/**
 * \brief Round form of AddHierarchicalAllreduce (same dims, flows and exchange), appended
 * to `plan`: for every stage, one round holding every flow's groups at once (a ring step,
 * repeated g-1 times, or one direct exchange), reduce-scatter stages then all-gather stages
 * in reverse; every flow carries the largest sub-chunk of its stage. The flows run in
 * lockstep, so they must be aligned: at every stage all groups they work in have the same
 * size and exchange. Returns false, leaving `plan` unchanged, when they are not (e.g.
 * rotated levels of a torus with unequal sides) or when some sub-chunk would be empty (the
 * explicit plan then skips transfers). The product-of-coordinates check of the explicit
 * engine is not repeated: its tests prove the topologies' dimensions.
 * \throws std::invalid_argument as AddHierarchicalAllreduce for malformed dims or flows
 */
bool AddHierarchicalRounds(RoundPlan& plan,
                           const std::vector<HostDimension>& dims,
                           const std::vector<HierarchicalFlow>& flows,
                           GroupExchange exchange,
                           const std::string& who);

/**
 * \brief HiPS. Options: rotate=1|0 (default 1), bidir=1|0 (default 1),
 * stage=auto|mesh|ring (default auto).
 *
 * Follows Topology::Dimensions():
 *  - BCube(n,k): dimension l = the n servers under one level-l switch. One stage per level,
 *    an n-way direct exchange inside each group (the servers of a switch diffuse and
 *    collect). Reduce-scatter over levels 0..k, all-gather k..0.
 *  - torus: dimension d = the rings along d. One stage per dimension, a ring
 *    reduce-scatter (all-gather) along each ring.
 *  - ring:n=N is a 1-D torus (HiPS = ring allreduce), star:n=N one switch group (HiPS =
 *    mesh). Families without Dimensions() (fat-tree, bigraph, file) are not served:
 *    AppliesTo() says so. The paper builds HiPS for server-centric networks, where each
 *    level has its own NIC; a fat-tree or bigraph host has one NIC, so rotated levels gain
 *    nothing there, and 2d-ring already offers the edge-switch hierarchy.
 *
 * rotate=1: the gradient is cut into D parts (D = number of dimensions); part p visits the
 * dimensions p, p+1, ..., p+D-1 (mod D), so at every stage each dimension's NIC carries one
 * part (the paper's point: a BCube server uses its k+1 NICs at once). rotate=0: one part,
 * dimensions 0..D-1 (one NIC busy at a time).
 * bidir=1 (only when some stage runs as a ring): every part is halved again, one half turns
 * each way round the rings, so a torus server drives its 2d links at once (2d flows per
 * host). On BCube the groups are switches, not rings, and bidir changes nothing.
 *
 * stage: how a group exchanges at one stage. HiPS is "hierarchical and hybrid": each stage
 * may use another flat scheme. auto = direct exchange (mesh) in switch groups, ring in
 * ring groups (above); mesh = direct exchange everywhere (on a torus a group's members
 * then talk over multi-hop paths along their ring); ring = rings everywhere (in a BCube
 * switch group the ring follows digit order through the switch).
 *
 * Assumptions where the paper is silent: parts and sub-chunks are contiguous byte ranges,
 * split as evenly as bytes allow; a host moves to its next stage once its previous stage's
 * sends and receives of that part are done (no pipelining of segments inside a stage).
 *
 * Closed forms (W divisible by parts x N): every worker sends and receives 2(N-1)W/N
 * bytes; on BCube(n,k) with rotate=1 each of a server's k+1 NICs sends 2(N-1)W/(N(k+1)).
 * Ideal GST (no contention inside a switch): BCube 1/(k+1) of a single-NIC ring's
 * 2(N-1)W/(NB); 2-D square torus 1/4 of a one-direction single-NIC ring, a d-dimensional
 * cube 1/(2d).
 */
class HipsAlgorithm : public SyncAlgorithm
{
  public:
    /// \brief Parses "hips[:rotate=1|0][,bidir=1|0][,stage=auto|mesh|ring]".
    /// \throws std::invalid_argument naming the spec and what is allowed
    explicit HipsAlgorithm(const std::string& spec);
    std::string Spec() const override;
    bool AppliesTo(const Topology& topology, std::string& why) const override;
    SyncPlan Compile(const Topology& topology, const ModelProfile& model) const override;
    /// \brief Round form (AddHierarchicalRounds); std::nullopt where the parts are not
    /// aligned (rotate=1 on dimensions of different sizes) or a sub-chunk would be empty.
    PlanSizeBound SizeBound(const PlanSizeInputs& in) const override;
    std::optional<RoundPlan> CompileRounds(const Topology& topology,
                                           const ModelProfile& model) const override;

  private:
    /// \brief The flows (parts) of the options on dimensions `dims`.
    std::vector<HierarchicalFlow> Flows(const std::vector<HostDimension>& dims) const;
    /// \brief The group exchange of the stage option.
    GroupExchange Exchange() const;

    bool m_rotate;
    bool m_bidir;
    std::string m_stage; //!< "auto", "mesh" or "ring"
};

} // namespace ns3

#endif // PARAMSYNC_HIPS_ALGORITHM_H
