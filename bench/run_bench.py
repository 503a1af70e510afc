#!/usr/bin/python3
"""Benchmark harness: paramsync vs stock ns-3 vs the bare event path.

Runs every scenario in one invocation, alternating the three programs (so a
shared machine's load affects all of them alike), 1 warm-up + N runs each,
and writes medians and min-max to results/bench.json. A program that is not
built is reported as "missing" instead of failing the run.
"""
import csv, json, os, statistics, subprocess, sys, tempfile, time

from cache_model import cache_model, print_cache_model
from scaling_bench import CASES as SCALING_CASES, print_scaling, scaling_bench

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")

# name -> (topology argument, flow file or workload, byte scaling note)
SCENARIOS = {
    "incast32": {"topo": "file:" + os.path.join(INPUTS, "topology.txt"),
                 "flows": os.path.join(INPUTS, "flow_incast32.txt"), "scale": 1.0},
    "fat_perm": {"topo": "file:" + os.path.join(INPUTS, "fat.txt"),
                 "flows": os.path.join(INPUTS, "flow_fat_perm.txt"), "scale": 0.1},
    # Workload scenarios: paramsync runs the plan; then all three programs replay its byte
    # schedule (every transfer as a flow, started when paramsync started it) over the same
    # topology, bytes and start times scaled by replay_scale (stock would take minutes).
    "vgg19_bcube": {"topo": "bcube:n=3,k=1", "algorithm": "ring", "model": "vgg19",
                    "scale": 1.0, "replay_scale": 0.1},
    "hips_torus": {"topo": "torus:dims=4x4", "algorithm": "hips", "model": "vgg19",
                   "scale": 1.0, "replay_scale": 0.1},
}
# The driver's defaults for the workload runs, which their replays keep: RoCE payload per
# packet (--mtu) and no congestion control.
WORKLOAD_PAYLOAD = 4096
REPLAY_ARGS = ["--algorithm=none", "--mtu=%d" % WORKLOAD_PAYLOAD, "--cc=none"]
# HPCC's runs use 1000 B packets and DCQCN; paramsync is run the same way so that the
# three programs move the same packets.
PARAMSYNC_FLOW_ARGS = ["--mtu=1000", "--cc=dcqcn", "--algorithm=none"]


def read_flows(path):
    """The flows of an HPCC flow list (first line: the count), each as its columns
    [src, dst, priority, dport, bytes, start_s] (strings)."""
    with open(path) as f:
        return [l.split() for l in f.read().split("\n")[1:] if len(l.split()) >= 6]


def write_flows(path, flows):
    """Writes an HPCC flow list: the count, then one flow of columns a line."""
    with open(path, "w") as f:
        f.write("\n".join([str(len(flows))] + [" ".join(map(str, c)) for c in flows]) + "\n")
    return path


def scaled_flow_file(path, scale, tmpdir):
    """The flow list with every size multiplied by scale (the same file for all three)."""
    if scale == 1.0:
        return path
    flows = [c[:4] + [max(1, round(int(c[4]) * scale))] + c[5:] for c in read_flows(path)]
    return write_flows(os.path.join(tmpdir, "scaled-" + os.path.basename(path)), flows)



QUICK = ["incast32"]
# Bytes per frame in flight are measured on this scenario (full runs only).
MEMORY_SCENARIO = "fat_perm"
METRICS = ["pkt_hops_per_wall_s", "events_per_s", "sim_over_wall", "wall_s", "peak_rss_kb"]


def program_cmd(kind, build, sc, flows):
    """Command line of one program for one scenario, or None when it is not built.
    flows: the (already scaled) flow list of a flow scenario."""
    exe = {"paramsync": "paramsync", "stock": "stock-ns3-bench", "bare": "bare-path-bench"}[kind]
    path = os.path.join(build, exe)
    if not os.access(path, os.X_OK):
        return None
    if kind == "paramsync":
        args = ["--topology=" + sc["topo"], "--format=json"]
        if flows:
            args += PARAMSYNC_FLOW_ARGS + ["--flows=" + flows]
        else:
            args += ["--algorithm=" + sc["algorithm"], "--model=" + sc["model"]]
        return [path] + args
    if not flows:
        return None  # stock and bare replay a flow list (a workload's: see replay_cmds)
    return [path, sc["topo"][len("file:"):], flows]


