/*
 * FileTopology: a topology read from a text file, in paramsync's native format or in the
 * topology.txt format of HPCC's ns-3 RDMA simulator, routed by shortest-path ECMP.
 */
#ifndef PARAMSYNC_FILE_TOPOLOGY_H
#define PARAMSYNC_FILE_TOPOLOGY_H

#include "topology.h"

#include <iosfwd>
#include <memory>

namespace ns3
{

class ShortestPathRouting;

class SpecString;

/**
 * \brief `file:PATH[,format=auto|native|hpcc][,rate=R][,delay=D]`.
 *
 * (`file:path=PATH,...` is the same.) rate= / delay=, when given, override every link's
 * rate / delay from the file.
 *
 * **Format detection** (format=auto, the default): a file whose first non-blank,
 * non-comment line is exactly three non-negative integers is HPCC's format, anything else
 * is native.
 *
 * **Native format** (read by Load, written by WriteNative), one item a line; '#' starts a
 * comment, blank lines are ignored:
 *
 *     host NAME                      a host; ranks follow the order of host lines
 *     switch NAME                    a switch
 *     link NAME_A NAME_B RATE DELAY  a cable, e.g. "link h0 sw0 40Gbps 1us"
 *
 * Names are unique, without spaces; a link names nodes declared above it, joins two
 * distinct nodes, and no two links join the same pair (parallel cables are not supported:
 * ECMP could not tell them apart in a file). Ports of a node are numbered in the order of
 * its link lines. RATE as "40Gbps" / "100Mbps" / "1e9bps" (> 0), DELAY as "1us" / "500ns"
 * / "0.001ms" / "1e-06s" (>= 0).
 *
 * **HPCC format** (read, and written by WriteHpcc), as HPCC reads it: line 1 `nodes switches
 * links`; then the switch node ids; then exactly `links` link lines `a b rate delay error_rate`
 * (error_rate is checked to be a number and otherwise ignored: paramsync does not drop packets at
 * random). Lines after the last link are ignored, as HPCC ignores them. Nodes are added in
 * id order, so node index == HPCC node id, switches named "sw<id>" and hosts "h<id>".
 *
 * **Host ranks**: hosts in increasing node order, i.e. in HPCC files in increasing node id
 * (fat.txt: ids 0..319 -> ranks 0..319). HostRankOfFileId() maps the node ids of HPCC
 * flow files (`src dst ...`) to ranks; in native files the "file id" of a node is the
 * position of its host/switch line among all node lines, from 0.
 *
 * **Routing**: shortest paths in hops, ECMP over every neighbour one hop closer to the
 * destination. Hosts with several links relay. Distances come from one breadth-first search
 * per destination host (Boost.Graph), kept in a nodes x hosts table. One lane: shortest
 * paths on an arbitrary graph are not guaranteed deadlock-free under PFC (on fat-trees such
 * as HPCC's fat.txt they are up-down paths, which are).
 *
 * Malformed files throw std::invalid_argument "PATH:LINE: what is wrong; allowed: ...".
 */
class FileTopology : public Topology
{
  public:
    /// \brief Builds from a parsed spec; rateBps/delayS apply only through rate=/delay=.
    FileTopology(SpecString& spec, double rateBps, double delayS);
    /// \brief Counts from the HPCC header line of the file the spec names ("NODES SWITCHES
    /// LINKS"); std::nullopt for a native file or one that cannot be read.
    static std::optional<TopologyCounts> Counts(SpecString& spec);
    /**
     * \brief Loads a file.
     * \param format "auto", "native" or "hpcc"
     */
    explicit FileTopology(const std::string& path, const std::string& format = "auto");
    ~FileTopology() override;

    std::string Spec() const override;
    std::string Family() const override;
    void NextHops(NodeIndex at,
                  HostRank dst,
                  uint8_t lane,
                  std::vector<RouteHop>& out) const override;

    /// \brief "native" or "hpcc": what the file turned out to be.
    const std::string&
    Format() const
    {
        return m_format;
    }
    /// \brief Rank of the host with this node id in the file (HPCC flow files use these).
    /// \throws std::invalid_argument if id is not a host of the file
    HostRank HostRankOfFileId(uint32_t id) const;
    /// \brief Node id in the file of a host rank.
    uint32_t FileIdOfHostRank(HostRank rank) const;
    /// \brief Shortest distance in hops from node to host dst.
    uint32_t Distance(NodeIndex node, HostRank dst) const;

    /// \brief Writes a graph in the native format (readable by this class).
    static void WriteNative(const TopologyGraph& graph, std::ostream& os);
    /**
     * \brief Writes a graph in HPCC's topology.txt format (readable by this class and by
     * HPCC's simulator): node id = node index, error rate 0. Host ranks survive the round
     * trip (hosts are ranked in node order both ways); names do not (HPCC has none).
     */
    static void WriteHpcc(const TopologyGraph& graph, std::ostream& os);
    /// \brief Writes a graph in the native format to a file.
    /// \throws std::runtime_error naming the path if it cannot be written
    static void WriteNativeFile(const TopologyGraph& graph, const std::string& path);

  private:
    void Load(const std::string& path, const std::string& format);
    void LoadNative(const std::string& path, const std::vector<std::string>& lines);
    void LoadHpcc(const std::string& path, const std::vector<std::string>& lines);
    void Route(const std::string& path);

    std::string m_spec;
    std::string m_format;
    std::unique_ptr<ShortestPathRouting> m_routing; //!< shortest-path ECMP over the file's graph
};

} // namespace ns3

#endif // PARAMSYNC_FILE_TOPOLOGY_H
