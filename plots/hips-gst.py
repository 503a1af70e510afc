#!/usr/bin/python3
"""Figures and the reduction table of experiment hips-gst (examples/experiments/hips-gst.py).

Usage: /usr/bin/python3 plots/hips-gst.py [results/hips-gst/hips-gst.csv] [plots]

Writes
  plots/hips-gst.png            ideal (fluid) GST per algorithm per topology, VGG-19, 40 Gb/s
  plots/hips-gst-reduction.png  hips' GST reduction against each baseline, fluid and packet,
                                each published band (Geng et al., NetAI'18) beside the
                                baselines it was measured against
  plots/hips-gst-ablation.png   hips rotate x bidir against the one-NIC ring, fluid and packet
  plots/hips-gst-packet.png     packet-level GST beside the ideal GST, 40 Gb/s
  plots/hips-gst-rate.png       packet-level reduction against the link rate (MNIST MLP)
  results/hips-gst/reduction.csv  the reductions (every model, rate and backend)
and prints the reduction and ablation tables (64 MB, 40 Gb/s) in Markdown for the README.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Published GST reductions of HiPS (Geng et al., "HiPS: Hierarchical Parameter Synchronization
# in Large-Scale Distributed Machine Learning", NetAI'18, and its slides), each with the
# baselines it was measured against. Simulation: HiPS on BCube / torus against the flat
# algorithms (ring, mesh) on the same network (our reading: the PS with one server is far
# outside both bands, so it is not among them). Testbed (BCube(3,1), 9 servers): against ring
# allreduce on a ring network and mesh on a fat-tree (slide 29); ours: ring on ring:n=9 and
# mesh on star:n=9, the non-blocking switch a full-bisection 9-host fat-tree amounts to.
BANDS = {"bcube": (37.5, 61.9), "torus": (49.6, 66.4)}
BAND_BASELINES = ["ring", "mesh"]
TESTBED = ("bcube:n=3,k=1", 18.7, 56.4)
TESTBED_BASELINES = ["testbed-ring", "testbed-mesh"]

# (label, colour) per key: one colour per legend entry. A row's key is its algorithm option
# with hips' ablation and the PS server count folded in.
STYLE = {
    "hips": ("HiPS (rotate=1, bidir=1: default)", "#d62728"),
    "hips-r1b0": ("HiPS rotate=1, bidir=0", "#ff7f0e"),
    "hips-r0b1": ("HiPS rotate=0, bidir=1", "#bcbd22"),
    "hips-r0b0": ("HiPS rotate=0, bidir=0 (one NIC at a time)", "#8c564b"),
    "ring-nics": ("ring, one per NIC (topo order)", "#e377c2"),
    "mesh": ("mesh (= PS with S = N co-located)", "#2ca02c"),
    "ring": ("ring (one NIC)", "#1f77b4"),
    "ps-1": ("PS, 1 server", "#7f7f7f"),
    "switch-ring": ("ring on a non-blocking switch / fat-tree", "#000000"),
    "testbed-ring": ("ring on a ring network (ring:n=N)", "#17becf"),
    "testbed-mesh": ("mesh on a non-blocking switch (star:n=N)", "#9467bd"),
}
VARIANTS = ["hips", "hips-r1b0", "hips-r0b1", "hips-r0b0"]
BASELINES = ["ring", "mesh", "ps-1", "ring-nics", "switch-ring"] + TESTBED_BASELINES
BAND_COLOURS = {"bcube": "#ffdd88", "torus": "#ffc0a0", "testbed": "#a8c8ff"}
# (variant, testbed baseline) pairs: dark = vs the ring network, light = vs the switch's mesh
PAIR_COLOURS = ["#d62728", "#ff9896", "#ff7f0e", "#ffbb78", "#bcbd22", "#dbdb8d", "#8c564b",
                "#c49c94"]


def key(algorithm):
    if algorithm.startswith("hips"):
        if algorithm == "hips":
            return "hips"
        kv = dict(a.split("=") for a in algorithm.partition(":")[2].split(","))
        r, b = kv.get("rotate", "1"), kv.get("bidir", "1")
        return "hips" if (r, b) == ("1", "1") else f"hips-r{r}b{b}"
    if algorithm.startswith("ring:") and "nics=all" in algorithm:
        return "ring-nics"
    if algorithm.startswith("ps:servers=1,"):
        return "ps-1"
    if algorithm.startswith("ps:"):
        return "ps-N"
    return algorithm


MODEL_NAMES = {"vgg16": "VGG-16", "vgg19": "VGG-19", "mnist-mlp": "MNIST MLP",
               "resnet50": "ResNet-50"}


def model_name(model):
    if model.startswith("bytes:"):
        return f"a {model[6:].replace('MB', ' MB')} gradient"
    return MODEL_NAMES.get(model, model)


def pretty(topo):
    fam, _, args = topo.partition(":")
    kv = dict(a.split("=") for a in args.split(","))
    if fam == "bcube":
        return f"BCube({kv['n']},{kv['k']})"
    if fam == "torus":
        return f"torus {kv['dims']}"
    if fam == "fattree":
        return f"fat-tree k={kv['k']}"
    if fam == "ring":
        return "ring net"
    if fam == "star":
        return "switch"
    return topo


def load(path):
    runs = defaultdict(dict)  # (backend, model, rate, topology) -> key -> row
    workers = {}
    failed = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["exit_code"] not in ("0", "3") or not r["gst_s"]:
                failed.append(r)
                continue
            runs[(r["backend"], r["model"], r["rate"], r["topology"])][key(r["algorithm"])] = r
            workers[r["topology"]] = int(r["workers"])
    return runs, workers, failed


def server_centric(runs):
    topos = []
    for (_, _, _, t) in runs:
        if t.split(":")[0] in BANDS and t not in topos:
            topos.append(t)
    fam_order = {"bcube": 0, "torus": 1}
    return sorted(topos, key=lambda t: (fam_order[t.split(":")[0]], t.count("x"),
                                        len(t), t))


def switch_ring(runs, backend, model, rate, topo, workers):
    """GST of the ring on the fat-tree with as many hosts, else on the non-blocking switch."""
    n = workers[topo]
    for t, w in workers.items():
        if t.startswith("fattree:") and w == n and "ring" in runs.get(
                (backend, model, rate, t), {}):
            return runs[(backend, model, rate, t)]["ring"], t
    r = runs.get((backend, model, rate, f"star:n={n}"), {}).get("ring")
    return r, f"star:n={n}"


def testbed_baseline(runs, backend, model, rate, n, k):
    """The testbed band's baselines for N = n hosts: ring on ring:n=N, mesh on star:n=N."""
    topo, alg = (f"ring:n={n}", "ring") if k == "testbed-ring" else (f"star:n={n}", "mesh")
    return runs.get((backend, model, rate, topo), {}).get(alg), topo


