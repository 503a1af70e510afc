#!/usr/bin/python3
"""Experiment trees: forest packing (`trees`, Zhang, Wu, Li, INFOCOM'21) against
ring, PS and HiPS on heterogeneous bandwidth and under background flows.

    examples/experiments/trees.py [--paramsync build/paramsync] [--results results]
                                  [--plots plots] [--jobs N] [--fluid-only]
                                  [--collect]
                                  [--emit=slurm|parallel]

Runs the grid below with the sweep runner (examples/sweep/sweep.py; resumable), writes
results/trees/trees.csv and renders plots/trees-*.png with plots/trees.py. See
results/README.md for what the figures show. The grid names its input files
relative to the checkout: run emitted Slurm / GNU parallel jobs from the checkout's root.

Three 16-host networks: fattree:k=4, bcube:n=4,k=1 and torus:dims=4x4, 40 Gb/s, 1 us, one
32 MB gradient. Algorithms: trees, ring (natural order, one NIC), ring:order=topo,nics=all,
PS with one co-located server and with S = N co-located servers, and hips (BCube and torus
only: hips needs the family's host groups, which a topology file does not have).

  * random links (fluid): a fraction f = 0, 0.1, 0.2, 0.3, 0.5 of all links of the family,
    drawn at random (3 draws, fixed seeds), runs at 1/2 or 1/4 of the rate (--slow-link with
    the drawn link indices, --slow-link-fraction). The runs use the families themselves, so
    ring:order=topo,nics=all is the topology-ordered ring per NIC it names and hips runs
    too; results/trees/inputs.csv lists each draw's family, f, rate factor and link indices.
  * slow hosts (fluid, the families themselves, hips included): 0, 1, 2, 4 or 8 random
    hosts with every link at 1/2 or 1/4 of the rate (--slow-hosts, --slow-link-fraction).
  * packet level (ns-3, RoCEv2 + PFC, DCQCN off): the random links for f = 0 and f = 0.3
    at 1/4 rate (draw 0), and the families under background flows (--flows, HPCC format):
    0, 8 or 16 flows of 4 MB between random host pairs (priority 3, the sync job's own lane
    0), starting at random times in the first 2 ms.
  * larger networks, uniform links, fluid and packet level: BCube(4,2) and torus 8x8 (64
    hosts) and fattree:k=8 (128 hosts) with trees, ring, the ring per NIC and hips (not on
    the fat-tree); no PS there (one server's 127-to-1 incast is minutes of packet CPU and
    the 16-host runs already show it 6-32x slower).
"""
import csv
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "trees"
RATE_GBPS = 40
DELAY = "1us"
MODEL = "bytes:32MB"
FAMILIES = ["fattree:k=4", "bcube:n=4,k=1", "torus:dims=4x4"]  # 16 hosts each
HOSTS = 16
FRACTIONS = [0.1, 0.2, 0.3, 0.5]
RATE_FACTORS = [0.5, 0.25]
DRAWS = 3
SLOW_HOST_COUNTS = [1, 2, 4, 8]
PACKET_FRACTION = 0.3
FLOW_COUNTS = [0, 8, 16]
FLOW_BYTES = 4_000_000
FLOW_WINDOW_S = 0.002


LINKS = {"fattree:k=4": 48, "bcube:n=4,k=1": 32, "torus:dims=4x4": 32}  # the families' links
LARGE = ["bcube:n=4,k=2", "torus:dims=8x8", "fattree:k=8"]  # 64, 64 and 128 hosts


def algorithms(topology, ps=True):
    algs = ["trees", "ring", "ring:order=topo,nics=all"]
    if ps:
        algs += ["ps:servers=1,placement=colocated", f"ps:servers={HOSTS},placement=colocated"]
    if topology.startswith(("bcube", "torus")):
        algs.append("hips")
    return algs


