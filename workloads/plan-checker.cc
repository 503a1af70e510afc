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

PlanCheckResult
PlanChecker::Check(const SyncPlan& plan) const
{
    PlanCheckResult result;
    auto fail = [&](const std::string& message) {
        ++result.errorCount;
        if (result.errors.size() < m_maxErrors)
        {
            result.errors.push_back(message);
        }
    };
    const uint32_t workers = plan.workers;
    const uint32_t participants = plan.ParticipantCount();
    const uint64_t total = plan.gradientBytes;
    if (workers == 0 || participants < workers || total == 0)
    {
        fail("plan " + plan.algorithm +
             ": needs workers > 0, hostOf for every participant "
             "(>= workers) and gradientBytes > 0; got workers " +
             std::to_string(workers) + ", " + std::to_string(participants) + " participants, W " +
             std::to_string(total));
        return result;
    }
    result.sentBytes.assign(participants, 0);
    result.receivedBytes.assign(participants, 0);

    std::vector<SegmentMap> state(participants);
    for (uint32_t p = 0; p < participants; ++p)
    {
        ContributorSet own = p < workers ? ContributorSet::Single(workers, p)
                                         : ContributorSet(workers);
        state[p].emplace(0, Segment{total, own, {}});
    }

    // Closure queries: DFS backwards over deps, visiting only ids >= the oldest writer asked
    // about (ids only point backwards, so nothing older can lead to it).
    std::vector<uint32_t> stamp(plan.transfers.size(), 0);
    uint32_t generation = 0;
    std::vector<TransferId> stack;

    const auto& transfers = plan.transfers;
    for (size_t i = 0; i < transfers.size(); ++i)
    {
        const Transfer& t = transfers[i];
        bool valid = true;
        if (t.id != i)
        {
            fail("transfer at index " + std::to_string(i) + " has id " + std::to_string(t.id));
            valid = false;
        }
        if (t.src >= participants || t.dst >= participants || t.src == t.dst)
        {
            fail(Describe(t) + ": src and dst must be distinct participants < " +
                 std::to_string(participants));
            continue;
        }
        if (t.bytes == 0 || t.offset >= total || t.bytes > total - t.offset)
        {
            fail(Describe(t) + ": range must be non-empty and inside [0," + std::to_string(total) +
                 ")");
            valid = false;
        }
        if (t.carries.Count() == 0 || !t.carries.IsSubsetOf(ContributorSet::All(workers)))
        {
            fail(Describe(t) + ": carries " + t.carries.ToString() +
                 " must be a non-empty set over " + std::to_string(workers) + " workers");
            valid = false;
        }
        bool depsOk = true;
        for (TransferId d : t.deps)
        {
            if (d >= i)
            {
                fail(Describe(t) + ": dependency #" + std::to_string(d) +
                     " is not an earlier transfer (deps must point backwards)");
                depsOk = false;
                continue;
            }
            if (transfers[d].src != t.src && transfers[d].dst != t.src)
            {
                fail(Describe(t) + ": dependency #" + std::to_string(d) + " (p" +
                     std::to_string(transfers[d].src) + "->p" + std::to_string(transfers[d].dst) +
                     ") does not involve the source p" + std::to_string(t.src) +
                     ", which cannot see it complete");
            }
        }
        if (!valid)
        {
            continue;
        }
        result.sentBytes[t.src] += t.bytes;
        result.receivedBytes[t.dst] += t.bytes;
        const uint64_t begin = t.offset;
        const uint64_t end = t.offset + t.bytes;

        // Causality: the source holds exactly `carries` over the range, built only by
        // transfers the source has seen complete.
        std::vector<TransferId> writers;
        SegmentMap& src = state[t.src];
        auto it = src.upper_bound(begin);
        --it;
        bool mismatchReported = false;
        for (; it != src.end() && it->first < end; ++it)
        {
            const Segment& seg = it->second;
            if (!(seg.held == t.carries) && !mismatchReported)
            {
                fail(Describe(t) + ": source holds " + seg.held.ToString() + " over [" +
                     std::to_string(std::max(begin, it->first)) + "," +
                     std::to_string(std::min(end, seg.end)) + ") but the transfer carries " +
                     t.carries.ToString());
                mismatchReported = true;
            }
            writers.insert(writers.end(), seg.writers.begin(), seg.writers.end());
        }
        std::sort(writers.begin(), writers.end());
        writers.erase(std::unique(writers.begin(), writers.end()), writers.end());
        std::vector<TransferId> missing;
        for (TransferId w : writers)
        {
            if (std::find(t.deps.begin(), t.deps.end(), w) == t.deps.end())
            {
                missing.push_back(w);
            }
        }
        if (!missing.empty() && depsOk)
        {
            const TransferId oldest = missing.front();
            ++generation;
            stack.assign(t.deps.begin(), t.deps.end());
            while (!stack.empty())
            {
                TransferId d = stack.back();
                stack.pop_back();
                if (d < oldest || stamp[d] == generation)
                {
                    continue;
                }
                stamp[d] = generation;
                for (TransferId dd : transfers[d].deps)
                {
                    if (dd < d)
                    {
                        stack.push_back(dd);
                    }
                }
            }
            for (TransferId w : missing)
            {
                if (stamp[w] != generation)
                {
                    fail(Describe(t) + ": missing dependency: it sends data written by " +
                         Describe(transfers[w]) + ", which is not in its dependency closure");
                }
            }
        }
        else if (!missing.empty())
        {
            fail(Describe(t) + ": reads data written by " + Describe(transfers[missing[0]]) +
                 " but its dependencies are malformed");
        }

        // Apply at the destination.
        SegmentMap& dst = state[t.dst];
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
                    fail(Describe(t) + ": double counting: reduces " + t.carries.ToString() +
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

    // Completeness: every worker ends with the full sum of every byte.
    const ContributorSet all = ContributorSet::All(workers);
    for (uint32_t p = 0; p < workers; ++p)
    {
        uint32_t reported = 0;
        for (const auto& [start, seg] : state[p])
        {
            if (!(seg.held == all) && reported++ < 2)
            {
                fail("incomplete: worker p" + std::to_string(p) + " ends with " +
                     seg.held.ToString() + " over [" + std::to_string(start) + "," +
                     std::to_string(seg.end) + "), not the full sum of " + std::to_string(workers) +
                     " workers");
            }
        }
    }
    return result;
}

} // namespace ns3
