#!/usr/bin/python3
"""GST per algorithm with the ideal and the routed bound beside it, from a paramsync
summary.json. Both are lower bounds no schedule can beat (workloads/gst-lower-bound.h), so
ideal <= bound <= GST is proven (README: "Ideal, bound and GST").

Usage: /usr/bin/python3 plots/demo-gst.py [results/demo/summary.json] [plots/demo-gst.png]
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/demo/summary.json"
    dst = sys.argv[2] if len(sys.argv) > 2 else "plots/demo-gst.png"
    with open(src) as f:
        summary = json.load(f)
    runs = [r for r in summary["runs"] if r["gst_s"] >= 0]
    if not runs:
        sys.exit(f"{src}: no run with a measured GST")
    names = [r["algorithm"].split(":")[0] for r in runs]
    gst = [r["gst_s"] * 1e3 for r in runs]
    ideal = [r["ideal_gst_s"] * 1e3 for r in runs]
    # Runs from before the bound existed, or fluid runs, have none (-1): no bar.
    bound = [max(r.get("bound_gst_s", -1), 0) * 1e3 for r in runs]
    first = runs[0]

    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(runs) + 2), 4.2))
    x = range(len(runs))
    w = 0.27
    ax.bar([i - w for i in x], ideal, w, label="ideal (lower bound, perfect split, payload)",
           color="#dddddd", edgecolor="#555555")
    ax.bar(list(x), bound, w, label="routed bound (lower bound on the QPs' paths, framed, latency)",
           color="#999999", edgecolor="#555555")
    bars = ax.bar([i + w for i in x], gst, w, label=f"packet-level GST ({first['backend']})",
                  color="#1f77b4")
    for b, g, i in zip(bars, gst, ideal):
        if i > 0:
            ax.annotate(f"{g / i:.2f}x", (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=8)
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=20)
    ax.set_ylabel("global synchronization time (ms)")
    ax.set_title(f"{first['model']} on {first['topology']}: GST per algorithm "
                 f"({first['workers']} workers)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_ylim(0, 1.25 * max(gst + ideal + bound))  # room for the legend and the ratios
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main()
