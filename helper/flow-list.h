/*
 * FlowList: an HPCC-format flow file (as read by HPCC's ns-3 RDMA simulator): line 1 the
 * number of flows, then one flow a line `src dst priority dport bytes start_seconds`, src
 * and dst being node ids of the topology file. Pure parsing, no simulation.
 */
#ifndef PARAMSYNC_FLOW_LIST_H
#define PARAMSYNC_FLOW_LIST_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \brief One flow of a flow file.
struct FlowSpec
{
    uint32_t src;      //!< source node id as in the file
    uint32_t dst;      //!< destination node id as in the file
    uint32_t priority; //!< PFC priority 0..7
    uint32_t dport;    //!< destination port (kept for reference; RoCE uses 4791)
    uint64_t bytes;    //!< message bytes, > 0
    double startS;     //!< start time, seconds, >= 0
};

/**
 * \brief Reads flow files.
 */
class FlowList
{
  public:
    /**
     * \brief Parses text (the contents of file, named in messages).
     * Lines after the announced count are ignored, as HPCC ignores them.
     * \throws std::invalid_argument "FILE:LINE: what is wrong; allowed: ..."
     */
    static std::vector<FlowSpec> Parse(const std::string& text, const std::string& file);
    /// \brief Reads and parses a file. \throws std::invalid_argument naming the file
    static std::vector<FlowSpec> Load(const std::string& path);
};

} // namespace ns3

#endif // PARAMSYNC_FLOW_LIST_H
