#include "fluid-estimator.h"

#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace ns3
{

namespace
{

/// A transfer's completion point: the route's per-transfer served bytes that
/// finish it.
using FinishMark = std::pair<double, TransferId>;

/// One pending completion of a route, valid while the route's version is
/// unchanged.
struct RouteEvent
{
    double timeS;
    uint32_t route;
    uint32_t version;

    bool
    operator>(const RouteEvent& other) const
    {
        return timeS > other.timeS;
    }
};

/**
 * One fluid execution. Routes are (source host, destination host) pairs with
 * their fluid ECMP usage (directed link, fraction); every active transfer of a
 * route holds the route's rate, so a route's state is its multiplicity, its
 * rate and the bytes served to each of its transfers since it was created
 * ("served"), and a transfer ends when served reaches its finish mark.
 */
class FluidRun
{
  public:
    FluidRun(const Topology& topology, const SyncPlan& plan, double batchS)
        : m_topology(topology), m_graph(topology.Graph()), m_plan(plan), m_batchS(batchS)
    {
    }

    FluidResult Run();

  private:
    void Validate() const;
    uint32_t RouteOf(TransferId t);
    uint32_t BuildRoute(HostRank src, HostRank dst, TransferId t);
    void Start(TransferId t, double now);
    void Complete(TransferId t, double now);
    void Advance(uint32_t route, double now);
    void SetActive(uint32_t route, uint32_t active);
    void Refill(double now);
    void Fill(double now);
    void FillShared();

    const Topology& m_topology;
    const TopologyGraph& m_graph;
    const SyncPlan& m_plan;
    double m_batchS;
    FluidResult m_result;

    // Static per directed link.
    std::vector<double> m_capacity; //!< bytes/s

    // Routes: usage entries [m_routeBegin[r], m_routeBegin[r + 1]).
    std::unordered_map<uint64_t, uint32_t> m_routeOfPair;
    std::vector<uint32_t> m_routeBegin{0};
    std::vector<uint32_t> m_useLink;
    std::vector<double> m_useFraction;
    std::vector<uint32_t> m_useRoute;
    std::vector<uint32_t> m_usePos; //!< position of the entry in its link's active list

    // Dynamic per route.
    std::vector<uint32_t> m_active;
    std::vector<double> m_rate; //!< bytes/s of each of its transfers
    std::vector<double> m_served;
    std::vector<double> m_servedAtS;
    std::vector<uint32_t> m_version;
    std::vector<std::vector<FinishMark>> m_marks; //!< min-heaps
    std::vector<uint32_t> m_routeStamp;

    // Dynamic per directed link.
    std::vector<std::vector<uint32_t>> m_linkUses; //!< usage entries of its active routes
    std::vector<uint32_t> m_linkFlows;
    std::vector<uint32_t> m_linkStamp;
    std::vector<double> m_residual;
    std::vector<double> m_weight;
    std::vector<uint32_t> m_unfrozen;

    // Transfers.
    std::vector<uint32_t> m_routeOfTransfer;
    std::vector<uint32_t> m_pendingDeps;
    std::vector<uint32_t> m_dependentsBegin;
    std::vector<TransferId> m_dependents;
    uint64_t m_completed{0};

    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_componentRoutes;
    std::vector<uint32_t> m_componentLinks;
    std::vector<std::pair<double, uint32_t>> m_levels; //!< filling heap (saturation level, link)
    uint32_t m_stamp{0};
    std::priority_queue<RouteEvent, std::vector<RouteEvent>, std::greater<RouteEvent>> m_events;
};

void
FluidRun::Validate() const
{
    const uint32_t hosts = m_graph.HostCount();
    for (ParticipantIndex p = 0; p < m_plan.ParticipantCount(); ++p)
    {
        if (m_plan.hostOf[p] >= hosts)
        {
            throw std::invalid_argument(
                "FluidEstimator: plan '" + m_plan.algorithm + "' puts participant " +
                std::to_string(p) + " on host " + std::to_string(m_plan.hostOf[p]) + "; topology " +
                m_topology.Spec() + " has " + std::to_string(hosts) + " hosts (ranks from 0)");
        }
    }
    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    for (TransferId t = 0; t < n; ++t)
    {
        const Transfer& tr = m_plan.transfers[t];
        for (ParticipantIndex p : {tr.src, tr.dst})
        {
            if (p >= m_plan.ParticipantCount())
            {
                throw std::invalid_argument(
                    "FluidEstimator: plan '" + m_plan.algorithm + "' transfer " +
                    std::to_string(t) + " names participant " + std::to_string(p) +
                    "; the plan has " + std::to_string(m_plan.ParticipantCount()) +
                    " participants (from 0)");
            }
        }
        for (TransferId d : tr.deps)
        {
            if (d >= n || d == t)
            {
                throw std::invalid_argument(
                    "FluidEstimator: plan '" + m_plan.algorithm + "' transfer " +
                    std::to_string(t) + " depends on transfer " + std::to_string(d) +
                    "; allowed: another of its " + std::to_string(n) + " transfers");
            }
        }
    }
}

uint32_t
FluidRun::RouteOf(TransferId t)
{
    const Transfer& tr = m_plan.transfers[t];
    const HostRank src = m_plan.hostOf[tr.src];
    const HostRank dst = m_plan.hostOf[tr.dst];
    const uint64_t key = (uint64_t{src} << 32) | dst;
    auto it = m_routeOfPair.find(key);
    if (it != m_routeOfPair.end())
    {
        return it->second;
    }
    uint32_t route = BuildRoute(src, dst, t);
    m_routeOfPair.emplace(key, route);
    return route;
}

uint32_t
FluidRun::BuildRoute(HostRank src, HostRank dst, TransferId t)
{
    // Routing state is (node, lane): lanes change where deadlock avoidance says
    // so, and the next hops may depend on the lane. The states reachable from the
    // source form a DAG (each routed path is loop free); it is explored depth
    // first, then the unit of traffic is pushed through it in topological order,
    // halving (1/k) at every k-way ECMP split.
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
    const NodeIndex target = m_graph.HostNode(dst);

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
                                  ": route of transfer " + std::to_string(t) + " (host " +
                                  std::to_string(src) + " -> host " + std::to_string(dst) + ") " +
                                  what);
    };

    std::vector<std::pair<uint32_t, uint32_t>> stack; // state, next hop to explore
    stack.emplace_back(stateOf(m_graph.HostNode(src), 0), 0);
    states[0].color = 1;
    while (!stack.empty())
    {
        auto& [s, next] = stack.back();
        if (next == 0 && states[s].hopsEnd == 0 && states[s].node != target)
        {
            m_topology.NextHops(states[s].node, dst, states[s].lane, hops);
            if (hops.empty())
            {
                throw routeError("has no next hop at node " + m_graph.Node(states[s].node).name);
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
        const PortPeer& peer = m_graph.Ports(at).at(allHops[h].port);
        const uint32_t child = stateOf(peer.peer, allHops[h].lane);
        hopState[h] = child; // may reallocate `states`, never `stack`
        if (states[child].color == 1)
        {
            throw routeError("loops at node " + m_graph.Node(peer.peer).name);
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
            const PortPeer& peer = m_graph.Ports(st.node)[allHops[h].port];
            const uint32_t directed = FluidResult::DirectedIndex(m_graph, peer.link, st.node);
            if (!(m_capacity[directed] > 0) || !std::isfinite(m_capacity[directed]))
            {
                const TopologyLink& l = m_graph.Link(peer.link);
                std::ostringstream rate;
                rate << l.rateBps;
                throw std::invalid_argument("FluidEstimator: topology " + m_topology.Spec() +
                                            ": link " + std::to_string(peer.link) + " (" +
                                            m_graph.Node(l.a).name + " - " +
                                            m_graph.Node(l.b).name + ") has rate " + rate.str() +
                                            " bit/s on the route of transfer " + std::to_string(t) +
                                            " (host " + std::to_string(src) + " -> host " +
                                            std::to_string(dst) + "); allowed: a finite rate > 0");
            }
            fraction[directed] += share;
            states[hopState[h]].weight += share;
        }
    }

    const auto route = static_cast<uint32_t>(m_active.size());
    std::vector<std::pair<uint32_t, double>> uses(fraction.begin(), fraction.end());
    std::sort(uses.begin(), uses.end());
    for (const auto& [link, a] : uses)
    {
        m_useLink.push_back(link);
        m_useFraction.push_back(a);
        m_useRoute.push_back(route);
        m_usePos.push_back(0);
    }
    m_routeBegin.push_back(static_cast<uint32_t>(m_useLink.size()));
    m_active.push_back(0);
    m_rate.push_back(0);
    m_served.push_back(0);
    m_servedAtS.push_back(0);
    m_version.push_back(0);
    m_marks.emplace_back();
    m_routeStamp.push_back(0);
    return route;
}

void
FluidRun::Advance(uint32_t route, double now)
{
    m_served[route] += m_rate[route] * (now - m_servedAtS[route]);
    m_servedAtS[route] = now;
}

void
FluidRun::SetActive(uint32_t route, uint32_t active)
{
    const uint32_t before = m_active[route];
    m_active[route] = active;
    if ((before == 0) == (active == 0))
    {
        return;
    }
    for (uint32_t u = m_routeBegin[route]; u < m_routeBegin[route + 1]; ++u)
    {
        auto& list = m_linkUses[m_useLink[u]];
        if (active > 0)
        {
            m_usePos[u] = static_cast<uint32_t>(list.size());
            list.push_back(u);
        }
        else
        {
            const uint32_t moved = list.back();
            list[m_usePos[u]] = moved;
            m_usePos[moved] = m_usePos[u];
            list.pop_back();
        }
    }
}

void
FluidRun::Start(TransferId first, double now)
{
    // Zero-time transfers (co-located participants) release their dependents at
    // once.
    std::vector<TransferId> work{first};
    while (!work.empty())
    {
        const TransferId t = work.back();
        work.pop_back();
        const Transfer& tr = m_plan.transfers[t];
        m_result.startS[t] = now;
        if (m_plan.hostOf[tr.src] == m_plan.hostOf[tr.dst] || tr.bytes == 0)
        {
            m_result.endS[t] = now;
            ++m_completed;
            for (uint32_t i = m_dependentsBegin[t]; i < m_dependentsBegin[t + 1]; ++i)
            {
                if (--m_pendingDeps[m_dependents[i]] == 0)
                {
                    work.push_back(m_dependents[i]);
                }
            }
            continue;
        }
        const uint32_t r = RouteOf(t);
        m_routeOfTransfer[t] = r;
        Advance(r, now);
        m_marks[r].emplace_back(m_served[r] + static_cast<double>(tr.bytes), t);
        std::push_heap(m_marks[r].begin(), m_marks[r].end(), std::greater<FinishMark>());
        SetActive(r, m_active[r] + 1);
        for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1]; ++u)
        {
            const uint32_t l = m_useLink[u];
            m_result.links[l].bytes += static_cast<double>(tr.bytes) * m_useFraction[u];
            m_result.links[l].maxFlows = std::max(m_result.links[l].maxFlows, ++m_linkFlows[l]);
        }
        m_dirty.push_back(r);
    }
}

