#!/usr/bin/python3
"""Experiment pfc-storm, part 1: PFC pause frames, paused time and pause cascade
depth of PS incast, mesh, ring and hips on a fat-tree, BCube and a torus of 16 and of 54-64
hosts, a per-port pause heatmap, and a PFC deadlock the driver finds.

    examples/experiments/pfc-storm.py [--paramsync build/paramsync] [--results results]
                                      [--plots plots] [--jobs N] [--collect]
                                      [--emit=slurm|parallel]

Runs the grid below with the sweep runner (examples/sweep/sweep.py; resumable), writes
results/pfc-storm/pfc-storm.csv, results/pfc-storm/ports.csv (every run's per-port pauses,
from each run's pfc.csv) and renders plots/pfc-storm-*.png with plots/pfc-storm.py. See
results/README.md for what the figures show.

The grid (packet level: ns-3, RoCEv2 + PFC, DCQCN off, 40 Gb/s, one 32 MB gradient; every
run keeps its pfc.csv under results/pfc-storm/out/<hash>/):
  * fattree:k=4, bcube:n=4,k=1 and torus:dims=4x4 (16 hosts each) with
    ps:servers=1,placement=colocated (a 15-to-1 incast and back), mesh, ring and hips
    (BCube and torus: hips needs the family's host groups); shared buffer per switch and
    relaying host 32 MB (the default), 4 MB and 1 MB (PFC thresholds scale with it);
  * the same on fattree:k=6 (54 hosts), bcube:n=4,k=2 and torus:dims=8x8 (64 hosts) with
    32 MB and 2 MB buffers (a k=6 switch's PFC headroom alone is 1.1 MB);
  * deadlock: mesh of 64 MB with 1 MB buffers on ring:n=8 and torus:dims=4x4 with the
    deadlock-avoiding lanes off (deadlockfree=0: the run stops with exit 3 and names the
    cycle of paused ports) and on (deadlockfree=1: it completes).
Storm injection (a NIC that keeps sending pauses) and the PFC watchdog are part 2,
examples/experiments/pfc-storm-watchdog.py, which reuses this script's command line.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "pfc-storm"
FAMILIES = ["fattree:k=4", "bcube:n=4,k=1", "torus:dims=4x4"]
BUFFERS = ["32MB", "4MB", "1MB"]
# 54 and 64 hosts; a k=6 fat-tree switch needs 1.1 MB of PFC headroom, so 2 MB at least
LARGE = ["fattree:k=6", "bcube:n=4,k=2", "torus:dims=8x8"]
LARGE_BUFFERS = ["32MB", "2MB"]
DEADLOCK_TOPOLOGIES = ["ring:n=8", "torus:dims=4x4"]


def algorithms(topology):
    algs = ["ps:servers=1,placement=colocated", "mesh", "ring"]
    if topology.startswith(("bcube", "torus")):
        algs.append("hips")
    return algs


def spec():
    grids = [{"topology": topo, "algorithm": algorithms(topo), "buffer": BUFFERS}
             for topo in FAMILIES]
    grids += [{"topology": topo, "algorithm": algorithms(topo), "buffer": LARGE_BUFFERS}
              for topo in LARGE]
    grids.append({"topology": [f"{t},deadlockfree={d}" for t in DEADLOCK_TOPOLOGIES
                               for d in (0, 1)],
                  "algorithm": "mesh", "fixed": {"model": "bytes:64MB", "buffer": "1MB"}})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "mtu": "4096",
                      "cc": "none", "pfc": "1", "model": "bytes:32MB", "out": "{outdir}"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(), "pfc-storm.py", __doc__))
