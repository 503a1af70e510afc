#!/usr/bin/python3
"""plots/pfc-storm-stalled.png from results/pfc-storm-stalled/pfc-storm-stalled.csv: the
slowest victim flow and the flow into the stalled host, per network, stall and watchdog;
the same as a table on stdout.

    /usr/bin/python3 plots/pfc-storm-stalled.py [CSV] [plots]
"""
import csv
import importlib.util
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("pfc_storm_plots", os.path.join(HERE, "pfc-storm.py"))
part1 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(part1)

STALL_LABELS = {"": "no stall", "8@0.5ms+10ms": "10 ms stall", "8@0.5ms": "endless stall"}
NETS = {"fattree:k=4": "fat-tree k=4", "bcube:n=4,k=1": "BCube(4,1)", "torus:dims=4x4": "torus 4x4"}


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/pfc-storm-stalled/pfc-storm-stalled.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    cells = {}
    print("| network | stall | watchdog | slowest victim (ms) | victims unfinished | "
          "flow into host 8 (ms) | pause depth | watchdog drops | exit |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for r in read(src):
        d = part1.out_dir(src, r)
        victims, trapped, unfinished = [], None, 0
        if os.path.exists(os.path.join(d, "flows.csv")):
            for f in read(os.path.join(d, "flows.csv")):
                fct = float(f["fct_s"])
                if f["dst"] == "8":
                    trapped = fct if fct > 0 else None
                elif fct > 0:
                    victims.append(fct)
                else:
                    unfinished += 1
        slowest = max(victims) * 1e3 if victims else float("nan")
        key = (r["topology"], r["stop-draining"], r["pfc-watchdog"])
        cells[key] = (slowest, unfinished)
        print(f"| {NETS[r['topology']]} | {STALL_LABELS[r['stop-draining']]} | "
              f"{'off' if r['pfc-watchdog'] == '0' else r['pfc-watchdog']} | {slowest:.1f} | "
              f"{unfinished} | {'-' if trapped is None else f'{trapped * 1e3:.1f}'} | "
              f"{r['pfc_pause_depth']} | {r['watchdog_drops']} | {r['exit_code']} |")
    fig, ax = plt.subplots(figsize=(9, 3.6))
    width = 0.13
    x = 0
    ticks = []
    for net, label in NETS.items():
        i = 0
        for stall in STALL_LABELS:
            for wd in ("0", "500us"):
                v, stuck = cells.get((net, stall, wd), (float("nan"), 0))
                colour = {"": "tab:gray", "8@0.5ms+10ms": "tab:orange",
                          "8@0.5ms": "tab:red"}[stall]
                pos = x + (i - 2.5) * width
                if stuck:
                    # Victims that never finished have no completion time to draw.
                    ax.text(pos, 0.3, f"{stuck} stuck", rotation=90, ha="center", fontsize=7)
                    v = 0
                ax.bar(pos, v if v == v else 0, width,
                       color=colour, hatch="//" if wd != "0" else None, edgecolor="black",
                       label=f"{STALL_LABELS[stall]}, watchdog {'off' if wd == '0' else wd}"
                       if x == 0 else None)
                i += 1
        ticks.append(label)
        x += 1
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks)
    ax.set_ylabel("slowest victim flow (ms)")
    ax.set_title("A receiver that stops draining (host 8): the slowest victim flow, which never "
                 "touches it", fontsize=9)
    ax.legend(fontsize=7, ncol=3)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    os.makedirs(out, exist_ok=True)
    fig.savefig(os.path.join(out, "pfc-storm-stalled.png"), dpi=110)
    print(f"wrote {os.path.join(out, 'pfc-storm-stalled.png')}", file=sys.stderr)


if __name__ == "__main__":
    main()
