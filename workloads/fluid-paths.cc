#include "fluid-paths.h"

#include "fluid-estimator.h"

#include "ns3/topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

EcmpSplitPaths::EcmpSplitPaths(const Topology& topology)
    : m_topology(topology)
{
}

uint32_t
EcmpSplitPaths::QueuePairs(HostRank, HostRank) const
{
    return 1;
}

double
EcmpSplitPaths::WireBytes(uint64_t payload) const
{
    return static_cast<double>(payload);
}

std::vector<FluidLinkUse>
EcmpSplitPaths::Uses(HostRank src, HostRank dst, uint32_t) const
{
    // Routing is memoryless (Topology::NextHops depends on the node, the lane and the
    // destination, not on the source), so the split from a state onwards is the same for
    // every source that reaches it. A source with one next hop (a fat-tree's host and its
    // edge switch) gives its uplink the whole unit and the rest is the split from the state
    // it leads to, kept for the next source under the same switch (a 1,024-host mesh asks
    // for the pairs source by source: 7 of every 8 are found).
    const TopologyGraph& graph = m_topology.Graph();
    const NodeIndex from = graph.HostNode(src);
    std::vector<RouteHop>& hops = m_scratch.hops;
    m_topology.NextHops(from, dst, 0, hops);
    if (hops.size() != 1)
    {
        return Split(src, from, 0, dst);
    }
    const PortPeer& peer = graph.Ports(from).at(hops[0].port);
    const uint64_t key = (uint64_t{peer.peer} << 40) | (uint64_t{hops[0].lane} << 32) |
                         uint64_t{dst};
    auto it = m_splitFrom.find(key);
    if (it == m_splitFrom.end())
    {
        std::vector<FluidLinkUse> rest = Split(src, peer.peer, hops[0].lane, dst);
        if (m_splitFromEntries + rest.size() > kSplitCacheEntries)
        {
            m_splitFrom.clear(); // bounded memory: start again
            m_splitFromEntries = 0;
        }
        m_splitFromEntries += rest.size();
        it = m_splitFrom.emplace(key, std::move(rest)).first;
    }
    std::vector<FluidLinkUse> uses;
    uses.reserve(it->second.size() + 1);
    const uint32_t up = FluidResult::DirectedIndex(graph, peer.link, from);
    bool placed = false;
    for (const FluidLinkUse& use : it->second)
    {
        if (!placed && use.link >= up)
        {
            placed = true;
            if (use.link == up) // (a route back through the source's own uplink)
            {
                uses.push_back({up, 1.0 + use.fraction});
                continue;
            }
            uses.push_back({up, 1.0});
        }
        uses.push_back(use);
    }
    if (!placed)
    {
        uses.push_back({up, 1.0});
    }
    return uses;
}

std::vector<FluidLinkUse>
EcmpSplitPaths::Split(HostRank src, NodeIndex node, uint8_t lane, HostRank dst) const
{
    // Routing state is (node, lane): lanes change where deadlock avoidance says so, and the
    // next hops may depend on the lane. The states reachable from the start form a DAG
    // (each routed path is loop free); it is explored depth first, then the unit of traffic
    // is pushed through it in topological order, divided by k at every k-way ECMP split.
    // The scratch arrays are reused from call to call (a 1,024-host mesh asks for a
    // million host pairs): per-node and per-link entries are valid when their stamp is
    // this call's. The steps below are members working on that scratch: no allocation.
    ResetScratch();
    ExploreStates(src, node, lane, dst);
    PushShares();
    Scratch& w = m_scratch;
    std::sort(w.links.begin(), w.links.end());
    std::vector<FluidLinkUse> uses;
    uses.reserve(w.links.size());
    for (uint32_t link : w.links)
    {
        uses.push_back({link, w.linkShare[link]});
    }
    return uses;
}

void
EcmpSplitPaths::ResetScratch() const
{
    const TopologyGraph& graph = m_topology.Graph();
    Scratch& w = m_scratch;
    if (w.nodeStamp.size() != graph.NodeCount())
    {
        w.nodeStamp.assign(graph.NodeCount(), 0);
        w.nodeFirst.assign(graph.NodeCount(), 0);
        w.linkStamp.assign(2 * size_t{graph.LinkCount()}, 0);
        w.linkShare.assign(2 * size_t{graph.LinkCount()}, 0);
    }
    if (++w.stamp == 0)
    {
        std::fill(w.nodeStamp.begin(), w.nodeStamp.end(), 0);
        std::fill(w.linkStamp.begin(), w.linkStamp.end(), 0);
        w.stamp = 1;
    }
    w.states.clear();
    w.allHops.clear();
    w.hopState.clear();
    w.postOrder.clear();
    w.links.clear();
}

uint32_t
EcmpSplitPaths::StateOf(NodeIndex node, uint8_t lane) const
{
    Scratch& w = m_scratch;
    if (w.nodeStamp[node] == w.stamp)
    {
        for (uint32_t s = w.nodeFirst[node]; s != kNoState; s = w.states[s].sameNode)
        {
            if (w.states[s].lane == lane)
            {
                return s;
            }
        }
    }
    const uint32_t next = w.nodeStamp[node] == w.stamp ? w.nodeFirst[node] : kNoState;
    auto s = static_cast<uint32_t>(w.states.size());
    w.states.push_back({node, lane, 0, 0, 0, 0.0, next});
    w.nodeStamp[node] = w.stamp;
    w.nodeFirst[node] = s;
    return s;
}