def capture_schedule(build, sc, tmpdir, name):
    """Runs paramsync's plan once with --out and turns what it did into a replay: the
    network as run (topology.txt, HPCC format) and every transfer as an HPCC flow
    `src dst 3 100 bytes start_s` (host ranks -> node ids), bytes and starts scaled by
    replay_scale. Returns (topology path, flow list path) or None when it failed."""
    out = os.path.join(tmpdir, name + "-capture")
    cmd = [os.path.join(build, "paramsync"), "--topology=" + sc["topo"],
           "--algorithm=" + sc["algorithm"], "--model=" + sc["model"], "--cc=none",
           "--out=" + out]
    if subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return None
    topo = os.path.join(out, "topology.txt")
    with open(topo) as f:
        lines = f.read().split("\n")
    nodes = int(lines[0].split()[0])
    switches = {int(x) for x in lines[1].split()}
    node_of_rank = [n for n in range(nodes) if n not in switches]
    scale = sc["replay_scale"]
    flows = []
    with open(os.path.join(out, "transfers.csv"), newline="") as f:
        for t in csv.DictReader(f):  # the algorithm column is quoted: it holds commas
            flows.append((float(t["start_s"]) * scale, node_of_rank[int(t["src"])],
                          node_of_rank[int(t["dst"])], max(1, round(int(t["bytes"]) * scale))))
    flows.sort()
    return topo, write_flows(os.path.join(tmpdir, name + "-replay-flows.txt"),
                             [[src, dst, 3, 100, size, "%.9f" % start]
                              for start, src, dst, size in flows])


def replay_cmds(build, topo, flows):
    """The three programs on a captured schedule, each moving WORKLOAD_PAYLOAD-byte packets."""
    cmds = {}
    for kind, exe in (("paramsync", "paramsync"), ("stock", "stock-ns3-bench"),
                      ("bare", "bare-path-bench")):
        path = os.path.join(build, exe)
        if not os.access(path, os.X_OK):
            cmds[kind] = None
        elif kind == "paramsync":
            cmds[kind] = [path, "--topology=file:" + topo, "--format=json",
                          "--flows=" + flows] + REPLAY_ARGS
        else:
            cmds[kind] = [path, topo, flows, "1", str(WORKLOAD_PAYLOAD)]
    return cmds


def first_start(flows):
    """The earliest start time of a flow list (HPCC's start at 2 s): simulated time before
    it is idle for every program and does not count as simulated work."""
    starts = [float(c[5]) for c in read_flows(flows)] if flows else []
    return min(starts) if starts else 0.0


