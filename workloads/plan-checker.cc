#include "plan-checker.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// What one participant holds over [start, end): the sum of `held`, written by `writers`.
struct Segment
{
    uint64_t end;
    ContributorSet held;
    std::vector<TransferId> writers; //!< transfers whose data built `held` (none: own data)
};

/// Segments keyed by start; they tile [0, W) without gaps.
using SegmentMap = std::map<uint64_t, Segment>;

/// Makes `at` a segment boundary (no-op at 0, W or an existing boundary).
void
SplitAt(SegmentMap& segments, uint64_t at)
{
    auto it = segments.upper_bound(at);
    if (it == segments.begin())
    {
        return;
    }
    --it;
    if (it->first == at || it->second.end <= at)
    {
        return;
    }
    Segment tail = it->second;
    it->second.end = at;
    segments.emplace(at, std::move(tail));
}

std::string
Describe(const Transfer& t)
{
    std::ostringstream out;
    out << "transfer #" << t.id << " (p" << t.src << "->p" << t.dst << " [" << t.offset << ","
        << t.offset + t.bytes << ") phase " << t.phase << " chunk " << t.chunk << ")";
    return out.str();
}

} // namespace

std::string
PlanCheckResult::Summary() const
{
    std::string s;
    for (const std::string& e : errors)
    {
        s += e + "\n";
    }
    if (errorCount > errors.size())
    {
        s += "... and " + std::to_string(errorCount - errors.size()) + " more errors\n";
    }
    return s;
}

PlanChecker::PlanChecker(uint32_t maxErrors)
    : m_maxErrors(maxErrors)
{
}

namespace
{

/// One replay of a plan: the per-participant segments, the closure scratch and the result.
class PlanReplay
{
  public:
    PlanReplay(const SyncPlan& plan, uint32_t maxErrors, PlanCheckResult& result)
        : m_plan(plan),
          m_maxErrors(maxErrors),
          m_result(result),
          m_workers(plan.workers),
          m_participants(plan.ParticipantCount()),
          m_total(plan.gradientBytes)
    {
    }

    /// Runs every check, in transfer order, then completeness.
    void Run();

  private:
    /// Counts an error and lists it while fewer than maxErrors are listed.
    void
    Fail(const std::string& message)
    {
        ++m_result.errorCount;
        if (m_result.errors.size() < m_maxErrors)
        {
            m_result.errors.push_back(message);
        }
    }

    /// Checks the plan's header; false (after reporting) when nothing else can be checked.
    bool CheckHeader();
    /// Every participant starts holding its own data (workers) or nothing (others).
    void InitState();
    /// Structure and dependency checks of transfer i; false when it must not be replayed.
    /// Sets depsOk to whether every dependency points backwards.
    bool CheckStructure(size_t i, bool& depsOk);
    /// Causality: the source holds exactly `carries` over the range, built only by
    /// transfers the source has seen complete.
    void CheckCausality(const Transfer& t, bool depsOk);
    /// Reports each missing writer (sorted, unique) not in t's dependency closure; true
    /// when every one of them is in it.
    bool CheckClosure(const Transfer& t, const std::vector<TransferId>& missing);
    /// True if writer w is in the closure of the transfer whose deps are stamped, proven
    /// by a chain of covers (each in the closure of the next) that reaches one of its deps;
    /// false means unknown (the search decides).
    bool IsCovered(TransferId w);
    /// Records that t's deps, and when readsClosed the writers t read, are in t's closure.
    void RecordCovers(const Transfer& t, bool readsClosed);
    /// Makes t the cover of x in covers, unless x has one.
    void Cover(std::vector<TransferId>& covers, TransferId x, TransferId t);
    /// Stamps t's deps so that IsDirectDep answers in O(1).
    void MarkDirectDeps(const Transfer& t);

    /// True if id is one of the deps stamped by the last MarkDirectDeps.
    bool
    IsDirectDep(TransferId id) const
    {
        return id < m_depStamp.size() && m_depStamp[id] == m_depGeneration;
    }
    /// Applies t at its destination (add or replace), reporting double counting.
    void ApplyAtDestination(const Transfer& t);
    /// Completeness: every worker ends with the full sum of every byte.
    void CheckCompleteness();

