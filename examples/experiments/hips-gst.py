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
    VGG-16, VGG-19, MNIST MLP and a 64 MB gradient; 10 / 25 / 40 / 100 Gb/s;
    hips (rotate=1,bidir=1, the default) and its ablation rotate x bidir (0/1 x 0/1: rotate
    spreads the levels over the NICs, bidir turns half of every ring group the other way),
    ring (natural order, one NIC), mesh, PS with one co-located server (every algorithm has
    the same N workers), and ring:order=topo,nics=all (one ring per NIC: the ring that uses
    the ports hips uses). PS with S = N co-located servers is left out: it moves exactly
    mesh's traffic and gave mesh's GST to 6 digits (fluid and packet) when it ran;
    ring and mesh on fattree:k=4 (16 hosts, the only full fat-tree with as many hosts as one
    of the server-centric networks: BCube(4,1), torus 4x4) and on star:n=N (one non-blocking
    switch: the full-bisection bound a fat-tree of any size can at best reach);
  * packet level (ns-3, RoCEv2 + PFC, DCQCN off): BCube(3,1), tori 3x3 and 4x4 and
    fattree:k=4 at 40 Gb/s with a 64 MB gradient (VGG-19's 575 MB would cost 9x the CPU; the
    ideal reductions do not depend on the size) and the MNIST MLP, each beside its ideal
    GST (the hips ablation with 64 MB only), and the MNIST MLP on the three server-centric
    networks at 10, 25 and 100 Gb/s too.
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
MODELS = ["vgg16", "vgg19", "mnist-mlp", "bytes:64MB"]
RATES = ["10Gbps", "25Gbps", "40Gbps", "100Gbps"]
PACKET_TOPOLOGIES = [("bcube:n=3,k=1", 9), ("torus:dims=3x3", 9), ("torus:dims=4x4", 16)]
# packet level: one 64 MB gradient (the size the ablation was first measured at) instead of
# VGG-19's 575 MB, 1/9 of the packet CPU; the fluid reductions do not depend on the size
PACKET_MODELS = ["bytes:64MB", "mnist-mlp"]
# hips' ablation: the default (rotate=1,bidir=1) runs as "hips"; on BCube bidir changes nothing
ABLATION = ["hips:rotate=0,bidir=0", "hips:rotate=0,bidir=1", "hips:rotate=1,bidir=0"]
TESTBED = [("ring:n=9", "ring"), ("star:n=9", "mesh")]  # the testbed band's baselines
SMALL_MODEL_RATES = ["10Gbps", "25Gbps", "100Gbps"]  # MNIST MLP packet runs beside 40 Gb/s


def algorithms(ablation=True):
    """hips, its baselines and (ablation) hips' rotate x bidir variants on one network."""
    algs = ["hips", "ring", "mesh", "ps:servers=1,placement=colocated",
            "ring:order=topo,nics=all"]
    return algs + ABLATION if ablation else algs


def spec(fluid_only=False):
    grids = []
    for topo, _ in SERVER_CENTRIC:
        grids.append({"fixed": {"backend": "fluid"}, "topology": topo,
                      "algorithm": algorithms(), "model": MODELS, "rate": RATES})
    for topo, alg in TESTBED:
        grids.append({"fixed": {"backend": "fluid"}, "topology": topo, "algorithm": alg,
                      "model": MODELS, "rate": RATES})
    for topo, _ in FAT_TREES:
        grids.append({"fixed": {"backend": "fluid"}, "topology": topo,
                      "algorithm": ["ring", "mesh"], "model": MODELS, "rate": RATES})
    stars = sorted({hosts for _, hosts in SERVER_CENTRIC})
    grids.append({"fixed": {"backend": "fluid"}, "topology": [f"star:n={n}" for n in stars],
                  "algorithm": ["ring", "mesh"], "model": MODELS, "rate": RATES})
    if not fluid_only:
        for topo, _ in PACKET_TOPOLOGIES:
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps"}, "topology": topo,
                          "algorithm": algorithms(False), "model": PACKET_MODELS})
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps",
                                    "model": "bytes:64MB"},
                          "topology": topo, "algorithm": ABLATION})
        for topo, alg in TESTBED:
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps"}, "topology": topo,
                          "algorithm": alg, "model": PACKET_MODELS})
        for topo, _ in FAT_TREES:
            grids.append({"fixed": {"backend": "packet", "rate": "40Gbps"}, "topology": topo,
                          "algorithm": ["ring", "mesh"], "model": PACKET_MODELS})
        # the small model at every rate: latency terms that do not scale with W/B
        for topo, _ in PACKET_TOPOLOGIES:
            grids.append({"fixed": {"backend": "packet", "model": "mnist-mlp"},
                          "topology": topo, "algorithm": algorithms(False),
                          "rate": SMALL_MODEL_RATES})
    return {"experiment": EXPERIMENT, "fixed": {"delay": "1us", "mtu": "4096", "cc": "none",
                                                "pfc": "1"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(a.fluid_only), "hips-gst.py",
                                  __doc__, fluid_only=True))
