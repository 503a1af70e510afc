#include "bcube-topology.h"

#include "family-options.h"
#include "parallel-paths.h"
#include "spec-string.h"

#include <stdexcept>

namespace ns3
{

namespace
{

const char* const kBcubeUsage = "bcube:n=N,k=K with N in [2, 255], K in [0, 15] and "
                                "N^(K+1) <= 16777216[,deadlockfree=0|1][,rate=R][,delay=D]";

/// What a BCube spec says, read and checked once for the constructor and Counts.
struct BcubeArgs
{
    uint32_t n;
    uint32_t k;
    bool deadlockFree;
    double rate;
    double delay;
    std::vector<uint32_t> pow; //!< n^0 .. n^(k+1)
};

BcubeArgs
ParseBcube(SpecString& spec, double rateBps, double delayS)
{
    BcubeArgs a;
    a.n = static_cast<uint32_t>(RequireUint(spec, "n", 2, 255, kBcubeUsage));
    a.k = static_cast<uint32_t>(RequireUint(spec, "k", 0, 15, kBcubeUsage));
    a.deadlockFree = spec.GetBool("deadlockfree", true);
    a.rate = spec.GetRate("rate", rateBps);
    a.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    a.pow.assign(1, 1);
    for (uint32_t l = 0; l <= a.k; ++l)
    {
        uint64_t next = uint64_t{a.pow.back()} * a.n;
        if (next > (uint64_t{1} << 24))
        {
            throw std::invalid_argument(spec.Where() + "BCube(" + std::to_string(a.n) + "," +
                                        std::to_string(a.k) +
                                        ") is too large; usage: " + kBcubeUsage);
        }
        a.pow.push_back(static_cast<uint32_t>(next));
    }
    return a;
}

} // namespace

BcubeTopology::BcubeTopology(SpecString& spec, double rateBps, double delayS)
{
    BcubeArgs args = ParseBcube(spec, rateBps, delayS);
    m_n = args.n;
    m_k = args.k;
    m_deadlockFree = args.deadlockFree;
    const double rate = args.rate;
    const double delay = args.delay;
    m_pow = std::move(args.pow);
    m_spec = "bcube:n=" + std::to_string(m_n) + ",k=" + std::to_string(m_k) +
             ExplicitOptions(spec, {"deadlockfree", "rate", "delay"});

    const uint32_t servers = m_pow[m_k + 1];
    const uint32_t perLevel = m_pow[m_k];
    for (uint32_t r = 0; r < servers; ++r)
    {
        m_graph.AddHost("h" + std::to_string(r));
    }
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        for (uint32_t s = 0; s < perLevel; ++s)
        {
            m_graph.AddSwitch("sw" + std::to_string(l) + "." + std::to_string(s));
        }
    }
    // Level-major, so that every server's port l is its level-l link and switch port j
    // its server with digit l = j.
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        for (uint32_t s = 0; s < perLevel; ++s)
        {
            NodeIndex sw = servers + l * perLevel + s;
            for (uint32_t j = 0; j < m_n; ++j)
            {
                uint32_t r = (s / m_pow[l]) * m_pow[l + 1] + j * m_pow[l] + s % m_pow[l];
                m_graph.AddLink(r, sw, rate, delay);
            }
        }
    }
}

std::string
BcubeTopology::Spec() const
{
    return m_spec;
}

std::unique_ptr<ParallelPaths>
BcubeTopology::SourceRoutes() const
{
    return std::make_unique<BcubeParallelPaths>(*this, m_deadlockFree);
}

std::string
BcubeTopology::Family() const
{
    return "bcube";
}

uint8_t
BcubeTopology::LaneCount() const
{
    return m_deadlockFree ? static_cast<uint8_t>(m_k + 1) : 1;
}

std::vector<uint32_t>
BcubeTopology::Digits(HostRank rank) const
{
    if (rank >= m_pow[m_k + 1])
    {
        throw std::out_of_range(m_spec + ": rank " + std::to_string(rank) + " out of range");
    }
    std::vector<uint32_t> digits(m_k + 1);
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        digits[l] = Digit(rank, l);
    }
    return digits;
}

