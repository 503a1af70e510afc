#!/usr/bin/python3
"""Experiment lapse (issue 9): dynamic parameter allocation (Lapse, VLDB'20) against classic
static allocation, with and without fast local access, on DSGD matrix factorization with
parameter blocking.

    examples/experiments/lapse.py [--paramsync build/paramsync] [--results results]
                                  [--plots plots] [--jobs N] [--collect]
                                  [--emit=slurm|parallel]

Grid (packet level: ns-3, RoCEv2 + PFC, 40 Gb/s, 1 us links): star:n=2, 4, 8 (nodes) x 4
workers per node (p = 4 n); 50 column keys per worker (a block), 100 B values; one epoch of
409,600 SGD steps of 1 us in all (strong scaling: 409,600 / p^2 per worker and sub-epoch,
each a pull and a push); three systems:
  * classic      keys stay at their home node, local keys through shared memory;
  * classic-ipc  the same without fast local access: every local access through the
                 node's server process (local=5us);
  * dynamic      Lapse: each worker localizes its next column block as it finishes one.
Writes results/lapse/lapse.csv and plots/lapse.png (epoch time and remote accesses per
system and cluster size). See examples/README-experiments.md.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "lapse"
NODES = [2, 4, 8]
WORKERS = 4
TOTAL_STEPS = 409600  # one epoch's SGD steps over all workers (the data set)
SYSTEMS = {"classic": "mode=classic", "classic-ipc": "mode=classic,local=5us",
           "dynamic": "mode=dynamic"}


def spec():
    grids = []
    for n in NODES:
        keys = 50 * n * WORKERS
        steps = TOTAL_STEPS // (n * WORKERS) ** 2
        grids.append({"topology": f"star:n={n}",
                      "algorithm": [f"lapse:{opts},workers={WORKERS},keys={keys},steps={steps}"
                                    for opts in SYSTEMS.values()]})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "iterations": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(), "lapse.py", __doc__))
