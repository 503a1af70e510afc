#include "fluid-paths.h"

#include "fluid-estimator.h"

#include "ns3/topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

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
    // Routing state is (node, lane): lanes change where deadlock avoidance says so, and the
    // next hops may depend on the lane. The states reachable from the source form a DAG
    // (each routed path is loop free); it is explored depth first, then the unit of traffic
    // is pushed through it in topological order, divided by k at every k-way ECMP split.
    const TopologyGraph& graph = m_topology.Graph();
    struct State
    {
        NodeIndex node;
        uint8_t lane;
        uint32_t hopsBegin;
        uint32_t hopsEnd;
        uint8_t color; // 0 new, 1 on the DFS stack, 2 done
        double weight;
    };
    std::vector<State> states;
    std::unordered_map<uint64_t, uint32_t> index;
    std::vector<RouteHop> hops;
    std::vector<RouteHop> allHops;
    std::vector<uint32_t> hopState; // per entry of allHops: the state it leads to
    std::vector<uint32_t> postOrder;
    const NodeIndex target = graph.HostNode(dst);

    auto stateOf = [&](NodeIndex node, uint8_t lane) {
        const uint64_t key = (uint64_t{node} << 8) | lane;
        auto it = index.find(key);
        if (it != index.end())
        {
            return it->second;
        }
        auto s = static_cast<uint32_t>(states.size());
        states.push_back({node, lane, 0, 0, 0, 0.0});
        index.emplace(key, s);
        return s;
    };
    auto routeError = [&](const std::string& what) {
        return std::runtime_error("FluidEstimator: topology " + m_topology.Spec() +
                                  ": route host " + std::to_string(src) + " -> host " +
                                  std::to_string(dst) + " " + what);
    };

    std::vector<std::pair<uint32_t, uint32_t>> stack; // state, next hop to explore
    stack.emplace_back(stateOf(graph.HostNode(src), 0), 0);
    states[0].color = 1;
    while (!stack.empty())
    {
        auto& [s, next] = stack.back();
        if (next == 0 && states[s].hopsEnd == 0 && states[s].node != target)
        {
            m_topology.NextHops(states[s].node, dst, states[s].lane, hops);
            if (hops.empty())
            {
                throw routeError("has no next hop at node " + graph.Node(states[s].node).name);
            }
            states[s].hopsBegin = static_cast<uint32_t>(allHops.size());
            allHops.insert(allHops.end(), hops.begin(), hops.end());
            hopState.resize(allHops.size(), 0);
            states[s].hopsEnd = static_cast<uint32_t>(allHops.size());
        }
        const uint32_t h = states[s].hopsBegin + next;
        if (h >= states[s].hopsEnd)
        {
            states[s].color = 2;
            postOrder.push_back(s);
            stack.pop_back();
            continue;
        }
        ++next;
        const NodeIndex at = states[s].node;
        const PortPeer& peer = graph.Ports(at).at(allHops[h].port);
        const uint32_t child = stateOf(peer.peer, allHops[h].lane);
        hopState[h] = child; // may reallocate `states`, never `stack`
        if (states[child].color == 1)
        {
            throw routeError("loops at node " + graph.Node(peer.peer).name);
        }
        if (states[child].color == 0)
        {
            states[child].color = 1;
            stack.emplace_back(child, 0);
        }
    }

    // Reverse post-order is a topological order of the DAG.
    std::unordered_map<uint32_t, double> fraction; // directed link -> share of the traffic
    states[0].weight = 1.0;
    for (auto it = postOrder.rbegin(); it != postOrder.rend(); ++it)
    {
        const State& st = states[*it];
        const uint32_t k = st.hopsEnd - st.hopsBegin;
        if (k == 0)
        {
            continue;
        }
        const double share = st.weight / k;
        for (uint32_t h = st.hopsBegin; h < st.hopsEnd; ++h)
        {
            const PortPeer& peer = graph.Ports(st.node)[allHops[h].port];
            fraction[FluidResult::DirectedIndex(graph, peer.link, st.node)] += share;
            states[hopState[h]].weight += share;
        }
    }
    std::vector<FluidLinkUse> uses;
    uses.reserve(fraction.size());
    for (const auto& [link, a] : fraction)
    {
        uses.push_back({link, a});
    }
    std::sort(uses.begin(), uses.end(), [](const FluidLinkUse& x, const FluidLinkUse& y) {
        return x.link < y.link;
    });
    return uses;
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
