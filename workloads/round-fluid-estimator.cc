#include "round-fluid-estimator.h"

#include "fluid-estimator.h"

#include "ns3/topology.h"

namespace ns3
{

RoundFluidResult
RoundFluidEstimator::Estimate(const Topology& topology, const RoundPlan& plan) const
{
    RoundFluidResult result;
    result.linkBytes.assign(2 * topology.Graph().LinkCount(), 0.0);
    // Solved rounds: index into plan.rounds of the first round with these flows and bytes.
    // Plans have a handful of distinct rounds, so a linear search is enough.
    std::vector<size_t> solved;
    std::vector<std::vector<double>> solvedLinks; // bytes per directed link, one repetition
    FluidEstimator estimator;
    for (size_t i = 0; i < plan.rounds.size(); ++i)
    {
        const SyncRound& round = plan.rounds[i];
        size_t hit = solved.size();
        for (size_t s = 0; s < solved.size(); ++s)
        {
            const SyncRound& other = plan.rounds[solved[s]];
            if (other.bytes == round.bytes && other.flows == round.flows)
            {
                hit = s;
                break;
            }
        }
        if (hit == solved.size())
        {
            // The round as a plan of independent transfers: no dependencies, and no
            // contributor sets (the estimator reads only hosts, bytes and dependencies).
            SyncPlan step;
            step.algorithm = plan.algorithm;
            step.gradientBytes = plan.gradientBytes;
            step.workers = plan.workers;
            step.hostOf = plan.hostOf;
            step.transfers.reserve(round.flows.size());
            for (const RoundFlow& f : round.flows)
            {
                step.Add({0,
                          f.first,
                          f.second,
                          0,
                          round.bytes,
                          TransferOp::Copy,
                          ContributorSet(),
                          {},
                          0,
                          round.phase});
            }
            FluidResult r = estimator.Estimate(topology, step);
            result.roundS.push_back(r.gstS);
            std::vector<double> links(r.links.size());
            for (size_t l = 0; l < r.links.size(); ++l)
            {
                links[l] = r.links[l].bytes;
            }
            solved.push_back(i);
            solvedLinks.push_back(std::move(links));
            ++result.solves;
        }
        else
        {
            result.roundS.push_back(result.roundS[solved[hit]]);
        }
        const double repeat = static_cast<double>(round.repeat);
        result.gstS += result.roundS.back() * repeat;
        const std::vector<double>& links = solvedLinks[hit];
        for (size_t l = 0; l < links.size(); ++l)
        {
            result.linkBytes[l] += links[l] * repeat;
        }
    }
    return result;
}

} // namespace ns3
