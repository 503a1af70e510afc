#!/usr/bin/python3
"""Experiment lapse: dynamic parameter allocation (Lapse, VLDB'20) against classic
static allocation, with and without fast local access, on DSGD matrix factorization with
parameter blocking and on knowledge-graph embeddings, with a per-message host overhead.

    examples/experiments/lapse.py [--paramsync build/paramsync] [--results results]
                                  [--plots plots] [--jobs N] [--collect]
                                  [--emit=slurm|parallel]

Grid (packet level: ns-3, RoCEv2 + PFC, 40 Gb/s, 1 us links): 1, 2, 4, 8 nodes x 4 workers
per node (p = 4 n) on star:n=max(n, 2) (nodes=1 runs on host 0 alone); per-message host
overhead 0, 2, 10 us at every receiver; 100 B values; one epoch (strong scaling: the same
data set split over more workers):
  * mf   50 column keys per worker (a block); 409,600 SGD steps of 1 us in all (409,600 / p^2
         per worker and sub-epoch), each a pull and a push;
  * kge  100,000 entities drawn Zipf(1), 100 relations clustered by node
         (relations-at=cluster); 128,000 triples of 1 us in all (128,000 / p per worker),
         each 3 pulls and 3 pushes; dynamic allocation localizes the entities of the next 8
         triples;
and three systems:
  * classic      keys stay at their home node, local keys through shared memory;
  * classic-ipc  the same without fast local access: every local access through the
                 node's server process (local=5us);
  * dynamic      Lapse: mf localizes each next column block as a worker finishes one, kge
                 prefetches entities.
Writes results/lapse/lapse.csv, plots/lapse.png (epoch time and remote accesses per system
and cluster size, both workloads, no overhead) and plots/lapse-overhead.png (epoch time per
host overhead). How to run: examples/README-experiments.md; what it shows: results/README.md.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "lapse"
NODES = [1, 2, 4, 8]
WORKERS = 4
OVERHEADS = ["0us", "2us", "10us"]
MF_STEPS = 409600  # one epoch's SGD steps over all workers (the data set)
KGE_TRIPLES = 128000  # one epoch's triples over all workers
SYSTEMS = {"classic": "mode=classic", "classic-ipc": "mode=classic,local=5us",
           "dynamic": "mode=dynamic"}


def workloads(n):
    p = n * WORKERS
    return [f"workload=mf,keys={50 * p},steps={MF_STEPS // p ** 2}",
            f"workload=kge,entities=100000,relations=100,relations-at=cluster,"
            f"triples={KGE_TRIPLES // p}"]


def spec():
    grids = []
    for n in NODES:
        grids.append({"topology": f"star:n={max(n, 2)}",
                      "algorithm": [f"lapse:{w},{opts},nodes={n},workers={WORKERS},"
                                    f"overhead={o}"
                                    for w in workloads(n) for opts in SYSTEMS.values()
                                    for o in OVERHEADS]})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "iterations": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(), "lapse.py", __doc__))
