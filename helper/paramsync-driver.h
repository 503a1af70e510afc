/*
 * ParamsyncDriver: the logic of the `paramsync` program (ARCHITECTURE.md, Outputs), kept out of
 * main(): parse and validate every option, build the topology, the model and the plans (each
 * checked by the PlanChecker), run each plan on the chosen backend, print the table or
 * JSON lines, write --out and --trace. Exit codes: 0 success; 2 bad input (one line on
 * stderr naming the option, and nothing written); 3 the runs finished but an invariant
 * failed (drops with PFC on, a stall / deadlock, a plan the checker rejects) — results
 * are still written; 4 the results could not be written; 5 out of memory.
 *
 * With --backend=fluid an algorithm that has a round form (RoundPlan: ring, hips) runs in
 * that form when its explicit plan would be too large to build (kRoundFormAbove): the
 * checker cannot run on it; the round generators are proven against the explicit plans by
 * test/round-plan-test.cc.
 */
#ifndef PARAMSYNC_PARAMSYNC_DRIVER_H
#define PARAMSYNC_PARAMSYNC_DRIVER_H

#include "driver-options.h"
#include "flow-list.h"
#include "out-directory.h"
#include "results-writer.h"
#include "run-result.h"

#include "ns3/async-ps-job.h"
#include "ns3/lapse-spec.h"
#include "ns3/model-profile.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The paramsync program.
 */
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
    /// \brief Fluid runs use the round form when the explicit plan's transfers times its
    /// workers exceed this: each transfer holds an N-bit contributor set, which the
    /// compiler and the checker build and combine, so this bounds the explicit plan's
    /// 16 MiB of sets and its seconds of checking (ring over 1,024 hosts: 2.1 M transfers,
    /// 6 s and 0.9 GB measured; hips on a 32x32 torus: 0.5 M transfers, 13 s).
    static constexpr uint64_t kRoundFormAbove = uint64_t{1} << 27;
    /// \brief --algorithm=all above this many hosts runs only the algorithms with a round
    /// form (explicit plans of the others grow as N^2: minutes and gigabytes).
    static constexpr uint32_t kAllExplicitHostLimit = 4096;

    ParamsyncDriver();
    ~ParamsyncDriver();

    /// \brief Runs the program; returns the exit code.
    int Main(int argc, char** argv);

  private:
    /// \brief Main() without the out-of-memory guard.
    int Run(int argc, char** argv);
    /// \brief Builds everything a run needs from the options. \throws OptionError
    void Prepare();
    /// \brief Refuses packet-run inputs that start at or after --stop (they could never
    /// run). \throws OptionError
    void CheckStartsBeforeStop() const;
    /// \brief Prepare() for an asynchronous PS system (asp / ssp / mlfabric).
    void PrepareAsync();
    /// \brief Prepare() for the Lapse system with its matrix factorization workload.
    void PrepareLapse();
    /// \brief Runs the asynchronous PS job or the Lapse system packet by packet.
    RunResult RunAsync();
    /// \brief Runs plan i on the fluid estimator only.
    RunResult RunFluid(size_t i);
    /// \brief Runs plan i (or the flows alone when there is no plan) packet by packet.
    RunResult RunPacket(size_t i);
    /// \brief The fluid estimator's GST of plan i on the topology.
    double IdealGst(size_t i) const;
    /// \brief The configuration recorded with every row.
    RunConfig Config() const;
    /// \brief Prints the results to stdout in the chosen format.
    void Print(const std::vector<RunResult>& runs) const;

    DriverOptions m_options;                                  //!< the options
    std::unique_ptr<Topology> m_topology;                     //!< the topology
    std::unique_ptr<ModelProfile> m_model;                    //!< the model (none for flows alone)
    std::vector<std::unique_ptr<SyncAlgorithm>> m_algorithms; //!< the algorithms to run
    std::vector<SyncPlan> m_plans;                            //!< their plans (same order)
    std::optional<AsyncPsConfig> m_async;                     //!< asynchronous PS job, if any
    std::string m_asyncSpec;                                  //!< its canonical spec
    std::optional<LapseSpec> m_lapse;                         //!< Lapse system, if any
    /// \brief Per plan: its round form when the fluid run uses it (m_plans[i] then holds
    /// only the plan's name, sizes and hosts, no transfers).
    std::vector<std::optional<RoundPlan>> m_roundPlans;
    std::unique_ptr<OutDirectory> m_out; //!< --out, locked and staged before the run
    std::vector<FlowSpec> m_flows;       //!< --flows, node ids as in the file
    std::vector<uint32_t> m_flowSrcRank; //!< host rank of each flow's src
    std::vector<uint32_t> m_flowDstRank; //!< host rank of each flow's dst
};

} // namespace ns3

#endif // PARAMSYNC_PARAMSYNC_DRIVER_H
