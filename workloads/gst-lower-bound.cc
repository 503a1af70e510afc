#include "gst-lower-bound.h"

#include "ns3/topology.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace ns3
{

namespace
{

/// \brief Transfers grouped by host pair, and the per-transfer quantities of the bound.
class BoundRun
{
  public:
    BoundRun(const Topology& topology,
             const SyncPlan& plan,
             const FluidPaths& paths,
             const GstLowerBound::PathTime& pathTime,
             const GstLowerBound::AckTime& ackTime);

    GstBound Run();

  private:
    /// \brief Sorts the transfers between distinct hosts by (src, dst) host pair.
    void GroupByPair();
    /// \brief The uses of the queue pairs carrying the parts of the group's transfers.
    void FetchUses(size_t begin, size_t end);
    /// \brief Calls visit(begin, end, src, dst) for each host pair's run [begin, end) of
    /// m_byPair, with the uses of its queue pairs fetched into m_uses.
    template<typename Visit>
    void ForEachPair(Visit&& visit);
    /// \brief Capacity (bytes/s) of a used directed link; throws when it has none.
    double Capacity(uint32_t link, HostRank src, HostRank dst) const;
    /// \brief Solo times of every transfer (pass 1 over the uses).
    void SoloTimes();
    /// \brief Heads, tails and the chain bound.
    double Chain();
    /// \brief When t's source sees dependency d done, at the earliest (s).
    double SeenDone(TransferId d, const Transfer& t) const;
    /// \brief r_t raised by the one-machine bound of its deps on their hosts' ports.
    double PortHead(const Transfer& t) const;
    /// \brief Per-link load of the QPs' uses over the first `parts` QPs: max_l sum a / c.
    double MostLoadedLink(size_t parts, HostRank src, HostRank dst) const;
    /// \brief Up to k thresholds among `values`: all distinct ones, or k quantiles.
    static std::vector<double> Thresholds(std::vector<double> values, uint32_t k);
    /// \brief Loads per link and cell (pass 2 over the uses), then the best cell.
    void LinkBound(GstBound& out);
    /// \brief Bytes of part i of a transfer of `bytes` in `parts` parts.
    static uint64_t
    PartBytes(uint64_t bytes, uint64_t parts, uint64_t i)
    {
        return bytes / parts + (i < bytes % parts ? 1 : 0);
    }

    const Topology& m_topology;
    const SyncPlan& m_plan;
    const FluidPaths& m_paths;
    const GstLowerBound::PathTime& m_pathTime;
    const GstLowerBound::AckTime& m_ackTime;
    std::vector<double> m_hostIn;  //!< per host: total rate of its incoming links (bytes/s)
    std::vector<double> m_hostOut; //!< per host: total rate of its outgoing links (bytes/s)
    std::vector<double> m_wire;    //!< W_t: wire bytes of a transfer, all parts
    std::vector<NodeIndex> m_from; //!< per directed link: the node it leaves
    std::vector<NodeIndex> m_to;   //!< per directed link: the node it enters
    /// \brief (transfer, link, load in s) on the links leaving its source host and entering
    /// its destination host, sorted; m_edgeBegin[t] is t's first.
    std::vector<std::tuple<TransferId, uint32_t, double>> m_edges;
    std::vector<size_t> m_edgeBegin;
    std::vector<double> m_capacity;                        //!< per directed link (bytes/s)
    std::vector<std::pair<uint64_t, TransferId>> m_byPair; //!< (src << 32 | dst, transfer)
    std::vector<std::vector<FluidLinkUse>> m_uses;         //!< per QP of the current pair
    std::vector<double> m_solo;                            //!< s_t
    std::vector<double> m_head;                            //!< r_t
    std::vector<double> m_tail;                            //!< q_t
};

BoundRun::BoundRun(const Topology& topology,
                   const SyncPlan& plan,
                   const FluidPaths& paths,
                   const GstLowerBound::PathTime& pathTime,
                   const GstLowerBound::AckTime& ackTime)
    : m_topology(topology),
      m_plan(plan),
      m_paths(paths),
      m_pathTime(pathTime),
      m_ackTime(ackTime)
{
    const TopologyGraph& g = topology.Graph();
    m_capacity.assign(2 * g.LinkCount(), 0.0);
    m_from.assign(2 * g.LinkCount(), 0);
    m_to.assign(2 * g.LinkCount(), 0);
    m_hostIn.assign(g.HostCount(), 0.0);
    m_hostOut.assign(g.HostCount(), 0.0);
    for (LinkIndex l = 0; l < g.LinkCount(); ++l)
    {
        const TopologyLink& link = g.Link(l);
        m_capacity[2 * l] = link.rateBps / 8;
        m_capacity[2 * l + 1] = link.rateBps / 8;
        m_from[2 * l] = m_to[2 * l + 1] = link.a;
        m_from[2 * l + 1] = m_to[2 * l] = link.b;
        for (NodeIndex end : {link.a, link.b})
        {
            if (g.Node(end).isHost)
            {
                m_hostIn[g.Node(end).rank] += link.rateBps / 8;
                m_hostOut[g.Node(end).rank] += link.rateBps / 8;
            }
        }
    }
}

double
BoundRun::MostLoadedLink(size_t parts, HostRank src, HostRank dst) const
{
    std::vector<std::pair<uint32_t, double>> loads; // (link, a / c) of every use
    for (size_t q = 0; q < parts && q < m_uses.size(); ++q)
    {
        for (const FluidLinkUse& u : m_uses[q])
        {
            loads.emplace_back(u.link, u.fraction / Capacity(u.link, src, dst));
        }
    }
    std::sort(loads.begin(), loads.end());
    double most = 0;
    for (size_t k = 0; k < loads.size();)
    {
        double sum = 0;
        size_t e = k;
        for (; e < loads.size() && loads[e].first == loads[k].first; ++e)
        {
            sum += loads[e].second;
        }
        most = std::max(most, sum);
        k = e;
    }
    return most;
}

void
BoundRun::GroupByPair()
{
    const uint32_t hosts = m_topology.Graph().HostCount();
    for (const Transfer& t : m_plan.transfers)
    {
        const uint32_t src = m_plan.hostOf.at(t.src);
        const uint32_t dst = m_plan.hostOf.at(t.dst);
        if (src >= hosts || dst >= hosts)
        {
            throw std::invalid_argument("GstLowerBound: transfer " + std::to_string(t.id) +
                                        " names host " + std::to_string(std::max(src, dst)) +
                                        "; allowed: hosts 0.." + std::to_string(hosts - 1));
        }
        if (src != dst && t.bytes > 0)
        {
            m_byPair.emplace_back((uint64_t{src} << 32) | dst, t.id);
        }
    }
    std::sort(m_byPair.begin(), m_byPair.end());
}

void
BoundRun::FetchUses(size_t begin, size_t end)
{
    const auto src = static_cast<HostRank>(m_byPair[begin].first >> 32);
    const auto dst = static_cast<HostRank>(m_byPair[begin].first & 0xffffffffu);
    const uint64_t qps = std::max<uint32_t>(1, m_paths.QueuePairs(src, dst));
    uint64_t most = 1;
    for (size_t k = begin; k < end; ++k)
    {
        most = std::max(most, std::min(qps, m_plan.transfers[m_byPair[k].second].bytes));
    }
    m_uses.resize(most);
    for (uint32_t q = 0; q < most; ++q)
    {
        m_uses[q] = m_paths.Uses(src, dst, q);
    }
}

template<typename Visit>
void
BoundRun::ForEachPair(Visit&& visit)
{
    for (size_t begin = 0; begin < m_byPair.size();)
    {
        size_t end = begin;
        while (end < m_byPair.size() && m_byPair[end].first == m_byPair[begin].first)
        {
            ++end;
        }
        FetchUses(begin, end);
        visit(begin,
              end,
              static_cast<HostRank>(m_byPair[begin].first >> 32),
              static_cast<HostRank>(m_byPair[begin].first & 0xffffffffu));
        begin = end;
    }
}

double
BoundRun::Capacity(uint32_t link, HostRank src, HostRank dst) const
{
    const double c = link < m_capacity.size() ? m_capacity[link] : 0.0;
    if (!(c > 0) || !std::isfinite(c))
    {
        throw std::invalid_argument(
            "GstLowerBound: topology " + m_topology.Spec() + ": directed link " +
            std::to_string(link) + " on the route of host " + std::to_string(src) + " -> host " +
            std::to_string(dst) + " has no finite rate > 0; allowed: a finite rate > 0");
    }
    return c;
}

void
BoundRun::SoloTimes()
{
    m_solo.assign(m_plan.transfers.size(), 0.0);
    m_wire.assign(m_plan.transfers.size(), 0.0);
    ForEachPair([this](size_t begin, size_t end, HostRank src, HostRank dst) {
        std::vector<double> rate(m_uses.size(), INFINITY); // r_q = min_l c_l / a_l
        for (size_t q = 0; q < m_uses.size(); ++q)
        {
            for (const FluidLinkUse& u : m_uses[q])
            {
                rate[q] = std::min(rate[q], Capacity(u.link, src, dst) / u.fraction);
            }
        }
        const uint64_t qps = std::max<uint32_t>(1, m_paths.QueuePairs(src, dst));
        // Transfers striped over every fetched QP load each link with the sum of their
        // parts (each part at least the smallest one's wire bytes).
        const double most = MostLoadedLink(m_uses.size(), src, dst);
        const NodeIndex srcNode = m_topology.Graph().HostNode(src);
        const NodeIndex dstNode = m_topology.Graph().HostNode(dst);
        for (size_t k = begin; k < end; ++k)
        {
            const TransferId id = m_byPair[k].second;
            const uint64_t bytes = m_plan.transfers[id].bytes;
            const uint64_t parts = std::min(qps, bytes);
            if (parts == m_uses.size())
            {
                m_solo[id] = m_paths.WireBytes(bytes / parts) * most;
            }
            for (uint64_t i = 0; i < parts; ++i)
            {
                const uint64_t part = PartBytes(bytes, parts, i);
                m_wire[id] += m_paths.WireBytes(part);
                // The part's load on its end hosts' own links (PortHead).
                for (const FluidLinkUse& u : m_uses[i])
                {
                    if (m_from[u.link] == srcNode || m_to[u.link] == dstNode)
                    {
                        m_edges.emplace_back(
                            id, u.link, u.fraction * m_paths.WireBytes(part) / m_capacity[u.link]);
                    }
                }
                double s = std::isfinite(rate[i]) ? m_paths.WireBytes(part) / rate[i] : 0.0;
                if (m_pathTime)
                {
                    s = std::max(s, m_pathTime(src, dst, static_cast<uint32_t>(i), part));
                }
                m_solo[id] = std::max(m_solo[id], s);
            }
        }
    });
    std::sort(m_edges.begin(), m_edges.end());
    m_edgeBegin.assign(m_plan.transfers.size() + 1, 0);
    for (const auto& e : m_edges)
    {
        ++m_edgeBegin[std::get<0>(e) + 1];
    }
    for (size_t t = 0; t < m_plan.transfers.size(); ++t)
    {
        m_edgeBegin[t + 1] += m_edgeBegin[t];
    }
}

double
BoundRun::SeenDone(TransferId d, const Transfer& t) const
{
    const Transfer& dep = m_plan.transfers[d];
    const HostRank src = m_plan.hostOf[dep.src];
    const HostRank dst = m_plan.hostOf[dep.dst];
    const bool acked = m_ackTime && dep.src == t.src && src != dst;
    return m_head[d] + m_solo[d] + (acked ? m_ackTime(src, dst) : 0.0);
}

double
BoundRun::PortHead(const Transfer& t) const
{
    // (port, head, load) of every dependency that crossed the network. A port is a link at
    // the dependency's end hosts (its own load there), or a host's ingress or egress as a
    // whole (bit 40 set; its wire bytes over the host's total rate).
    constexpr uint64_t kHost = uint64_t{1} << 40;
    std::vector<std::tuple<uint64_t, double, double>> uses;
    for (TransferId d : t.deps)
    {
        const Transfer& dep = m_plan.transfers[d];
        const HostRank src = m_plan.hostOf[dep.src];
        const HostRank dst = m_plan.hostOf[dep.dst];
        if (src == dst || !(m_wire[d] > 0))
        {
            continue;
        }
        uses.emplace_back(kHost | uint64_t{dst} << 1 | 1, m_head[d], m_wire[d] / m_hostIn[dst]);
        uses.emplace_back(kHost | uint64_t{src} << 1, m_head[d], m_wire[d] / m_hostOut[src]);
        for (size_t e = m_edgeBegin[d]; e < m_edgeBegin[d + 1]; ++e)
        {
            uses.emplace_back(std::get<1>(m_edges[e]), m_head[d], std::get<2>(m_edges[e]));
        }
    }
    if (t.deps.size() < 2)
    {
        return 0; // one dependency: its solo time says as much
    }
    // By port, heads descending: each prefix is {deps with r >= r_(k)} on that port, whose
    // last byte crosses it no earlier than r_(k) plus their load (the one-machine bound
    // without tails); t starts after all of them.
    std::sort(uses.begin(), uses.end(), [](const auto& a, const auto& b) {
        if (std::get<0>(a) != std::get<0>(b))
        {
            return std::get<0>(a) < std::get<0>(b);
        }
        return std::get<1>(a) > std::get<1>(b);
    });
    double head = 0;
    double load = 0;
    for (size_t k = 0; k < uses.size(); ++k)
    {
        const bool samePort = k > 0 && std::get<0>(uses[k]) == std::get<0>(uses[k - 1]);
        load = (samePort ? load : 0.0) + std::get<2>(uses[k]);
        head = std::max(head, std::get<1>(uses[k]) + load);
    }
    return head;
}

double
BoundRun::Chain()
{
    const size_t n = m_plan.transfers.size();
    m_head.assign(n, 0.0);
    m_tail.assign(n, 0.0);
    double portHead = 0;
    for (const Transfer& t : m_plan.transfers)
    {
        for (TransferId d : t.deps)
        {
            if (d >= t.id)
            {
                throw std::invalid_argument("GstLowerBound: transfer " + std::to_string(t.id) +
                                            " depends on " + std::to_string(d) +
                                            "; allowed: dependencies on earlier transfers");
            }
            m_head[t.id] = std::max(m_head[t.id], SeenDone(d, t));
        }
        // Consecutive transfers often wait for the same dependencies (a mesh's all-gather
        // from one worker waits for all N-1 reduce-scatter messages into it): their port
        // bound is the same, computed once (a sort of 4 x N entries).
        const bool sameDeps = t.id > 0 && m_plan.transfers[t.id - 1].deps == t.deps;
        portHead = sameDeps ? portHead : PortHead(t);
        m_head[t.id] = std::max(m_head[t.id], portHead);
    }
    double chain = 0;
    for (size_t k = n; k-- > 0;)
    {
        const Transfer& t = m_plan.transfers[k];
        for (TransferId d : t.deps)
        {
            // As SeenDone: t's source learns of d an acknowledgement later.
            const Transfer& dep = m_plan.transfers[d];
            const HostRank src = m_plan.hostOf[dep.src];
            const HostRank dst = m_plan.hostOf[dep.dst];
            const double ack = m_ackTime && dep.src == t.src && src != dst ? m_ackTime(src, dst)
                                                                           : 0.0;
            m_tail[d] = std::max(m_tail[d], ack + m_solo[k] + m_tail[k]);
        }
        chain = std::max(chain, m_head[k] + m_solo[k] + m_tail[k]);
    }
    return chain;
}

std::vector<double>
BoundRun::Thresholds(std::vector<double> values, uint32_t k)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.size() <= k)
    {
        return values;
    }
    std::vector<double> out;
    for (uint64_t i = 0; i < k; ++i)
    {
        out.push_back(values[i * values.size() / k]); // out[0] is the least value
    }
    return out;
}