    const SyncPlan& m_plan;
    uint32_t m_maxErrors;
    PlanCheckResult& m_result;
    const uint32_t m_workers;
    const uint32_t m_participants;
    const uint64_t m_total;
    std::vector<SegmentMap> m_state;
    // Closure queries: DFS backwards over deps, visiting only ids >= the oldest writer asked
    // about (ids only point backwards, so nothing older can lead to it).
    std::vector<uint32_t> m_stamp;
    uint32_t m_generation{0};
    std::vector<TransferId> m_stack;
    // Direct-dependency set of the transfer being checked, and its writers not in it.
    std::vector<uint32_t> m_depStamp;
    uint32_t m_depGeneration{0};
    std::vector<TransferId> m_missing;
    // Covers, one per end of each transfer x: m_coverAtSrc[x] (m_coverAtDst[x]) is a
    // later send from x's source (destination) whose closure holds x; x itself until one is
    // known. A writer w read by t has w.dst == t.src, so it is in t's closure when its chain
    // of covers at that participant (each in the closure of the next) reaches a direct
    // dependency of t: no search over the DAG. A chain is followed at most kMaxCoverSteps
    // steps and compressed, so a check costs O(writers + deps) unless the search runs.
    static constexpr uint32_t kMaxCoverSteps = 1024;
    std::vector<TransferId> m_coverAtSrc;
    std::vector<TransferId> m_coverAtDst;
    /// Both ends of a transfer, apart from the plan: a mesh all-gather copy of 1,024 hosts
    /// visits 1,023 dependencies, and 8 bytes a visit miss the cache less than a Transfer.
    struct Ends
    {
        ParticipantIndex src;
        ParticipantIndex dst;
    };
    std::vector<Ends> m_ends;
};

void
PlanReplay::Run()
{
    if (!CheckHeader())
    {
        return;
    }
    m_result.sentBytes.assign(m_participants, 0);
    m_result.receivedBytes.assign(m_participants, 0);
    InitState();
    m_stamp.assign(m_plan.transfers.size(), 0);
    m_depStamp.assign(m_plan.transfers.size(), 0);
    m_coverAtSrc.resize(m_plan.transfers.size());
    for (TransferId id = 0; id < m_coverAtSrc.size(); ++id)
    {
        m_coverAtSrc[id] = id;
    }
    m_coverAtDst = m_coverAtSrc;
    m_ends.reserve(m_plan.transfers.size());
    for (const Transfer& t : m_plan.transfers)
    {
        m_ends.push_back({t.src, t.dst});
    }

    const auto& transfers = m_plan.transfers;
    for (size_t i = 0; i < transfers.size(); ++i)
    {
        const Transfer& t = transfers[i];
        bool depsOk = true;
        if (!CheckStructure(i, depsOk))
        {
            continue;
        }
        m_result.sentBytes[t.src] += t.bytes;
        m_result.receivedBytes[t.dst] += t.bytes;
        CheckCausality(t, depsOk);
        ApplyAtDestination(t);
    }
    CheckCompleteness();
}

bool
PlanReplay::CheckHeader()
{
    if (m_workers == 0 || m_participants < m_workers || m_total == 0)
    {
        Fail("plan " + m_plan.algorithm +
             ": needs workers > 0, hostOf for every participant "
             "(>= workers) and gradientBytes > 0; got workers " +
             std::to_string(m_workers) + ", " + std::to_string(m_participants) +
             " participants, W " + std::to_string(m_total));
        return false;
    }
    return true;
}

void
PlanReplay::InitState()
{
    m_state.resize(m_participants);
    for (uint32_t p = 0; p < m_participants; ++p)
    {
        ContributorSet own = p < m_workers ? ContributorSet::Single(m_workers, p)
                                           : ContributorSet(m_workers);
        m_state[p].emplace(0, Segment{m_total, own, {}});
    }
}

bool
PlanReplay::CheckStructure(size_t i, bool& depsOk)
{
    const auto& transfers = m_plan.transfers;
    const Transfer& t = transfers[i];
    bool valid = true;
    if (t.id != i)
    {
        Fail("transfer at index " + std::to_string(i) + " has id " + std::to_string(t.id));
        valid = false;
    }
    if (t.src >= m_participants || t.dst >= m_participants || t.src == t.dst)
    {
        Fail(Describe(t) + ": src and dst must be distinct participants < " +
             std::to_string(m_participants));
        return false;
    }
    if (t.bytes == 0 || t.offset >= m_total || t.bytes > m_total - t.offset)
    {
        Fail(Describe(t) + ": range must be non-empty and inside [0," + std::to_string(m_total) +
             ")");
        valid = false;
    }
    if (t.carries.Count() == 0 || !t.carries.IsSubsetOf(ContributorSet::All(m_workers)))
    {
        Fail(Describe(t) + ": carries " + t.carries.ToString() + " must be a non-empty set over " +
             std::to_string(m_workers) + " workers");
        valid = false;
    }
    depsOk = true;
    for (TransferId d : t.deps)
    {
        if (d >= i)
        {
            Fail(Describe(t) + ": dependency #" + std::to_string(d) +
                 " is not an earlier transfer (deps must point backwards)");
            depsOk = false;
            continue;
        }
        if (m_ends[d].src != t.src && m_ends[d].dst != t.src)
        {
            Fail(Describe(t) + ": dependency #" + std::to_string(d) + " (p" +
                 std::to_string(transfers[d].src) + "->p" + std::to_string(transfers[d].dst) +
                 ") does not involve the source p" + std::to_string(t.src) +
                 ", which cannot see it complete");
        }
    }
    return valid;
}

void
PlanReplay::MarkDirectDeps(const Transfer& t)
{
    ++m_depGeneration;
    for (TransferId d : t.deps)
    {
        if (d < m_depStamp.size())
        {
            m_depStamp[d] = m_depGeneration;
        }
    }
}

void
PlanReplay::CheckCausality(const Transfer& t, bool depsOk)
{
    const uint64_t begin = t.offset;
    const uint64_t end = t.offset + t.bytes;
    // Each writer is looked up in a stamped set of t's deps (not searched for in the deps
    // list: a mesh all-gather copy lists N - 1 deps and reads N - 1 writers, N^2 a copy).
    MarkDirectDeps(t);
    m_missing.clear();
    SegmentMap& src = m_state[t.src];
    auto first = src.upper_bound(begin);
    --first;
    bool mismatchReported = false;
    for (auto it = first; it != src.end() && it->first < end; ++it)
    {
        const Segment& seg = it->second;
        if (!(seg.held == t.carries) && !mismatchReported)
        {
            Fail(Describe(t) + ": source holds " + seg.held.ToString() + " over [" +
                 std::to_string(std::max(begin, it->first)) + "," +
                 std::to_string(std::min(end, seg.end)) + ") but the transfer carries " +
                 t.carries.ToString());
            mismatchReported = true;
        }
        for (TransferId w : seg.writers)
        {
            // Malformed deps report the oldest writer not listed directly, so covers (which
            // rely on a well-formed closure) are used only when the deps are well formed.
            if (!IsDirectDep(w) && !(depsOk && IsCovered(w)))
            {
                m_missing.push_back(w);
            }
        }
    }
    std::sort(m_missing.begin(), m_missing.end());
    m_missing.erase(std::unique(m_missing.begin(), m_missing.end()), m_missing.end());
    bool closed = depsOk;
    if (!m_missing.empty() && depsOk)
    {
        closed = CheckClosure(t, m_missing);
    }
    else if (!m_missing.empty())
    {
        Fail(Describe(t) + ": reads data written by " + Describe(m_plan.transfers[m_missing[0]]) +
             " but its dependencies are malformed");
    }
    if (depsOk)
    {
        RecordCovers(t, closed);
    }
}

bool
PlanReplay::IsCovered(TransferId w)
{
    // The chain: w's cover at its destination (a later send from there), then each send's
    // cover at its source (a later send from the same participant that depends on it).
    TransferId x = m_coverAtDst[w];
    if (x == w)
    {
        return false;
    }
    bool found = IsDirectDep(x);
    for (uint32_t step = 0; !found && step < kMaxCoverSteps; ++step)
    {
        const TransferId next = m_coverAtSrc[x];
        if (next == x)
        {
            break;
        }
        x = next;
        found = IsDirectDep(x);
    }
    if (!found)
    {
        return false;
    }
    // Path compression (every transfer on the chain is in x's closure), so that a long
    // chain is walked once, not once per writer.
    for (TransferId y = m_coverAtDst[w]; y != x;)
    {
        const TransferId after = m_coverAtSrc[y];
        m_coverAtSrc[y] = x;
        y = after;
    }
    m_coverAtDst[w] = x;
    return true;
}

void
PlanReplay::Cover(std::vector<TransferId>& covers, TransferId x, TransferId t)
{
    // The first cover stays: later ones extend the chain from it (a later send of the same
    // participant that depends on it), and a sibling send of the same stage, with the same
    // deps, must not displace the one a later stage depends on (hips-algorithm.cc,
    // DirectReduceScatter: each member sends to every other with the same deps).
    if (covers[x] == x)
    {
        covers[x] = t;
    }
}

void
PlanReplay::RecordCovers(const Transfer& t, bool readsClosed)
{
    // Each dependency is in t's closure; so is every writer read, once the closure check
    // passed. A dependency has two ends: t covers the one at t's source (a dependency must
    // have the source at one end).
    for (TransferId d : t.deps)
    {
        Cover(m_ends[d].src == t.src ? m_coverAtSrc : m_coverAtDst, d, t.id);
    }
    if (!readsClosed)
    {
        return;
    }
    const SegmentMap& src = m_state[t.src];
    auto it = src.upper_bound(t.offset);
    for (--it; it != src.end() && it->first < t.offset + t.bytes; ++it)
    {
        for (TransferId w : it->second.writers)
        {
            Cover(m_coverAtDst, w, t.id);
        }
    }
}

bool
PlanReplay::CheckClosure(const Transfer& t, const std::vector<TransferId>& missing)
{
    const auto& transfers = m_plan.transfers;
    const TransferId oldest = missing.front();
    size_t unseen = missing.size();
    ++m_generation;
    m_stack.assign(t.deps.begin(), t.deps.end());
    // Stops as soon as every missing writer is found: a correct plan rarely needs the whole
    // closure above the oldest writer.
    while (!m_stack.empty() && unseen > 0)
    {
        TransferId d = m_stack.back();
        m_stack.pop_back();
        if (d < oldest || m_stamp[d] == m_generation)
        {
            continue;
        }
        m_stamp[d] = m_generation;
        if (std::binary_search(missing.begin(), missing.end(), d))
        {
            --unseen;
        }
        for (TransferId dd : transfers[d].deps)
        {
            if (dd < d)
            {
                m_stack.push_back(dd);
            }
        }
    }
    if (unseen == 0)
    {
        return true;
    }
    for (TransferId w : missing)
    {
        if (m_stamp[w] != m_generation)
        {
            Fail(Describe(t) + ": missing dependency: it sends data written by " +
                 Describe(transfers[w]) + ", which is not in its dependency closure");
        }
    }
    return false;
}

void
PlanReplay::ApplyAtDestination(const Transfer& t)
{
    const uint64_t begin = t.offset;
    const uint64_t end = t.offset + t.bytes;
    SegmentMap& dst = m_state[t.dst];
    SplitAt(dst, begin);
    SplitAt(dst, end);
    bool doubleReported = false;
    for (auto d = dst.find(begin); d != dst.end() && d->first < end; ++d)
    {
        Segment& seg = d->second;
        if (t.op == TransferOp::Reduce)
        {
            if (seg.held.Intersects(t.carries) && !doubleReported)
            {
                Fail(Describe(t) + ": double counting: reduces " + t.carries.ToString() +
                     " into [" + std::to_string(d->first) + "," + std::to_string(seg.end) +
                     ") of p" + std::to_string(t.dst) + ", which already holds " +
                     seg.held.ToString());
                doubleReported = true;
            }
            seg.held.UnionWith(t.carries);
            seg.writers.push_back(t.id);
        }
        else
        {
            seg.held = t.carries;
            seg.writers.assign(1, t.id);
        }
    }
}

void
PlanReplay::CheckCompleteness()
{
    const ContributorSet all = ContributorSet::All(m_workers);
    for (uint32_t p = 0; p < m_workers; ++p)
    {
        uint32_t reported = 0;
        for (const auto& [start, seg] : m_state[p])
        {
            if (!(seg.held == all) && reported++ < 2)
            {
                Fail("incomplete: worker p" + std::to_string(p) + " ends with " +
                     seg.held.ToString() + " over [" + std::to_string(start) + "," +
                     std::to_string(seg.end) + "), not the full sum of " +
                     std::to_string(m_workers) + " workers");
            }
        }
    }
}

} // namespace

PlanCheckResult
PlanChecker::Check(const SyncPlan& plan) const
{
    PlanCheckResult result;
    PlanReplay(plan, m_maxErrors, result).Run();
    return result;
}

} // namespace ns3