def reductions(runs, workers):
    out = []
    for (backend, model, rate, topo), algs in sorted(runs.items()):
        fam = topo.split(":")[0]
        if fam not in BANDS:
            continue
        base = {k: (algs[k], topo) for k in BASELINES if k in algs}
        sw, swt = switch_ring(runs, backend, model, rate, topo, workers)
        if sw is not None:
            base["switch-ring"] = (sw, swt)
        for k in TESTBED_BASELINES if topo == TESTBED[0] else []:
            r, t = testbed_baseline(runs, backend, model, rate, workers[topo], k)
            if r is not None:
                base[k] = (r, t)
        for v in VARIANTS:
            if v not in algs:
                continue
            h = float(algs[v]["gst_s"])
            for k, (r, bt) in base.items():
                g = float(r["gst_s"])
                band = (BANDS[fam] if k in BAND_BASELINES else
                        TESTBED[1:] if k in TESTBED_BASELINES and topo == TESTBED[0] else
                        ("", ""))
                out.append({"backend": backend, "model": model, "rate": rate,
                            "topology": topo, "workers": workers[topo], "hips": v,
                            "baseline": k, "baseline_topology": bt, "hips_gst_s": h,
                            "baseline_gst_s": g, "reduction_pct": round(100 * (1 - h / g), 2),
                            "published_low_pct": band[0], "published_high_pct": band[1]})
    return out