void
BoundRun::LinkBound(GstBound& out)
{
    const size_t links = m_capacity.size();
    const auto fit = static_cast<uint32_t>(
        std::sqrt(static_cast<double>(GstLowerBound::kMaxCells) / std::max<size_t>(1, links)));
    const uint32_t kMax = std::max<uint32_t>(1, std::min(GstLowerBound::kMaxThresholds, fit));
    std::vector<double> heads;
    std::vector<double> tails;
    for (const auto& [key, id] : m_byPair)
    {
        heads.push_back(m_head[id]);
        tails.push_back(m_tail[id]);
    }
    const std::vector<double> theta = Thresholds(std::move(heads), kMax);
    const std::vector<double> phi = Thresholds(std::move(tails), kMax);
    if (theta.empty())
    {
        return; // nothing crosses a link
    }
    const size_t ki = theta.size();
    const size_t kj = phi.size();
    std::vector<double> cells(links * ki * kj, 0.0);
    std::vector<char> used(links, 0);
    ForEachPair([&](size_t begin, size_t end, HostRank src, HostRank dst) {
        const uint64_t qps = std::max<uint32_t>(1, m_paths.QueuePairs(src, dst));
        for (size_t k = begin; k < end; ++k)
        {
            const TransferId id = m_byPair[k].second;
            const size_t i = std::upper_bound(theta.begin(), theta.end(), m_head[id]) -
                             theta.begin() - 1;
            const size_t j = std::upper_bound(phi.begin(), phi.end(), m_tail[id]) - phi.begin() - 1;
            const uint64_t bytes = m_plan.transfers[id].bytes;
            const uint64_t parts = std::min(qps, bytes);
            for (uint64_t q = 0; q < parts; ++q)
            {
                const double wire = m_paths.WireBytes(PartBytes(bytes, parts, q));
                for (const FluidLinkUse& u : m_uses[q])
                {
                    cells[(u.link * ki + i) * kj + j] += u.fraction * wire / m_capacity[u.link];
                    used[u.link] = 1;
                }
            }
        }
    });
    for (size_t l = 0; l < links; ++l)
    {
        if (!used[l])
        {
            continue;
        }
        double* c = &cells[l * ki * kj];
        // 2D suffix sums: c[i][j] becomes the load of {t : r_t >= theta_i, q_t >= phi_j}.
        for (size_t i = ki; i-- > 0;)
        {
            for (size_t j = kj; j-- > 0;)
            {
                const double right = j + 1 < kj ? c[i * kj + j + 1] : 0.0;
                const double below = i + 1 < ki ? c[(i + 1) * kj + j] : 0.0;
                const double both = i + 1 < ki && j + 1 < kj ? c[(i + 1) * kj + j + 1] : 0.0;
                c[i * kj + j] += right + below - both;
                // An empty set bounds nothing (every load of a transfer is > 0).
                const double bound = theta[i] + c[i * kj + j] + phi[j];
                if (c[i * kj + j] > 0 && bound > out.linkS)
                {
                    out.linkS = bound;
                    out.link = static_cast<uint32_t>(l);
                    out.linkHeadS = theta[i];
                    out.linkLoadS = c[i * kj + j];
                    out.linkTailS = phi[j];
                }
            }
        }
    }
}