def run_once(cmd, sim_origin=0.0):
    """One run; sim_origin: simulated seconds before the work starts (not counted)."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as so, tempfile.TemporaryFile("w+") as se:
        proc = subprocess.Popen(cmd, stdout=so, stderr=se, text=True)
        # wait4 gives this child's own peak RSS (for a program that does not report it).
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        so.seek(0)
        se.seek(0)
        stdout, stderr = so.read(), se.read()
    if proc.returncode != 0:
        return {"error": stderr.strip()[-300:]}
    line = [l for l in stdout.splitlines() if l.startswith("{")][-1]
    r = json.loads(line)
    r.setdefault("peak_rss_kb", usage.ru_maxrss)  # Linux: kilobytes
    w = r.get("wall_s", wall)
    return {"pkt_hops_per_wall_s": r["pkt_hops"] / w, "events_per_s": r["events"] / w,
            "sim_over_wall": max(0.0, r.get("sim_s", 0.0) - sim_origin) / w, "wall_s": w,
            "peak_rss_kb": r.get("peak_rss_kb", 0)}


def first_flows(path, count, tmpdir):
    """The flow list cut to its first `count` flows."""
    return write_flows(os.path.join(tmpdir, "first%d-%s" % (count, os.path.basename(path))),
                       read_flows(path)[:count])


def memory_per_frame(build, sc, flows, tmpdir, reps):
    """Bytes of peak RSS per frame in flight (ARCHITECTURE.md, Performance: at most 400 B plus the topology).

    The same topology with half and all of the flows, alternating, `reps` runs each: peak
    RSS (wait4) and the driver's peak of frames that exist (--in-flight-sample: device and
    switch queues plus frames on the links, sampled every 2 us). The topology, libraries
    and per-flow state are in both runs; the slope between the two is what a frame costs
    (its Packet, bytes, queue entry and arrival event)."""
    path = os.path.join(build, "paramsync")
    if not os.access(path, os.X_OK):
        return {"status": "missing"}
    with open(flows) as f:
        total = int(f.readline())
    points = {}
    for count in (total // 2, total):
        points[count] = {"flows": first_flows(flows, count, tmpdir), "rss_kb": [], "frames": []}
    for _ in range(reps):
        for count, pt in points.items():
            cmd = [path, "--topology=" + sc["topo"], "--format=json", "--in-flight-sample=2us",
                   "--flows=" + pt["flows"]] + PARAMSYNC_FLOW_ARGS
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True)
            out = proc.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
            lines = [l for l in out.splitlines() if l.startswith("{")]
            if os.waitstatus_to_exitcode(status) != 0 or not lines:
                return {"status": "error", "error": "exit %d" % os.waitstatus_to_exitcode(status)}
            pt["rss_kb"].append(usage.ru_maxrss)
            pt["frames"].append(json.loads(lines[-1])["frames_in_flight_peak"])
    lo, hi = (points[c] for c in sorted(points))
    rss = [statistics.median(p["rss_kb"]) for p in (lo, hi)]
    frames = [statistics.median(p["frames"]) for p in (lo, hi)]
    slope = (rss[1] - rss[0]) * 1024 / (frames[1] - frames[0]) if frames[1] > frames[0] else None
    return {"status": "ok", "runs": reps, "flows": sorted(points),
            "peak_rss_kb": rss, "frames_in_flight_peak": frames,
            "bytes_per_frame_in_flight": slope, "target_bytes": 400}


def summarize(runs):
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"status": "error", "error": runs[0]["error"] if runs else "no runs"}
    s = {"status": "ok", "runs": len(ok)}
    for m in METRICS:
        v = [r[m] for r in ok]
        s[m] = {"median": statistics.median(v), "min": min(v), "max": max(v)}
    return s


USAGE = """usage: run_bench.py BUILD_DIR [--quick] [--scenario=NAME[,NAME]] [--reps=N]
                    [--warmups=N] [--full-scale] [--out=FILE] [--section=scaling]
                    [--scaling-cases=NAME[,NAME]] [--scaling-reps=N]
  --quick          one short scenario (incast32), one run each
  --scenario=      only these scenarios (%s)
  --reps=N         N measured runs per program after the warm-up (default 5; 1 with --quick)
  --warmups=N      discarded runs per program first (default 1)
  --full-scale     every scenario at the issue's sizes (fat_perm: 10 MB flows, not x0.1);
                   stock ns-3 then takes minutes per fat-tree run
  --out=FILE       where the JSON goes (default results/bench.json)
  --section=scaling  only the scaling section (bench/scaling_bench.py), written into the
                   JSON's "scaling" key; the file's other sections are kept
  --scaling-cases= the scaling section's cases (%s; default all;
                   not run with --quick)
  --scaling-reps=N runs per scaling case, the median by CPU time kept (default 1)"""


def fail(message):
    """Bad input: one line on stderr, exit 2 (as the driver does)."""
    sys.stderr.write("run_bench.py: " + message + "\n")
    sys.exit(2)


def parse_args(argv):
    """The harness's options; one clear line and exit 2 on anything else."""
    opts = {"build": "build", "quick": False, "names": None, "reps": None, "warmups": 1,
            "full_scale": False, "out": os.path.join(HERE, "..", "results", "bench.json"),
            "section": None, "scaling_cases": list(SCALING_CASES), "scaling_reps": 1}
    positional = []
    for a in argv:
        key, _, value = a.partition("=")
        if a == "--quick":
            opts["quick"] = True
        elif a == "--full-scale":
            opts["full_scale"] = True
        elif key == "--scenario" and value:
            opts["names"] = value.split(",")
            unknown = [n for n in opts["names"] if n not in SCENARIOS]
            if unknown:
                fail("--scenario: %s is not a scenario; allowed: %s"
                     % (",".join(unknown), ", ".join(SCENARIOS)))
        elif key == "--reps" and value:
            if not value.isdigit() or int(value) < 1:
                fail("--reps: %s is not allowed; allowed: an integer >= 1" % value)
            opts["reps"] = int(value)
        elif key == "--warmups" and value:
            if not value.isdigit():
                fail("--warmups: %s is not allowed; allowed: an integer >= 0" % value)
            opts["warmups"] = int(value)
        elif key == "--out" and value:
            opts["out"] = value
        elif key == "--section" and value:
            if value != "scaling":
                fail("--section: %s is not a section; allowed: scaling" % value)
            opts["section"] = value
        elif key == "--scaling-cases" and value:
            opts["scaling_cases"] = value.split(",")
            unknown = [n for n in opts["scaling_cases"] if n not in SCALING_CASES]
            if unknown:
                fail("--scaling-cases: %s is not a case; allowed: %s"
                     % (",".join(unknown), ", ".join(SCALING_CASES)))
        elif key == "--scaling-reps" and value:
            if not value.isdigit() or int(value) < 1:
                fail("--scaling-reps: %s is not allowed; allowed: an integer >= 1" % value)
            opts["scaling_reps"] = int(value)
        elif a in ("-h", "--help"):
            print(USAGE % (", ".join(SCENARIOS), ", ".join(SCALING_CASES)))
            sys.exit(0)
        elif a.startswith("-"):
            fail("unknown option %s; allowed: --quick, --scenario=, --reps=, --warmups=, "
                 "--full-scale, --out=, --section=, --scaling-cases=, --scaling-reps=, --help"
                 % a)
        else:
            positional.append(a)
    if positional:
        opts["build"] = positional[0]
    return opts


