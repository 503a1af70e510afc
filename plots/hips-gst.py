#!/usr/bin/python3
"""Figures and the reduction table of experiment hips-gst (examples/experiments/hips-gst.py).

Usage: /usr/bin/python3 plots/hips-gst.py [results/hips-gst/hips-gst.csv] [plots]

Writes
  plots/hips-gst.png            ideal (fluid) GST per algorithm per topology, VGG-19, 40 Gb/s
  plots/hips-gst-reduction.png  hips' GST reduction against each baseline, fluid and packet,
                                beside the published bands (Geng et al., NetAI'18)
  plots/hips-gst-packet.png     packet-level GST beside the ideal GST, 40 Gb/s
  plots/hips-gst-rate.png       packet-level reduction against the link rate (MNIST MLP)
  results/hips-gst/reduction.csv  the reductions (every model, rate and backend)
and prints the reduction table (VGG-19, 40 Gb/s) in Markdown for the README.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Published GST reductions of HiPS against the baselines (Geng et al., "HiPS: Hierarchical
# Parameter Synchronization in Large-Scale Distributed Machine Learning", NetAI'18):
# simulation on BCube and Torus, and the BCube(3,1) testbed.
BANDS = {"bcube": (37.5, 61.9), "torus": (49.6, 66.4)}
TESTBED = ("bcube:n=3,k=1", 18.7, 56.4)

# (label, colour) per baseline key; the key of a row is its algorithm option with the PS
# server count folded into "S=1" / "S=N".
STYLE = {
    "hips": ("HiPS", "#d62728"),
    "ring-nics": ("ring, one per NIC (topo order)", "#ff9896"),
    "mesh": ("mesh", "#2ca02c"),
    "ps-N": ("PS, S = N co-located", "#98df8a"),
    "ring": ("ring (one NIC)", "#1f77b4"),
    "ps-1": ("PS, 1 server", "#7f7f7f"),
    "switch-ring": ("ring on a non-blocking switch / fat-tree", "#000000"),
}
BASELINES = ["ring", "mesh", "ps-1", "ps-N", "ring-nics", "switch-ring"]


def key(algorithm):
    if algorithm == "hips":
        return "hips"
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


def reductions(runs, workers):
    out = []
    for (backend, model, rate, topo), algs in sorted(runs.items()):
        if "hips" not in algs:
            continue
        h = float(algs["hips"]["gst_s"])
        base = {k: algs[k] for k in BASELINES if k in algs}
        sw, swt = switch_ring(runs, backend, model, rate, topo, workers)
        if sw is not None:
            base["switch-ring"] = sw
        fam = topo.split(":")[0]
        for k, r in base.items():
            g = float(r["gst_s"])
            out.append({"backend": backend, "model": model, "rate": rate, "topology": topo,
                        "workers": workers[topo], "baseline": k,
                        "baseline_topology": swt if k == "switch-ring" else topo,
                        "hips_gst_s": h, "baseline_gst_s": g,
                        "reduction_pct": round(100 * (1 - h / g), 2),
                        "published_low_pct": BANDS[fam][0], "published_high_pct": BANDS[fam][1]})
    return out


def fig_gst(runs, workers, topos, dst, model="vgg19", rate="40Gbps"):
    order = ["hips", "ring-nics", "mesh", "ps-N", "ring", "ps-1"]
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
    ax.set_title(f"{model_name(model)} at {rate.replace('Gbps', ' Gb/s')}: ideal GST (fluid "
                 "estimator: payload at line rate, max-min fair) per algorithm and topology")
    ax.grid(axis="y", which="both", alpha=0.25)
    ax.legend(fontsize=8, ncol=4, loc="upper left")
    ax.set_ylim(20, 3e4)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def fig_reduction(red, topos, workers, dst, model="vgg19", rate="40Gbps"):
    fams = ["bcube", "torus"]
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True,
                             gridspec_kw={"width_ratios": [4, 8]})
    markers = {"ring": "o", "mesh": "s", "ps-1": "v", "ps-N": "D", "ring-nics": "^",
               "switch-ring": "*"}
    for ax, fam in zip(axes, fams):
        ts = [t for t in topos if t.startswith(fam)]
        lo, hi = BANDS[fam]
        ax.axhspan(lo, hi, color="#ffdd88", alpha=0.5,
                   label=f"published, simulation: {lo}-{hi} %")
        if fam == "bcube" and TESTBED[0] in ts:
            i = ts.index(TESTBED[0])
            ax.fill_between([i - 0.42, i + 0.42], TESTBED[1], TESTBED[2], color="#88bbff",
                            alpha=0.5, label=f"published, BCube(3,1) testbed: "
                                             f"{TESTBED[1]}-{TESTBED[2]} %")
        nb = len(BASELINES)
        for j, b in enumerate(BASELINES):
            off = -0.3 + 0.6 * j / (nb - 1)
            for backend, filled in (("fluid", True), ("packet", False)):
                pts = [(ts.index(r["topology"]) + off, r["reduction_pct"]) for r in red
                       if r["backend"] == backend and r["model"] == model
                       and r["rate"] == rate and r["baseline"] == b and r["topology"] in ts]
                if not pts:
                    continue
                xs, ys = zip(*pts)
                lab = STYLE[b][0] if backend == "fluid" else None
                ax.scatter(xs, ys, marker=markers[b], s=55 if filled else 110,
                           facecolors=STYLE[b][1] if filled else "none",
                           edgecolors="#222222" if filled else STYLE[b][1],
                           linewidths=0.6 if filled else 1.8, label=lab, zorder=3)
        ax.set_xticks(range(len(ts)))
        ax.set_xticklabels([f"{pretty(t)}\nN={workers[t]}" for t in ts], fontsize=8)
        ax.set_xlim(-0.6, len(ts) - 0.4)
        ax.set_title("BCube" if fam == "bcube" else "torus (2-D and 3-D)")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("HiPS' GST reduction against the baseline (%)")
    axes[0].set_ylim(-4, 104)
    h0, l0 = axes[0].get_legend_handles_labels()
    h1, l1 = axes[1].get_legend_handles_labels()
    seen = dict(zip(l0, h0))
    for h, lab in zip(h1, l1):
        seen.setdefault(lab, h)
    seen["packet level (hollow), same baselines"] = plt.Line2D(
        [], [], marker="o", linestyle="none", markerfacecolor="none",
        markeredgecolor="#444444", markersize=9)
    fig.legend(seen.values(), seen.keys(), fontsize=8, ncol=3, loc="lower center")
    fig.suptitle(f"HiPS' GST reduction, {model_name(model)} at {rate.replace('Gbps', ' Gb/s')}: "
                 "ideal/fluid (filled) and packet level (hollow), published bands shaded",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def fig_packet(runs, workers, dst, rate="40Gbps"):
    models = sorted({m for (b, m, r, _) in runs if b == "packet"},
                    key=lambda m: ["vgg19", "vgg16", "mnist-mlp"].index(m)
                    if m in ("vgg19", "vgg16", "mnist-mlp") else 9)
    topos = []
    for (b, _, r, t) in sorted(runs):
        if b == "packet" and r == rate and t not in topos:
            topos.append(t)
    topos.sort(key=lambda t: (t.startswith("fattree"), t))
    if not models or not topos:
        return False
    order = ["hips", "ring-nics", "mesh", "ps-N", "ring", "ps-1"]
    fig, axes = plt.subplots(len(models), 1, figsize=(13, 4.2 * len(models)), squeeze=False)
    for ax, model in zip(axes[:, 0], models):
        labels, x = [], 0
        ticks = []
        for t in topos:
            algs = runs.get(("packet", model, rate, t), {})
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
            ax.text(x - 0.6, 1.02, f"{pretty(t)} (N={workers[t]})", ha="right", va="bottom",
                    transform=ax.get_xaxis_transform(), fontsize=9)
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
    fig.suptitle(f"Packet-level GST beside the ideal at {rate.replace('Gbps', ' Gb/s')} "
                 "(label: packet / ideal)", fontsize=11)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)
    return True


def fig_rate(red, workers, dst, model="mnist-mlp"):
    """Packet-level reduction against link rate for a small model, fluid flat beside it."""
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


def markdown(red, topos, model="vgg19", rate="40Gbps"):
    cols = ["ring", "mesh", "ps-1", "ps-N", "ring-nics", "switch-ring"]
    head = ["topology", "N"] + [STYLE[c][0] for c in cols] + ["published"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in topos:
        rs = {(r["backend"], r["baseline"]): r for r in red
              if r["topology"] == t and r["model"] == model and r["rate"] == rate}
        if not rs:
            continue
        cells = []
        for c in cols:
            f = rs.get(("fluid", c))
            p = rs.get(("packet", c))
            s = f"{f['reduction_pct']:.1f}" if f else "-"
            if p:
                s += f" ({p['reduction_pct']:.1f})"
            cells.append(s)
        fam = t.split(":")[0]
        band = f"{BANDS[fam][0]}-{BANDS[fam][1]}"
        if t == TESTBED[0]:
            band += f"; testbed {TESTBED[1]}-{TESTBED[2]}"
        any_r = next(iter(rs.values()))
        lines.append(f"| {pretty(t)} | {any_r['workers']} | " + " | ".join(cells) +
                     f" | {band} |")
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
    made = ["hips-gst.png", "hips-gst-reduction.png"]
    if fig_packet(runs, workers, os.path.join(out, "hips-gst-packet.png")):
        made.append("hips-gst-packet.png")
    if fig_rate(red, workers, os.path.join(out, "hips-gst-rate.png")):
        made.append("hips-gst-rate.png")
    print(f"wrote {red_path} and " + ", ".join(os.path.join(out, m) for m in made))
    print("\nHiPS' GST reduction (%), VGG-19 at 40 Gb/s: fluid (packet level in brackets)\n")
    print(markdown(red, topos))


if __name__ == "__main__":
    main()