void
FluidRun::Complete(TransferId t, double now)
{
    m_result.endS[t] = now;
    ++m_completed;
    const uint32_t r = m_routeOfTransfer[t];
    for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1]; ++u)
    {
        --m_linkFlows[m_useLink[u]];
    }
    SetActive(r, m_active[r] - 1);
    m_dirty.push_back(r);
}

void
FluidRun::Refill(double now)
{
    if (m_dirty.empty())
    {
        return;
    }
    ++m_result.events;
    // Max-min fairness decomposes over the connected components of the graph "active route
    // - link it uses": only the components of the dirty routes can change, and each is
    // filled on its own (a ring step on a fat-tree is a thousand one-route components).
    ++m_stamp;
    for (uint32_t seed : m_dirty)
    {
        if (m_routeStamp[seed] == m_stamp)
        {
            continue;
        }
        m_routeStamp[seed] = m_stamp;
        m_componentRoutes.assign(1, seed);
        m_componentLinks.clear();
        for (size_t i = 0; i < m_componentRoutes.size(); ++i)
        {
            const uint32_t r = m_componentRoutes[i];
            for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1]; ++u)
            {
                const uint32_t l = m_useLink[u];
                if (m_linkStamp[l] == m_stamp)
                {
                    continue;
                }
                m_linkStamp[l] = m_stamp;
                m_componentLinks.push_back(l);
                for (uint32_t v : m_linkUses[l])
                {
                    const uint32_t other = m_useRoute[v];
                    if (m_routeStamp[other] != m_stamp)
                    {
                        m_routeStamp[other] = m_stamp;
                        m_componentRoutes.push_back(other);
                    }
                }
            }
        }
        Fill(now);
    }
    m_dirty.clear();
}

