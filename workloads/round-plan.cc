#include "round-plan.h"

namespace ns3
{

void
RoundPlan::Append(SyncRound round)
{
    if (round.flows.empty() || round.bytes == 0 || round.repeat == 0)
    {
        return;
    }
    if (!rounds.empty())
    {
        SyncRound& last = rounds.back();
        if (last.bytes == round.bytes && last.phase == round.phase && last.flows == round.flows)
        {
            last.repeat += round.repeat;
            return;
        }
    }
    rounds.push_back(std::move(round));
}

uint64_t
RoundPlan::TransferCount() const
{
    uint64_t count = 0;
    for (const SyncRound& r : rounds)
    {
        count += r.flows.size() * r.repeat;
    }
    return count;
}

std::vector<uint64_t>
RoundPlan::SentBytes() const
{
    std::vector<uint64_t> sent(hostOf.size(), 0);
    for (const SyncRound& r : rounds)
    {
        for (const RoundFlow& f : r.flows)
        {
            sent.at(f.first) += r.bytes * r.repeat;
        }
    }
    return sent;
}

} // namespace ns3
