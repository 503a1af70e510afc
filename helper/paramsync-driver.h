/*
 * ParamsyncDriver: the logic of the `paramsync` program (ARCHITECTURE.md, Outputs), kept out of
 * main(): parse and validate every option, build the topology, the model and the plans (each
 * checked by the PlanChecker), run each plan on the chosen backend, print the table or
 * JSON lines, write --out and --trace. Exit codes: 0 success; 2 bad input (one line on
 * stderr naming the option, and nothing written); 3 the runs finished but an invariant
 * failed (drops with PFC on, a stall / deadlock, a plan the checker rejects) — results
 * are still written; 4 the results could not be written; 5 out of memory.
 *
 * Under `mpirun -np N paramsync ... --mpi=1` every rank reads the same options and builds the
 * same inputs; the packet backend runs the network partitioned over the ranks
 * (ParamsyncHelper::SetRanks) and gathers the results on rank 0 (RankResults), which alone
 * prints the row and writes --out / --trace; the other ranks print nothing and exit 0, so
 * mpirun's exit code is rank 0's.
 *
 * What --algorithm names is prepared by the JobRegistry (helper/job-registry.h) and run by
 * the Backend --backend names (helper/backend.h): the driver holds no job kinds and no
 * backend names of its own. With --backend=fluid an algorithm that has a round form
 * (RoundPlan: ring, hips) runs in that form when its explicit plan would be too large to
 * build (JobRegistry::kRoundFormAbove): the checker cannot run on it; the round generators
 * are proven against the explicit plans by test/round-plan-test.cc.
 */
#ifndef PARAMSYNC_PARAMSYNC_DRIVER_H
#define PARAMSYNC_PARAMSYNC_DRIVER_H

#include "backend.h"
#include "driver-options.h"
#include "job-registry.h"
#include "out-directory.h"
#include "results-writer.h"
#include "run-result.h"

#include "ns3/topology.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The paramsync program.
 */
class MpiSession;

class ParamsyncDriver
{
  public:
    /// \brief Exit code: success.
    static constexpr int kExitOk = 0;
    /// \brief Exit code: bad input (one line on stderr).
    static constexpr int kExitBadInput = 2;
    /// \brief Exit code: finished, but an invariant failed (results written).
    static constexpr int kExitInvariant = 3;
    /// \brief Exit code: the runs finished but their --out / --trace files could not be
    /// written (the paths are checked before the run, so this is a disk that filled up or
    /// a directory removed meanwhile).
    static constexpr int kExitOutput = 4;
    /// \brief Exit code: out of memory (std::bad_alloc anywhere), one line, nothing written.
    static constexpr int kExitOutOfMemory = 5;
    /// \brief Largest input file (--topology=file:, --flows, --model=PATH) read: 256 MiB,
    /// 30x the largest input shipped (a million-flow HPCC list is ~30 MB of text).
    static constexpr uint64_t kInputFileCap = uint64_t{256} << 20;
    ParamsyncDriver();
    ~ParamsyncDriver();

    /// \brief Runs the program; returns the exit code.
    int Main(int argc, char** argv);

  private:
    /// \brief Main() without the out-of-memory guard.
    int Run(int argc, char** argv);
    /// \brief Reads the options and builds everything a run needs; the exit code of bad
    /// input, or kExitOk to go on.
    int Setup(int argc, char** argv);
    /**
     * \brief --mpi=1: refuses what does not run across ranks (DriverOptions::CheckMpi), a
     * build without MPI and a single rank, then enables MPI (after Prepare: its checks
     * build and destroy a simulator, and from MPI_Init on every simulator is ns-3's
     * distributed one, which runs once per process). \throws OptionError
     */
    void StartMpi(int* argc, char*** argv);
    /// \brief Locks --out and checks --trace's directory (rank 0 only under --mpi=1, its
    /// verdict shared). \throws OptionError
    void PrepareOutputs();
    /// \brief Whether this process prints and writes: not a rank other than 0 of --mpi=1.
    bool Speaks() const;
    /// \brief Builds everything a run needs from the options. \throws OptionError
    void Prepare();
    /// \brief The topology of --topology with --slow-link and --slow-hosts applied, and the
    /// host faults checked against it. \throws OptionError
    void MakeRunTopology();
    /// \brief --flows read, their node ids turned into host ranks. \throws OptionError
    void LoadFlows();
    /// \brief Runs every prepared system (a plan the checker rejects gives a failed row).
    std::vector<RunResult> RunAll();
    /// \brief The exit code and reason of runs (an invariant failed or a transfer did not
    /// complete: kExitInvariant, each named on stderr).
    RunExit Judge(const std::vector<RunResult>& runs) const;
    /// \brief --seeds=A-B: every prepared system once per seed (prepared again for each),
    /// the per-seed rows, then SeedStatistics' min / median / max; the worst exit code.
    int RunSeeds();
    /// \brief Writes --out and --trace; the exit code.
    int WriteOutputs(const std::vector<RunResult>& runs, const RunExit& exit);
    /// \brief The configuration recorded with every row.
    RunConfig Config() const;
    /// \brief Prints the results to stdout in the chosen format.
    void Print(const std::vector<RunResult>& runs) const;

    DriverOptions m_options;              //!< the options
    std::unique_ptr<Topology> m_topology; //!< the topology as run
    FlowInput m_flows;                    //!< --flows, with host ranks
    std::unique_ptr<Backend> m_backend;   //!< what --backend names
    PreparedSystems m_systems;            //!< what --algorithm names, one per row
    std::unique_ptr<OutDirectory> m_out;  //!< --out, locked and staged before the run
    std::unique_ptr<MpiSession> m_mpi;    //!< --mpi=1: MPI for the life of the driver
};

} // namespace ns3

#endif // PARAMSYNC_PARAMSYNC_DRIVER_H
