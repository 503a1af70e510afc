#!/usr/bin/python3
"""Fit the packet backend's bytes per object of helper/resource-estimate.cc to peak RSS.

Usage: /usr/bin/python3 bench/fit_resource_estimate.py BUILD_DIR [--reps=N] [--fluid]

Runs the calibration cases named in the constants' comment of helper/resource-estimate.cc,
measures each one's peak RSS (os.wait4, ru_maxrss; the median of --reps=N runs, 3 by default:
the same run's peak varies by up to 2 MB on a shared machine), reads the counts the estimate uses from
`paramsync --estimate=1`, fits the constants and prints them with a table: case, measured,
estimated with the fitted constants, error %. --fluid adds the fluid cases, checked against
the fluid constants as they are (they are not refitted here).

The fit goes in stages, each on cases where its objects dominate:
  1. kBase: star:n=2 --algorithm=ring --model=bytes:1KB (the process with ns-3).
  2. kPacket: an incast (32 senders, one 40 MB flow each, into one host of star:n=33) with
     the switch buffer at 16, 64, 256, 512 MB and 1 GB. PFC holds a share of the buffer per ingress
     port, so the frames that exist grow with it (the driver's --in-flight-sample peak,
     frames_in_flight_peak) while nothing else changes: the slope of peak RSS against that
     peak is the bytes per frame in flight. The runs also keep every PFC pause they saw
     (36-39 k, 18 k at 1 GB), which the estimate's memory line does not count (the count is
     known only after the run): their cost as --estimate prints it (per pause) is taken off
     each run's peak before the fit.
  3. kDevice, kRouteEntry: --algorithm=none with one 1000 B flow on fat-trees, stars, tori
     and a BCube; the rest of the estimate (base, packets, the flow) is subtracted first.
  4. kTransfer, kQueuePair: ring (N queue pairs) and mesh (N (N - 1)) on star:n=64 and 128
     with bytes:64KB, after subtracting everything else the estimate counts.
Not fitted, checked: the demo's mesh and the VGG-19 ring with 1 MB buffers on BCube(3,1),
which pause a lot. Every case's table row has its pause frames (pfc_pause_frames, summed
over the run's lines) and the estimate plus what `--estimate` prints beside it for them
(the pause state of every port and the cost per pause: ResourceEstimate::BytesWithPauses),
which should not be below the measured peak.
Stages 3 and 4 are least squares on the relative error (each residual divided by the run's
peak RSS), so a 14 MB run weighs as much as a 200 MB one; they are repeated until the
constants settle, since each subtracts the other's objects.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

# Bytes of a TransferRecord row: not measured (helper/resource-estimate.cc, kTransferRow).
TRANSFER_ROW = 80
# Transfers x workers above which the fluid backend runs a round form (kRoundFormAbove).
ROUND_FORM_ABOVE = 1 << 27

ONE_FLOW_TOPOLOGIES = [
    "fattree:k=4",
    "fattree:k=8",
    "fattree:k=12",
    "fattree:k=16",
    "star:n=256",
    "star:n=512",
    "torus:dims=16x16",
    "torus:dims=24x24",
    "bcube:n=8,k=1",
]
PLAN_CASES = [(alg, n) for n in (64, 128) for alg in ("ring", "mesh")]
INCAST_BUFFERS = ["16MB", "64MB", "256MB", "512MB", "1GB"]
# Runs that pause a lot, not fitted: their peak against the estimate plus the pauses'
# cost it prints (the demo's mesh, and the VGG-19 ring with 1 MB buffers).
PAUSE_CASES = [
    ("demo mesh bcube:n=3,k=1 vgg19",
     ["--topology=bcube:n=3,k=1", "--rate=40Gbps", "--delay=1us", "--model=vgg19",
      "--algorithm=mesh", "--mtu=4096", "--cc=none", "--pfc=1"]),
    ("ring bcube:n=3,k=1 vgg19 --buffer=1MB",
     ["--topology=bcube:n=3,k=1", "--algorithm=ring", "--model=vgg19", "--buffer=1MB"]),
]
FLUID_CASES = [
    ("torus:dims=16x16", "ps"),
    ("torus:dims=32x32", "ps"),
    ("torus:dims=64x64", "ps"),
    ("fattree:k=16", "ps"),
    ("fattree:k=24", "ps"),
    ("star:n=64", "mesh"),
    ("star:n=128", "mesh"),
    ("fattree:k=36", "ring"),
    ("fattree:k=64", "ring"),
    ("torus:dims=256x256", "ring"),
]


def usage_error(message):
    sys.stderr.write("fit_resource_estimate.py: %s\n" % message)
    sys.exit(2)


def run_once(argv):
    """Runs argv; returns (stdout, peak RSS in bytes) from the child's rusage."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if proc.returncode != 0:
        sys.stderr.write("%s: exit %d\n%s" % (" ".join(argv), proc.returncode, err))
        sys.exit(1)
    return text, usage.ru_maxrss * 1024  # Linux reports KiB


