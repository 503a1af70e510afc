#include "double-binary-tree-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace ns3
{

namespace
{

/// Position of worker r in tree `tree` (see the class comment).
uint32_t
PositionOf(uint32_t r, uint32_t n, uint32_t tree)
{
    if (tree == 0)
    {
        return r;
    }
    return n % 2 == 0 ? n - 1 - r : (r + n - 1) % n;
}

/// Inverse of PositionOf.
uint32_t
WorkerAt(uint32_t pos, uint32_t n, uint32_t tree)
{
    if (tree == 0)
    {
        return pos;
    }
    return n % 2 == 0 ? n - 1 - pos : (pos + 1) % n;
}

/// Parent position of every position 0..n-1 in the in-order tree (root: itself).
std::vector<uint32_t>
ParentPositions(uint32_t n)
{
    std::vector<uint32_t> parent(n, 0);
    // Over the 1-based values [lo, hi], the subtree root is the value with the most trailing
    // zero bits: the multiple of the largest power of two that has one in the range (it is
    // unique, or a multiple of the next power would lie between two of them).
    std::function<void(uint64_t, uint64_t, uint64_t)> build =
        [&](uint64_t lo, uint64_t hi, uint64_t up) {
            if (lo > hi)
            {
                return;
            }
            uint64_t step = 1;
            while ((hi / (step * 2)) * (step * 2) >= lo)
            {
                step *= 2;
            }
            const uint64_t root = (hi / step) * step;
            parent[root - 1] = static_cast<uint32_t>((up == 0 ? root : up) - 1);
            build(lo, root - 1, root);
            build(root + 1, hi, root);
        };
    build(1, n, 0);
    return parent;
}

} // namespace

DoubleBinaryTreeAlgorithm::DoubleBinaryTreeAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    m_blocks = static_cast<uint32_t>(s.GetUint("blocks", 8, 1, 1u << 20));
    s.Finish();
}

std::string
DoubleBinaryTreeAlgorithm::Spec() const
{
    return "dbtree:blocks=" + std::to_string(m_blocks);
}

bool
DoubleBinaryTreeAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    if (topology.Graph().HostCount() < 1)
    {
        why = "dbtree needs at least one host";
        return false;
    }
    return true;
}

std::vector<uint32_t>
DoubleBinaryTreeAlgorithm::Parents(uint32_t workers, uint32_t tree)
{
    const std::vector<uint32_t> parentPos = ParentPositions(workers);
    std::vector<uint32_t> parent(workers);
    for (uint32_t r = 0; r < workers; ++r)
    {
        parent[r] = WorkerAt(parentPos[PositionOf(r, workers, tree)], workers, tree);
    }
    return parent;
}

