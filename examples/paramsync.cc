/**
 * \file
 * paramsync: replay the gradient synchronization of a data-parallel training job on a
 * simulated RoCEv2 + PFC data-center network and measure the global synchronization time
 * (GST), per algorithm, beside the ideal (fluid) GST. ARCHITECTURE.md, Outputs, is the contract.
 *
 *     build/paramsync --topology=bcube:n=3,k=1 --algorithm=all --model=vgg19 --rate=40Gbps
 *     build/paramsync --topology=torus:dims=4x4 --algorithm=hips --backend=fluid
 *     build/paramsync --topology=file:topologies/hpcc/topology.txt --algorithm=none \
 *                     --flows=helper/data/flow_incast32.txt --out=results/incast
 *     build/paramsync --help        # every option with its default
 *
 * Exit codes: 0 ok; 2 bad input (one line on stderr naming the option); 3 the run finished
 * but an invariant failed (drops with PFC on, a stall), results still written.
 * The logic lives in helper/paramsync-driver.h; this file only calls it.
 */
#include "ns3/huge-page-heap.h"
#include "ns3/paramsync-driver.h"

int
main(int argc, char* argv[])
{
    // Before anything is allocated or MPI starts: the heap on huge pages
    // (helper/huge-page-heap.h; README, "Speed at scale").
    ns3::HugePageHeap::RelaunchIfUseful(argv);
    ns3::ParamsyncDriver driver;
    return driver.Main(argc, argv);
}