void
FluidRun::Fill(double now)
{
    for (uint32_t r : m_componentRoutes)
    {
        Advance(r, now);
    }
    if (m_componentRoutes.size() == 1)
    {
        // Alone on its links: the route's rate is its tightest link's c_l / (m a_l).
        const uint32_t r = m_componentRoutes[0];
        double rate = 0;
        if (m_active[r] > 0)
        {
            rate = std::numeric_limits<double>::infinity();
            for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1]; ++u)
            {
                rate = std::min(rate, m_capacity[m_useLink[u]] / (m_active[r] * m_useFraction[u]));
            }
        }
        m_rate[r] = rate;
    }
    else
    {
        FillShared();
    }
    for (uint32_t r : m_componentRoutes)
    {
        ++m_version[r];
        if (m_active[r] > 0)
        {
            const double remaining = std::max(m_marks[r].front().first - m_served[r], 0.0);
            m_events.push({now + remaining / m_rate[r], r, m_version[r]});
        }
    }
}

void
FluidRun::FillShared()
{
    // Progressive filling: every unfrozen route's rate rises together to `level`; link l
    // saturates at (residual capacity) / (sum of m_r a_rl over its unfrozen routes); its
    // routes freeze there.
    for (uint32_t l : m_componentLinks)
    {
        m_residual[l] = m_capacity[l];
        m_weight[l] = 0;
        m_unfrozen[l] = 0;
    }
    for (uint32_t r : m_componentRoutes)
    {
        m_rate[r] = m_active[r] > 0 ? -1 : 0; // -1: unfrozen
        for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1] && m_active[r] > 0; ++u)
        {
            m_weight[m_useLink[u]] += m_active[r] * m_useFraction[u];
            ++m_unfrozen[m_useLink[u]];
        }
    }
    // A link's saturation level only rises as routes freeze: freezing a route at level x on
    // link l2 with R / W >= x gives (R - a x) / (W - a) >= R / W. So heap keys are lower
    // bounds, each link sits in the heap once, and a popped link whose level has risen is
    // pushed back with its new level instead of being updated at every freeze.
    using LinkLevel = std::pair<double, uint32_t>;
    std::vector<LinkLevel>& heap = m_levels;
    heap.clear();
    for (uint32_t l : m_componentLinks)
    {
        if (m_unfrozen[l] > 0)
        {
            heap.emplace_back(m_residual[l] / m_weight[l], l);
        }
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<LinkLevel>());
    double level = 0;
    while (!heap.empty())
    {
        std::pop_heap(heap.begin(), heap.end(), std::greater<LinkLevel>());
        const auto [x, l] = heap.back();
        heap.pop_back();
        if (m_unfrozen[l] == 0)
        {
            continue;
        }
        const double current = std::max(m_residual[l], 0.0) / m_weight[l];
        if (current > x)
        {
            heap.emplace_back(current, l);
            std::push_heap(heap.begin(), heap.end(), std::greater<LinkLevel>());
            continue;
        }
        // Rounding can leave a residual a hair below what the current level needs;
        // levels never fall in progressive filling.
        level = std::max(level, current);
        for (uint32_t v : m_linkUses[l])
        {
            const uint32_t r = m_useRoute[v];
            if (m_rate[r] >= 0)
            {
                continue;
            }
            m_rate[r] = level;
            for (uint32_t u = m_routeBegin[r]; u < m_routeBegin[r + 1]; ++u)
            {
                const uint32_t l2 = m_useLink[u];
                const double load = m_active[r] * m_useFraction[u];
                m_residual[l2] -= load * level;
                m_weight[l2] -= load;
                --m_unfrozen[l2];
            }
        }
    }
}

