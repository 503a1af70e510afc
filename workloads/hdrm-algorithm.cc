#include "hdrm-algorithm.h"

#include "halving-doubling-algorithm.h"
#include "hips-algorithm.h"

#include "ns3/spec-string.h"
#include "ns3/topology-counts.h"
#include "ns3/topology.h"

#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{

/// \brief log2(v) when v is a power of two, else -1.
int
Log2Exact(uint32_t v)
{
    if (v == 0 || (v & (v - 1)) != 0)
    {
        return -1;
    }
    int bits = 0;
    while ((1u << bits) != v)
    {
        ++bits;
    }
    return bits;
}

/// \brief The largest power of two <= v (v >= 1).
uint32_t
FloorPow2(uint32_t v)
{
    uint32_t c = 1;
    while (c * 2 <= v)
    {
        c *= 2;
    }
    return c;
}

/// \brief Parity of the set bits of v: the part of hypercube rank v.
uint32_t
Parity(uint32_t v)
{
    return static_cast<uint32_t>(__builtin_popcount(v)) & 1u;
}

/**
 * \brief Host of every hypercube rank when 2SM is a power of two (cases 1 and 2 of the
 * class comment in hdrm-algorithm.h).
 */
std::vector<uint32_t>
PowerOfTwoMap(uint32_t s, uint32_t m)
{
    const uint32_t sBits = static_cast<uint32_t>(Log2Exact(s));
    const uint32_t mBits = static_cast<uint32_t>(Log2Exact(m));
    // Case 2 (M > S): the top k bits pick a group of mm = S slots of a switch.
    const uint32_t k = mBits > sBits ? mBits - sBits : 0;
    const uint32_t mm = m >> k;
    const uint32_t t = mBits - k;
    const uint32_t p = 2 * s * m;
    const uint32_t inner = p >> k; // 2 S mm ranks laid out as in case 1
    std::vector<uint32_t> host(p);
    for (uint32_t r = 0; r < p; ++r)
    {
        const uint32_t group = r / inner;
        const uint32_t y = r % inner;
        const uint32_t part = Parity(y);
        const uint32_t x = y & (inner / 2 - 1); // y without its top bit
        const uint32_t sw = part == 0 ? x >> t : x & (s - 1);
        const uint32_t slot = part == 0 ? x & (mm - 1) : x >> sBits;
        host[r] = (part * s + sw) * m + group * mm + slot;
    }
    return host;
}

/**
 * \brief Case 3 of the class comment: the backtracking search for the switch of every core
 * position of the fold-in, so that no two pairs of one hypercube dimension share an
 * inter-part link and each switch holds exactly M hosts (core positions below `extra`
 * bring their extra worker along).
 */
class FoldInLayoutSearch
{
  public:
    FoldInLayoutSearch(uint32_t s, uint32_t m)
        : m_s(s),
          m_m(m),
          m_core(FloorPow2(2 * s * m)),
          m_extra(2 * s * m - m_core),
          m_dims(static_cast<uint32_t>(Log2Exact(m_core))),
          m_switch(m_core, kUnset),
          m_load(2 * s, 0),
          m_used(m_dims, std::vector<bool>(s * s, false))
    {
    }

    /// \brief Runs the search; true when a layout was found.
    bool
    Run()
    {
        m_exhausted = false;
        return Place();
    }

    /// \brief After a failed Run(): true when it gave up (node budget), false when it
    /// proved there is no layout.
    bool
    GaveUp() const
    {
        return m_exhausted;
    }

    /// \brief Host of every worker of hd's plan: worker 2v (v < extra) is position v's
    /// extra, worker rankOf(v) plays position v (halving-doubling-algorithm.h).
    std::vector<uint32_t>
    HostOfWorkers() const
    {
        const uint32_t n = 2 * m_s * m_m;
        std::vector<uint32_t> hostOf(n);
        std::vector<uint32_t> nextSlot(2 * m_s, 0);
        std::vector<uint32_t> coreHost(m_core);
        for (uint32_t v = 0; v < m_core; ++v)
        {
            const uint32_t sw = Parity(v) * m_s + m_switch[v];
            coreHost[v] = sw * m_m + nextSlot[sw]++;
        }
        for (uint32_t v = 0; v < m_core; ++v)
        {
            const uint32_t worker = v < m_extra ? 2 * v + 1 : v + m_extra;
            hostOf[worker] = coreHost[v];
            if (v < m_extra)
            {
                const uint32_t sw = coreHost[v] / m_m;
                hostOf[2 * v] = sw * m_m + nextSlot[sw]++; // same switch as its core
            }
        }
        return hostOf;
    }

