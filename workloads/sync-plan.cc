#include "sync-plan.h"

#include "ns3/spec-string.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

uint32_t
WordsFor(uint32_t workers)
{
    return (workers + 63) / 64;
}

} // namespace

ContributorSet::ContributorSet(uint32_t workers)
    : m_workers(workers),
      m_bits(WordsFor(workers), 0)
{
}

ContributorSet
ContributorSet::Single(uint32_t workers, uint32_t worker)
{
    ContributorSet s(workers);
    s.Add(worker);
    return s;
}

ContributorSet
ContributorSet::All(uint32_t workers)
{
    ContributorSet s(workers);
    for (uint32_t w = 0; w < workers / 64; ++w)
    {
        s.m_bits[w] = ~uint64_t{0};
    }
    if (workers % 64 != 0)
    {
        s.m_bits.back() = (uint64_t{1} << (workers % 64)) - 1;
    }
    return s;
}

void
ContributorSet::Add(uint32_t worker)
{
    if (worker >= m_workers)
    {
        throw std::out_of_range("ContributorSet::Add: worker " + std::to_string(worker) +
                                " outside a set over " + std::to_string(m_workers) + " workers");
    }
    m_bits[worker / 64] |= uint64_t{1} << (worker % 64);
}

bool
ContributorSet::Contains(uint32_t worker) const
{
    return worker < m_workers && ((m_bits[worker / 64] >> (worker % 64)) & 1) != 0;
}

uint32_t
ContributorSet::Count() const
{
    uint32_t n = 0;
    for (uint64_t w : m_bits)
    {
        n += static_cast<uint32_t>(__builtin_popcountll(w));
    }
    return n;
}

bool
ContributorSet::IsFull() const
{
    return Count() == m_workers;
}

bool
ContributorSet::Intersects(const ContributorSet& other) const
{
    size_t n = std::min(m_bits.size(), other.m_bits.size());
    for (size_t i = 0; i < n; ++i)
    {
        if ((m_bits[i] & other.m_bits[i]) != 0)
        {
            return true;
        }
    }
    return false;
}

bool
ContributorSet::IsSubsetOf(const ContributorSet& other) const
{
    for (size_t i = 0; i < m_bits.size(); ++i)
    {
        uint64_t theirs = i < other.m_bits.size() ? other.m_bits[i] : 0;
        if ((m_bits[i] & ~theirs) != 0)
        {
            return false;
        }
    }
    return true;
}

void
ContributorSet::UnionWith(const ContributorSet& other)
{
    if (other.m_workers > m_workers)
    {
        // A default-constructed (empty, zero-sized) set grows to the other's size, so that
        // accumulating into `ContributorSet acc;` works.
        m_workers = other.m_workers;
        m_bits.resize(other.m_bits.size(), 0);
    }
    for (size_t i = 0; i < other.m_bits.size(); ++i)
    {
        m_bits[i] |= other.m_bits[i];
    }
}

bool
ContributorSet::operator==(const ContributorSet& other) const
{
    return m_workers == other.m_workers && m_bits == other.m_bits;
}

std::string
ContributorSet::ToString() const
{
    std::ostringstream out;
    out << '{';
    bool first = true;
    uint32_t w = 0;
    while (w < m_workers)
    {
        if (!Contains(w))
        {
            ++w;
            continue;
        }
        uint32_t end = w;
        while (end + 1 < m_workers && Contains(end + 1))
        {
            ++end;
        }
        out << (first ? "" : ",") << w;
        if (end > w)
        {
            out << '-' << end;
        }
        first = false;
        w = end + 1;
    }
    out << '}';
    return out.str();
}

namespace
{
/// The innermost live PlanMemoryBudget. One per process, not per thread: plans are compiled
/// on the driver's thread, and a thread_local in this shared library would cost a call to
/// __tls_get_addr per read (model/fast-tls.h; test tls-without-calls keeps the library free
/// of them).
PlanMemoryBudget* g_activeBudget = nullptr;
} // namespace

PlanMemoryBudget::PlanMemoryBudget(uint64_t bytes, double perTransfer, double perDependency)
    : m_budget(static_cast<double>(bytes)),
      m_perTransfer(perTransfer),
      m_perDependency(perDependency),
      m_outer(g_activeBudget)
{
    g_activeBudget = this;
}

PlanMemoryBudget::~PlanMemoryBudget()
{
    g_activeBudget = m_outer;
}

double
PlanMemoryBudget::Charged() const
{
    return m_charged;
}

PlanMemoryBudget*
PlanMemoryBudget::Active()
{
    return g_activeBudget;
}

void
PlanMemoryBudget::Charge(std::size_t transfers, std::size_t deps)
{
    m_charged += m_perTransfer + m_perDependency * static_cast<double>(deps);
    m_dependencies += deps;
    if (m_charged > m_budget)
    {
        std::ostringstream why;
        why << "its plan needs more than " << BytesText(m_budget)
            << ", what the memory limit leaves it: it had " << transfers + 1 << " transfers with "
            << m_dependencies << " dependencies when it passed that (" << m_perTransfer
            << " B a transfer, " << m_perDependency << " B a dependency in a run)";
        throw PlanTooLarge(why.str());
    }
}

TransferId
SyncPlan::Add(Transfer transfer)
{
    if (PlanMemoryBudget* budget = PlanMemoryBudget::Active())
    {
        budget->Charge(transfers.size(), transfer.deps.size());
    }
    transfer.id = static_cast<TransferId>(transfers.size());
    transfers.push_back(std::move(transfer));
    return transfers.back().id;
}

std::string
SyncPlan::Dump() const
{
    std::ostringstream out;
    out << "plan " << algorithm << ": W=" << gradientBytes << " B, " << workers << " workers, "
        << ParticipantCount() << " participants, " << transfers.size() << " transfers\n";
    for (uint32_t p = 0; p < ParticipantCount(); ++p)
    {
        out << "  p" << p << (p < workers ? " worker" : " server") << " on host " << hostOf[p]
            << "\n";
    }
    for (const Transfer& t : transfers)
    {
        out << "  #" << t.id << " p" << t.src << "->p" << t.dst << " [" << t.offset << ","
            << t.offset + t.bytes << ") " << t.bytes << " B "
            << (t.op == TransferOp::Reduce ? "reduce" : "copy") << ' ' << t.carries.ToString()
            << " chunk " << t.chunk << " phase " << t.phase << " deps {";
        for (size_t i = 0; i < t.deps.size(); ++i)
        {
            out << (i ? "," : "") << t.deps[i];
        }
        out << "}\n";
    }
    return out.str();
}

} // namespace ns3
