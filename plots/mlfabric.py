#!/usr/bin/python3
"""Figures of experiment mlfabric (examples/experiments/mlfabric.py).

Usage: /usr/bin/python3 plots/mlfabric.py [results/mlfabric/mlfabric.csv] [plots]

Writes
  plots/mlfabric-delay.png     distribution of the delay of applied updates (server version
                               when applied minus the version the worker computed on), per
                               algorithm, for each straggler case, star and fat-tree, 8 MB
  plots/mlfabric-metrics.png   makespan, applied updates per second, bytes through the
                               server's link and dropped updates
  plots/mlfabric-loss.png      training loss (logistic regression replayed on each run's
                               schedule, workloads/convergence-model.h) against simulated
                               time, per algorithm, for each straggler case, 8 MB
  results/mlfabric/delays.csv  per run and worker: updates applied, delay histogram
and prints the README tables in Markdown. Reads each run's updates.csv from the directory its
`out` option names (results/mlfabric/out/<hash>/).
"""
import csv
import json
import os
import sys
from collections import Counter, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TOPOLOGIES = ["star:n=11", "fattree:k=4", "star:n=20"]
TITLES = {"star:n=11": "star, 10 workers, 1 server", "fattree:k=4": "fat-tree k=4, 15 workers",
          "star:n=20": "star, 10 workers, 10 servers"}
CASES = ["none", "compute", "network", "both"]
CASE_LABELS = {"none": "no straggler", "compute": "compute straggler (4x)",
               "network": "10 % of workers at 1/2 rate", "both": "both"}
ALGS = ["asp", "ssp:bound=3", "mlfabric", "mlfabric:norms=0", "mlfabric:delay=4",
        "mlfabric:delay=4,norms=0", "mlfabric:delay=2", "mlfabric:aggregate=1"]
COLOURS = {"asp": "#7f7f7f", "ssp:bound=3": "#2ca02c", "mlfabric": "#1f77b4",
           "mlfabric:delay=4": "#9467bd", "mlfabric:delay=2": "#d62728",
           "mlfabric:aggregate=1": "#ff7f0e", "mlfabric:norms=0": "#17becf",
           "mlfabric:delay=4,norms=0": "#e377c2"}


def alg_key(spec):
    """The algorithm without its servers= option (servers are a property of the setup)."""
    name, _, opts = spec.partition(":")
    opts = [o for o in opts.split(",")
            if o and not o.startswith(("servers=", "train=", "lr="))]
    return name + (":" + ",".join(opts) if opts else "")


def case_of(row):
    compute = bool(row.get("straggler"))
    network = bool(row.get("slow-hosts"))
    return {(False, False): "none", (True, False): "compute", (False, True): "network",
            (True, True): "both"}[(compute, network)]


def load(csv_path):
    rows = []
    for r in csv.DictReader(open(csv_path, newline="")):
        if not r.get("async"):
            continue
        r.update(json.loads(r["async"]))
        r["case"] = case_of(r)
        r["alg"] = alg_key(r["algorithm"])
        path = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "out", r["run"],
                            "updates.csv")
        r["updates_by_worker"] = defaultdict(Counter)
        r["loss_curve"] = []
        if os.path.exists(path):
            for u in csv.DictReader(open(path, newline="")):
                r["updates_by_worker"][int(u["worker"])][int(u["delay"])] += 1
                if u.get("loss"):
                    r["loss_curve"].append((float(u["applied_s"]), float(u["loss"])))
        rows.append(r)
    return rows


def pick(rows, topo, case, alg, model="bytes:8MB"):
    for r in rows:
        if r["topology"] == topo and r["case"] == case and r["alg"] == alg \
                and r["model"] == model:
            return r
    return None