  private:
    static constexpr uint32_t kUnset = UINT32_MAX;

    /// \brief Depth-first over the positions in order (iterative: the depth is C): each
    /// position tries the switches of its part in turn, skipping a full switch or one
    /// whose pair with an already placed partner would take a link already taken in that
    /// dimension; a position out of choices is undone and its predecessor moves on.
    bool
    Place()
    {
        std::vector<uint32_t> tried(m_core, 0); // switches position v has tried
        uint32_t v = 0;
        while (v < m_core)
        {
            if (++m_nodes > HdrmAlgorithm::kSearchNodes)
            {
                m_exhausted = true;
                return false;
            }
            if (m_switch[v] != kUnset)
            {
                Take(v, false);
            }
            bool placed = false;
            while (tried[v] < m_s && !placed)
            {
                const uint32_t sw = (tried[v]++ + v) % m_s; // rotated start spreads load
                placed = Fits(v, sw);
                if (placed)
                {
                    m_switch[v] = sw;
                    Take(v, true);
                }
            }
            if (placed)
            {
                ++v;
                continue;
            }
            tried[v] = 0;
            if (v == 0)
            {
                return false;
            }
            --v;
        }
        return true;
    }

    /// \brief Link of dimension j's pair of position v on switch sw (of its part).
    uint32_t
    Link(uint32_t v, uint32_t sw, uint32_t j) const
    {
        const uint32_t partner = m_switch[v ^ (1u << j)];
        return Parity(v) == 0 ? sw * m_s + partner : partner * m_s + sw;
    }

    /// \brief Whether position v fits on switch sw given the positions before it.
    bool
    Fits(uint32_t v, uint32_t sw) const
    {
        if (m_load[Parity(v) * m_s + sw] + Weight(v) > m_m)
        {
            return false;
        }
        for (uint32_t j = 0; j < m_dims; ++j)
        {
            if ((v ^ (1u << j)) < v && m_used[j][Link(v, sw, j)])
            {
                return false;
            }
        }
        return true;
    }

    /// \brief Takes (or, take = false, releases and unsets) position v's switch and links.
    void
    Take(uint32_t v, bool take)
    {
        const uint32_t sw = m_switch[v];
        uint32_t& load = m_load[Parity(v) * m_s + sw];
        load = take ? load + Weight(v) : load - Weight(v);
        for (uint32_t j = 0; j < m_dims; ++j)
        {
            if ((v ^ (1u << j)) < v)
            {
                m_used[j][Link(v, sw, j)] = take;
            }
        }
        if (!take)
        {
            m_switch[v] = kUnset;
        }
    }

    /// \brief Hosts position v takes on its switch: 2 when an extra folds into it.
    uint32_t
    Weight(uint32_t v) const
    {
        return v < m_extra ? 2 : 1;
    }

    uint32_t m_s;
    uint32_t m_m;
    uint32_t m_core;                       //!< C: hypercube positions
    uint32_t m_extra;                      //!< r = P - C: workers folded in
    uint32_t m_dims;                       //!< log2 C
    std::vector<uint32_t> m_switch;        //!< switch (in its part) of each position
    std::vector<uint32_t> m_load;          //!< hosts taken per switch (part S + w)
    std::vector<std::vector<bool>> m_used; //!< [dimension][up * S + low]: link taken
    uint64_t m_nodes{0};
    bool m_exhausted{false};
};

/// \brief Empty when hdrm serves bigraph:s=S,m=M, else the reason; `hostOf` gets the
/// workers' hosts when served.
std::string
Layout(uint32_t s, uint32_t m, std::vector<uint32_t>& hostOf)
{
    if (Log2Exact(2 * s * m) >= 0)
    {
        hostOf = PowerOfTwoMap(s, m);
        return "";
    }
    const std::string shape = "s=" + std::to_string(s) + ", m=" + std::to_string(m);
    // A switch holds a folded core position and its extra side by side: at most
    // floor(m/2) per switch, s floor(m/2) per part (positions v < r of parity `part`).
    const uint32_t core = FloorPow2(2 * s * m);
    const uint32_t extra = 2 * s * m - core;
    for (uint32_t part = 0; part < 2; ++part)
    {
        uint32_t folded = 0;
        for (uint32_t v = 0; v < extra; ++v)
        {
            folded += Parity(v) == part ? 1 : 0;
        }
        if (folded > s * (m / 2))
        {
            return "hdrm: its fold-in puts " + std::to_string(folded) + " extras in part " +
                   std::to_string(part) + " of " + shape + ", each beside its core on one " +
                   "switch; at most s floor(m/2) = " + std::to_string(s * (m / 2)) +
                   " fit (2sm a power of two is always served)";
        }
    }
    FoldInLayoutSearch search(s, m);
    if (search.Run())
    {
        hostOf = search.HostOfWorkers();
        return "";
    }
    if (search.GaveUp())
    {
        return "hdrm: found no contention-free fold-in layout for " + shape + " within " +
               std::to_string(HdrmAlgorithm::kSearchNodes) +
               " search nodes (2sm a power of two is always served)";
    }
    return "hdrm: no fold-in layout of its construction exists for " + shape +
           " (exhaustive search: every core exchange across the parts on its own link, every "
           "extra on its core's switch; 2sm a power of two is always served)";
}

} // namespace