def fig_gst(runs, workers, topos, dst, model="vgg19", rate="40Gbps"):
    order = ["hips", "ring-nics", "mesh", "ring", "ps-1"]
    fig, ax = plt.subplots(figsize=(13, 5))
    w = 0.8 / len(order)
    for j, k in enumerate(order):
        xs, ys = [], []
        for i, t in enumerate(topos):
            r = runs.get(("fluid", model, rate, t), {}).get(k)
            if r:
                xs.append(i - 0.4 + (j + 0.5) * w)
                ys.append(float(r["gst_s"]) * 1e3)
        ax.bar(xs, ys, w, label=STYLE[k][0], color=STYLE[k][1], edgecolor="#333333",
               linewidth=0.4)
    for i, t in enumerate(topos):
        r, swt = switch_ring(runs, "fluid", model, rate, t, workers)
        if r:
            ax.hlines(float(r["gst_s"]) * 1e3, i - 0.45, i + 0.45, colors="black",
                      linestyles="dashed", linewidth=1.2,
                      label=STYLE["switch-ring"][0] + " (same N; ring = mesh there)"
                      if i == 0 else None)
    ax.set_yscale("log")
    ax.set_xticks(range(len(topos)))
    ax.set_xticklabels([f"{pretty(t)}\nN={workers[t]}" for t in topos], fontsize=8)
    ax.set_ylabel("ideal GST (ms, log scale)")
    ax.set_title(f"{model_name(model)} at {rate.replace('Gbps', ' Gb/s')}: ideal GST (backend: "
                 "fluid estimator, payload at line rate, max-min fair) per algorithm")
    ax.grid(axis="y", which="both", alpha=0.25)
    ax.legend(fontsize=8, ncol=3, loc="upper left")
    ax.set_ylim(20, 3e4)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def scatter_reduction(ax, red, ts, baselines, model, rate, variants=("hips",)):
    """HiPS' reduction against `baselines` on topologies `ts`: filled = fluid, hollow =
    packet level; one x slot per (variant, baseline) inside each topology's column."""
    markers = {"ring": "o", "mesh": "s", "ps-1": "v", "ring-nics": "^", "switch-ring": "*",
               "testbed-ring": "o", "testbed-mesh": "s"}
    slots = [(v, b) for v in variants for b in baselines]
    for j, (v, b) in enumerate(slots):
        off = 0 if len(slots) == 1 else -0.32 + 0.64 * j / (len(slots) - 1)
        for backend, filled in (("fluid", True), ("packet", False)):
            pts = [(ts.index(r["topology"]) + off, r["reduction_pct"]) for r in red
                   if r["backend"] == backend and r["model"] == model and r["rate"] == rate
                   and r["baseline"] == b and r["hips"] == v and r["topology"] in ts]
            if not pts:
                continue
            xs, ys = zip(*pts)
            colour = STYLE[b][1] if len(variants) == 1 else PAIR_COLOURS[j % len(PAIR_COLOURS)]
            lab = (f"vs {STYLE[b][0]}" if len(variants) == 1 else
                   f"{STYLE[v][0]} vs {STYLE[b][0].split(' (')[0]}")
            ax.scatter(xs, ys, marker=markers[b], s=55 if filled else 110,
                       facecolors=colour if filled else "none",
                       edgecolors="#222222" if filled else colour,
                       linewidths=0.6 if filled else 1.8,
                       label=lab if backend == "fluid" else None, zorder=3)
    ax.set_xticks(range(len(ts)))
    ax.set_xticklabels([f"{pretty(t)}" for t in ts], fontsize=8, rotation=20)
    ax.set_xlim(-0.6, len(ts) - 0.4)
    ax.grid(axis="y", alpha=0.3)