FluidResult
FluidRun::Run()
{
    Validate();
    const uint32_t directed = 2 * m_graph.LinkCount();
    m_capacity.resize(directed);
    for (LinkIndex l = 0; l < m_graph.LinkCount(); ++l)
    {
        m_capacity[2 * l] = m_graph.Link(l).rateBps / 8;
        m_capacity[2 * l + 1] = m_graph.Link(l).rateBps / 8;
    }
    m_linkUses.resize(directed);
    m_linkFlows.assign(directed, 0);
    m_linkStamp.assign(directed, 0);
    m_residual.assign(directed, 0);
    m_weight.assign(directed, 0);
    m_unfrozen.assign(directed, 0);
    m_result.links.resize(directed);

    const auto n = static_cast<TransferId>(m_plan.transfers.size());
    m_result.startS.assign(n, -1);
    m_result.endS.assign(n, -1);
    m_routeOfTransfer.assign(n, 0);
    m_pendingDeps.assign(n, 0);
    m_dependentsBegin.assign(n + 1, 0);
    for (TransferId t = 0; t < n; ++t)
    {
        m_pendingDeps[t] = static_cast<uint32_t>(m_plan.transfers[t].deps.size());
        for (TransferId d : m_plan.transfers[t].deps)
        {
            ++m_dependentsBegin[d + 1];
        }
    }
    for (TransferId t = 0; t < n; ++t)
    {
        m_dependentsBegin[t + 1] += m_dependentsBegin[t];
    }
    m_dependents.resize(m_dependentsBegin[n]);
    {
        std::vector<uint32_t> fill(m_dependentsBegin.begin(), m_dependentsBegin.end() - 1);
        for (TransferId t = 0; t < n; ++t)
        {
            for (TransferId d : m_plan.transfers[t].deps)
            {
                m_dependents[fill[d]++] = t;
            }
        }
    }

    double now = 0;
    for (TransferId t = 0; t < n; ++t)
    {
        if (m_pendingDeps[t] == 0)
        {
            Start(t, now);
        }
    }
    Refill(now);

    std::vector<TransferId> done;
    while (!m_events.empty())
    {
        const RouteEvent first = m_events.top();
        m_events.pop();
        if (first.version != m_version[first.route])
        {
            continue;
        }
        now = first.timeS;
        // This route's earliest transfer is due; so is every transfer, on any
        // route, that would finish within the merge window (see the header).
        auto takeDue = [&](uint32_t r) {
            Advance(r, now);
            auto& marks = m_marks[r];
            const double slack = m_rate[r] * m_batchS;
            bool firstMark = true;
            while (!marks.empty() && (firstMark || marks.front().first - m_served[r] <=
                                                       slack + 1e-12 * marks.front().first))
            {
                firstMark = false;
                done.push_back(marks.front().second);
                std::pop_heap(marks.begin(), marks.end(), std::greater<FinishMark>());
                marks.pop_back();
            }
        };
        takeDue(first.route);
        ++m_version[first.route];
        while (!m_events.empty() && m_events.top().timeS <= now + m_batchS)
        {
            const RouteEvent e = m_events.top();
            m_events.pop();
            if (e.version == m_version[e.route])
            {
                takeDue(e.route);
                ++m_version[e.route];
            }
        }
        for (TransferId t : done)
        {
            Complete(t, now);
        }
        for (TransferId t : done)
        {
            for (uint32_t i = m_dependentsBegin[t]; i < m_dependentsBegin[t + 1]; ++i)
            {
                if (--m_pendingDeps[m_dependents[i]] == 0)
                {
                    Start(m_dependents[i], now);
                }
            }
        }
        done.clear();
        Refill(now);
    }

    if (m_completed != n)
    {
        for (TransferId t = 0; t < n; ++t)
        {
            if (m_result.endS[t] < 0)
            {
                throw std::invalid_argument("FluidEstimator: plan '" + m_plan.algorithm +
                                            "': transfer " + std::to_string(t) +
                                            " never starts (its dependencies form a cycle)");
            }
        }
    }
    for (TransferId t = 0; t < n; ++t)
    {
        m_result.gstS = std::max(m_result.gstS, m_result.endS[t]);
    }
    for (uint32_t l = 0; l < directed; ++l)
    {
        FluidLinkLoad& load = m_result.links[l];
        const double rate = m_graph.Link(l / 2).rateBps;
        load.utilization =
            m_result.gstS > 0 && rate > 0 ? load.bytes * 8 / (rate * m_result.gstS) : 0;
        m_result.maxConcurrentFlows = std::max(m_result.maxConcurrentFlows, load.maxFlows);
    }
    return std::move(m_result);
}

} // namespace

uint32_t
FluidResult::DirectedIndex(const TopologyGraph& graph, LinkIndex link, NodeIndex from)
{
    return 2 * link + (graph.Link(link).a == from ? 0 : 1);
}

FluidEstimator::FluidEstimator(double batchS) : m_batchS(batchS)
{
    if (!(batchS >= 0) || !std::isfinite(batchS))
    {
        throw std::invalid_argument("FluidEstimator: batch window " + std::to_string(batchS) +
                                    " s; allowed: a finite value >= 0");
    }
}

FluidResult
FluidEstimator::Estimate(const Topology& topology, const SyncPlan& plan) const
{
    return FluidRun(topology, plan, m_batchS).Run();
}

} // namespace ns3