HdrmAlgorithm::HdrmAlgorithm(const std::string& spec)
{
    SpecString s(spec, "--algorithm");
    s.Finish();
}

std::string
HdrmAlgorithm::Spec() const
{
    return "hdrm";
}

bool
HdrmAlgorithm::AppliesTo(const Topology& topology, std::string& why) const
{
    const std::optional<Topology::BipartiteShape> bigraph = topology.Bipartite();
    if (!bigraph && topology.Family() == "server")
    {
        // The server model (topologies/server-topology.h) makes the ranks GPUs behind each
        // server's NICs and PCIe switches; EFLOPS' mapping places one rank per bigraph host.
        why = "hdrm maps one rank per bigraph host (EFLOPS rank mapping); in the server model "
              "the ranks are GPUs behind each server's NICs and PCIe links, which the mapping "
              "does not place: run hdrm on the bigraph itself (one rank per NIC, as the "
              "EFLOPS server pairs each GPU with its NIC) or hd on the server model";
        return false;
    }
    if (!bigraph)
    {
        why = "hdrm needs a bigraph (EFLOPS rank mapping), not " + topology.Family();
        return false;
    }
    std::vector<uint32_t> hostOf;
    why = Layout(bigraph->switchesPerPart, bigraph->hostsPerSwitch, hostOf);
    return why.empty();
}

std::vector<uint32_t>
HdrmAlgorithm::RankMap(const Topology& bigraph)
{
    const std::optional<Topology::BipartiteShape> shape = bigraph.Bipartite();
    if (!shape)
    {
        throw std::invalid_argument("--algorithm 'hdrm' on " + bigraph.Spec() +
                                    ": needs a bigraph (EFLOPS rank mapping)");
    }
    std::vector<uint32_t> hostOf;
    const std::string why = Layout(shape->switchesPerPart, shape->hostsPerSwitch, hostOf);
    if (!why.empty())
    {
        throw std::invalid_argument("--algorithm 'hdrm' on " + bigraph.Spec() + ": " + why);
    }
    return hostOf;
}

SyncPlan
HdrmAlgorithm::Compile(const Topology& topology, const ModelProfile& model) const
{
    RequireApplies(topology);
    const uint32_t hosts = topology.Graph().HostCount();
    const int d = Log2Exact(hosts);
    if (d < 0)
    {
        // Case 3: hd's fold-in plan (same workers, steps and bytes), run on our layout.
        SyncPlan plan = HalvingDoublingAlgorithm("hd").Compile(topology, model);
        plan.algorithm = Spec();
        plan.hostOf = RankMap(topology);
        return plan;
    }
    SyncPlan plan;
    plan.algorithm = Spec();
    plan.gradientBytes = model.TotalBytes();
    plan.hostOf = RankMap(topology);
    plan.workers = plan.ParticipantCount();
    const uint32_t p = plan.workers;
    // Hypercube dimension j: the pairs {r, r XOR 2^j}, lower rank first (it keeps the lower
    // half). Recursive halving visits the highest bit first.
    std::vector<HostDimension> dims(d);
    HierarchicalFlow flow{{}, false};
    for (uint32_t j = 0; j < static_cast<uint32_t>(d); ++j)
    {
        for (uint32_t r = 0; r < p; ++r)
        {
            if ((r & (1u << j)) == 0)
            {
                dims[j].push_back(HostGroup{{r, r | (1u << j)}, false});
            }
        }
        flow.dimOrder.push_back(d - 1 - j);
    }
    AddHierarchicalAllreduce(
        plan, dims, {flow}, GroupExchange::Direct, "--algorithm '" + Spec() + "'");
    return plan;
}

PlanSizeBound
HdrmAlgorithm::SizeBound(const PlanSizeInputs& in) const
{
    const uint64_t n = in.hosts;
    // Halving-doubling's rounds (rank mapping changes who talks, not how many).
    return {PeersBound(n), PeersBound(n), SaturatingMul(2, PeersBound(n))};
}

} // namespace ns3
