#!/usr/bin/python3
"""plots/lapse.png and plots/lapse-overhead.png from results/lapse/lapse.csv: epoch time and
remote accesses of classic (with and without fast local access) and dynamic (Lapse)
allocation per cluster size for matrix factorization (mf) and knowledge-graph embeddings
(kge), and the epoch time per per-message host overhead; a table on stdout.

    /usr/bin/python3 plots/lapse.py [results/lapse/lapse.csv] [plots]
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SYSTEMS = ["classic", "classic, no fast local access", "dynamic (Lapse)"]
COLOURS = {"classic": "tab:gray", "classic, no fast local access": "tab:red",
           "dynamic (Lapse)": "tab:blue"}
WORKLOADS = {"mf": "DSGD matrix factorization", "kge": "knowledge-graph embeddings"}
STYLES = {0.0: "-", 2.0: "--", 10.0: ":"}


def options(canonical):
    """The key=value options of a canonical lapse spec."""
    return dict(kv.split("=", 1) for kv in canonical.split(":", 1)[1].split(","))


def system(o):
    if o["mode"] == "dynamic":
        return "dynamic (Lapse)"
    return "classic" if o["local"] == "0s" else "classic, no fast local access"


def load(src):
    """{(workload, system, overhead_us): {nodes: metrics}}"""
    data = {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            if r["exit_code"] != "0":
                continue
            o = options(r["out_algorithm"])
            overhead = round(float(o["overhead"].rstrip("s")) * 1e6, 3)
            key = (o.get("workload", "mf"), system(o), overhead)
            data.setdefault(key, {})[int(o["nodes"])] = json.loads(r["lapse"])
    return data


def table(data):
    print("| workload | nodes x 4 workers | system | overhead (us) | epoch (ms) | vs 1 node | "
          "remote accesses | remote fraction | localizes | messages | dynamic's speed-up |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (w, s, ov), by_nodes in sorted(data.items(), key=lambda kv: (kv[0][0], kv[0][2],
                                                                   SYSTEMS.index(kv[0][1]))):
        for n in sorted(by_nodes):
            m = by_nodes[n]
            one = by_nodes.get(1)
            vs_one = one["epoch_s"] / m["epoch_s"] if one else float("nan")
            dyn = data.get((w, "dynamic (Lapse)", ov), {}).get(n)
            speed = m["epoch_s"] / dyn["epoch_s"] if dyn else float("nan")
            print(f"| {w} | {n} | {s} | {ov:g} | {m['epoch_s'] * 1e3:.2f} | {vs_one:.2f}x | "
                  f"{m['remote_accesses']} | {m['remote_fraction']:.2f} | "
                  f"{m.get('localizes', 0)} | {m['messages']} | {speed:.1f}x |")


def scaling(data, out):
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for row, w in enumerate(WORKLOADS):
        a, b = axes[row]
        for s in SYSTEMS:
            d = data.get((w, s, 0.0))
            if not d:
                continue
            nodes = sorted(d)
            a.plot(nodes, [d[n]["epoch_s"] * 1e3 for n in nodes], "o-", color=COLOURS[s],
                   label=s)
            b.plot(nodes, [max(d[n]["remote_accesses"], 0.5) for n in nodes], "o-",
                   color=COLOURS[s], label=s)
        a.set_ylabel("epoch time (ms)")
        a.set_title(f"{WORKLOADS[w]} ({w}): one epoch", fontsize=10)
        b.set_ylabel("remote parameter accesses")
        b.set_title(f"{w}: remote accesses (both classic alike; 0 drawn at 0.5)", fontsize=10)
        for ax in (a, b):
            ax.set_yscale("log")
            ax.set_xscale("log", base=2)
            ax.set_xticks([1, 2, 4, 8])
            ax.set_xticklabels(["1", "2", "4", "8"])
            ax.set_xlabel("nodes (4 workers each)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
    fig.suptitle("Lapse: dynamic vs classic static parameter allocation "
                 "(packet level, 40 Gb/s, no host overhead)")
    fig.tight_layout()
    path = os.path.join(out, "lapse.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def overhead(data, out):
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    for ax, w in zip(axes, WORKLOADS):
        for s in SYSTEMS:
            for ov, style in STYLES.items():
                d = data.get((w, s, ov))
                if not d:
                    continue
                nodes = sorted(d)
                ax.plot(nodes, [d[n]["epoch_s"] * 1e3 for n in nodes], style, marker="o",
                        markersize=3, color=COLOURS[s],
                        label=f"{s}, {ov:g} us" if ax is axes[0] else None)
        ax.set_yscale("log")
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 2, 4, 8])
        ax.set_xticklabels(["1", "2", "4", "8"])
        ax.set_xlabel("nodes (4 workers each)")
        ax.set_ylabel("epoch time (ms)")
        ax.set_title(WORKLOADS[w])
        ax.grid(alpha=0.3)
    fig.suptitle("Lapse: per-message host overhead 0 / 2 / 10 us (solid / dashed / dotted)")
    fig.tight_layout(rect=(0, 0, 0.84, 1))
    fig.legend(loc="center right", fontsize=7)
    path = os.path.join(out, "lapse-overhead.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/lapse/lapse.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    data = load(src)
    os.makedirs(out, exist_ok=True)
    table(data)
    scaling(data, out)
    overhead(data, out)


if __name__ == "__main__":
    main()
