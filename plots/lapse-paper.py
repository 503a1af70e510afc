#!/usr/bin/python3
"""plots/lapse-paper.png from results/lapse-paper/lapse-paper.csv: epoch time and remote
accesses of classic static allocation, dynamic allocation (Lapse) and bounded staleness
(SSP, client- and server-side sync) per cluster size under lapse:preset=paper, for RESCAL
knowledge-graph embeddings (kge) and word vectors (wv), with one node as reference; a table
on stdout.

    /usr/bin/python3 plots/lapse-paper.py [results/lapse-paper/lapse-paper.csv] [plots]
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SYSTEMS = ["classic", "dynamic (Lapse)", "SSP, client sync", "SSP, server sync"]
COLOURS = {"classic": "tab:gray", "dynamic (Lapse)": "tab:blue",
           "SSP, client sync": "tab:orange", "SSP, server sync": "tab:green"}
WORKLOADS = {"kge": "RESCAL knowledge-graph embeddings (d = 100)",
             "wv": "word vectors, skip-gram + 5 negatives (d = 100)"}


def options(canonical):
    """The key=value options of a canonical lapse spec."""
    return dict(kv.split("=", 1) for kv in canonical.split(":", 1)[1].split(","))


def system(o):
    if o["mode"] == "dynamic":
        return "dynamic (Lapse)"
    if o["mode"] == "ssp":
        return f"SSP, {o['sync']} sync"
    return "classic"


def load(src):
    """{(workload, system): {nodes: metrics}}"""
    data = {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            if r["exit_code"] != "0":
                continue
            o = options(r["out_algorithm"])
            data.setdefault((o["workload"], system(o)), {})[int(o["nodes"])] = \
                json.loads(r["lapse"])
    return data


def one_node(data, w):
    """The one-node epoch (every access local: the same for every system)."""
    d = data.get((w, "classic"), {})
    return d[1]["epoch_s"] if 1 in d else float("nan")


def table(data):
    print("| workload | system | nodes x 4 | epoch (ms) | speed-up over 1 node | "
          "remote fraction | messages | PS GB | Lapse faster by |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for w in WORKLOADS:
        one = one_node(data, w)
        for s in SYSTEMS:
            for n, m in sorted(data.get((w, s), {}).items()):
                dyn = data.get((w, "dynamic (Lapse)"), {}).get(n)
                by = m["epoch_s"] / dyn["epoch_s"] if dyn else float("nan")
                print(f"| {w} | {s} | {n} | {m['epoch_s'] * 1e3:.2f} | "
                      f"{one / m['epoch_s']:.2f}x | {m['remote_fraction']:.2f} | "
                      f"{m['messages']} | {m['ps_bytes'] / 1e9:.3f} | {by:.1f}x |")


def plot(data, out):
    fig, axes = plt.subplots(2, 2, figsize=(11.5, 7.5))
    for row, w in enumerate(WORKLOADS):
        a, b = axes[row]
        one = one_node(data, w)
        for s in SYSTEMS:
            d = {n: m for n, m in data.get((w, s), {}).items() if n > 1}
            if not d:
                continue
            nodes = sorted(d)
            a.plot(nodes, [d[n]["epoch_s"] * 1e3 for n in nodes], "o-", color=COLOURS[s],
                   label=s)
            b.plot(nodes, [d[n]["remote_fraction"] for n in nodes], "o-", color=COLOURS[s],
                   label=s)
        a.axhline(one * 1e3, color="black", linestyle="--", linewidth=1,
                  label="one node (all local)")
        a.set_ylabel("epoch time (ms)")
        a.set_yscale("log")
        a.set_title(f"{WORKLOADS[w]}: one epoch", fontsize=10)
        b.set_ylabel("remote fraction of accesses")
        b.set_ylim(0, 1)
        b.set_title(f"{w}: accesses that needed the network", fontsize=10)
        for ax in (a, b):
            ax.set_xscale("log", base=2)
            ax.set_xticks([2, 4, 8])
            ax.set_xticklabels(["2", "4", "8"])
            ax.set_xlabel("nodes (4 worker threads each)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle("Lapse under lapse:preset=paper (packet level, 10 Gb/s): classic vs Lapse "
                 "vs bounded staleness, strong scaling")
    fig.tight_layout()
    path = os.path.join(out, "lapse-paper.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/lapse-paper/lapse-paper.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    data = load(src)
    table(data)
    plot(data, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
