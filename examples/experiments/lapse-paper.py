#!/usr/bin/python3
"""Experiment lapse-paper: Lapse (Renz-Wieland et al., "Dynamic Parameter Allocation in
Parameter Servers", VLDB 2020) under the paper's settings (lapse:preset=paper), scaling from
1 to 8 nodes: classic static allocation vs dynamic allocation (Lapse) vs one node, on
knowledge-graph embeddings (RESCAL) and word vectors (skip-gram with negative sampling).

    examples/experiments/lapse-paper.py [--paramsync build/paramsync] [--results results]
                                        [--plots plots] [--jobs N] [--collect]
                                        [--emit=slurm|parallel]

Grid (packet level: ns-3, RoCEv2 + PFC, 10 Gb/s as the paper's 10 GbE, 1 us links): 1, 2,
4, 8 nodes x 4 worker threads on star:n=max(n, 2) (nodes=1 runs on host 0 alone); one epoch
of a fixed data set split over the p = 4 n workers (strong scaling, as the paper's epoch
times):
  * kge  RESCAL d = 100 (entities 400 B, relations 100 x 100 floats = 40,000 B), 100,000
         entities drawn Zipf(ZIPF), 100 relations clustered by node (preset), KGE_TRIPLES
         triples of 4.3 us (measured: examples/experiments/lapse-step-cost.cc);
  * wv   d = 100 (400 B vectors), 100,000 words drawn Zipf(1), context 5, 5 negatives,
         WV_WORDS corpus words (10 pairs each) of 1.6 us per pair (measured likewise);
and the systems
  * classic   keys stay at their home node (local keys through shared memory);
  * dynamic   Lapse: relations localized once per node, entities / word vectors prefetched
              8 steps ahead;
  * ssp       bounded staleness (Petuum's SSP), keys at their home, a cache per node,
              staleness 1, a clock every 10 steps; client-side sync (a stale row is read
              again) and server-side sync (servers push updated rows as clocks advance).
Writes results/lapse-paper/lapse-paper.csv and plots/lapse-paper.png (epoch time and
remote accesses per system and cluster size, both workloads). How to run:
examples/README-experiments.md; what it shows: results/README.md.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "lapse-paper"
NODES = [1, 2, 4, 8]
WORKERS = 4  # the preset's worker threads per node
KGE_TRIPLES = 16000  # one epoch's triples over all workers
WV_WORDS = 3200  # one epoch's corpus words over all workers
SYSTEMS = {"classic": "mode=classic", "dynamic": "mode=dynamic",
           "ssp-client": "mode=ssp,staleness=1,sync=client,clock=10",
           "ssp-server": "mode=ssp,staleness=1,sync=server,clock=10"}


def workloads(n):
    p = n * WORKERS
    return [f"workload=kge,preset=paper,entities=100000,relations=100,"
            f"triples={KGE_TRIPLES // p}",
            f"workload=wv,preset=paper,vocab=100000,words={WV_WORDS // p}"]


def spec():
    grids = []
    for n in NODES:
        grids.append({"topology": f"star:n={max(n, 2)}",
                      "algorithm": [f"lapse:{w},{opts},nodes={n}"
                                    for w in workloads(n) for opts in SYSTEMS.values()]})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "10Gbps", "delay": "1us", "iterations": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(), "lapse-paper.py", __doc__))
