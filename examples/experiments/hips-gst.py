#!/usr/bin/python3
"""Experiment hips-gst: HiPS (Geng et al., NetAI'18) against ring, mesh and PS.

    examples/experiments/hips-gst.py [--paramsync build/paramsync] [--results results]
                                     [--plots plots] [--jobs N] [--fluid-only]
                                     [--collect]
                                     [--emit=slurm|parallel]

Runs the grid below with the sweep runner (examples/sweep/sweep.py; resumable: a rerun skips
finished runs), writes results/hips-gst/hips-gst.csv and renders plots/hips-gst-*.png with
plots/hips-gst.py. See results/README.md for what the figures show.

The grid:
  * fluid (flow-level estimator, the "ideal GST"), every combination of
    BCube(3,1) (3,2) (4,1) (4,2), tori 3x3 .. 8x8, 3-D tori 3x3x3 and 4x4x4;
    VGG-16, VGG-19, MNIST MLP; 10 / 25 / 40 / 100 Gb/s;
    hips, ring (natural order, one NIC), mesh, PS with one server and PS with S = N servers
    (both co-located, so every algorithm has the same N workers), and ring:order=topo,nics=all
    (one ring per NIC: the ring that uses the ports hips uses);
    ring and mesh on fattree:k=4 (16 hosts, the only full fat-tree with as many hosts as one
    of the server-centric networks: BCube(4,1), torus 4x4) and on star:n=N (one non-blocking
    switch: the full-bisection bound a fat-tree of any size can at best reach);
  * packet level (ns-3, RoCEv2 + PFC, DCQCN off): BCube(3,1), tori 3x3 and 4x4 and
    fattree:k=4 at 40 Gb/s with VGG-19 and the MNIST MLP, each beside its ideal GST, and the
    MNIST MLP on the three server-centric networks at 10, 25 and 100 Gb/s too.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "hips-gst"
SERVER_CENTRIC = [  # (spec, hosts)
    ("bcube:n=3,k=1", 9), ("bcube:n=3,k=2", 27), ("bcube:n=4,k=1", 16), ("bcube:n=4,k=2", 64),
    ("torus:dims=3x3", 9), ("torus:dims=4x4", 16), ("torus:dims=5x5", 25),
    ("torus:dims=6x6", 36), ("torus:dims=7x7", 49), ("torus:dims=8x8", 64),
    ("torus:dims=3x3x3", 27), ("torus:dims=4x4x4", 64),
]
FAT_TREES = [("fattree:k=4", 16)]  # O k^3/4 hosts: 16, 54, 128, ... (O = 1)
MODELS = ["vgg16", "vgg19", "mnist-mlp"]
RATES = ["10Gbps", "25Gbps", "40Gbps", "100Gbps"]
PACKET_TOPOLOGIES = [("bcube:n=3,k=1", 9), ("torus:dims=3x3", 9), ("torus:dims=4x4", 16)]
PACKET_MODELS = ["vgg19", "mnist-mlp"]
SMALL_MODEL_RATES = ["10Gbps", "25Gbps", "100Gbps"]  # MNIST MLP packet runs beside 40 Gb/s


def algorithms(hosts):
    """hips and its baselines on a network of `hosts` servers (every host a worker)."""
    return ["hips", "ring", "mesh", "ps:servers=1,placement=colocated",
            f"ps:servers={hosts},placement=colocated", "ring:order=topo,nics=all"]


def spec(fluid_only=False):
    grids = []
    for topo, hosts in SERVER_CENTRIC:
        grids.append({"fixed": {"backend": "fluid"}, "topology": topo,
                      "algorithm": algorithms(hosts), "model": MODELS, "rate": RATES})
    for topo, _ in FAT_TREES:
        grids.append({"fixed": {"backend": "fluid"}, "topology": topo,
                      "algorithm": ["ring", "mesh"], "model": MODELS, "rate": RATES})
    stars = sorted({hosts for _, hosts in SERVER_CENTRIC})
    grids.append({"fixed": {"backend": "fluid"}, "topology": [f"star:n={n}" for n in stars],
                  "algorithm": ["ring", "mesh"], "model": MODELS, "rate": RATES})
    if not fluid_only:
        for topo, hosts in PACKET_TOPOLOGIES:
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps"}, "topology": topo,
                          "algorithm": algorithms(hosts), "model": PACKET_MODELS})
        for topo, _ in FAT_TREES:
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps"}, "topology": topo,
                          "algorithm": ["ring", "mesh"], "model": PACKET_MODELS})
        # the small model at every rate: latency terms that do not scale with W/B
        for topo, hosts in PACKET_TOPOLOGIES:
            grids.append({"fixed": {"backend": "packet", "model": "mnist-mlp"},
                          "topology": topo, "algorithm": algorithms(hosts),
                          "rate": SMALL_MODEL_RATES})
    return {"experiment": EXPERIMENT, "fixed": {"delay": "1us", "mtu": "4096", "cc": "none",
                                                "pfc": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(a.fluid_only), "hips-gst.py",
                                  __doc__, fluid_only=True))