def fig_reduction(red, topos, workers, dst, model="bytes:64MB", rate="40Gbps"):
    """One panel per published band, each band beside only the baselines it was measured
    against; the other baselines in a last panel without a band."""
    bc = [t for t in topos if t.startswith("bcube")]
    to = [t for t in topos if t.startswith("torus")]
    fig, axes = plt.subplots(1, 4, figsize=(18, 5.8), sharey=True,
                             gridspec_kw={"width_ratios": [4, 8, 4, 12]})
    for ax, fam, ts in ((axes[0], "bcube", bc), (axes[1], "torus", to)):
        lo, hi = BANDS[fam]
        ax.axhspan(lo, hi, color=BAND_COLOURS[fam], alpha=0.6,
                   label=f"published, {fam} simulation: {lo}-{hi} %")
        scatter_reduction(ax, red, ts, BAND_BASELINES, model, rate)
        ax.set_title(f"{'BCube' if fam == 'bcube' else 'torus'} simulation band:\nvs ring and "
                     "mesh on the same network", fontsize=9)
    ax = axes[2]
    ax.axhspan(TESTBED[1], TESTBED[2], color=BAND_COLOURS["testbed"], alpha=0.6,
               label=f"published, BCube(3,1) testbed: {TESTBED[1]}-{TESTBED[2]} %")
    scatter_reduction(ax, red, [TESTBED[0]], TESTBED_BASELINES, model, rate, VARIANTS)
    ax.set_title("testbed band: vs ring on a ring\nand mesh on a switch (N = 9)", fontsize=9)
    ax = axes[3]
    scatter_reduction(ax, red, bc + to, ["ps-1", "ring-nics", "switch-ring"], model, rate)
    ax.set_title("baselines without a published band", fontsize=9)
    axes[0].set_ylabel("HiPS' GST reduction against the baseline (%)")
    axes[0].set_ylim(-4, 104)
    seen = {}
    for a in axes:
        for h, lab in zip(*a.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    seen["backend: packet level (hollow), fluid (filled)"] = plt.Line2D(
        [], [], marker="o", linestyle="none", markerfacecolor="none",
        markeredgecolor="#444444", markersize=9)
    fig.legend(seen.values(), seen.keys(), fontsize=8, ncol=3, loc="lower center")
    fig.suptitle(f"HiPS' GST reduction, {model_name(model)} at "
                 f"{rate.replace('Gbps', ' Gb/s')}: each published band beside the baselines "
                 "it was measured against (backend: fluid filled, packet hollow)", fontsize=11)
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def fig_ablation(runs, workers, topos, dst, model="bytes:64MB", rate="40Gbps"):
    """GST of hips' rotate x bidir variants, the one-NIC ring and the ring per NIC, relative
    to the one-NIC ring: fluid bars, packet-level diamonds."""
    order = ["hips", "hips-r1b0", "hips-r0b1", "hips-r0b0", "ring-nics", "ring"]
    fig, ax = plt.subplots(figsize=(14, 5))
    w = 0.8 / len(order)
    for j, k in enumerate(order):
        for backend in ("fluid", "packet"):
            xs, ys = [], []
            for i, t in enumerate(topos):
                algs = runs.get((backend, model, rate, t), {})
                if k in algs and "ring" in algs:
                    xs.append(i - 0.4 + (j + 0.5) * w)
                    ys.append(float(algs[k]["gst_s"]) / float(algs["ring"]["gst_s"]))
            if backend == "fluid":
                ax.bar(xs, ys, w, label=STYLE[k][0], color=STYLE[k][1], edgecolor="#333333",
                       linewidth=0.4)
            elif xs:
                ax.scatter(xs, ys, marker="D", s=30, facecolors="white",
                           edgecolors="#000000", linewidths=1.0, zorder=3,
                           label="backend: packet level (ns-3), same bar" if j == 0 else None)
    ax.set_xticks(range(len(topos)))
    ax.set_xticklabels([f"{pretty(t)}\nN={workers[t]}" for t in topos], fontsize=8)
    ax.set_ylabel("GST / one-NIC ring's GST (same backend)")
    ax.set_title(f"HiPS ablation, {model_name(model)} at {rate.replace('Gbps', ' Gb/s')}: bars = "
                 "backend fluid (ideal), diamonds = backend packet level")
    ax.grid(axis="y", alpha=0.3)
    ax.set_ylim(0, 1.25)
    ax.legend(fontsize=8, ncol=4, loc="upper left")
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def fig_packet(runs, workers, dst, rate="40Gbps"):
    models = sorted({m for (b, m, r, _) in runs if b == "packet"},
                    key=lambda m: ["bytes:64MB", "vgg19", "mnist-mlp"].index(m)
                    if m in ("bytes:64MB", "vgg19", "mnist-mlp") else 9)
    topos = []
    for (b, _, r, t) in sorted(runs):
        if b == "packet" and r == rate and t not in topos:
            topos.append(t)
    topos.sort(key=lambda t: (t.split(":")[0] in ("fattree", "ring", "star"), t))
    if not models or not topos:
        return False
    order = ["hips", "ring-nics", "mesh", "ring", "ps-1"]
    fig, axes = plt.subplots(len(models), 1, figsize=(13, 4.2 * len(models)), squeeze=False)
    for ax, model in zip(axes[:, 0], models):
        labels, x = [], 0
        ticks = []
        for t in topos:
            algs = runs.get(("packet", model, rate, t), {})
            x0 = x
            for k in order:
                if k not in algs:
                    continue
                r = algs[k]
                g, i = float(r["gst_s"]) * 1e3, float(r["ideal_gst_s"]) * 1e3
                ax.bar(x - 0.2, g, 0.4, color=STYLE[k][1], edgecolor="#333333",
                       linewidth=0.4)
                ax.bar(x + 0.2, i, 0.4, color="white", edgecolor=STYLE[k][1], hatch="///",
                       linewidth=1)
                ax.annotate(f"{g / i:.2f}x", (x - 0.2, g), ha="center", va="bottom",
                            fontsize=7)
                ticks.append(x)
                labels.append(STYLE[k][0].split(" (")[0].replace(", one per NIC", "/NIC")
                              .replace(" co-located", ""))
                x += 1
            ax.axvline(x - 0.5, color="#999999", linewidth=0.8)
            ax.text((x0 + x - 1) / 2, 1.02, f"{pretty(t)} (N={workers[t]})", ha="center",
                    va="bottom", transform=ax.get_xaxis_transform(), fontsize=8)
            x += 0.5
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel(f"{model_name(model)} GST (ms, log)")
        ax.grid(axis="y", which="both", alpha=0.25)
        ax.set_xlim(-0.7, x - 0.8)
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor="#888888", edgecolor="#333333"),
               plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="#888888",
                             hatch="///")]
    axes[0, 0].legend(handles, ["packet-level GST (ns-3, RoCEv2 + PFC, no CC)",
                                "ideal GST (fluid) of the same plan"], fontsize=8,
                      loc="upper left")
    fig.suptitle(f"Backend packet level (solid) beside backend fluid (hatched) at "
                 f"{rate.replace('Gbps', ' Gb/s')} (label: packet / ideal)", fontsize=11)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)
    return True


