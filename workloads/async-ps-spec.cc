#include "async-ps-spec.h"

#include "ns3/spec-string.h"

#include <stdexcept>

namespace ns3
{

bool
AsyncPsSpec::IsAsyncName(const std::string& name)
{
    return name == "asp" || name == "ssp" || name == "mlfabric";
}

namespace
{

/// The mlfabric keys (delay, bound, aggregate, aggregator, scheduler, replica, fail) into r,
/// appending the non-default ones to canonical.
void
ParseMlFabric(SpecString& s, uint32_t hosts, AsyncPsSpec& r, std::string& canonical)
{
    r.policy = AsyncPsConfig::PushPolicy::MLFABRIC;
    if (s.Has("delay"))
    {
        r.delayBound = static_cast<uint32_t>(s.GetUint("delay", 0, 0, 1000000));
        canonical += ",delay=" + std::to_string(r.delayBound);
    }
    if (s.Has("bound"))
    {
        r.stalenessBound = static_cast<uint32_t>(s.GetUint("bound", 0, 0, 1000000));
        canonical += ",bound=" + std::to_string(r.stalenessBound);
    }
    // Defaults stay out of the canonical string so earlier results keep their names.
    r.aggregate = s.GetBool("aggregate", false);
    if (r.aggregate)
    {
        canonical += ",aggregate=1";
    }
    r.randomAggregator = s.GetChoice("aggregator", "fastest", {"fastest", "random"}) == "random";
    if (r.randomAggregator)
    {
        if (!r.aggregate)
        {
            throw std::invalid_argument(s.Where() + "aggregator=random chooses who sums "
                                                    "deferred updates; allowed only with "
                                                    "aggregate=1");
        }
        canonical += ",aggregator=random";
    }
    r.networkScheduler = s.GetChoice("scheduler", "oracle", {"oracle", "net"}) == "net";
    if (r.networkScheduler)
    {
        canonical += ",scheduler=net";
    }
    r.replica = static_cast<uint32_t>(s.GetUint("replica", 0, 0, 1000000));
    if (r.replica > 0)
    {
        if (2 * r.servers >= hosts)
        {
            throw std::invalid_argument(s.Where() + "replica=" + std::to_string(r.replica) +
                                        " puts a replica beside each of " +
                                        std::to_string(r.servers) + " servers: needs more than " +
                                        std::to_string(2 * r.servers) +
                                        " hosts, the topology has " + std::to_string(hosts) +
                                        "; allowed: replica=0 or fewer servers");
        }
        canonical += ",replica=" + std::to_string(r.replica);
    }
    r.ackFromReplica = s.GetChoice("ack", "server", {"server", "replica"}) == "replica";
    if (r.ackFromReplica)
    {
        if (r.replica == 0)
        {
            throw std::invalid_argument(s.Where() + "ack=replica acknowledges updates from the "
                                                    "replica; allowed only with replica=D > 0");
        }
        canonical += ",ack=replica";
    }
    if (s.Has("fail"))
    {
        const std::string text = s.GetString("fail", "");
        r.failAtS = s.GetTime("fail", 0);
        if (r.replica == 0 || r.aggregate || r.networkScheduler)
        {
            throw std::invalid_argument(
                s.Where() + "fail=" + text +
                " fails shard 0's server for its replica to take over; allowed only with "
                "replica=D > 0, aggregate=0 and scheduler=oracle");
        }
        canonical += ",fail=" + text;
    }
}

/// The train and lr keys into r, appending them to canonical when set.
void
ParseTrain(SpecString& s, AsyncPsSpec& r, std::string& canonical)
{
    r.train = s.GetChoice("train", "none", {"none", "logreg"}) == "logreg";
    if (r.train)
    {
        const uint32_t features = ConvergenceConfig{}.features;
        if (r.servers > features)
        {
            throw std::invalid_argument(s.Where() + "train=logreg splits " +
                                        std::to_string(features) + " parameters over " +
                                        std::to_string(r.servers) +
                                        " servers; allowed: train=logreg with at most " +
                                        std::to_string(features) + " servers");
        }
        canonical += ",train=logreg";
        if (r.policy == AsyncPsConfig::PushPolicy::MLFABRIC)
        {
            r.normPriority = s.GetBool("norms", true);
            if (!r.normPriority)
            {
                canonical += ",norms=0";
            }
        }
        if (s.Has("lr"))
        {
            r.learningRate = s.GetDouble("lr", 1.0, 1e-6, 1e3);
            canonical += ",lr=" + s.GetString("lr", "");
        }
    }
}

} // namespace

AsyncPsSpec
AsyncPsSpec::Parse(const std::string& spec, uint32_t hosts)
{
    SpecString s(spec, "--algorithm");
    if (!IsAsyncName(s.Name()))
    {
        throw std::invalid_argument(s.Where() + "not an asynchronous PS system; allowed: asp, "
                                                "ssp, mlfabric");
    }
    if (hosts < 2)
    {
        throw std::invalid_argument(s.Where() + "needs at least 2 hosts (a worker and a server)");
    }
    AsyncPsSpec r;
    r.servers = static_cast<uint32_t>(s.GetUint("servers", 1, 1, hosts - 1));
    std::string canonical = s.Name() + ":servers=" + std::to_string(r.servers);
    if (s.Name() == "ssp")
    {
        r.stalenessBound = static_cast<uint32_t>(s.GetUint("bound", 3, 0, 1000000));
        canonical += ",bound=" + std::to_string(r.stalenessBound);
    }
    if (s.Name() == "mlfabric")
    {
        ParseMlFabric(s, hosts, r, canonical);
    }
    ParseTrain(s, r, canonical);
    s.Finish();
    r.canonical = canonical;
    return r;
}

void
AsyncPsSpec::ApplyTo(AsyncPsConfig& config, uint32_t hosts) const
{
    config.servers = servers;
    config.workers = hosts - servers * (replica > 0 ? 2 : 1);
    config.replicaDivergence = replica;
    config.failAt = Seconds(failAtS);
    config.stalenessBound = stalenessBound;
    config.policy = policy;
    config.delayBound = delayBound;
    config.aggregate = aggregate;
    config.randomAggregator = randomAggregator;
    config.networkScheduler = networkScheduler;
    config.ackFromReplica = ackFromReplica;
    config.normPriority = normPriority;
    config.train = train;
    config.training.learningRate = learningRate;
}

} // namespace ns3
