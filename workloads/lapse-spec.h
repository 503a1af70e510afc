/*
 * LapseSpec: the --algorithm spec of the Lapse parameter server with its matrix
 * factorization workload (LapsePs + LapseMfWorkload), a system that is neither an allreduce
 * plan nor a dense-gradient PS:
 *
 *   lapse[:mode=dynamic|classic,workers=4,keys=100000,value=100,steps=1000,step=1us,
 *          caches=0,overhead=0us,local=0us,seed=1]
 *
 * mode: dynamic parameter allocation (Lapse) or classic static allocation; workers per
 * node (every host is a node); keys: column-factor keys; value: bytes of one key's value;
 * steps: SGD steps per worker and sub-epoch, each of `step` compute; caches: location
 * caches; overhead: per-message host overhead at the receiver; local: time of an access to
 * a key the node holds (0: fast local access through shared memory; > 0: through the local
 * server process, as classic PSs without fast local access). --iterations = epochs.
 */
#ifndef PARAMSYNC_LAPSE_SPEC_H
#define PARAMSYNC_LAPSE_SPEC_H

#include "lapse-mf-workload.h"
#include "lapse-ps.h"

#include <string>

namespace ns3
{

/// \brief A parsed lapse spec.
struct LapseSpec
{
    std::string canonical; //!< the spec with every option
    LapseConfig ps;        //!< the parameter server (nodes = hosts)
    LapseMfConfig mf;      //!< the workload (epochs from --iterations)

    /// \brief Whether an --algorithm name is "lapse".
    static bool
    IsLapseName(const std::string& name)
    {
        return name == "lapse";
    }
    /**
     * \brief Parses a lapse spec for `hosts` nodes.
     * \throws std::invalid_argument naming --algorithm, the key and what is allowed
     */
    static LapseSpec Parse(const std::string& spec, uint32_t hosts);
};

} // namespace ns3

#endif // PARAMSYNC_LAPSE_SPEC_H
