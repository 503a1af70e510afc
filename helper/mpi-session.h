/*
 * MpiSession: the driver's use of MPI_COMM_WORLD under `mpirun ... paramsync --mpi=1` (README
 * "Running across MPI ranks"): ns-3's MpiInterface enabled for the life of the object and
 * finalized with it, the distributed simulator chosen for the one run, and the few collective
 * operations the helper needs to end a run on every rank at once and gather its results on
 * rank 0. Compiled in every build; in a build without MPI (Debian's ns-3, the plain CMake
 * build) Built() is false and the driver refuses --mpi=1 before making one.
 *
 * ns-3.37's distributed engine frees its MPI buffers when the simulator is destroyed
 * (DistributedSimulatorImpl::Destroy calls MpiInterface::Destroy), so one process runs one
 * distributed simulation: the driver refuses lists of algorithms and --seeds under --mpi=1.
 *
 * The collectives run inside simulator events (RunGuard's look) or after Simulator::Run, on
 * ns-3's own communicator. Inside an event this is safe because every rank schedules the
 * look at the same simulated time and every rank reaches that time within the same granted
 * window, with no synchronization of the engine in between: the ranks call the engine's
 * MPI_Allgather and these collectives in the same order.
 */
#ifndef PARAMSYNC_MPI_SESSION_H
#define PARAMSYNC_MPI_SESSION_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief MPI for one driver run; static collectives on the ranks of the enabled session
 * (without one, each returns this process's value as the whole run's).
 */
class MpiSession
{
  public:
    /// \brief Whether this paramsync was compiled with MPI (an ns-3 tree with --enable-mpi).
    static bool Built();
    /**
     * \brief Enables MpiInterface (MPI_Init), which also makes every simulator made from
     * then on ns-3's DistributedSimulatorImpl: enable after the last simulator of one
     * process (the driver's checks build a network once) was destroyed. Call only when
     * Built().
     */
    MpiSession(int* argc, char*** argv);
    /// \brief Disables MpiInterface (MPI_Finalize).
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    /// \brief Whether a session is enabled in this process.
    static bool Active();
    /// \brief Ranks of MPI_COMM_WORLD (1 without a session).
    static uint32_t Size();
    /// \brief This process's rank (0 without a session).
    static uint32_t Rank();
    /**
     * \brief Whether this process is a rank other than 0 of an mpirun, before MPI is
     * initialized (Open MPI's OMPI_COMM_WORLD_RANK, or PMI_RANK): bad input found before
     * MPI_Init is then printed by rank 0 alone.
     */
    static bool NonZeroRankFromEnvironment();

    /// \brief (Any rank unfinished, events summed over the ranks): RunGuard's global look.
    static std::pair<bool, uint64_t> CombineLook(bool unfinished, uint64_t events);
    /// \brief A count summed over the ranks, on every rank.
    static uint64_t Sum(uint64_t value);
    /// \brief Rank 0's value on every rank.
    static bool FromRankZero(bool value);
    /// \brief Every rank's bytes on rank 0, in rank order (empty on the other ranks).
    static std::vector<std::string> GatherOnRankZero(const std::string& bytes);
};

} // namespace ns3

#endif // PARAMSYNC_MPI_SESSION_H