def measure(cmds, origin, warmups, reps):
    """Runs the programs alternating (so a shared machine's load hits all alike), `warmups`
    discarded rounds then `reps` measured ones; their summaries and paramsync's ratios."""
    runs = {k: [] for k in cmds}
    for i in range(warmups + reps):
        for k, cmd in cmds.items():
            if cmd is None:
                continue
            r = run_once(cmd, origin)
            if i >= warmups:
                runs[k].append(r)
    entry = {}
    for k, cmd in cmds.items():
        entry[k] = {"status": "missing"} if cmd is None else summarize(runs[k])
    for other in ("stock", "bare"):
        p, o = entry["paramsync"], entry.get(other, {})
        if p.get("status") == "ok" and o.get("status") == "ok":
            entry["paramsync_over_" + other] = (p["pkt_hops_per_wall_s"]["median"]
                                                / o["pkt_hops_per_wall_s"]["median"])
    return entry


def print_rows(label, e):
    """One table row per program of a measured entry."""
    for k in ("paramsync", "stock", "bare"):
        s = e[k]
        if s["status"] == "ok":
            print("%-18s %-10s %-8s %16.3g %14.3g %10.3g" % (
                label, k, "ok", s["pkt_hops_per_wall_s"]["median"],
                s["events_per_s"]["median"], s["wall_s"]["median"]))
        else:
            print("%-18s %-10s %-8s" % (label, k, s["status"]))


def fluid_bench(build, full_scale):
    """The fluid estimator alone (build/fluid-bench, one JSON line per case: GST, wall and CPU
    seconds of the estimate, peak RSS): trees on fattree:k=8 and a ring over 1,024 hosts;
    --full-scale adds the 1,024-host mesh (about a minute and 5 GB)."""
    exe = os.path.join(build, "fluid-bench")
    if not os.path.exists(exe):
        return {"status": "missing"}
    cases = ["trees-fattree8", "ring-1024"] + (["mesh-1024"] if full_scale else [])
    out = subprocess.run([exe] + cases, stdout=subprocess.PIPE, universal_newlines=True)
    if out.returncode != 0:
        return {"status": "error", "code": out.returncode}
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    for r in rows:
        print("fluid %-16s %9d transfers  %8.3f s cpu  %8.3f s wall  %8.1f MB peak RSS" % (
            r["case"], r["transfers"], r["fluid_cpu_s"], r["fluid_wall_s"],
            r["peak_rss_kb"] / 1024))
    return {"status": "ok", "cases": rows}