HostRank
BcubeTopology::RankOf(const std::vector<uint32_t>& digits) const
{
    if (digits.size() != m_k + 1)
    {
        throw std::invalid_argument(m_spec + ": " + std::to_string(digits.size()) +
                                    " digits given, addresses have " + std::to_string(m_k + 1));
    }
    HostRank rank = 0;
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        if (digits[l] >= m_n)
        {
            throw std::invalid_argument(m_spec + ": digit " + std::to_string(l) + " = " +
                                        std::to_string(digits[l]) + " outside [0, " +
                                        std::to_string(m_n) + ")");
        }
        rank += digits[l] * m_pow[l];
    }
    return rank;
}

std::vector<HostRank>
BcubeTopology::LevelPeers(HostRank rank, uint32_t level) const
{
    NodeIndex sw = SwitchOf(rank, level); // checks the arguments
    std::vector<HostRank> peers;
    for (const PortPeer& p : m_graph.Ports(sw))
    {
        peers.push_back(p.peer); // server node == rank
    }
    return peers;
}

NodeIndex
BcubeTopology::SwitchOf(HostRank rank, uint32_t level) const
{
    if (rank >= m_pow[m_k + 1] || level > m_k)
    {
        throw std::out_of_range(m_spec + ": SwitchOf(" + std::to_string(rank) + ", " +
                                std::to_string(level) + ") out of range");
    }
    uint32_t s = (rank / m_pow[level + 1]) * m_pow[level] + rank % m_pow[level];
    return m_pow[m_k + 1] + level * m_pow[m_k] + s;
}

void
BcubeTopology::NextHops(NodeIndex at, HostRank dst, uint8_t lane, std::vector<RouteHop>& out) const
{
    out.clear();
    const uint32_t servers = m_pow[m_k + 1];
    if (at >= servers)
    {
        uint32_t level = (at - servers) / m_pow[m_k];
        out.push_back(RouteHop{Digit(dst, level), lane});
        return;
    }
    uint32_t differing = 0;
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        differing += Digit(at, l) != Digit(dst, l) ? 1 : 0;
    }
    uint8_t next = m_deadlockFree ? static_cast<uint8_t>(m_k + 1 - differing) : 0;
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        if (Digit(at, l) != Digit(dst, l))
        {
            out.push_back(RouteHop{l, next});
        }
    }
}

std::vector<HostDimension>
BcubeTopology::Dimensions() const
{
    std::vector<HostDimension> dims(m_k + 1);
    for (uint32_t l = 0; l <= m_k; ++l)
    {
        for (uint32_t s = 0; s < m_pow[m_k]; ++s)
        {
            HostGroup group{{}, false};
            for (uint32_t j = 0; j < m_n; ++j)
            {
                group.members.push_back((s / m_pow[l]) * m_pow[l + 1] + j * m_pow[l] +
                                        s % m_pow[l]);
            }
            dims[l].push_back(std::move(group));
        }
    }
    return dims;
}

std::vector<HostRank>
BcubeTopology::RingOrder() const
{
    const std::vector<uint32_t> radix = RankRadices();
    std::vector<HostRank> order(m_pow[m_k + 1]);
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = RankOf(WalkDigits(radix, DigitWalk::ModGray, i));
    }
    return order;
}

std::vector<uint32_t>
BcubeTopology::RankRadices() const
{
    return std::vector<uint32_t>(m_k + 1, m_n);
}

HostRank
BcubeTopology::RankOfDigits(const std::vector<uint32_t>& digits) const
{
    return RankOf(digits);
}

TopologyCounts
BcubeTopology::Counts(SpecString& spec)
{
    // BCube(n, k): n^(k+1) servers of k+1 ports, k+1 levels of n^k switches.
    const BcubeArgs args = ParseBcube(spec, 0, 0); // refuses what the constructor refuses
    const uint64_t n = args.n;
    const uint64_t k = args.k;
    TopologyCounts c;
    c.hosts = SaturatingPow(n, k + 1);
    c.switches = SaturatingMul(k + 1, SaturatingPow(n, k));
    c.links = SaturatingMul(k + 1, c.hosts);
    c.lanes = args.deadlockFree ? static_cast<uint32_t>(k + 1) : 1;
    c.hostsRelay = k >= 1;
    return c;
}

} // namespace ns3