namespace
{

constexpr TransferId kNone = UINT32_MAX;

/// One tree: its shape, its byte range and the pipeline state of its edges.
struct Tree
{
    std::vector<uint32_t> parent;
    std::vector<std::vector<uint32_t>> children;
    std::vector<uint32_t> postOrder; //!< children before parents
    uint32_t root;
    std::vector<ContributorSet> subtree;
    std::vector<uint64_t> blockOffset;             //!< K + 1 boundaries of the tree's half
    std::vector<TransferId> lastUp;                //!< per worker: its latest block sent up
    std::vector<std::vector<TransferId>> lastDown; //!< per worker, per child
};

/// Builds a tree over n workers from its parent vector, covering [lo, hi) in `blocks` blocks.
Tree
BuildTree(std::vector<uint32_t> parent, uint32_t n, uint64_t lo, uint64_t hi, uint32_t blocks)
{
    Tree tree;
    tree.parent = std::move(parent);
    tree.children.assign(n, {});
    for (uint32_t r = 0; r < n; ++r)
    {
        if (tree.parent[r] == r)
        {
            tree.root = r;
        }
        else
        {
            tree.children[tree.parent[r]].push_back(r);
        }
    }
    // Post-order: a pre-order that pushes children after their parent, reversed.
    std::vector<uint32_t> stack = {tree.root};
    while (!stack.empty())
    {
        const uint32_t r = stack.back();
        stack.pop_back();
        tree.postOrder.push_back(r);
        for (uint32_t c : tree.children[r])
        {
            stack.push_back(c);
        }
    }
    std::reverse(tree.postOrder.begin(), tree.postOrder.end());
    tree.subtree.assign(n, ContributorSet(n));
    for (uint32_t r : tree.postOrder)
    {
        tree.subtree[r].Add(r);
        if (r != tree.root)
        {
            tree.subtree[tree.parent[r]].UnionWith(tree.subtree[r]);
        }
    }
    const uint64_t bytes = hi - lo;
    tree.blockOffset.assign(blocks + 1, lo);
    for (uint32_t b = 0; b < blocks; ++b)
    {
        tree.blockOffset[b + 1] = tree.blockOffset[b] + bytes / blocks +
                                  (b < bytes % blocks ? 1 : 0);
    }
    tree.lastUp.assign(n, kNone);
    tree.lastDown.assign(n, {});
    for (uint32_t r = 0; r < n; ++r)
    {
        tree.lastDown[r].assign(tree.children[r].size(), kNone);
    }
    return tree;
}

/// Reduces block b of tree t up to the root (post-order); returns, per worker, the sends
/// it received from its children.
std::vector<std::vector<TransferId>>
ReduceUp(SyncPlan& plan, Tree& tree, uint32_t n, uint32_t t, uint32_t b, uint32_t chunk)
{
    const uint64_t offset = tree.blockOffset[b];
    const uint64_t bytes = tree.blockOffset[b + 1] - offset;
    std::vector<std::vector<TransferId>> fromChildren(n);
    for (uint32_t r : tree.postOrder)
    {
        if (r == tree.root)
        {
            continue;
        }
        std::vector<TransferId> deps = fromChildren[r];
        if (tree.lastUp[r] != kNone)
        {
            deps.push_back(tree.lastUp[r]);
        }
        tree.lastUp[r] = plan.Add({0,
                                   r,
                                   tree.parent[r],
                                   offset,
                                   bytes,
                                   TransferOp::Reduce,
                                   tree.subtree[r],
                                   deps,
                                   chunk,
                                   2 * t});
        fromChildren[tree.parent[r]].push_back(tree.lastUp[r]);
    }
    return fromChildren;
}

/// Broadcasts block b of tree t in reverse post-order (parents before children).
void
BroadcastDown(SyncPlan& plan,
              Tree& tree,
              uint32_t n,
              uint32_t t,
              uint32_t b,
              uint32_t chunk,
              const std::vector<std::vector<TransferId>>& fromChildren)
{
    const uint64_t offset = tree.blockOffset[b];
    const uint64_t bytes = tree.blockOffset[b + 1] - offset;
    std::vector<TransferId> fromParent(n, kNone);
    for (auto it = tree.postOrder.rbegin(); it != tree.postOrder.rend(); ++it)
    {
        const uint32_t r = *it;
        for (size_t c = 0; c < tree.children[r].size(); ++c)
        {
            std::vector<TransferId> deps = r == tree.root ? fromChildren[r]
                                                          : std::vector<TransferId>{fromParent[r]};
            if (tree.lastDown[r][c] != kNone)
            {
                deps.push_back(tree.lastDown[r][c]);
            }
            const uint32_t child = tree.children[r][c];
            tree.lastDown[r][c] = plan.Add({0,
                                            r,
                                            child,
                                            offset,
                                            bytes,
                                            TransferOp::Copy,
                                            ContributorSet::All(n),
                                            deps,
                                            chunk,
                                            2 * t + 1});
            fromParent[child] = tree.lastDown[r][c];
        }
    }
}

} // namespace

SyncPlan
DoubleBinaryTreeAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    const uint32_t n = topology.Graph().HostCount();
    const uint64_t w = model.TotalBytes();
    SyncPlan plan;
    StartPlan(plan, w, n, n);
    if (n < 2)
    {
        return plan;
    }
    const uint64_t half[3] = {0, (w + 1) / 2, w};
    std::vector<Tree> trees;
    for (uint32_t t = 0; t < 2; ++t)
    {
        trees.push_back(BuildTree(Parents(n, t), n, half[t], half[t + 1], m_blocks));
    }

    for (uint32_t b = 0; b < m_blocks; ++b)
    {
        for (uint32_t t = 0; t < 2; ++t)
        {
            Tree& tree = trees[t];
            if (tree.blockOffset[b + 1] - tree.blockOffset[b] == 0)
            {
                continue;
            }
            const uint32_t chunk = t * m_blocks + b;
            BroadcastDown(plan, tree, n, t, b, chunk, ReduceUp(plan, tree, n, t, b, chunk));
        }
    }
    return plan;
}

PlanSizeBound
DoubleBinaryTreeAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    // Two trees of N - 1 edges each; every block of a tree goes up each edge (reduce) and
    // down it (broadcast): 2 x 2 (N - 1) x blocks transfers on the edges' 4 (N - 1) ordered
    // pairs at most, each waiting on at most three (a node's children, at most two in a
    // binary tree, and its own send of the block before).
    const uint64_t n = in.hosts;
    const uint64_t edges = n > 0 ? n - 1 : 0;
    const uint64_t transfers = SaturatingMul(4 * edges, m_blocks);
    return {transfers, 4 * edges, SaturatingMul(3, transfers)};
}

} // namespace ns3
