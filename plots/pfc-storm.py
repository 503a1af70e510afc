#!/usr/bin/python3
"""Figures of experiment pfc-storm (examples/experiments/pfc-storm.py).

Usage: /usr/bin/python3 plots/pfc-storm.py [results/pfc-storm/pfc-storm.csv] [plots]

Writes
  plots/pfc-storm.png           pause frames, paused time and pause cascade depth per
                                algorithm and network, one row per buffer size (16 hosts)
  plots/pfc-storm-large.png     the same on 54-64 hosts
  plots/pfc-storm-heatmap.png   pause frames sent per port (node x port), PS incast and mesh
                                with 1 MB buffers
  results/pfc-storm/ports.csv   every run's pfc.csv (per node, port and priority) in one file
and prints the README table in Markdown. Reads each run's pfc.csv from the directory its
`out` option names (results/pfc-storm/out/<hash>/).
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = ["fattree:k=4", "bcube:n=4,k=1", "torus:dims=4x4"]
TITLES = {"fattree:k=4": "fat-tree k=4", "bcube:n=4,k=1": "BCube(4,1)",
          "torus:dims=4x4": "torus 4x4"}
LARGE = ["fattree:k=6", "bcube:n=4,k=2", "torus:dims=8x8"]  # 54, 64, 64 hosts
TITLES.update({"fattree:k=6": "fat-tree k=6 (54)", "bcube:n=4,k=2": "BCube(4,2) (64)",
               "torus:dims=8x8": "torus 8x8 (64)"})
COLOURS = ["#7f7f7f", "#1f77b4", "#d62728"]  # fat-tree, BCube, torus
ALGS = ["ps", "mesh", "ring", "hips"]
ALG_LABELS = {"ps": "PS incast\n(1 server)", "mesh": "mesh", "ring": "ring", "hips": "hips"}
BUFFERS = ["32MB", "4MB", "1MB"]
LARGE_BUFFERS = ["32MB", "2MB"]
METRICS = [("pfc_pause_frames", "pause frames"), ("pfc_paused_s", "paused time, all ports (s)"),
           ("pfc_pause_depth", "pause cascade depth (hops)")]


def alg_key(spec):
    return spec.split(":")[0]


def node_order(ports):
    """Every node named in `ports`: hosts by rank (h0, h1, ...), then the switches."""
    hosts, switches = [], []
    for p in ports:
        name = p["node"]
        group = hosts if name[0] == "h" and name[1:].isdigit() else switches
        if name not in group:
            group.append(name)
    def switch_key(name):  # fat-tree: edge, aggregation, core; then by the numbers
        kind = next((i for i, k in enumerate(("edge", "agg", "core")) if name.startswith(k)), 0)
        digits = "".join(c if c.isdigit() else " " for c in name).split()
        return kind, [int(d) for d in digits]
    return sorted(hosts, key=lambda h: int(h[1:])) + sorted(switches, key=switch_key)


def out_dir(csv_path, row):
    return os.path.join(os.path.dirname(os.path.abspath(csv_path)), "out", row["run"])


def plot_metrics(val, families, buffers, size, path):
    """Pause frames, paused time and depth per algorithm (groups) and network (colours)."""
    fig, axes = plt.subplots(len(buffers), len(METRICS), figsize=(15, 3.4 * len(buffers)),
                             squeeze=False)
    width = 0.8 / len(families)
    for i, buf in enumerate(buffers):
        for j, (key, label) in enumerate(METRICS):
            ax = axes[i][j]
            top = 0
            for k, fam in enumerate(families):
                xs, ys = [], []
                for a, alg in enumerate(ALGS):
                    r = val.get((fam, alg, buf))
                    if r is None:
                        ax.text(a + (k - 1) * width, 0, "n/a", ha="center", va="bottom",
                                fontsize=6, rotation=90)
                        continue
                    xs.append(a + (k - 1) * width)
                    ys.append(float(r[key]))
                ax.bar(xs, ys, width, color=COLOURS[k], label=TITLES[fam])
                top = max([top] + ys)
                for x, y in zip(xs, ys):
                    if y == 0 or key == "pfc_pause_depth":
                        ax.text(x, y, f"{y:g}", ha="center", va="bottom", fontsize=7)
            ax.set_xticks(range(len(ALGS)))
            ax.set_xticklabels([ALG_LABELS[a] for a in ALGS], fontsize=8)
            ax.set_yscale("symlog", linthresh=1e-3 if key == "pfc_paused_s" else 1)
            ax.set_ylim(0, max(top * 4, 2))
            ax.set_title(f"{label}, buffer {buf}", fontsize=10)
            ax.grid(True, axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"PFC pauses of one 32 MB allreduce, {size}, 40 Gb/s, packet level "
                 "(hips does not apply to a fat-tree)")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/pfc-storm/pfc-storm.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    rows = list(csv.DictReader(open(csv_path, newline="")))
    main_rows = [r for r in rows if r["topology"] in FAMILIES and r["pfc_pause_frames"]]

    # --- one CSV of every port --------------------------------------------------------
    ports = []
    for r in main_rows:
        path = os.path.join(out_dir(csv_path, r), "pfc.csv")
        if not os.path.exists(path):
            continue
        for p in csv.DictReader(open(path, newline="")):
            ports.append({"topology": r["topology"], "algorithm": alg_key(r["algorithm"]),
                          "buffer": r["buffer"], "node": p["node"], "port": p["port"],
                          "priority": p["priority"], "pauses_sent": p["pauses_sent"],
                          "pauses_received": p["pauses_received"], "paused_s": p["paused_s"]})
    with open(os.path.join(os.path.dirname(csv_path), "ports.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(ports[0]) if ports else ["topology"])
        w.writeheader()
        w.writerows(ports)

    # --- metrics per algorithm, network and buffer --------------------------------------
    val = {(r["topology"], alg_key(r["algorithm"]), r["buffer"]): r for r in rows
           if r["pfc_pause_frames"]}
    plot_metrics(val, FAMILIES, BUFFERS, "16 hosts", os.path.join(out, "pfc-storm.png"))
    plot_metrics(val, LARGE, LARGE_BUFFERS, "54-64 hosts",
                 os.path.join(out, "pfc-storm-large.png"))

    # --- heatmap: pauses sent per port, 1 MB buffers -------------------------------------
    heat_algs = ["ps", "mesh"]
    fig, axes = plt.subplots(len(heat_algs), len(FAMILIES), figsize=(16, 8),
                             gridspec_kw={"width_ratios": [36, 24, 16]})
    vmax = max([int(p["pauses_sent"]) for p in ports if p["buffer"] == "1MB"] + [1])
    norm = mcolors.LogNorm(vmin=1, vmax=vmax)
    for i, alg in enumerate(heat_algs):
        for j, fam in enumerate(FAMILIES):
            ax = axes[i][j]
            sel = [p for p in ports if p["topology"] == fam and p["algorithm"] == alg
                   and p["buffer"] == "1MB"]
            nodes = node_order([p for p in ports if p["topology"] == fam])
            nports = max([int(p["port"]) for p in sel] + [0]) + 1
            grid = [[math.nan] * len(nodes) for _ in range(nports)]
            sums = defaultdict(int)
            for p in sel:
                sums[(p["node"], int(p["port"]))] += int(p["pauses_sent"])
            for (node, port), v in sums.items():
                grid[port][nodes.index(node)] = v if v > 0 else math.nan
            im = ax.imshow(grid, aspect="auto", norm=norm, cmap="viridis",
                           interpolation="nearest")
            ax.set_facecolor("#eeeeee")
            ax.set_xticks(range(len(nodes)))
            ax.set_xticklabels(nodes, rotation=90, fontsize=6)
            ax.set_yticks(range(nports))
            ax.set_ylabel("port")
            r = val.get((fam, alg, "1MB"))
            depth = r["pfc_pause_depth"] if r else "?"
            ax.set_title(f"{TITLES[fam]}: {ALG_LABELS[alg].splitlines()[0]}, "
                         f"{sum(sums.values())} pauses, depth {depth}", fontsize=9)
    fig.subplots_adjust(hspace=0.45)
    fig.colorbar(im, ax=axes, shrink=0.8, label="pause frames sent by the port (log); "
                                                "grey: none or no such port")
    fig.suptitle("Where pauses start: pause frames sent per node and port, 1 MB buffers, "
                 "32 MB allreduce")
    fig.savefig(os.path.join(out, "pfc-storm-heatmap.png"), dpi=100, bbox_inches="tight")
    plt.close(fig)

    # --- tables -------------------------------------------------------------------------
    print("| network | algorithm | buffer | GST / ideal | pause frames | paused time (s) | "
          "depth |")
    print("|---|---|---|---|---|---|---|")
    for fam in FAMILIES + LARGE:
        for alg in ALGS:
            for buf in ["32MB", "4MB", "2MB", "1MB"]:
                r = val.get((fam, alg, buf))
                if r is None:
                    continue
                ratio = float(r["gst_s"]) / float(r["ideal_gst_s"])
                print(f"| {TITLES[fam]} | {alg} | {buf} | {ratio:.2f} | "
                      f"{int(r['pfc_pause_frames'])} | {float(r['pfc_paused_s']):.4f} | "
                      f"{r['pfc_pause_depth']} |")
    print("\nDeadlock runs (mesh, 64 MB, 1 MB buffers):\n")
    for r in rows:
        if "deadlockfree" in r["topology"]:
            print(f"- `{r['topology']}`: exit {r['exit_code']}, status {r['status']}, "
                  f"gst_s {r['gst_s']}, pause frames {r['pfc_pause_frames']}, "
                  f"depth {r['pfc_pause_depth']}; {r['error'] or r['invariant']}")


if __name__ == "__main__":
    main()
