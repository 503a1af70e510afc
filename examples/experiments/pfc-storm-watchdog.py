#!/usr/bin/python3
"""Experiment pfc-storm, part 2: a NIC that floods PFC pause frames, how far its
pauses spread to flows that never touch it, and what a PFC watchdog changes.

    examples/experiments/pfc-storm-watchdog.py [--paramsync build/paramsync]
                                               [--results results] [--plots plots]
                                               [--jobs N] [--collect] [--emit=slurm|parallel]

Same command line as pfc-storm.py (part 1; sweep.run_experiment). Writes the flow files to
results/pfc-storm-watchdog/inputs/, runs the grid below with the sweep runner (resumable),
writes results/pfc-storm-watchdog/pfc-storm-watchdog.csv, flows.csv (every flow's FCT) and
ports.csv (per-port pauses, from each run's pfc.csv), and renders
plots/pfc-storm-watchdog*.png with plots/pfc-storm-watchdog.py. See
results/README.md for what the figures show.

The grid (packet level: ns-3, RoCEv2 + PFC, no CC, 40 Gb/s, 4 MB shared buffer per switch
and relaying host, go-back-N with the driver's automatic RTO, every run's pfc.csv and
flows.csv kept under results/pfc-storm-watchdog/out/<hash>/), on fattree:k=4,
bcube:n=4,k=1 and torus:dims=4x4 (16 hosts each); host 8's NIC floods pause frames from
0.5 ms for 2 ms, 10 ms or without end (the run then stops at --stop=50ms, exit 3), or not
at all; the PFC watchdog off or detecting after 100 us, 500 us or 2 ms (restore = detect):
  * victims: --algorithm=none with flows only: one 20 MB flow from host 5 into host 8 from
    0 s (the traffic the storm traps; one flow, so that without a storm there is no incast
    and the pauses beyond the victims' own are the storm's) and fourteen 10 MB victim flows
    from 1 ms between the other fourteen hosts, on routes that neither start, end nor relay
    at host 8 (checked against each family's routing, topologies/README.md);
  * sync: one 16 MB allreduce over all 16 hosts (host 8 included) with ring and mesh, and
    hips on BCube and the torus.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("pfc_storm", os.path.join(HERE, "pfc-storm.py"))
pfc_storm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pfc_storm)
sweep = pfc_storm.sweep

EXPERIMENT = "pfc-storm-watchdog"
FAMILIES = pfc_storm.FAMILIES  # fattree:k=4, bcube:n=4,k=1, torus:dims=4x4
HOSTS = 16
STORM_HOST = 8
STORM_START = "0.5ms"
STORMS = ["", f"{STORM_HOST}@{STORM_START}+2ms", f"{STORM_HOST}@{STORM_START}+10ms",
          f"{STORM_HOST}@{STORM_START}"]
WATCHDOGS = ["0", "100us", "500us", "2ms"]
TRAPPED_SENDERS = [5]
TRAPPED_BYTES = 20_000_000
VICTIM_BYTES = 10_000_000
VICTIM_START_S = 0.001
SYNC_MODEL = "bytes:16MB"


def relays(topology, src, dst):
    """Every host a route src -> dst may pass through, ends included (equal-cost routes as
    topologies/README.md describes them: BCube digit correction in any order, a torus
    dimension-ordered both ways round on a tie; a fat-tree relays at no host)."""
    on = {src, dst}
    if topology.startswith("bcube"):  # n=4, k=1: rank = 4 a1 + a0; one relay per order
        if src // 4 != dst // 4 and src % 4 != dst % 4:
            on |= {src // 4 * 4 + dst % 4, dst // 4 * 4 + src % 4}
    elif topology.startswith("torus"):  # 4x4: rank = 4 c0 + c1, dimension 0 first
        (a, b), (c, d) = divmod(src, 4), divmod(dst, 4)

        def walk(start, end):  # positions on a ring of 4 along the shorter way(s)
            fwd, back = (end - start) % 4, (start - end) % 4
            ways = []
            if fwd <= back:
                ways.append([(start + i) % 4 for i in range(fwd + 1)])
            if back <= fwd:
                ways.append([(start - i) % 4 for i in range(back + 1)])
            return {p for w in ways for p in w}
        on |= {4 * r + b for r in walk(a, c)} | {4 * c + col for col in walk(b, d)}
    return on


def victim_flows(topology):
    """(src, dst) pairs: each host that neither is host 8 nor sends to it sends one flow to
    another such host, every one receiving one flow, on routes that avoid host 8; the first
    such assignment (depth first) preferring destinations half-way round the list of hosts,
    so that flows cross the network."""
    hosts = [h for h in range(HOSTS) if h != STORM_HOST and h not in TRAPPED_SENDERS]
    half = len(hosts) // 2

    def assign(i, taken):
        if i == len(hosts):
            return []
        for shift in range(half, half + len(hosts)):
            dst = hosts[(i + shift) % len(hosts)]
            if dst != hosts[i] and dst not in taken and \
                    STORM_HOST not in relays(topology, hosts[i], dst):
                rest = assign(i + 1, taken | {dst})
                if rest is not None:
                    return [(hosts[i], dst)] + rest
        return None
    pairs = assign(0, frozenset())
    if pairs is None:
        raise SystemExit(f"{EXPERIMENT}: no victim flows avoid host {STORM_HOST} on {topology}")
    return pairs


def flows_file(results, topology):
    return os.path.join(results, EXPERIMENT, "inputs",
                        f"flows-{topology.split(':')[0]}.txt")


def write_inputs(results):
    """The HPCC flow file of each family: trapped flows first, then the victims."""
    os.makedirs(os.path.join(results, EXPERIMENT, "inputs"), exist_ok=True)
    for topo in FAMILIES:
        lines = [f"{s} {STORM_HOST} 3 100 {TRAPPED_BYTES} 0" for s in TRAPPED_SENDERS]
        lines += [f"{s} {d} 3 100 {VICTIM_BYTES} {VICTIM_START_S}"
                  for s, d in victim_flows(topo)]
        text = f"{len(lines)}\n" + "\n".join(lines) + "\n"
        path = flows_file(results, topo)
        if not os.path.exists(path) or open(path).read() != text:
            sweep.write_atomic(path, text)


def rel(path):
    """Paths inside the checkout are given relative to it (the sweep runs from the root)."""
    path = os.path.abspath(path)
    return os.path.relpath(path, pfc_storm.ROOT) \
        if path.startswith(pfc_storm.ROOT + os.sep) else path


def algorithms(topology):
    return ["ring", "mesh"] + (["hips"] if topology.startswith(("bcube", "torus")) else [])


def spec(results):
    grids = []
    for topo in FAMILIES:
        grids.append({"topology": topo, "algorithm": "none",
                      "flows": rel(flows_file(results, topo)),
                      "pause-storm": STORMS, "pfc-watchdog": WATCHDOGS})
        grids.append({"topology": topo, "algorithm": algorithms(topo), "model": SYNC_MODEL,
                      "pause-storm": STORMS, "pfc-watchdog": WATCHDOGS})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "mtu": "4096",
                      "cc": "none", "pfc": "1", "buffer": "4MB", "stop": "50ms",
                      "out": "{outdir}"},
            "grids": grids}


def prepared_spec(args):
    """The grid, after writing the flow files it names."""
    write_inputs(args.results)
    return spec(args.results)


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, prepared_spec, "pfc-storm-watchdog.py", __doc__))
