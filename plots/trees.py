#!/usr/bin/python3
"""Figures of experiment trees (examples/experiments/trees.py).

Usage: /usr/bin/python3 plots/trees.py [results/trees/trees.csv] [plots]

Writes
  plots/trees-links.png    ideal GST against the fraction of links slowed to 1/2 and 1/4
                           of the rate (random links, mean of 3 draws, bars min..max)
  plots/trees-hosts.png    the same with every link of 0-8 random hosts slowed (hips too)
  plots/trees-packet.png   packet-level GST: uniform vs 30 % of links at 1/4 rate, and
                           under 0 / 8 / 16 background flows of 4 MB
  plots/trees-large.png    uniform 64- and 128-host networks, packet level beside fluid
  results/trees/summary.csv  the numbers behind the figures
and prints the README tables in Markdown.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = ["fattree:k=4", "bcube:n=4,k=1", "torus:dims=4x4"]
TITLES = {"fattree:k=4": "fat-tree k=4", "bcube:n=4,k=1": "BCube(4,1)",
          "torus:dims=4x4": "torus 4x4"}
ALGS = ["trees", "ring", "ring-nics", "ps1", "psN", "hips"]
LABELS = {"trees": "trees (forest packing)", "ring": "ring (one NIC)",
          "ring-nics": "ring per NIC (topology order, one ring per port)", "ps1": "PS, 1 server",
          "psN": "PS, S = N", "hips": "hips"}
COLOURS = {"trees": "#d62728", "ring": "#2ca02c", "ring-nics": "#17becf", "ps1": "#7f7f7f",
           "psN": "#9467bd", "hips": "#1f77b4"}
HOSTS = 16
LINKS = {"fattree:k=4": 48, "bcube:n=4,k=1": 32, "torus:dims=4x4": 32}
LARGE = ["bcube:n=4,k=2", "torus:dims=8x8", "fattree:k=8"]
LARGE_TITLES = {"bcube:n=4,k=2": "BCube(4,2), 64 hosts", "torus:dims=8x8": "torus 8x8, 64 hosts",
                "fattree:k=8": "fat-tree k=8, 128 hosts"}


def alg_key(spec):
    if spec.startswith("ring"):
        return "ring-nics" if "nics=all" in spec else "ring"
    if spec.startswith("ps"):
        return "ps1" if "servers=1," in spec else "psN"
    return spec.split(":")[0]


def load(csv_path):
    rows = [r for r in csv.DictReader(open(csv_path, newline="")) if r["gst_s"]]
    for r in rows:
        r["alg"] = alg_key(r["algorithm"])
        r["gst_ms"] = float(r["gst_s"]) * 1e3
        r["ideal_ms"] = float(r["ideal_gst_s"]) * 1e3
        r["family"] = r["topology"]
        links = [x for x in r.get("slow-link", "").split(",") if x]
        hosts = [h for h in r.get("slow-hosts", "").split(",") if h]
        if links:
            # the nominal fraction f drawn (round(f L) of the family's L links)
            r["mode"], r["frac"] = "links", round(len(links) / LINKS[r["family"]] * 10) / 10
        elif hosts:
            r["mode"], r["frac"] = "hosts", len(hosts) / HOSTS
        else:
            r["mode"], r["frac"] = "uniform", 0.0
        r["factor"] = float(r["slow-link-fraction"]) if links or hosts else 1.0
        flows = r.get("flows", "")
        r["flows"] = int(os.path.basename(flows)[6:-4]) if flows else 0
    return rows


def curves(rows, mode, backend="fluid"):
    """(family, alg, factor) -> sorted [(fraction, mean, min, max)] over the draws."""
    acc = defaultdict(list)
    for r in rows:
        if r["mode"] not in (mode, "uniform") or r["backend"] != backend or r["flows"] \
                or r["family"] not in FAMILIES:
            continue
        factors = [r["factor"]] if r["frac"] > 0 else [0.5, 0.25]  # f = 0 starts both lines
        for fac in factors:
            acc[(r["family"], r["alg"], fac, r["frac"])].append(r["gst_ms"])
    out = defaultdict(list)
    for (fam, alg, fac, frac), v in acc.items():
        out[(fam, alg, fac)].append((frac, sum(v) / len(v), min(v), max(v)))
    for k in out:
        out[k].sort()
    return out


def plot_fractions(rows, mode, path, xlabel, title):
    c = curves(rows, mode)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6), sharey=True)
    for ax, fam in zip(axes, FAMILIES):
        for alg in ALGS:
            for fac, style in ((0.5, "-"), (0.25, "--")):
                pts = c.get((fam, alg, fac))
                if not pts:
                    continue
                x = [p[0] * 100 for p in pts]
                y = [p[1] for p in pts]
                err = [[max(0, p[1] - p[2]) for p in pts], [max(0, p[3] - p[1]) for p in pts]]
                ax.errorbar(x, y, yerr=err, fmt=style, marker="o", ms=3, capsize=2,
                            color=COLOURS[alg],
                            label=f"{LABELS[alg]}" if fac == 0.5 else None)
        ax.set_yscale("log")
        ax.set_title(TITLES[fam])
        ax.set_xlabel(xlabel)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ideal GST (ms, log), 32 MB, 40 Gb/s")
    handles, labels = axes[2].get_legend_handles_labels()
    handles.append(plt.Line2D([], [], color="k", ls="-"))
    labels.append("slowed to 1/2 rate")
    handles.append(plt.Line2D([], [], color="k", ls="--"))
    labels.append("slowed to 1/4 rate")
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=9, frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return c


def plot_packet(rows, path):
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4), sharey=True)
    cases = [("uniform", 0.0, 0, "uniform"), ("links", 0.3, 0, "30 % links\nat 1/4"),
             ("uniform", 0.0, 8, "8 bg flows"), ("uniform", 0.0, 16, "16 bg flows")]
    table = []
    for ax, fam in zip(axes, FAMILIES):
        algs = [a for a in ALGS if any(r["family"] == fam and r["alg"] == a for r in rows)]
        width = 0.8 / len(algs)
        for i, alg in enumerate(algs):
            ys, ideal = [], []
            for mode, frac, flows, _ in cases:
                pick = [r for r in rows if r["backend"] == "packet" and r["family"] == fam
                        and r["alg"] == alg and r["mode"] == mode and r["flows"] == flows
                        and abs(r["frac"] - frac) < 1e-9
                        and (frac == 0 or r["factor"] == 0.25)]
                ys.append(pick[0]["gst_ms"] if pick else float("nan"))
                ideal.append(pick[0]["ideal_ms"] if pick else float("nan"))
                if pick:
                    table.append((fam, alg, cases.index((mode, frac, flows, _)),
                                  pick[0]["gst_ms"], pick[0]["ideal_ms"],
                                  int(pick[0]["pfc_pause_frames"])))
            x = [j + (i - (len(algs) - 1) / 2) * width for j in range(len(cases))]
            ax.bar(x, ys, width, color=COLOURS[alg], label=LABELS[alg])
            ax.scatter(x, ideal, marker="_", color="k", s=60, zorder=3,
                       label="ideal (fluid)" if i == 0 and fam == FAMILIES[0] else None)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels([c[3] for c in cases])
        ax.set_yscale("log")
        ax.set_title(TITLES[fam] + " (backend: packet level)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("GST (ms, log), 32 MB, 40 Gb/s")
    handles, labels = [], []
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="lower center", ncol=7, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return table, [c[3].replace("\n", " ") for c in cases]


def plot_large(rows, path):
    """Uniform 64- and 128-host networks: packet-level GST (bars) beside the fluid ideal."""
    fams = [f for f in LARGE if any(r["family"] == f for r in rows)]
    if not fams:
        return []
    fig, ax = plt.subplots(figsize=(11, 4.4))
    algs = [a for a in ALGS if any(r["family"] in fams and r["alg"] == a for r in rows)]
    width = 0.8 / len(algs)
    table = []
    for i, alg in enumerate(algs):
        for backend, hatch in (("packet", None), ("fluid", "///")):
            xs, ys = [], []
            for j, fam in enumerate(fams):
                pick = [r for r in rows if r["family"] == fam and r["alg"] == alg
                        and r["backend"] == backend]
                if pick:
                    xs.append(j + (i - (len(algs) - 1) / 2) * width
                              + (-width / 4 if backend == "packet" else width / 4))
                    ys.append(pick[0]["gst_ms"])
                    table.append((fam, alg, backend, pick[0]["gst_ms"],
                                  int(pick[0]["pfc_pause_frames"] or 0)))
            if backend == "packet":
                ax.bar(xs, ys, width / 2, color=COLOURS[alg], label=LABELS[alg])
            else:
                ax.bar(xs, ys, width / 2, color="white", edgecolor=COLOURS[alg], hatch=hatch)
    ax.set_xticks(range(len(fams)))
    ax.set_xticklabels([LARGE_TITLES[f] for f in fams])
    ax.set_yscale("log")
    ax.set_ylabel("GST (ms, log), 32 MB, 40 Gb/s")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    h, lab = ax.get_legend_handles_labels()
    h += [plt.Rectangle((0, 0), 1, 1, facecolor="#888888"),
          plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="#888888", hatch="///")]
    lab += ["backend: packet level (ns-3, RoCEv2 + PFC)", "backend: fluid (ideal GST)"]
    ax.legend(h, lab, fontsize=8, ncol=2, loc="upper left")
    ax.set_title("Uniform links, 64 and 128 hosts: packet level (solid) beside fluid (hatched)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return table


def main():
    csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/trees/trees.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    rows = load(csv_path)
    links = plot_fractions(rows, "links", os.path.join(out, "trees-links.png"),
                           "links slowed (%), random, mean of 3 draws",
                           "Random links slowed (--slow-link on the families): ideal GST "
                           "(backend: fluid)")
    hosts = plot_fractions(rows, "hosts", os.path.join(out, "trees-hosts.png"),
                           "hosts with every link slowed (% of 16), mean of 3 draws",
                           "Slow hosts (--slow-hosts): ideal GST (backend: fluid)")
    table, cases = plot_packet(rows, os.path.join(out, "trees-packet.png"))
    large = plot_large(rows, os.path.join(out, "trees-large.png"))

    summary = os.path.join(os.path.dirname(csv_path), "summary.csv")
    with open(summary, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mode", "family", "algorithm", "rate_factor", "fraction", "gst_ms_mean",
                    "gst_ms_min", "gst_ms_max"])
        for mode, c in (("links", links), ("hosts", hosts)):
            for (fam, alg, fac), pts in sorted(c.items()):
                for frac, mean, lo, hi in pts:
                    w.writerow([mode, fam, alg, fac, frac, f"{mean:.4f}", f"{lo:.4f}",
                                f"{hi:.4f}"])
        for fam, alg, case, gst, ideal, pauses in table:
            w.writerow([f"packet {cases[case]}", fam, alg, "", "", f"{gst:.4f}",
                        f"{ideal:.4f}", pauses])

    for mode, c in (("random links", links), ("slow hosts", hosts)):
        print(f"\nIdeal GST (ms), {mode}, slowed to 1/4 rate (mean of 3 draws):\n")
        fracs = sorted({p[0] for v in c.values() for p in v})
        print("| network | algorithm | " + " | ".join(f"{f * 100:g} %" for f in fracs) + " |")
        print("|---|---|" + "---|" * len(fracs))
        for fam in FAMILIES:
            for alg in ALGS:
                pts = dict((p[0], p[1]) for p in c.get((fam, alg, 0.25), []))
                if pts:
                    print(f"| {TITLES[fam]} | {alg} | " +
                          " | ".join(f"{pts[f]:.2f}" if f in pts else "-" for f in fracs) +
                          " |")
    print("\nPacket-level GST (ms; ideal in brackets; PFC pause frames):\n")
    print("| network | algorithm | " + " | ".join(cases) + " |")
    print("|---|---|" + "---|" * len(cases))
    by = defaultdict(dict)
    for fam, alg, case, gst, ideal, pauses in table:
        by[(fam, alg)][case] = f"{gst:.2f} ({ideal:.2f}; {pauses})"
    for fam in FAMILIES:
        for alg in ALGS:
            if (fam, alg) in by:
                print(f"| {TITLES[fam]} | {alg} | " +
                      " | ".join(by[(fam, alg)].get(i, "-") for i in range(len(cases))) + " |")
    print("\nUniform 64/128-host networks, GST (ms) packet / fluid (PFC pause frames):\n")
    big = defaultdict(dict)
    for fam, alg, backend, gst, pauses in large:
        big[(fam, alg)][backend] = (gst, pauses)
    for (fam, alg), v in sorted(big.items()):
        p, f = v.get("packet"), v.get("fluid")
        print(f"| {LARGE_TITLES[fam]} | {alg} | " + (f"{p[0]:.2f} ({p[1]})" if p else "-") +
              " | " + (f"{f[0]:.2f}" if f else "-") + " |")


if __name__ == "__main__":
    main()
