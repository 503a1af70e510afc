#!/usr/bin/python3
"""plots/lapse.png from results/lapse/lapse.csv: epoch time and remote accesses of classic
(with and without fast local access) and dynamic (Lapse) allocation per cluster size, and a
table on stdout.

    /usr/bin/python3 plots/lapse.py [results/lapse/lapse.csv] [plots]
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def system(algorithm):
    if "mode=dynamic" in algorithm:
        return "dynamic (Lapse)"
    return "classic, no fast local access" if "local=0s" not in algorithm else "classic"


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/lapse/lapse.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    data = {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            if r["exit_code"] != "0":
                continue
            m = json.loads(r["lapse"])
            nodes = int(r["topology"].split("=")[1])
            data.setdefault(system(r["out_algorithm"] if "out_algorithm" in r else r["algorithm"]), {})[nodes] = m
    systems = ["classic", "classic, no fast local access", "dynamic (Lapse)"]
    colours = {"classic": "tab:gray", "classic, no fast local access": "tab:red",
               "dynamic (Lapse)": "tab:blue"}
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    print("| nodes x 4 workers | system | epoch (ms) | remote accesses | remote fraction | "
          "messages | speed-up of dynamic |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for s in systems:
        if s not in data:
            continue
        nodes = sorted(data[s])
        a.plot(nodes, [data[s][n]["epoch_s"] * 1e3 for n in nodes], "o-", color=colours[s],
               label=s)
        b.plot(nodes, [max(data[s][n]["remote_accesses"], 0.5) for n in nodes], "o-",
               color=colours[s], label=s)
        for n in nodes:
            m = data[s][n]
            dyn = data.get("dynamic (Lapse)", {}).get(n)
            speed = m["epoch_s"] / dyn["epoch_s"] if dyn else float("nan")
            print(f"| {n} | {s} | {m['epoch_s'] * 1e3:.2f} | {m['remote_accesses']} | "
                  f"{m['remote_fraction']:.2f} | {m['messages']} | {speed:.1f}x |")
    a.set_xlabel("nodes (4 workers each)")
    a.set_ylabel("epoch time (ms)")
    a.set_yscale("log")
    a.set_title("DSGD matrix factorization, one epoch")
    b.set_xlabel("nodes (4 workers each)")
    b.set_ylabel("remote parameter accesses")
    b.set_yscale("log")
    b.set_title("accesses that crossed the network (0 drawn at 0.5)")
    for ax in (a, b):
        ax.set_xticks(sorted({n for s in data for n in data[s]}))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Lapse: dynamic vs classic static parameter allocation (packet level, 40 Gb/s)")
    fig.tight_layout()
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "lapse.png")
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
