#!/usr/bin/python3
"""Figures of experiment pfc-storm, part 2 (examples/experiments/pfc-storm-watchdog.py).

Usage: /usr/bin/python3 plots/pfc-storm-watchdog.py
           [results/pfc-storm-watchdog/pfc-storm-watchdog.csv] [plots]

Writes
  plots/pfc-storm-watchdog.png          slowest victim flow and slowest trapped flow (into
                                        the stormed host) per storm and watchdog setting
  plots/pfc-storm-watchdog-spread.png   pause frames sent by other nodes than the stormed
                                        host, pause depth, watchdog drops and retransmits
  plots/pfc-storm-watchdog-heatmap.png  pause frames sent per node and port: no storm, a
                                        10 ms storm, the same with a 500 us watchdog
  plots/pfc-storm-watchdog-sync.png     GST of ring, mesh and hips with host 8 stormed
  results/pfc-storm-watchdog/flows.csv  every flow of the flow runs (victim or trapped)
  results/pfc-storm-watchdog/ports.csv  every run's pfc.csv in one file
and prints the README tables in Markdown. Reads each run's flows.csv and pfc.csv from its
`out` directory (results/pfc-storm-watchdog/out/<hash>/).
"""
import csv
import importlib.util
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "pfc_storm_plots", os.path.join(os.path.dirname(os.path.abspath(__file__)), "pfc-storm.py"))
part1 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(part1)

FAMILIES = part1.FAMILIES
TITLES = part1.TITLES
STORM_NODE = "h8"
STORM_HOST = "8"
STORMS = ["", "8@0.5ms+2ms", "8@0.5ms+10ms", "8@0.5ms"]
STORM_LABELS = {"": "no storm", "8@0.5ms+2ms": "2 ms storm", "8@0.5ms+10ms": "10 ms storm",
                "8@0.5ms": "endless storm"}
WATCHDOGS = ["0", "100us", "500us", "2ms"]
WD_LABELS = {"0": "watchdog off", "100us": "detect 100 us", "500us": "detect 500 us",
             "2ms": "detect 2 ms"}
WD_COLOURS = {"0": "#444444", "100us": "#d62728", "500us": "#ff7f0e", "2ms": "#1f77b4"}
SYNC_ALGS = ["ring", "mesh", "hips"]


def read(path):
    return list(csv.DictReader(open(path, newline="")))


def alg_key(spec):
    return spec.split(":")[0]


def grouped_bars(ax, values, labels=None, log=False, ylabel=""):
    """Bars per storm (groups) and watchdog (colours); values[(storm, wd)] -> number or None
    (no bar), labels[(storm, wd)] -> text written on the bar."""
    width = 0.8 / len(WATCHDOGS)
    for k, wd in enumerate(WATCHDOGS):
        xs, ys = [], []
        for i, storm in enumerate(STORMS):
            v = values.get((storm, wd))
            x = i + (k - 1.5) * width
            text = (labels or {}).get((storm, wd))
            if text and v:  # inside a hatched bar (e.g. a flow cut off by the stop)
                ax.bar([x], [v], width, color=WD_COLOURS[wd], hatch="//", edgecolor="white")
                ax.text(x, v / 2, text, ha="center", va="center", fontsize=7, rotation=90,
                        color="white")
            elif text:  # no bar (e.g. a stalled job has no GST)
                ax.text(x, 0, text, ha="center", va="bottom", fontsize=7, rotation=90)
            elif v is not None:
                xs.append(x)
                ys.append(v)
        ax.bar(xs, ys, width, color=WD_COLOURS[wd], label=WD_LABELS[wd])
    ax.set_xticks(range(len(STORMS)))
    ax.set_xlim(-0.5, len(STORMS) - 0.5)
    ax.set_xticklabels([STORM_LABELS[s] for s in STORMS], fontsize=8)
    if log:
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(0, max([v for v in values.values() if v is not None] + [1]) * 8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)


