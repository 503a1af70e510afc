// Plans written by hand for the fluid estimator and lower-bound tests: transfers between
// participants with bytes and dependencies. Both read only hosts, bytes and deps, so every
// transfer claims worker 0's data at consecutive offsets (a transfer from a bad participant
// still builds).
#ifndef PARAMSYNC_TEST_HAND_PLAN_H
#define PARAMSYNC_TEST_HAND_PLAN_H

#include "ns3/sync-plan.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace paramsync_test
{

/// One hand-written transfer: participants, bytes, dependencies.
struct Hand
{
    ns3::ParticipantIndex src;
    ns3::ParticipantIndex dst;
    uint64_t bytes;
    std::vector<ns3::TransferId> deps;
};

/// A plan of hand-written transfers, participant p on host hostOf[p].
inline ns3::SyncPlan
HandPlan(std::vector<uint32_t> hostOf, const std::vector<Hand>& transfers)
{
    ns3::SyncPlan plan;
    plan.algorithm = "hand";
    plan.workers = static_cast<uint32_t>(hostOf.size());
    plan.hostOf = std::move(hostOf);
    uint64_t offset = 0;
    for (const Hand& h : transfers)
    {
        plan.Add({0,
                  h.src,
                  h.dst,
                  offset,
                  h.bytes,
                  ns3::TransferOp::Copy,
                  ns3::ContributorSet::Single(plan.workers, 0),
                  h.deps,
                  0,
                  0});
        offset += h.bytes;
    }
    plan.gradientBytes = offset;
    return plan;
}

} // namespace paramsync_test

#endif // PARAMSYNC_TEST_HAND_PLAN_H