def plot_delay(rows, path):
    fig, axes = plt.subplots(len(TOPOLOGIES), len(CASES), figsize=(16, 10.5), sharey=True)
    for i, topo in enumerate(TOPOLOGIES):
        for j, case in enumerate(CASES):
            ax = axes[i][j]
            for alg in ALGS:
                r = pick(rows, topo, case, alg)
                if r is None:
                    continue
                hist = Counter()
                for c in r["updates_by_worker"].values():
                    hist.update(c)
                total = sum(hist.values())
                if not total:
                    continue
                xs = sorted(hist)
                cum, ys = 0, []
                for x in xs:
                    cum += hist[x]
                    ys.append(cum / total)
                ax.step([xs[0] - 1] + xs, [0] + ys, where="post", color=COLOURS[alg],
                        label=f"{alg} ({total} applied, max {xs[-1]})")
            ax.set_title(f"{TITLES[topo]}: {CASE_LABELS[case]}", fontsize=9)
            ax.set_xscale("symlog", linthresh=20)
            ax.set_xlim(-1, 500)
            ax.axvline(20, color="k", lw=0.5, ls=":")
            ax.set_xlabel("delay of an applied update (versions; log beyond 20)")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, loc="lower right")
        axes[i][0].set_ylabel("fraction of applied updates (CDF)")
    fig.suptitle("Update delay distribution (w0: compute straggler, w1: network straggler): "
                 "30 iterations, 2 ms compute, 8 MB model, "
                 "40 Gb/s, packet level")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_metrics(rows, path):
    metrics = [("makespan_s", "makespan (ms)", 1e3),
               ("updates_per_s", "applied updates per second", 1),
               ("server_bytes", "bytes through the servers' links (GB)", 1e-9),
               ("dropped", "updates dropped", 1)]
    fig, axes = plt.subplots(len(TOPOLOGIES), len(metrics), figsize=(16, 10.5))
    width = 0.8 / len(ALGS)
    for i, topo in enumerate(TOPOLOGIES):
        for j, (key, label, scale) in enumerate(metrics):
            ax = axes[i][j]
            for k, alg in enumerate(ALGS):
                xs, ys = [], []
                for c, case in enumerate(CASES):
                    r = pick(rows, topo, case, alg)
                    if r is not None:
                        xs.append(c + (k - (len(ALGS) - 1) / 2) * width)
                        ys.append(float(r[key]) * scale)
                ax.bar(xs, ys, width, color=COLOURS[alg], label=alg)
            ax.set_xticks(range(len(CASES)))
            ax.set_xticklabels(["none", "compute\nstraggler", "network\nstraggler", "both"],
                               fontsize=8)
            ax.set_title(f"{TITLES[topo]}: {label}", fontsize=9)
            ax.grid(True, axis="y", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(ALGS), frameon=False)
    fig.suptitle("Asynchronous PS systems: 30 iterations, 2 ms compute, 8 MB model, 40 Gb/s "
                 "(10 servers: updates counted per shard)")
    fig.tight_layout(rect=(0, 0.04, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def loss_at(curve, t):
    """The loss of the last update applied by time t (None before the first)."""
    last = None
    for when, loss in curve:
        if when > t:
            break
        last = loss
    return last


def plot_loss(rows, path):
    fig, axes = plt.subplots(len(TOPOLOGIES), len(CASES), figsize=(16, 10.5), sharey=True)
    for i, topo in enumerate(TOPOLOGIES):
        for j, case in enumerate(CASES):
            ax = axes[i][j]
            for alg in ALGS:
                r = pick(rows, topo, case, alg)
                if r is None or not r["loss_curve"]:
                    continue
                xs = [t * 1e3 for t, _ in r["loss_curve"]]
                ys = [v for _, v in r["loss_curve"]]
                ax.plot(xs, ys, color=COLOURS[alg], lw=1,
                        label=f"{alg} (final {ys[-1]:.3f} at {xs[-1]:.0f} ms)")
            ax.set_title(f"{TITLES[topo]}: {CASE_LABELS[case]}", fontsize=9)
            ax.set_xlabel("simulated time (ms)")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, loc="upper right")
        axes[i][0].set_ylabel("training loss (logistic, all samples)")
    fig.suptitle("Logistic regression (n=4096, d=32, batch 64/worker, lr=8) trained at the "
                 "versions each schedule applied its updates at: 30 iterations, 2 ms compute, "
                 "8 MB model, 40 Gb/s")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/mlfabric/mlfabric.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    rows = load(csv_path)
    plot_delay(rows, os.path.join(out, "mlfabric-delay.png"))
    plot_metrics(rows, os.path.join(out, "mlfabric-metrics.png"))
    plot_loss(rows, os.path.join(out, "mlfabric-loss.png"))

    with open(os.path.join(os.path.dirname(csv_path), "delays.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["topology", "model", "case", "algorithm", "worker", "applied",
                    "delay_mean", "delay_histogram"])
        for r in rows:
            for worker in sorted(r["updates_by_worker"]):
                c = r["updates_by_worker"][worker]
                n = sum(c.values())
                w.writerow([r["topology"], r["model"], r["case"], r["algorithm"], worker, n,
                            f"{sum(d * k for d, k in c.items()) / n:.3f}",
                            ";".join(f"{d}:{c[d]}" for d in sorted(c))])

    print("| network | model | case | algorithm | applied | dropped | delay mean / p50 / p99 / max "
          "| mean delay w0 / w1 | workers served | server links (GB) | makespan (ms) | updates/s "
          "| pause frames |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for topo in TOPOLOGIES:
        for model in ["bytes:4MB", "bytes:8MB", "bytes:25MB"]:
            for case in CASES:
                for alg in ALGS:
                    r = pick(rows, topo, case, alg, model)
                    if r is None:
                        continue
                    means = {w: sum(d * k for d, k in c.items()) / sum(c.values())
                             for w, c in r["updates_by_worker"].items() if c}
                    # a worker is served when at least half of its updates were applied
                    most = max(sum(c.values()) for c in r["updates_by_worker"].values())
                    served = sum(1 for c in r["updates_by_worker"].values()
                                 if 2 * sum(c.values()) >= most)
                    print(f"| {topo} | {model[6:]} | {case} | {alg} | {r['updates']} | "
                          f"{r['dropped']} | {float(r['delay_mean']):.2f} / {r.get('delay_p50', '-')} / "
                          f"{r['delay_p99']} / "
                          f"{r['delay_max']} | {means.get(0, 0):.2f} / {means.get(1, 0):.2f} | "
                          f"{served} of {r['workers']} | "
                          f"{float(r['server_bytes']) * 1e-9:.2f} | "
                          f"{float(r['makespan_s']) * 1e3:.1f} | "
                          f"{float(r['updates_per_s']):.0f} | {r['pfc_pause_frames']} |")

    # Loss table: final loss, and the loss every algorithm of a case has reached by the
    # time the fastest of them finished (equal wall-clock budget).
    print()
    print("| network | case | algorithm | makespan (ms) | final loss | loss at the earliest "
          "finish |")
    print("|---|---|---|---|---|---|")
    for topo in TOPOLOGIES:
        for case in CASES:
            found = [(alg, pick(rows, topo, case, alg)) for alg in ALGS]
            found = [(a, r) for a, r in found if r is not None and r["loss_curve"]]
            if not found:
                continue
            budget = min(r["loss_curve"][-1][0] for _, r in found)
            for alg, r in found:
                print(f"| {topo} | {case} | {alg} | {float(r['makespan_s']) * 1e3:.1f} | "
                      f"{r['loss_curve'][-1][1]:.4f} | "
                      f"{loss_at(r['loss_curve'], budget):.4f} |")


if __name__ == "__main__":
    main()
