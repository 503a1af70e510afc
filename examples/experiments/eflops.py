#!/usr/bin/python3
"""Experiment eflops: halving-doubling with EFLOPS rank mapping (hdrm, Dong et
al., HPCA 2020) on BiGraph against plain halving-doubling (hd) and ring allreduce, on BiGraph
and on a fat-tree with as many hosts.

    examples/experiments/eflops.py [--paramsync build/paramsync] [--results results]
                                   [--plots plots] [--jobs N] [--fluid-only]
                                   [--collect]
                                   [--emit=slurm|parallel]

Runs the grid below with the sweep runner (examples/sweep/sweep.py; resumable), writes
results/eflops/eflops.csv, and renders plots/eflops-*.png and results/eflops/steps.csv (the
per-step link collisions) with plots/eflops.py. How to run: examples/README-experiments.md; what it shows: results/README.md.

The grid:
  * fluid: bigraph:s=S,m=M for (S,M) = (2,2) (4,2) (4,4) (8,4) (8,8) (8 to 128 hosts) with
    hdrm, hd, ring and 2d-ring; fattree:k=4 (16 hosts, = bigraph s=4,m=2) and fattree:k=8
    (128 hosts, = bigraph s=8,m=8) with hd and ring; VGG-19 and ResNet-50; 40 and 100 Gb/s;
  * packet level (40 Gb/s, ResNet-50, every run keeps its transfers.csv under
    results/eflops/out/<hash>/): the same algorithms on bigraph s=4,m=2 and s=4,m=4 and on
    fattree:k=4, the fat-tree with ECMP seeds 1, 2, 3 (which flows collide on a hashed
    uplink depends on the hash salt).
Per-step link collisions come from the packet runs' transfers.csv: a transfer that moved b
bytes in t seconds on links of rate B shared its bottleneck with B t / (8 b) flows on average;
the step's figure is the largest over its transfers (1 = contention-free).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "eflops"
BIGRAPHS = ["bigraph:s=2,m=2", "bigraph:s=4,m=2", "bigraph:s=4,m=4", "bigraph:s=8,m=4",
            "bigraph:s=8,m=8"]
FAT_TREES = ["fattree:k=4", "fattree:k=8"]  # 16 and 128 hosts: bigraph (4,2) and (8,8)
BIGRAPH_ALGORITHMS = ["hdrm", "hd", "ring", "2d-ring"]
FAT_TREE_ALGORITHMS = ["hd", "ring"]
MODELS = ["vgg19", "resnet50"]
RATES = ["40Gbps", "100Gbps"]


def spec(fluid_only=False):
    fluid = {"backend": "fluid"}
    grids = [{"fixed": fluid, "topology": BIGRAPHS, "algorithm": BIGRAPH_ALGORITHMS,
              "model": MODELS, "rate": RATES},
             {"fixed": fluid, "topology": FAT_TREES, "algorithm": FAT_TREE_ALGORITHMS,
              "model": MODELS, "rate": RATES}]
    if not fluid_only:
        packet = {"backend": "packet", "rate": "40Gbps", "model": "resnet50",
                  "out": "{outdir}"}
        grids += [{"fixed": packet, "topology": ["bigraph:s=4,m=2", "bigraph:s=4,m=4"],
                   "algorithm": BIGRAPH_ALGORITHMS},
                  {"fixed": packet, "topology": "fattree:k=4",
                   "algorithm": FAT_TREE_ALGORITHMS, "seed": ["1", "2", "3"]}]
    return {"experiment": EXPERIMENT,
            "fixed": {"delay": "1us", "mtu": "4096", "cc": "none", "pfc": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(a.fluid_only), "eflops.py",
                                  __doc__, fluid_only=True))