GstBound
BoundRun::Run()
{
    GstBound out;
    GroupByPair();
    SoloTimes();
    out.chainS = Chain();
    LinkBound(out);
    out.gstS = std::max(out.chainS, out.linkS);
    return out;
}

} // namespace

std::string
GstBound::Describe(const Topology& topology) const
{
    std::ostringstream s;
    if (link == kNoLink || chainS >= linkS)
    {
        s << "chain of solo transfer times " << chainS << " s";
        return s.str();
    }
    const TopologyGraph& g = topology.Graph();
    const TopologyLink& l = g.Link(link / 2);
    const NodeIndex from = link % 2 == 0 ? l.a : l.b;
    const NodeIndex to = link % 2 == 0 ? l.b : l.a;
    s << "link " << g.Node(from).name << "->" << g.Node(to).name << ": " << linkHeadS
      << " s before + " << linkLoadS << " s of load + " << linkTailS << " s after";
    return s.str();
}

GstBound
GstLowerBound::Compute(const Topology& topology,
                       const SyncPlan& plan,
                       const FluidPaths& paths,
                       const PathTime& pathTime,
                       const AckTime& ackTime) const
{
    return BoundRun(topology, plan, paths, pathTime, ackTime).Run();
}

double
GstLowerBound::ComputeRounds(const Topology& topology, const RoundPlan& plan) const
{
    EcmpSplitPaths paths(topology);
    // Distinct rounds (same flows and bytes) are bounded once; plans have a handful.
    std::vector<std::pair<size_t, double>> solved; // first round index, bound of one repetition
    double total = 0;
    for (size_t r = 0; r < plan.rounds.size(); ++r)
    {
        const SyncRound& round = plan.rounds[r];
        double once = -1;
        for (const auto& [first, bound] : solved)
        {
            if (plan.rounds[first].bytes == round.bytes && plan.rounds[first].flows == round.flows)
            {
                once = bound;
                break;
            }
        }
        if (once < 0)
        {
            // The round as independent transfers: no heads or tails, so the bound is the
            // longest solo flow or the most loaded link.
            SyncPlan step;
            step.workers = plan.workers;
            step.hostOf = plan.hostOf;
            for (const RoundFlow& f : round.flows)
            {
                Transfer t{};
                t.src = f.first;
                t.dst = f.second;
                t.bytes = round.bytes;
                step.Add(t);
            }
            once = Compute(topology, step, paths).gstS;
            solved.emplace_back(r, once);
        }
        total += once * static_cast<double>(round.repeat);
    }
    return total;
}

} // namespace ns3