def link_draws():
    """(family, f, rate factor, draw, slowed link indices); f = 0 once per family."""
    out = []
    for topo in FAMILIES:
        cases = [(0.0, 1.0, 0)] + [(f, r, d) for f in FRACTIONS for r in RATE_FACTORS
                                   for d in range(DRAWS)]
        for f, r, d in cases:
            # one seed per (family, f, draw): the 1/2 and 1/4 cases slow the same links
            rng = random.Random(f"{topo}/{f}/{d}")
            slow = sorted(rng.sample(range(LINKS[topo]), round(f * LINKS[topo])))
            out.append((topo, f, r, d, slow))
    return out


def make_inputs(results):
    """Writes the flow files and the manifest of link draws; returns (inputs dir, draws)."""
    inputs = os.path.join(results, EXPERIMENT, "inputs")
    os.makedirs(inputs, exist_ok=True)
    draws = link_draws()
    rows = [{"kind": "links", "file": "", "family": topo, "fraction": f, "rate_factor": r,
             "draw": d, "slowed": len(slow), "links": LINKS[topo],
             "slow_link": ",".join(map(str, slow))} for topo, f, r, d, slow in draws]
    for count in FLOW_COUNTS[1:]:
        rng = random.Random(f"flows/{count}")
        flows = []
        for _ in range(count):
            src, dst = rng.sample(range(HOSTS), 2)
            flows.append((rng.uniform(0, FLOW_WINDOW_S), src, dst))
        flows.sort()
        name = f"flows-{count}.txt"
        text = f"{count}\n" + "".join(f"{s} {t} 3 100 {FLOW_BYTES} {start:.6f}\n"
                                      for start, s, t in flows)
        path = os.path.join(inputs, name)
        if not os.path.exists(path) or open(path).read() != text:
            sweep.write_atomic(path, text)
        rows.append({"kind": "flows", "file": name, "family": "", "fraction": "",
                     "rate_factor": "", "draw": "", "slowed": count, "links": "",
                     "slow_link": ""})
    with open(os.path.join(results, EXPERIMENT, "inputs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return inputs, draws


def rel(path):
    """Paths inside the checkout are given relative to it (the sweep runs from ROOT)."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


def link_grid(fixed, topo, f, r, slow):
    grid = {"fixed": dict(fixed), "topology": topo, "algorithm": algorithms(topo)}
    if slow:
        grid["fixed"].update({"slow-link": ",".join(map(str, slow)),
                              "slow-link-fraction": str(r)})
    return grid


def spec(inputs, draws, fluid_only=False):
    grids = []
    fluid = {"backend": "fluid"}
    for topo, f, r, d, slow in draws:
        grids.append(link_grid(fluid, topo, f, r, slow))
    for topo in FAMILIES:
        for count in SLOW_HOST_COUNTS:
            for d in range(DRAWS):
                rng = random.Random(f"{topo}/hosts/{count}/{d}")
                slow = ",".join(map(str, sorted(rng.sample(range(HOSTS), count))))
                grids.append({"fixed": fluid, "topology": topo, "slow-hosts": slow,
                              "slow-link-fraction": [str(r) for r in RATE_FACTORS],
                              "algorithm": algorithms(topo)})
    for backend in (["fluid"] if fluid_only else ["fluid", "packet"]):
        for topo in LARGE:
            grids.append({"fixed": {"backend": backend}, "topology": topo,
                          "algorithm": algorithms(topo, ps=False)})
    if not fluid_only:
        packet = {"backend": "packet"}
        for topo, f, r, d, slow in draws:
            if d == 0 and r in (1.0, 0.25) and f in (0.0, PACKET_FRACTION):
                grids.append(link_grid(packet, topo, f, r, slow))
        for topo in FAMILIES:
            for count in FLOW_COUNTS[1:]:
                grids.append({"fixed": dict(packet, out="{outdir}"), "topology": topo,
                              "algorithm": algorithms(topo),
                              "flows": rel(os.path.join(inputs, f"flows-{count}.txt"))})
    return {"experiment": EXPERIMENT,
            "fixed": {"rate": f"{RATE_GBPS}Gbps", "delay": DELAY, "mtu": "4096",
                      "cc": "none", "pfc": "1", "model": MODEL},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(
        EXPERIMENT, lambda a: spec(*make_inputs(a.results), a.fluid_only), "trees.py", __doc__,
        fluid_only=True))
