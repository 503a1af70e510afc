/*
 * InstallRankCrossings: turns a network built on every rank (NetworkBuilder with the
 * RankPartition's system ids) into this rank's share of a distributed run: every link the
 * partition cut gets PfcMpiCrossing on this rank's end (model/pfc-mpi-crossing.h), and that
 * end's device receives the frames of the other rank. Compiled only where ns-3 has its mpi
 * module (helper/sources.cmake).
 */
#ifndef PARAMSYNC_RANK_CROSSINGS_H
#define PARAMSYNC_RANK_CROSSINGS_H

#include "network-builder.h"
#include "rank-partition.h"

namespace ns3
{

/**
 * \brief Wires the cut links of net (built from graph) for rank `self`.
 * \return the number of links with an end on this rank that cross to another rank.
 */
uint32_t InstallRankCrossings(const PfcNetwork& net,
                              const TopologyGraph& graph,
                              const RankPartition& partition,
                              uint32_t self);

} // namespace ns3

#endif // PARAMSYNC_RANK_CROSSINGS_H