def write_json(path, result):
    """Writes the JSON atomically (a temporary file renamed over it)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
    os.replace(path + ".tmp", path)
    print("wrote", os.path.normpath(path))


def scaling_section(build, names, reps):
    """The scaling section (bench/scaling_bench.py) with its cache model
    (bench/cache_model.py) for the same cases."""
    section = scaling_bench(build, names, reps)
    section["cache_model"] = cache_model(build, names)
    return section


def scaling_only(opts):
    """--section=scaling: the scaling section alone, into the existing JSON's "scaling" key."""
    section = scaling_section(opts["build"], opts["scaling_cases"], opts["scaling_reps"])
    print_scaling(section)
    print_cache_model(section["cache_model"])
    result = {}
    if os.path.exists(opts["out"]):
        with open(opts["out"]) as f:
            result = json.load(f)
    result["scaling"] = section
    write_json(opts["out"], result)


def main():
    opts = parse_args(sys.argv[1:])
    if opts["section"] == "scaling":
        scaling_only(opts)
        return
    quick = opts["quick"]
    build = opts["build"]
    reps = opts["reps"] or (1 if quick else 5)
    names = opts["names"] or (QUICK if quick else list(SCENARIOS))
    # The machine may be shared: the load average beside the figures says how far to trust them.
    result = {"build": build, "quick": quick, "reps": reps, "warmups": opts["warmups"],
              "full_scale": opts["full_scale"],
              "loadavg_start": os.getloadavg()[0], "scenarios": {}}
    tmpdir = tempfile.mkdtemp(prefix="paramsync-bench-")
    for name in names:
        sc = dict(SCENARIOS[name])
        if opts["full_scale"]:
            sc["scale"] = 1.0
        flows = scaled_flow_file(sc["flows"], sc["scale"], tmpdir) if "flows" in sc else None
        cmds = {k: program_cmd(k, build, sc, flows) for k in ("paramsync", "stock", "bare")}
        entry = measure(cmds, first_start(flows), opts["warmups"], reps)
        entry["byte_scale"] = sc["scale"]
        if "replay_scale" in sc and cmds["paramsync"] is not None:
            captured = capture_schedule(build, sc, tmpdir, name)
            if captured is None:
                entry["replay"] = {"status": "error", "error": "the capture run failed"}
            else:
                topo, replay_flows = captured
                entry["replay"] = measure(replay_cmds(build, topo, replay_flows),
                                          first_start(replay_flows), opts["warmups"], reps)
                entry["replay"]["byte_scale"] = sc["replay_scale"]
        if name == MEMORY_SCENARIO and not quick:
            entry["memory"] = memory_per_frame(build, sc, flows, tmpdir, 3)
        result["scenarios"][name] = entry
    if not quick:
        result["fluid"] = fluid_bench(build, opts["full_scale"])
        result["scaling"] = scaling_section(build, opts["scaling_cases"], opts["scaling_reps"])
    print("%-18s %-10s %-8s %16s %14s %10s" % ("scenario", "program", "status",
                                                 "pkt-hops/wall-s", "events/s", "wall s"))
    for name, e in result["scenarios"].items():
        print_rows(name, e)
        replay = e.get("replay")
        if replay and "paramsync" in replay:
            print_rows(name + " replay", replay)
            print("  (%s replay: its byte schedule as flows, x%g, %d B packets)"
                  % (name, replay["byte_scale"], WORKLOAD_PAYLOAD))
        elif replay:
            print("  (%s replay: %s)" % (name, replay.get("error", replay.get("status"))))
        m = e.get("memory")
        if m and m["status"] == "ok" and m["bytes_per_frame_in_flight"] is not None:
            print("  (%s memory: %d -> %d flows, peak frames %d -> %d, peak RSS %.1f -> %.1f MB:"
                  " %.0f B per frame in flight, target <= %d)" % (
                      name, m["flows"][0], m["flows"][1], m["frames_in_flight_peak"][0],
                      m["frames_in_flight_peak"][1], m["peak_rss_kb"][0] / 1024,
                      m["peak_rss_kb"][1] / 1024, m["bytes_per_frame_in_flight"],
                      m["target_bytes"]))
        elif m:
            print("  (%s memory: %s)" % (name, m["status"]))
        if e["byte_scale"] != 1.0:
            print("  (%s: bytes scaled by %g for all three programs)" % (name, e["byte_scale"]))
    result["loadavg_end"] = os.getloadavg()[0]
    if "scaling" in result:
        print_scaling(result["scaling"])
        print_cache_model(result["scaling"]["cache_model"])
    print("load average (1 min): %.2f at start, %.2f at end" % (result["loadavg_start"],
                                                              result["loadavg_end"]))
    write_json(opts["out"], result)


if __name__ == "__main__":
    main()
