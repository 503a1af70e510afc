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
    uplink depends on the hash salt); at 64 and 128 hosts bigraph s=4,m=8 and s=8,m=8
    (hdrm, hd, 2d-ring; the ring's 127 hops are left out for CPU) and fattree:k=8 (hd and
    ring, seed 1), with a 25 MB gradient instead of ResNet-50's 102 MB (the GST over the
    bound does not depend on W in the fluid model; 1/4 of the packet CPU);
  * the server model (topologies/server-topology.h): 32 GPUs in 4 servers of 8, PCIe 3.0
    x16 (126 Gb/s) inside, 100 Gb/s NICs on a non-blocking switch, so only the servers
    differ: the EFLOPS server (server:gpus=8,nics=8: a NIC per GPU, no shared PCIe path)
    against conventional servers with one or two NICs behind a shared PCIe path (nics=1,
    nics=2); ring, hd, 2d-ring (a server's GPUs, then one ring per GPU slot across the
    servers) and mesh, ResNet-50, fluid and packet level; plus the EFLOPS server on the
    BiGraph (server:gpus=8,nics=8/bigraph:s=4,m=4).
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
LARGE_BIGRAPHS = ["bigraph:s=4,m=8", "bigraph:s=8,m=8"]  # 64 and 128 hosts
LARGE_MODEL = "bytes:25MB"
SERVERS = ["server:gpus=8,nics=8/star:n=32", "server:gpus=8,nics=2/star:n=8",
           "server:gpus=8,nics=1/star:n=4", "server:gpus=8,nics=8/bigraph:s=4,m=4"]
SERVER_ALGORITHMS = ["ring", "hd", "2d-ring", "mesh"]


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
    large = {"rate": "40Gbps", "model": LARGE_MODEL, "out": "{outdir}"}
    for backend in (["fluid"] if fluid_only else ["fluid", "packet"]):
        grids += [{"fixed": dict(large, backend=backend), "topology": LARGE_BIGRAPHS,
                   "algorithm": ["hdrm", "hd", "2d-ring"]},
                  {"fixed": dict(large, backend=backend), "topology": "fattree:k=8",
                   "algorithm": FAT_TREE_ALGORITHMS}]
        grids.append({"fixed": {"backend": backend, "rate": "100Gbps", "model": "resnet50"},
                      "topology": SERVERS, "algorithm": SERVER_ALGORITHMS})
    return {"experiment": EXPERIMENT,
            "fixed": {"delay": "1us", "mtu": "4096", "cc": "none", "pfc": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(a.fluid_only), "eflops.py",
                                  __doc__, fluid_only=True))