void
EcmpSplitPaths::ExploreStates(HostRank src, NodeIndex start, uint8_t lane, HostRank dst) const
{
    const TopologyGraph& graph = m_topology.Graph();
    Scratch& w = m_scratch;
    const NodeIndex target = graph.HostNode(dst);
    auto routeError = [&](const std::string& what) {
        return std::runtime_error("FluidEstimator: topology " + m_topology.Spec() +
                                  ": route host " + std::to_string(src) + " -> host " +
                                  std::to_string(dst) + " " + what);
    };

    std::vector<std::pair<uint32_t, uint32_t>>& stack = w.stack; // state, next hop to explore
    stack.clear();
    stack.emplace_back(StateOf(start, lane), 0);
    w.states[0].color = 1;
    while (!stack.empty())
    {
        auto& [s, next] = stack.back();
        if (next == 0 && w.states[s].hopsEnd == 0 && w.states[s].node != target)
        {
            m_topology.NextHops(w.states[s].node, dst, w.states[s].lane, w.hops);
            if (w.hops.empty())
            {
                throw routeError("has no next hop at node " + graph.Node(w.states[s].node).name);
            }
            w.states[s].hopsBegin = static_cast<uint32_t>(w.allHops.size());
            w.allHops.insert(w.allHops.end(), w.hops.begin(), w.hops.end());
            w.hopState.resize(w.allHops.size(), 0);
            w.states[s].hopsEnd = static_cast<uint32_t>(w.allHops.size());
        }
        const uint32_t h = w.states[s].hopsBegin + next;
        if (h >= w.states[s].hopsEnd)
        {
            w.states[s].color = 2;
            w.postOrder.push_back(s);
            stack.pop_back();
            continue;
        }
        ++next;
        const NodeIndex at = w.states[s].node;
        const PortPeer& peer = graph.Ports(at).at(w.allHops[h].port);
        const uint32_t child = StateOf(peer.peer, w.allHops[h].lane);
        w.hopState[h] = child; // may reallocate `states`, never `stack`
        if (w.states[child].color == 1)
        {
            throw routeError("loops at node " + graph.Node(peer.peer).name);
        }
        if (w.states[child].color == 0)
        {
            w.states[child].color = 1;
            stack.emplace_back(child, 0);
        }
    }
}

void
EcmpSplitPaths::PushShares() const
{
    const TopologyGraph& graph = m_topology.Graph();
    Scratch& w = m_scratch;
    // Reverse post-order is a topological order of the DAG.
    w.states[0].weight = 1.0;
    for (auto it = w.postOrder.rbegin(); it != w.postOrder.rend(); ++it)
    {
        const State& st = w.states[*it];
        const uint32_t k = st.hopsEnd - st.hopsBegin;
        if (k == 0)
        {
            continue;
        }
        const double share = st.weight / k;
        for (uint32_t h = st.hopsBegin; h < st.hopsEnd; ++h)
        {
            const PortPeer& peer = graph.Ports(st.node)[w.allHops[h].port];
            const uint32_t link = FluidResult::DirectedIndex(graph, peer.link, st.node);
            if (w.linkStamp[link] != w.stamp)
            {
                w.linkStamp[link] = w.stamp;
                w.linkShare[link] = 0;
                w.links.push_back(link);
            }
            w.linkShare[link] += share;
            w.states[w.hopState[h]].weight += share;
        }
    }
}

PinnedPaths::PinnedPaths(std::function<uint32_t(HostRank, HostRank)> queuePairs,
                         std::function<double(uint64_t)> wireBytes)
    : m_queuePairs(std::move(queuePairs)),
      m_wireBytes(std::move(wireBytes))
{
}

void
PinnedPaths::Pin(const Key& qp, std::vector<uint32_t> directedLinks)
{
    m_paths[qp] = std::move(directedLinks);
}

uint32_t
PinnedPaths::QueuePairs(HostRank src, HostRank dst) const
{
    return std::max<uint32_t>(1, m_queuePairs(src, dst));
}

double
PinnedPaths::WireBytes(uint64_t payload) const
{
    return m_wireBytes(payload);
}

std::vector<FluidLinkUse>
PinnedPaths::Uses(HostRank src, HostRank dst, uint32_t qp) const
{
    auto it = m_paths.find(Key{src, dst, qp});
    if (it == m_paths.end())
    {
        throw std::runtime_error("FluidEstimator: no pinned path for queue pair " +
                                 std::to_string(qp) + " of host " + std::to_string(src) +
                                 " -> host " + std::to_string(dst));
    }
    std::vector<FluidLinkUse> uses;
    for (uint32_t l : it->second)
    {
        uses.push_back({l, 1.0});
    }
    std::sort(uses.begin(), uses.end(), [](const FluidLinkUse& x, const FluidLinkUse& y) {
        return x.link < y.link;
    });
    return uses;
}

} // namespace ns3