def main():
    csv_path = sys.argv[1] if len(sys.argv) > 1 else \
        "results/pfc-storm-watchdog/pfc-storm-watchdog.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    results = os.path.dirname(os.path.abspath(csv_path))
    rows = [r for r in read(csv_path) if r["pfc_pause_frames"]]

    # --- every flow and every port in one file each --------------------------------------
    flows, ports = [], []
    for r in rows:
        d = part1.out_dir(csv_path, r)
        key = {"topology": r["topology"], "algorithm": alg_key(r["algorithm"]),
               "pause_storm": r["pause-storm"], "pfc_watchdog": r["pfc-watchdog"]}
        if r["algorithm"] == "none" and os.path.exists(os.path.join(d, "flows.csv")):
            for f in read(os.path.join(d, "flows.csv")):
                kind = "trapped" if f["dst"] == STORM_HOST else "victim"
                flows.append(dict(key, kind=kind, flow=f["flow"], src=f["src"], dst=f["dst"],
                                  bytes=f["bytes"], start_s=f["start_s"], fct_s=f["fct_s"]))
        if os.path.exists(os.path.join(d, "pfc.csv")):
            for p in read(os.path.join(d, "pfc.csv")):
                ports.append(dict(key, node=p["node"], port=p["port"], priority=p["priority"],
                                  pauses_sent=p["pauses_sent"],
                                  pauses_received=p["pauses_received"],
                                  paused_s=p["paused_s"], drops=p["drops"]))
    for name, table in (("flows.csv", flows), ("ports.csv", ports)):
        with open(os.path.join(results, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(table[0]) if table else ["topology"])
            w.writeheader()
            w.writerows(table)

    run = {(r["topology"], alg_key(r["algorithm"]), r["pause-storm"], r["pfc-watchdog"]): r
           for r in rows}
    fct = defaultdict(list)  # (topology, storm, wd, kind) -> FCTs in s, -1: unfinished
    for f in flows:
        fct[(f["topology"], f["pause_storm"], f["pfc_watchdog"], f["kind"])].append(
            float(f["fct_s"]))
    spread = defaultdict(int)  # pause frames sent by every node but the stormed host
    for p in ports:
        if p["node"] != STORM_NODE:
            spread[(p["topology"], p["algorithm"], p["pause_storm"], p["pfc_watchdog"])] += \
                int(p["pauses_sent"])

    # --- victims and trapped flows ---------------------------------------------------------
    fig, axes = plt.subplots(2, len(FAMILIES), figsize=(16, 7.5), squeeze=False)
    stop_ms = 50
    for j, fam in enumerate(FAMILIES):
        for i, kind in enumerate(("victim", "trapped")):
            vals, labels = {}, {}
            for storm in STORMS:
                for wd in WATCHDOGS:
                    xs = fct.get((fam, storm, wd, kind))
                    if not xs:
                        continue
                    stuck = sum(1 for x in xs if x < 0)
                    done = [x for x in xs if x >= 0]
                    if stuck:
                        vals[(storm, wd)] = stop_ms
                        labels[(storm, wd)] = f"{stuck} never end"
                    else:
                        vals[(storm, wd)] = 1e3 * max(done)
            ax = axes[i][j]
            grouped_bars(ax, vals, labels, ylabel="FCT (ms)")
            base = vals.get(("", "0"))
            if base:
                ax.axhline(base, color="k", lw=0.8, ls="--")
            what = "14 x 10 MB between other hosts" if kind == "victim" \
                else "20 MB from host 5 into host 8"
            ax.set_title(f"{TITLES[fam]}: slowest {kind} flow ({what})", fontsize=9)
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Host 8's NIC floods pause frames from 0.5 ms: slowest flow that never touches "
                 "host 8 (top) and into host 8 (bottom)\n(dashed: no storm, no watchdog; "
                 f"'never end': unfinished at the {stop_ms} ms stop; 4 MB buffers, 40 Gb/s)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(os.path.join(out, "pfc-storm-watchdog.png"), dpi=100)
    plt.close(fig)

    # --- spread and cost -------------------------------------------------------------------
    metrics = [("spread", "pause frames sent by other nodes than host 8", True),
               ("pfc_pause_depth", "pause depth (hops)", False),
               ("watchdog_drops", "watchdog drops (packets)", True),
               ("retransmits", "retransmitted packets", True)]
    fig, axes = plt.subplots(len(metrics), len(FAMILIES), figsize=(16, 12), squeeze=False)
    for j, fam in enumerate(FAMILIES):
        for i, (key, label, log) in enumerate(metrics):
            vals = {}
            for storm in STORMS:
                for wd in WATCHDOGS:
                    r = run.get((fam, "none", storm, wd))
                    if r is None:
                        continue
                    vals[(storm, wd)] = spread[(fam, "none", storm, wd)] if key == "spread" \
                        else float(r[key])
            grouped_bars(axes[i][j], vals, log=log, ylabel=label)
            axes[i][j].set_title(f"{TITLES[fam]}: {label}", fontsize=9)
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="upper center", ncol=4,
               fontsize=8, bbox_to_anchor=(0.5, 0.975))
    fig.suptitle("How far the storm's pauses spread and what the watchdog costs (the flow runs "
                 "of plots/pfc-storm-watchdog.png; log scales but depth)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.955))
    fig.savefig(os.path.join(out, "pfc-storm-watchdog-spread.png"), dpi=100)
    plt.close(fig)

    # --- heatmap: pause frames sent per port -----------------------------------------------
    cases = [("", "0"), ("8@0.5ms+10ms", "0"), ("8@0.5ms+10ms", "500us")]
    fig, axes = plt.subplots(len(cases), len(FAMILIES), figsize=(16, 11),
                             gridspec_kw={"width_ratios": [36, 24, 16]})
    sel_all = [p for p in ports if p["algorithm"] == "none"]
    vmax = max([int(p["pauses_sent"]) for p in sel_all] + [1])
    norm = mcolors.LogNorm(vmin=1, vmax=vmax)
    im = None
    for j, fam in enumerate(FAMILIES):
        fam_ports = [p for p in sel_all if p["topology"] == fam]
        nodes = part1.node_order(fam_ports)
        nports = max([int(p["port"]) for p in fam_ports] + [0]) + 1
        for i, (storm, wd) in enumerate(cases):
            ax = axes[i][j]
            sel = [p for p in sel_all if p["topology"] == fam and p["pause_storm"] == storm
                   and p["pfc_watchdog"] == wd]
            sums = defaultdict(int)
            for p in sel:
                sums[(p["node"], int(p["port"]))] += int(p["pauses_sent"])
            grid = [[math.nan] * len(nodes) for _ in range(nports)]
            for (node, port), v in sums.items():
                grid[port][nodes.index(node)] = v if v > 0 else math.nan
            im = ax.imshow(grid, aspect="auto", norm=norm, cmap="viridis",
                           interpolation="nearest")
            ax.set_facecolor("#eeeeee")
            ax.set_xticks(range(len(nodes)))
            ax.set_xticklabels(nodes, rotation=90, fontsize=6)
            ax.set_yticks(range(nports))
            ax.set_ylabel("port")
            others = sum(v for (node, _), v in sums.items() if node != STORM_NODE)
            ax.set_title(f"{TITLES[fam]}, {STORM_LABELS[storm]},\n{WD_LABELS[wd]}: "
                         f"{others} sent by others than h8", fontsize=9)
    fig.subplots_adjust(hspace=0.6)
    fig.colorbar(im, ax=axes, shrink=0.8, label="pause frames sent by the port (log); "
                                                "grey: none or no such port")
    fig.suptitle("Where pauses are sent: per node and port, the flow runs (20 MB from host 5 "
                 "into host 8, 14 victims); host 8 storms from 0.5 ms")
    fig.savefig(os.path.join(out, "pfc-storm-watchdog-heatmap.png"), dpi=100,
                bbox_inches="tight")
    plt.close(fig)

    # --- sync jobs -------------------------------------------------------------------------
    fig, axes = plt.subplots(len(SYNC_ALGS), len(FAMILIES), figsize=(16, 10), squeeze=False)
    for j, fam in enumerate(FAMILIES):
        for i, alg in enumerate(SYNC_ALGS):
            ax = axes[i][j]
            vals, labels = {}, {}
            for storm in STORMS:
                for wd in WATCHDOGS:
                    r = run.get((fam, alg, storm, wd))
                    if r is None:
                        continue
                    if r["exit_code"] == "3":
                        vals[(storm, wd)] = None
                        labels[(storm, wd)] = "stalled (exit 3)"
                    else:
                        vals[(storm, wd)] = 1e3 * float(r["gst_s"])
            if not vals:
                ax.text(0.5, 0.5, "hips needs host groups: not on a fat-tree",
                        ha="center", va="center", transform=ax.transAxes)
                ax.set_axis_off()
                continue
            grouped_bars(ax, vals, labels, ylabel="GST (ms)")
            ideal = next((float(r["ideal_gst_s"]) for k, r in run.items()
                          if k[:2] == (fam, alg)), None)
            if ideal:
                ax.axhline(1e3 * ideal, color="k", lw=0.8, ls="--")
            ax.set_title(f"{TITLES[fam]}: {alg}, 16 MB over 16 hosts", fontsize=9)
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("An allreduce that includes the stormed host 8: GST (dashed: ideal); no "
                 "watchdog setting lets it finish before the storm ends", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(os.path.join(out, "pfc-storm-watchdog-sync.png"), dpi=100)
    plt.close(fig)

    # --- tables ------------------------------------------------------------------------------
    print("| network | storm | watchdog | slowest victim (ms) | victims never ending | "
          "slowest trapped (ms) | pauses by others | depth | watchdog drops | retransmits |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for fam in FAMILIES:
        for storm in STORMS:
            for wd in WATCHDOGS:
                r = run.get((fam, "none", storm, wd))
                if r is None:
                    continue
                v = fct[(fam, storm, wd, "victim")]
                t = fct[(fam, storm, wd, "trapped")]
                vdone = [x for x in v if x >= 0]
                tmax = "never" if any(x < 0 for x in t) else f"{1e3 * max(t):.1f}"
                print(f"| {TITLES[fam]} | {STORM_LABELS[storm]} | {WD_LABELS[wd]} | "
                      f"{1e3 * max(vdone):.1f} | {sum(1 for x in v if x < 0)} | {tmax} | "
                      f"{spread[(fam, 'none', storm, wd)]} | {r['pfc_pause_depth']} | "
                      f"{r['watchdog_drops']} | {r['retransmits']} |")
    print("\n| network | algorithm | ideal (ms) | " +
          " | ".join(f"{STORM_LABELS[s]} (off / 100 us / 500 us / 2 ms)" for s in STORMS) + " |")
    print("|---|---|---|" + "---|" * len(STORMS))
    for fam in FAMILIES:
        for alg in SYNC_ALGS:
            cells = []
            for storm in STORMS:
                vals = []
                for wd in WATCHDOGS:
                    r = run.get((fam, alg, storm, wd))
                    if r is None:
                        break
                    vals.append("stall" if r["exit_code"] == "3"
                                else f"{1e3 * float(r['gst_s']):.1f}")
                cells.append(" / ".join(vals))
            r = run.get((fam, alg, "", "0"))
            if r is None:
                continue
            print(f"| {TITLES[fam]} | {alg} | {1e3 * float(r['ideal_gst_s']):.1f} | " +
                  " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
