#include "ring-topology.h"

#include "family-options.h"
#include "spec-string.h"

namespace ns3
{

namespace
{

const char* const kRingUsage = "ring:n=N with N in [2, 16777216][,deadlockfree=0|1][,rate=R]"
                               "[,delay=D]";

} // namespace

struct RingTopology::Args
{
    uint32_t n;
    bool deadlockFree;
    double rate;
    double delay;
    std::string spec;
};

RingTopology::Args
RingTopology::Parse(SpecString& spec, double rateBps, double delayS)
{
    RingTopology::Args args;
    args.n = static_cast<uint32_t>(RequireUint(spec, "n", 2, uint64_t{1} << 24, kRingUsage));
    args.deadlockFree = spec.GetBool("deadlockfree", true);
    args.rate = spec.GetRate("rate", rateBps);
    args.delay = spec.GetTime("delay", delayS);
    spec.Finish();
    args.spec = "ring:n=" + std::to_string(args.n) +
                ExplicitOptions(spec, {"deadlockfree", "rate", "delay"});
    return args;
}

RingTopology::RingTopology(SpecString& spec, double rateBps, double delayS)
    : RingTopology(Parse(spec, rateBps, delayS))
{
}

RingTopology::RingTopology(const Args& args)
    : TorusTopology({args.n}, args.deadlockFree, args.rate, args.delay, args.spec)
{
}

std::string
RingTopology::Family() const
{
    return "ring";
}

TopologyCounts
RingTopology::Counts(SpecString& spec)
{
    // A one-dimensional torus: n servers, n links, a dateline lane pair from 4 servers.
    const Args args = Parse(spec, 0, 0); // refuses what the constructor refuses
    const uint64_t n = args.n;
    TopologyCounts c;
    c.hosts = n;
    c.links = n;
    c.lanes = (args.deadlockFree && n >= 4) ? 2 : 1;
    c.hostsRelay = true;
    return c;
}

} // namespace ns3
