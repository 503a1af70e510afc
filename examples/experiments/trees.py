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

  * random links (fluid): a fraction f = 0, 0.1, 0.2, 0.3, 0.5 of all links, drawn at
    random (3 draws, fixed seeds), runs at 1/2 or 1/4 of the rate. The driver slows one link
    (--slow-link) or every link of some hosts (--slow-hosts), not a random set, so each
    draw is a native topology file written here from the family's structure (hosts in the
    family's rank order, so ranks and rings match the family): results/trees/inputs/, and
    results/trees/inputs.csv lists each file's family, f, rate factor, draw and slowed links.
    hips cannot run on these files.
  * slow hosts (fluid, the families themselves, hips included): 0, 1, 2, 4 or 8 random
    hosts with every link at 1/2 or 1/4 of the rate (--slow-hosts, --slow-link-fraction).
  * packet level (ns-3, RoCEv2 + PFC, DCQCN off): the random-link files for f = 0 and
    f = 0.3 at 1/4 rate (draw 0), and the families under background flows (--flows, HPCC
    format): 0, 8 or 16 flows of 4 MB between random host pairs (priority 3, the sync
    job's own lane 0), starting at random times in the first 2 ms.
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


def algorithms(topology):
    algs = ["trees", "ring", "ring:order=topo,nics=all", "ps:servers=1,placement=colocated",
            f"ps:servers={HOSTS},placement=colocated"]
    if topology.startswith(("bcube", "torus")):
        algs.append("hips")
    return algs


# --- the families' structure, as topologies/README.md documents it --------------------------

def fattree_links(k):
    """(hosts, switches, links) of fattree:k=K: hosts pod-major, then edge, agg, core."""
    h = k // 2
    hosts = [f"h{r}" for r in range(k * k * k // 4)]
    edge = [[f"e{p}_{e}" for e in range(k // 2)] for p in range(k)]
    agg = [[f"a{p}_{a}" for a in range(k // 2)] for p in range(k)]
    core = [f"c{c}" for c in range(k * k // 4)]
    links = []
    for p in range(k):
        for e in range(k // 2):
            for i in range(h):
                links.append((hosts[(p * k // 2 + e) * h + i], edge[p][e]))
    for p in range(k):
        for e in range(k // 2):
            for a in range(k // 2):
                links.append((edge[p][e], agg[p][a]))
    for p in range(k):
        for a in range(k // 2):
            for j in range(k // 2):
                links.append((agg[p][a], core[a * k // 2 + j]))
    switches = [s for pod in edge for s in pod] + [s for pod in agg for s in pod] + core
    return hosts, switches, links


def bcube_links(n, k):
    """BCube(n,k): server rank = digits base n; level-l switch = the address without digit l."""
    count = n ** (k + 1)
    hosts = [f"h{r}" for r in range(count)]
    switches, links = [], []
    for level in range(k + 1):
        switches += [f"s{level}_{s}" for s in range(n ** k)]
    for r in range(count):
        for level in range(k + 1):
            low = r % (n ** level)
            high = r // (n ** (level + 1))
            links.append((hosts[r], f"s{level}_{high * n ** level + low}"))
    return hosts, switches, links


def torus_links(sides):
    """2-D torus, row-major ranks; each server cabled to its + neighbour in every dimension."""
    a, b = sides
    hosts = [f"h{r}" for r in range(a * b)]
    links = []
    for r in range(a * b):
        x, y = divmod(r, b)
        links.append((hosts[r], hosts[((x + 1) % a) * b + y]))
        links.append((hosts[r], hosts[x * b + (y + 1) % b]))
    return hosts, [], links


def family_links(topology):
    fam, _, args = topology.partition(":")
    kv = dict(a.split("=") for a in args.split(","))
    if fam == "fattree":
        return fattree_links(int(kv["k"]))
    if fam == "bcube":
        return bcube_links(int(kv["n"]), int(kv["k"]))
    if fam == "torus":
        return torus_links([int(s) for s in kv["dims"].split("x")])
    raise ValueError(topology)


def short(topology):
    return topology.replace(":", "-").replace(",", "").replace("=", "")


def write_native(path, hosts, switches, links, slow, factor):
    """A native topology file (topologies/README.md); links in `slow` at factor x the rate."""
    lines = [f"# {os.path.basename(path)}: {len(slow)} of {len(links)} links at "
             f"{factor:g} x {RATE_GBPS} Gb/s (examples/experiments/trees.py)"]
    lines += [f"host {h}" for h in hosts] + [f"switch {s}" for s in switches]
    for i, (a, b) in enumerate(links):
        rate = RATE_GBPS * (factor if i in slow else 1)
        lines.append(f"link {a} {b} {rate:g}Gbps {DELAY}")
    text = "\n".join(lines) + "\n"
    old = open(path).read() if os.path.exists(path) else None
    if old != text:  # rewriting identical files would not change a run, but keeps mtimes
        sweep.write_atomic(path, text)


def make_inputs(results):
    """Writes the random-link topology files and flow files; returns their manifest rows."""
    inputs = os.path.join(results, EXPERIMENT, "inputs")
    os.makedirs(inputs, exist_ok=True)
    rows = []
    for topo in FAMILIES:
        hosts, switches, links = family_links(topo)
        cases = [(0.0, 1.0, 0)] + [(f, r, d) for f in FRACTIONS for r in RATE_FACTORS
                                   for d in range(DRAWS)]
        for f, r, d in cases:
            # one seed per (family, f, draw): the 1/2 and 1/4 cases slow the same links
            rng = random.Random(f"{topo}/{f}/{d}")
            slow = set(rng.sample(range(len(links)), round(f * len(links))))
            name = f"{short(topo)}_f{f:.2f}_r{r:.2f}_d{d}.txt"
            write_native(os.path.join(inputs, name), hosts, switches, links, slow, r)
            rows.append({"kind": "links", "file": name, "family": topo, "fraction": f,
                         "rate_factor": r, "draw": d, "slowed": len(slow),
                         "links": len(links)})
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
                     "rate_factor": "", "draw": "", "slowed": count, "links": ""})
    with open(os.path.join(results, EXPERIMENT, "inputs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return inputs, rows


def rel(path):
    """Paths inside the checkout are given relative to it (the sweep runs from ROOT)."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


def spec(inputs, manifest, fluid_only=False):
    grids = []
    fluid = {"backend": "fluid"}
    for row in manifest:
        if row["kind"] != "links":
            continue
        topo = f"file:{rel(os.path.join(inputs, row['file']))}"
        grids.append({"fixed": fluid, "topology": topo,
                      "algorithm": algorithms(row["family"])[:5]})
    for topo in FAMILIES:
        for count in SLOW_HOST_COUNTS:
            for d in range(DRAWS):
                rng = random.Random(f"{topo}/hosts/{count}/{d}")
                slow = ",".join(map(str, sorted(rng.sample(range(HOSTS), count))))
                grids.append({"fixed": fluid, "topology": topo, "slow-hosts": slow,
                              "slow-link-fraction": [str(r) for r in RATE_FACTORS],
                              "algorithm": algorithms(topo)})
        grids.append({"fixed": fluid, "topology": topo, "algorithm": algorithms(topo)})
    if not fluid_only:
        packet = {"backend": "packet"}
        for row in manifest:
            if row["kind"] == "links" and row["draw"] == 0 and row["rate_factor"] in (
                    1.0, 0.25) and row["fraction"] in (0.0, PACKET_FRACTION):
                topo = f"file:{rel(os.path.join(inputs, row['file']))}"
                grids.append({"fixed": packet, "topology": topo,
                              "algorithm": algorithms(row["family"])[:5]})
        for topo in FAMILIES:
            grids.append({"fixed": packet, "topology": topo, "algorithm": algorithms(topo)})
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
