#!/usr/bin/python3
"""Figures of experiment eflops (examples/experiments/eflops.py).

Usage: /usr/bin/python3 plots/eflops.py [results/eflops/eflops.csv] [plots]

Writes
  plots/eflops-gst.png       GST over the contention-free bound 2(P-1)W/(PB) per algorithm
                             and network: ideal (fluid) for every size, packet level beside
  plots/eflops-steps.png     per-step link collisions of the packet runs
  plots/eflops-server.png    the server model: EFLOPS server against conventional servers
  results/eflops/steps.csv   the per-step collisions (every packet run)
and prints the GST table (ResNet-50 and VGG-19, 40 Gb/s) in Markdown for the README.

A step's collisions: a transfer that moved b bytes in t seconds on links of rate B shared its
bottleneck link with B t / (8 b) flows on average (1.0 = alone at line rate; packet framing
adds ~2 %); the step's figure is the largest over its transfers.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODEL_BYTES = {"vgg19": 574_668_960, "vgg16": 553_430_176, "resnet50": 102_228_128}
MODEL_NAMES = {"vgg19": "VGG-19", "vgg16": "VGG-16", "resnet50": "ResNet-50"}
COLOURS = {"hdrm": "#d62728", "hd": "#1f77b4", "ring": "#2ca02c", "2d-ring": "#9467bd"}
LABELS = {"hdrm": "hdrm (EFLOPS rank mapping)", "hd": "halving-doubling",
          "ring": "ring (natural order)", "2d-ring": "2d-ring (hierarchical)"}


def alg(a):
    return a.split(":")[0]


def rate_bps(rate):
    return float(rate.replace("Gbps", "")) * 1e9


def model_bytes(model):
    """Gradient bytes of a model name or a "bytes:25MB" model (MB = 1e6 bytes)."""
    if model.startswith("bytes:"):
        return int(float(model[6:].replace("MB", "")) * 1e6)
    return MODEL_BYTES[model]


def pretty(topo):
    if topo.startswith("server:"):
        opts, _, net = topo[7:].partition("/")
        kv = dict(a.split("=") for a in opts.split(","))
        kind = "EFLOPS server" if kv["nics"] == kv["gpus"] else \
            f"conventional, {kv['nics']} NIC{'s' if kv['nics'] != '1' else ''}"
        return f"{kind}\n({kv['gpus']} GPUs; {net})"
    fam, _, args = topo.partition(":")
    kv = dict(a.split("=") for a in args.split(","))
    if fam == "bigraph":
        return f"BiGraph s={kv['s']},m={kv['m']}"
    return f"fat-tree k={kv['k']}"


def bound(row):
    """Contention-free GST of an allreduce: 2 (P-1)/P W / B (every host link busy)."""
    p = int(row["workers"])
    return 2 * (p - 1) / p * model_bytes(row["model"]) * 8 / rate_bps(row["rate"])


def read_transfers(path):
    """transfers.csv rows (the algorithm spec is a quoted field: it holds commas)."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def steps(rows, results_dir):
    out = []
    for r in rows:
        if r["backend"] != "packet" or r["exit_code"] not in ("0", "3"):
            continue
        path = os.path.join(results_dir, "out", r["run"], "transfers.csv")
        if not os.path.exists(path):
            continue
        b = rate_bps(r["rate"])
        per = defaultdict(list)
        # A message to a host waits behind the previous one to the same host (one QP per
        # pair, FIFO): its transfer time starts when that one ends, not when it was posted.
        free = {}
        ts = sorted(read_transfers(path), key=lambda t: (float(t["start_s"]), int(t["id"])))
        for t in ts:
            pair = (t["src"], t["dst"])
            start = max(float(t["start_s"]), free.get(pair, 0.0))
            free[pair] = max(free.get(pair, 0.0), float(t["end_s"]))
            dur = float(t["end_s"]) - start
            if int(t["bytes"]) > 0 and dur > 0:
                per[int(t["phase"])].append(b * dur / (8 * int(t["bytes"])))
        for step in sorted(per):
            v = per[step]
            out.append({"topology": r["topology"], "algorithm": alg(r["algorithm"]),
                        "seed": r.get("seed") or "1", "model": r["model"], "rate": r["rate"],
                        "step": step, "transfers": len(v),
                        "max_sharing": round(max(v), 3),
                        "mean_sharing": round(sum(v) / len(v), 3)})
    return out


