/*
 * PsNetworkView: what MLFabric's scheduler knows of the network when it estimates a
 * push's completion time ("Network-accelerated Distributed Machine Learning Using
 * MLFabric", arXiv:1907.00434: the scheduler orders updates by their completion time
 * given the bandwidth the network can give them now).
 *
 * The static part, PsPaths, is the path of every host pair as a list of directed channels
 * (one per direction of a link) with their rates and propagation delays. The live part is
 * the backlog of each channel: the bytes of this job's messages posted over it and not yet
 * delivered (the reserved slots of granted pushes, and every gather, reply and forward in
 * flight). A message counts whole until its last byte lands, so the backlog is an upper
 * bound on what is still queued; cross traffic that is not the job's is not seen.
 *
 * Completion estimate of `bytes` from src to dst posted now:
 *   drain = max over the path's channels c of backlog(c) x 8 / rate(c)
 *   time  = drain + bytes x 8 / (slowest rate on the path) + sum of propagation delays
 * (store-and-forward of whole packets is ignored: 4 KB at 40 Gb/s is 0.8 us a hop).
 */
#ifndef PARAMSYNC_PS_NETWORK_VIEW_H
#define PARAMSYNC_PS_NETWORK_VIEW_H

#include <cstdint>
#include <vector>

namespace ns3
{

class Topology;

/// \brief Paths between hosts as lists of directed channels, with rates and delays.
struct PsPaths
{
    std::vector<double> channelRateBps; //!< per directed channel, bit/s
    std::vector<double> channelDelayS;  //!< per directed channel, seconds
    /// [src host * hosts + dst host]: the channels a message crosses, in order.
    std::vector<std::vector<uint32_t>> route;
    uint32_t hosts{0}; //!< hosts of the topology

    /// \brief Whether no path is known (the scheduler then falls back to worker rates).
    bool
    Empty() const
    {
        return route.empty();
    }
    /// \brief The channels from src to dst.
    const std::vector<uint32_t>& Path(uint32_t src, uint32_t dst) const;
    /**
     * \brief Paths of every host pair along the topology's routing, the first equal-cost
     * next hop at each node (the path of queue pair 0, which the job's messages use), with
     * link l's direction a -> b as channel 2l and b -> a as 2l + 1.
     */
    static PsPaths FromTopology(const Topology& topology);
};

/**
 * \brief The live backlog of the job's messages on every channel of PsPaths, and the
 * completion time estimate it implies.
 */
class PsNetworkView
{
  public:
    /// \brief paths may be empty: then every estimate is 0 and nothing is tracked.
    explicit PsNetworkView(PsPaths paths);

    /// \brief A message of `bytes` left src for dst.
    void Posted(uint32_t src, uint32_t dst, uint64_t bytes);
    /// \brief That message's last byte reached dst.
    void Delivered(uint32_t src, uint32_t dst, uint64_t bytes);
    /// \brief Estimated seconds until `bytes` posted now from src reach dst (see above).
    double CompletionS(uint32_t src, uint32_t dst, uint64_t bytes) const;
    /// \brief Bytes in flight on a channel.
    uint64_t
    Backlog(uint32_t channel) const
    {
        return m_backlog[channel];
    }
    /// \brief Whether paths are known.
    bool
    Known() const
    {
        return !m_paths.Empty();
    }

  private:
    PsPaths m_paths;                 //!< the static part
    std::vector<uint64_t> m_backlog; //!< per channel, bytes posted and not delivered
};

} // namespace ns3

#endif // PARAMSYNC_PS_NETWORK_VIEW_H