def fig_rate(red, workers, dst, model="mnist-mlp"):
    """Packet-level reduction against link rate for a small model, fluid flat beside it."""
    red = [r for r in red if r["hips"] == "hips"]
    pk = [r for r in red if r["backend"] == "packet" and r["model"] == model]
    topos = []
    for r in pk:
        if r["topology"] not in topos and r["topology"].split(":")[0] in BANDS:
            topos.append(r["topology"])
    rates = sorted({r["rate"] for r in pk}, key=lambda x: float(x.replace("Gbps", "")))
    if len(rates) < 2 or not topos:
        return False
    gbps = lambda x: float(x.replace("Gbps", ""))  # noqa: E731
    fig, axes = plt.subplots(1, len(topos), figsize=(4.4 * len(topos), 4.2), sharey=True,
                             squeeze=False)
    for ax, t in zip(axes[0], topos):
        lo, hi = BANDS[t.split(":")[0]]
        ax.axhspan(lo, hi, color="#ffdd88", alpha=0.5, label=f"published: {lo}-{hi} %")
        for b in ("ring", "mesh", "ring-nics", "ps-1"):
            pts = sorted((gbps(r["rate"]), r["reduction_pct"]) for r in pk
                         if r["topology"] == t and r["baseline"] == b)
            fl = [r["reduction_pct"] for r in red if r["backend"] == "fluid"
                  and r["model"] == model and r["topology"] == t and r["baseline"] == b]
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker="o", color=STYLE[b][1], label=f"vs {STYLE[b][0]}")
            if fl:
                ax.axhline(fl[0], color=STYLE[b][1], linestyle="dotted", linewidth=1.2)
        ax.set_xscale("log")
        ax.set_xticks([gbps(r) for r in rates])
        ax.set_xticklabels([r.replace("Gbps", "") for r in rates])
        ax.set_xlabel("link rate (Gb/s)")
        ax.set_title(f"{pretty(t)} (N={workers[t]})", fontsize=10)
        ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel("HiPS' GST reduction (%)")
    axes[0, 0].set_ylim(-4, 104)
    h, lab = axes[0, 0].get_legend_handles_labels()
    h2, lab2 = axes[0, -1].get_legend_handles_labels()
    fig.legend(h + h2[:1], lab + lab2[:1], fontsize=8, ncol=6, loc="lower center")
    fig.suptitle(f"HiPS' reduction with the {model_name(model)} (packet level, "
                 "solid) against the rate: the reduction moves with latency; fluid (dotted) "
                 "does not", fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(dst, dpi=120)
    plt.close(fig)
    return True


def cell(rs, c):
    f, p = rs.get(("fluid", c)), rs.get(("packet", c))
    text = f"{f['reduction_pct']:.1f}" if f else "-"
    return text + (f" ({p['reduction_pct']:.1f})" if p else "")


def markdown(red, topos, model="bytes:64MB", rate="40Gbps"):
    cols = ["ring", "mesh", "ps-1", "ring-nics", "switch-ring"]
    head = ["topology", "N"] + [STYLE[c][0] for c in cols] + ["published (vs ring, mesh)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in topos:
        rs = {(r["backend"], r["baseline"]): r for r in red if r["topology"] == t and
              r["model"] == model and r["rate"] == rate and r["hips"] == "hips"}
        if not rs:
            continue
        fam = t.split(":")[0]
        any_r = next(iter(rs.values()))
        lines.append(f"| {pretty(t)} | {any_r['workers']} | " +
                     " | ".join(cell(rs, c) for c in cols) +
                     f" | {BANDS[fam][0]}-{BANDS[fam][1]} |")
    return "\n".join(lines)


def markdown_ablation(red, topos, model="bytes:64MB", rate="40Gbps"):
    """Per topology and hips variant: reduction against the one-NIC ring, mesh, the ring per
    NIC and (BCube(3,1)) the testbed's baselines."""
    cols = ["ring", "mesh", "ring-nics", "testbed-ring", "testbed-mesh"]
    head = ["topology", "HiPS variant"] + [STYLE[c][0] for c in cols]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in topos:
        for v in VARIANTS:
            rs = {(r["backend"], r["baseline"]): r for r in red if r["topology"] == t and
                  r["model"] == model and r["rate"] == rate and r["hips"] == v}
            if rs:
                lines.append(f"| {pretty(t)} | {v} | " + " | ".join(cell(rs, c) for c in cols)
                             + " |")
    return "\n".join(lines)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/hips-gst/hips-gst.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    runs, workers, failed = load(src)
    if failed:
        print(f"{src}: {len(failed)} failed run(s) left out", file=sys.stderr)
    topos = server_centric(runs)
    if not topos:
        sys.exit(f"{src}: no hips run on a BCube or torus")
    red = reductions(runs, workers)
    red_path = os.path.join(os.path.dirname(src), "reduction.csv")
    with open(red_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(red[0]))
        w.writeheader()
        w.writerows(red)
    fig_gst(runs, workers, topos, os.path.join(out, "hips-gst.png"))
    fig_reduction(red, topos, workers, os.path.join(out, "hips-gst-reduction.png"))
    fig_ablation(runs, workers, topos, os.path.join(out, "hips-gst-ablation.png"))
    made = ["hips-gst.png", "hips-gst-reduction.png", "hips-gst-ablation.png"]
    if fig_packet(runs, workers, os.path.join(out, "hips-gst-packet.png")):
        made.append("hips-gst-packet.png")
    if fig_rate(red, workers, os.path.join(out, "hips-gst-rate.png")):
        made.append("hips-gst-rate.png")
    print(f"wrote {red_path} and " + ", ".join(os.path.join(out, m) for m in made))
    print("\nHiPS' GST reduction (%), 64 MB at 40 Gb/s: fluid (packet level in brackets)\n")
    print(markdown(red, topos))
    print("\nAblation: reduction (%) of each HiPS variant, 64 MB at 40 Gb/s, fluid (packet)\n")
    print(markdown_ablation(red, topos))


if __name__ == "__main__":
    main()