def fig_gst(rows, dst, model="resnet50", rate="40Gbps", large="bytes:25MB"):
    rows = [r for r in rows if not r["topology"].startswith("server:") and r["gst_s"]]
    fluid = {(r["topology"], alg(r["algorithm"])): r for r in rows
             if r["backend"] == "fluid" and r["model"] == model and r["rate"] == rate}
    packet = defaultdict(list)
    for r in rows:
        if r["backend"] == "packet" and r["model"] in (model, large) and r["rate"] == rate:
            packet[(r["topology"], alg(r["algorithm"]))].append(r)
    topos = []
    for t, _ in fluid:
        if t not in topos:
            topos.append(t)
    topos.sort(key=lambda t: (int(fluid[(t, "ring")]["workers"]), t.startswith("fattree")))
    algs = ["hdrm", "hd", "ring", "2d-ring"]
    fig, ax = plt.subplots(figsize=(12, 4.8))
    w = 0.2
    labelled = set()

    def once(label):
        if label in labelled:
            return None
        labelled.add(label)
        return label

    for j, a in enumerate(algs):
        for i, t in enumerate(topos):
            r = fluid.get((t, a))
            if not r:
                continue
            x = i - 0.3 + j * w
            y = float(r["gst_s"]) / bound(r)
            ax.bar(x, y, w * 0.95, color=COLOURS[a], edgecolor="#333333", linewidth=0.4,
                   label=once(LABELS[a] + " (backend fluid: ideal)"))
            ax.annotate(f"{y:.2f}", (x, y), ha="center", va="bottom", fontsize=7)
            for p in packet.get((t, a), []):
                small = p["model"] == large
                ax.scatter([x], [float(p["gst_s"]) / bound(p)], marker="x" if small else "_",
                           s=70 if small else 160, color="black", zorder=3, linewidths=2,
                           label=once("backend packet level, 25 MB gradient (64, 128 hosts)"
                                      if small else "backend packet level (ns-3; fat-tree "
                                      "k=4: ECMP seeds 1-3)"))
    ax.axhline(1.0, color="#555555", linestyle="dotted", linewidth=1)
    ax.set_xticks(range(len(topos)))
    ax.set_xticklabels([f"{pretty(t)}\nP={fluid[(t, 'ring')]['workers']}" for t in topos],
                       fontsize=8)
    ax.set_ylabel("GST / contention-free bound 2(P-1)W/(PB)")
    ax.set_title(f"{MODEL_NAMES.get(model, model)} allreduce at {rate.replace('Gbps', ' Gb/s')}"
                 ": rank mapping keeps halving-doubling at the bound on BiGraph")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)


def fig_steps(st, dst):
    cases = []
    for s in st:
        c = (s["topology"], s["algorithm"])
        if c not in cases and s["algorithm"] in ("hdrm", "hd"):
            cases.append(c)
    topos = sorted({t for t, _ in cases}, key=lambda t: (t.startswith("fattree"), t))
    if not topos:
        return False
    fig, axes = plt.subplots(1, len(topos), figsize=(4.3 * len(topos), 4), sharey=True,
                             squeeze=False)
    for ax, t in zip(axes[0], topos):
        for a in ("hdrm", "hd"):
            seeds = sorted({s["seed"] for s in st if s["topology"] == t and s["algorithm"] == a})
            for k, seed in enumerate(seeds):
                pts = [(s["step"], s["max_sharing"]) for s in st if s["topology"] == t
                       and s["algorithm"] == a and s["seed"] == seed]
                if not pts:
                    continue
                xs, ys = zip(*pts)
                ax.plot(xs, ys, marker="o", color=COLOURS[a], alpha=1 - 0.25 * k,
                        linestyle=["-", "--", ":"][k % 3],
                        label=LABELS[a] + (f", seed {seed}" if len(seeds) > 1 else ""))
        ax.axhline(1.0, color="#555555", linestyle="dotted", linewidth=1)
        ax.set_title(pretty(t), fontsize=10)
        ax.set_xlabel("step (reduce-scatter, then all-gather)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0, 0].set_ylabel("worst transfer of the step: B t / 8 b\n(~ flows sharing its bottleneck)")
    axes[0, 0].set_ylim(0, None)
    fig.suptitle("Per-step link collisions, backend packet level, 40 Gb/s: ResNet-50 (16 and 32 "
                 "hosts), a 25 MB gradient (64 and 128 hosts)", fontsize=11)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)
    return True


def markdown(rows, st):
    lines = ["| network | P | model | algorithm | ideal GST (ms) | / bound | packet GST (ms) "
             "| / bound | worst step collisions (packet) |", "|" + "---|" * 9]
    worst = defaultdict(float)
    for s in st:
        k = (s["topology"], s["algorithm"], s["model"])
        worst[k] = max(worst[k], s["max_sharing"])
    fluid = [r for r in rows if r["backend"] == "fluid" and r["rate"] == "40Gbps" and r["gst_s"]
             and not r["topology"].startswith("server:")]
    fluid.sort(key=lambda r: (r["model"], int(r["workers"]), r["topology"].startswith("fat"),
                              r["topology"], ["hdrm", "hd", "ring", "2d-ring"].index(
                                  alg(r["algorithm"]))))
    for r in fluid:
        a = alg(r["algorithm"])
        ps = [p for p in rows if p["backend"] == "packet" and p["topology"] == r["topology"]
              and alg(p["algorithm"]) == a and p["model"] == r["model"]
              and p["rate"] == r["rate"] and p["gst_s"]]
        pg = " / ".join(f"{float(p['gst_s']) * 1e3:.1f}" for p in ps) or "-"
        pb = " / ".join(f"{float(p['gst_s']) / bound(p):.2f}" for p in ps) or "-"
        k = (r["topology"], a, r["model"])
        wc = f"{worst[k]:.2f}" if k in worst else "-"
        lines.append(f"| {pretty(r['topology'])} | {r['workers']} | "
                     f"{MODEL_NAMES.get(r['model'], r['model'])} | {a} | "
                     f"{float(r['gst_s']) * 1e3:.1f} | {float(r['gst_s']) / bound(r):.2f} | "
                     f"{pg} | {pb} | {wc} |")
    return "\n".join(lines)