def run_measured(argv, reps):
    """Runs argv reps times; returns the last stdout and the median peak RSS in bytes."""
    runs = [run_once(argv) for _ in range(reps)]
    peaks = sorted(rss for _, rss in runs)
    return runs[-1][0], peaks[len(peaks) // 2]


def estimate_counts(paramsync, args):
    """The counts `--estimate=1` prints, as a dict (helper/resource-estimate.cc, Describe)."""
    out = subprocess.run(
        [paramsync] + args + ["--estimate=1", "--max-memory=1000GB"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    number = lambda key, pattern: int(re.search(key + r"\s+" + pattern, out).group(1))
    return {
        "hosts": number("hosts", r"(\d+)"),
        "links": number("links", r"(\d+)"),
        "nodes": number("nodes", r"(\d+)"),
        "devices": number("devices", r"(\d+)"),
        "routes": number("routing", r"(\d+) entries"),
        "transfers": number("transfers", r"(\d+) per"),
        "rows": int(re.search(r"transfers\s+\d+ per synchronization, (\d+) kept", out).group(1)),
        "qps": number("queue pairs", r"(\d+)"),
        "flows": number("flows", r"(\d+)"),
        "packets": number("in flight", r"(\d+) packets"),
        "bytes": int(re.search(r"memory\s+.*\((\d+) B\)", out).group(1)),
        "pause_bytes": int(re.search(r"pauses\s+.* (\d+) B per PFC pause", out).group(1)),
        "pause_state_bytes": int(re.search(r"pauses\s+.*\((\d+) B per port\)", out).group(1)),
    }


def with_pauses(estimated, c, pauses):
    """An estimate plus what --estimate prints beside it for pauses, for a run that sent
    `pauses` pause frames (they bound the pauses recorded): the cost per pause and the pause
    state of every port (ResourceEstimate::BytesWithPauses), none without a pause."""
    if pauses == 0:
        return estimated
    return estimated + c["pause_state_bytes"] * c["devices"] + c["pause_bytes"] * pauses


def solve(a, b):
    """Solves the square system a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [list(a[i]) + [b[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col] != 0:
                f = m[r][col] / m[col][col]
                m[r] = [m[r][k] - f * m[col][k] for k in range(n + 1)]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(rows, targets, weights):
    """Weighted least squares: minimizes sum (w (row . x - target))^2 (normal equations)."""
    n = len(rows[0])
    ata = [[sum((w * r[i]) * (w * r[j]) for r, w in zip(rows, weights)) for j in range(n)]
           for i in range(n)]
    atb = [sum((w * r[i]) * (w * t) for r, t, w in zip(rows, targets, weights))
           for i in range(n)]
    return solve(ata, atb)


def estimate(c, k):
    """The packet estimate of helper/resource-estimate.cc with the constants k."""
    return (k["base"] + k["device"] * c["devices"] + k["route"] * c["routes"] +
            k["transfer"] * (c["transfers"] + c["flows"]) +
            k["qp"] * (c["qps"] + c["flows"]) + TRANSFER_ROW * c["rows"] +
            k["packet"] * c["packets"])


def fluid_estimate(c, k):
    """The fluid estimate of helper/resource-estimate.cc with the constants k."""
    bytes_ = k["base"] + k["link"] * c["links"]
    if c["transfers"] * c["hosts"] <= ROUND_FORM_ABOVE:  # an explicit plan
        bytes_ += (k["pair"] * c["hosts"] * c["nodes"] + k["fluid_transfer"] * c["transfers"] +
                   TRANSFER_ROW * c["rows"])
    return bytes_


def main():
    args = sys.argv[1:]
    fluid = "--fluid" in args
    reps = 3
    for a in [a for a in args if a.startswith("--reps=")]:
        if not a[len("--reps="):].isdigit() or not 1 <= int(a[len("--reps="):]) <= 99:
            usage_error("--reps: %s is not a count (allowed: 1 to 99)" % a[len("--reps="):])
        reps = int(a[len("--reps="):])
    args = [a for a in args if a != "--fluid" and not a.startswith("--reps=")]
    for a in [a for a in args if a.startswith("--")]:
        usage_error("%s: unknown option (allowed: --reps=N, --fluid)" % a)
    if len(args) != 1:
        usage_error("usage: fit_resource_estimate.py BUILD_DIR [--reps=N] [--fluid]")
    paramsync = os.path.join(args[0], "paramsync")
    if not os.access(paramsync, os.X_OK):
        usage_error("BUILD_DIR: %s has no paramsync (allowed: a built build directory)" %
                    args[0])
    work = tempfile.mkdtemp(prefix="fit-estimate-")
    one_flow = os.path.join(work, "one-flow.txt")
    with open(one_flow, "w") as f:
        f.write("1\n0 1 3 100 1000 0\n")  # HPCC format: src dst priority dport bytes start_s
    incast = os.path.join(work, "incast.txt")
    with open(incast, "w") as f:
        f.write("32\n" + "".join("%d 0 3 100 40000000 0\n" % s for s in range(1, 33)))

    cases = []  # (name, stage, args, counts, measured bytes)

    pauses = {}  # name -> pause frames sent, summed over the run's algorithms

    def measure(name, stage, case_args):
        out, rss = run_measured([paramsync] + case_args + ["--format=json"], reps)
        cases.append((name, stage, case_args, estimate_counts(paramsync, case_args), rss))
        pauses[name] = sum(json.loads(line)["pfc_pause_frames"]
                           for line in out.splitlines() if line.startswith("{"))
        sys.stderr.write("%-44s %8.1f MB\n" % (name, rss / 1e6))
        return out

    measure("star:n=2 ring bytes:1KB", "base",
            ["--topology=star:n=2", "--algorithm=ring", "--model=bytes:1KB"])
    frames = []
    for buf in INCAST_BUFFERS:
        out = measure("incast 32->1 star:n=33 --buffer=" + buf, "packet",
                      ["--topology=star:n=33", "--algorithm=none", "--flows=" + incast,
                       "--buffer=" + buf, "--in-flight-sample=2us"])
        frames.append(json.loads(out.strip().splitlines()[-1])["frames_in_flight_peak"])
    for topo in ONE_FLOW_TOPOLOGIES:
        measure(topo + " one 1000 B flow", "topology",
                ["--topology=" + topo, "--algorithm=none", "--flows=" + one_flow])
    for alg, n in PLAN_CASES:
        measure("%s star:n=%d bytes:64KB" % (alg, n), "plan",
                ["--topology=star:n=%d" % n, "--algorithm=" + alg, "--model=bytes:64KB"])
    for name, case_args in PAUSE_CASES:
        measure(name, "pauses", case_args)

    of = lambda stage: [c for c in cases if c[1] == stage]
    k = {"base": of("base")[0][4], "device": 0.0, "route": 0.0, "transfer": 0.0, "qp": 0.0}
    # Stage 2: slope (and intercept) of peak RSS over the frames that existed, the pauses'
    # cost as --estimate states it taken off first: the 1 GB run pauses half as often as
    # the others, and at ~277 B a pause (before the recorder kept 24 B records) that fall
    # alone took 26 B off the slope.
    rss = [c[4] - c[3]["pause_bytes"] * pauses[c[0]] for c in of("packet")]
    intercept, k["packet"] = least_squares([[1, f] for f in frames], rss, [1.0] * len(rss))
    # Stages 3 and 4, alternated until the constants settle.
    for _ in range(10):
        topo = of("topology")
        rest = lambda c, keys: estimate(c[3], dict(k, **{key: 0.0 for key in keys}))
        k["device"], k["route"] = least_squares(
            [[c[3]["devices"], c[3]["routes"]] for c in topo],
            [c[4] - rest(c, ("device", "route")) for c in topo], [1.0 / c[4] for c in topo])
        plan = of("plan")
        k["transfer"], k["qp"] = least_squares(
            [[c[3]["transfers"] + c[3]["flows"], c[3]["qps"] + c[3]["flows"]] for c in plan],
            [c[4] - rest(c, ("transfer", "qp")) for c in plan], [1.0 / c[4] for c in plan])

    print("fitted: kBase %.4g B, kDevice %.0f B, kRouteEntry %.1f B, kTransfer %.0f B, "
          "kQueuePair %.0f B, kPacket %.0f B (incast frames peak %s; intercept %.1f MB)" %
          (k["base"], k["device"], k["route"], k["transfer"], k["qp"], k["packet"],
           ", ".join(str(f) for f in frames), intercept / 1e6))
    # Errors of the fitted constants with the pauses' printed cost added (the incast runs
    # pause; the fit took that cost off them).
    print("%-44s %10s %10s %8s %11s %10s %8s" %
          ("case", "measured", "built-in", "pauses", "+ pauses", "fitted+", "error"))
    worst = 0.0
    for name, stage, _, c, measured in cases:
        fitted = with_pauses(estimate(c, k), c, pauses[name])
        error = 100.0 * (fitted - measured) / measured
        if stage != "pauses":
            worst = max(worst, abs(error))
        print("%-44s %8.1f MB %7.1f MB %8d %8.1f MB %7.1f MB %+7.1f %%" %
              (name, measured / 1e6, c["bytes"] / 1e6, pauses[name],
               with_pauses(c["bytes"], c, pauses[name]) / 1e6, fitted / 1e6, error))
    print("largest error with the fitted constants and the pauses' cost (the pause cases "
          "left out): %.1f %%" % worst)

    if not fluid:
        return
    # Fluid: kFluidLink from the round-form runs (no plan, no path tables), then kFluidPair
    # and kFluidTransfer from the explicit-plan runs; same base, relative least squares.
    runs = []
    for topo, alg in FLUID_CASES:
        case_args = ["--backend=fluid", "--topology=" + topo, "--algorithm=" + alg]
        _, measured = run_measured([paramsync] + case_args + ["--format=json"], reps)
        runs.append(("fluid %s %s" % (alg, topo), estimate_counts(paramsync, case_args),
                     measured))
        sys.stderr.write("%-44s %8.1f MB\n" % (runs[-1][0], measured / 1e6))
    explicit = lambda c: c["transfers"] * c["hosts"] <= ROUND_FORM_ABOVE
    k.update(link=0.0, pair=0.0, fluid_transfer=0.0)
    round_form = [r for r in runs if not explicit(r[1])]
    (k["link"],) = least_squares([[c["links"]] for _, c, _ in round_form],
                                 [m - k["base"] for _, _, m in round_form],
                                 [1.0 / m for _, _, m in round_form])
    plans = [r for r in runs if explicit(r[1])]
    k["pair"], k["fluid_transfer"] = least_squares(
        [[c["hosts"] * c["nodes"], c["transfers"]] for _, c, _ in plans],
        [m - fluid_estimate(c, k) for _, c, m in plans], [1.0 / m for _, _, m in plans])
    print("\nfluid fitted: kFluidLink %.0f B, kFluidPair %.1f B, kFluidTransfer %.0f B" %
          (k["link"], k["pair"], k["fluid_transfer"]))
    print("%-44s %10s %10s %10s %8s %8s" %
          ("case", "measured", "fitted", "built-in", "error", "built-in"))
    worst = 0.0
    for name, c, measured in runs:
        fitted = fluid_estimate(c, k)
        error = 100.0 * (fitted - measured) / measured
        worst = max(worst, abs(error))
        print("%-44s %8.1f MB %7.1f MB %7.1f MB %+7.1f %% %+7.1f %%" %
              (name, measured / 1e6, fitted / 1e6, c["bytes"] / 1e6, error,
               100.0 * (c["bytes"] - measured) / measured))
    print("largest fluid error with the fitted constants: %.1f %%" % worst)

if __name__ == "__main__":
    main()