SERVER_ORDER = ["ring", "hd", "2d-ring", "mesh"]


def fig_server(rows, dst):
    """The server model: GST per algorithm and server kind, fluid bars and packet markers,
    label = GST over the EFLOPS server's on the same fabric."""
    rows = [r for r in rows if r["topology"].startswith("server:") and r["gst_s"]]
    topos = sorted({r["topology"] for r in rows},
                   key=lambda t: ("bigraph" in t, -int(t.split("nics=")[1].split("/")[0])))
    if not topos:
        return []
    fig, ax = plt.subplots(figsize=(12, 4.8))
    w = 0.8 / len(SERVER_ORDER)
    table = []
    gst = {(r["topology"], alg(r["algorithm"]), r["backend"]): float(r["gst_s"]) for r in rows}
    ref = {a: {b: gst.get((topos[0], a, b)) for b in ("fluid", "packet")}
           for a in SERVER_ORDER}
    for j, a in enumerate(SERVER_ORDER):
        for i, t in enumerate(topos):
            x = i - 0.4 + (j + 0.5) * w
            f, p = gst.get((t, a, "fluid")), gst.get((t, a, "packet"))
            if f:
                ax.bar(x, f * 1e3, w * 0.95, color=COLOURS.get(a, "#ff7f0e"),
                       edgecolor="#333333", linewidth=0.4,
                       label=f"{LABELS.get(a, a)} (backend fluid)" if i == 0 else None)
            if p:
                ax.scatter([x], [p * 1e3], marker="D", s=28, facecolors="white",
                           edgecolors="black", zorder=3,
                           label="backend packet level (ns-3, PFC in the PCIe switches)"
                           if i == 0 and j == 0 else None)
                if ref[a]["packet"]:
                    ax.annotate(f"{p / ref[a]['packet']:.1f}x", (x, p * 1e3), ha="center",
                                va="bottom", fontsize=7, xytext=(0, 4),
                                textcoords="offset points")
            table.append((t, a, f, p, ref[a]["fluid"], ref[a]["packet"]))
    ax.set_yscale("log")
    ax.set_xticks(range(len(topos)))
    ax.set_xticklabels([pretty(t) for t in topos], fontsize=8)
    ax.set_ylabel("GST (ms, log)")
    ax.set_title("ResNet-50 allreduce over 32 GPUs (4 servers x 8), PCIe 126 Gb/s, NICs 100 Gb/s"
                 ": label = packet GST / EFLOPS server's", fontsize=10)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", ncol=2)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    plt.close(fig)
    return table


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/eflops/eflops.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "plots"
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    bad = [r for r in rows if r["exit_code"] not in ("0", "3")]
    if bad:
        print(f"{src}: {len(bad)} failed run(s) left out", file=sys.stderr)
    results_dir = os.path.dirname(src)
    st = steps(rows, results_dir)
    made = []
    if st:
        with open(os.path.join(results_dir, "steps.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(st[0]))
            w.writeheader()
            w.writerows(st)
        made.append(os.path.join(results_dir, "steps.csv"))
    fig_gst(rows, os.path.join(out, "eflops-gst.png"))
    made.append(os.path.join(out, "eflops-gst.png"))
    if fig_steps(st, os.path.join(out, "eflops-steps.png")):
        made.append(os.path.join(out, "eflops-steps.png"))
    server = fig_server(rows, os.path.join(out, "eflops-server.png"))
    if server:
        made.append(os.path.join(out, "eflops-server.png"))
    print("wrote " + ", ".join(made))
    print("\nServer model: GST (ms) fluid / packet, and over the EFLOPS server's:\n")
    for t, a, f, p, rf, rp in server:
        fs = f"{f * 1e3:.2f}" if f else "-"
        ps = f"{p * 1e3:.2f}" if p else "-"
        rat = (f"{f / rf:.2f}x" if f and rf else "-") + " / " + \
              (f"{p / rp:.2f}x" if p and rp else "-")
        print(f"| {pretty(t).replace(chr(10), ' ')} | {a} | {fs} | {ps} | {rat} |")
    print("\nGST at 40 Gb/s (bound = 2(P-1)W/(PB); packet runs on the fat-tree: seeds 1/2/3)\n")
    print(markdown(rows, st))


if __name__ == "__main__":
    main()
