"""Cache-model part of the scaling section: cache misses per packet-hop under one fixed cache.

Why: on a shared machine the CPU time of one run varies by up to 2x at 1,024 hosts (the
neighbours and their memory traffic), which hides a change of 5-10 %; and what grows with the
network is where a hop's memory accesses are served, not how many instructions it takes.
cachegrind (valgrind) simulates one fixed hierarchy and counts, for the same program on the
same input and environment, the same misses every run: a change of memory layout moves the
figure, the neighbours do not (a different environment moves it by a fraction of a percent:
the addresses, and with them the cache sets, shift with its size). The hierarchy is one core of AMD Zen 5 (the EPYC this was first measured
on): a 48 KiB 12-way L1 data cache and its 1 MiB 16-way L2 as the last level; beyond it (a
shared L3, DRAM) every miss counts alike.

What it does not model: prefetching (cachegrind ignores software prefetches: warming's
prefetches are not counted, the loads of the lines they reach are), memory-level parallelism,
the L3. It counts lines a hop brings from beyond the L2, which is what the flat-cost target
is about; the CPU figures of the scaling section say what those lines cost on the machine.

Pages: the same run under a second hierarchy whose "lines" are 4 KiB pages counts the
misses of the core's data TLBs: Zen 5's 96-entry L1 DTLB (fully associative) and its
4,096-entry L2 DTLB (AMD, Hot Chips 2024; 16-way here: the associativity is not published),
each miss in the second a page walk. On a VM whose host maps it in 4 KiB pages a walk is
nested and costs ~20-45 ns with the page tables cached (bench/page-walk-bench.cc): a hop's
pages matter as much as its lines (bench/README.md, "Pages, not lines"; "fewer pages a
hop"). Huge pages the guest asks for do not help there, so the model has none.

The cases have about the same packet-hops (1.9-2.0 M), so that each simulates the same work on
a larger network: the scaling section's permutations with shorter flows at 1,024 and 8,192
hosts (under cachegrind a run is ~40x slower). Each runs once: the counts are deterministic.
"""
import os, re, shutil, tempfile

from scaling_bench import FLOW_ARGS, run_program, write_permutation

KIB = 1024
# Zen 5, one core: L1D 48 KiB 12-way, L2 1 MiB 16-way, 64 B lines (cachegrind's --D1/--LL).
CACHE = {"d1": "49152,12,64", "ll": "1048576,16,64"}
# Zen 5's data TLBs as caches of 4 KiB pages: 96 entries, fully associative; 4,096 entries.
TLB = {"d1": "393216,96,4096", "ll": "16777216,16,4096"}
# name -> fat-tree arity, hosts, bytes per flow (about 1.9-2.0 M packet-hops each).
CASES = {
    "fattree_k8": {"k": 8, "hosts": 128, "bytes": 2048 * KIB},
    "fattree_k16": {"k": 16, "hosts": 1024, "bytes": 256 * KIB},
    "fattree_k32": {"k": 32, "hosts": 8192, "bytes": 32 * KIB},
}
BASE_CASE = "fattree_k8"


def parse_summary(text):
    """Instructions, L1 data misses and last-level data misses from cachegrind's summary
    (its log), or None when a count is missing."""
    counts = {}
    for key, label in (("instructions", r"I\s+refs:"), ("d1_misses", r"D1\s+misses:"),
                       ("ll_misses", r"LLd\s+misses:")):
        m = re.search(label + r"\s+([\d,]+)", text)
        if m is None:
            return None
        counts[key] = int(m.group(1).replace(",", ""))
    return counts


def run_cachegrind(cmd, tmpdir, hierarchy):
    """cmd under cachegrind with one fixed hierarchy (CACHE or TLB): its packet-hops and
    its counts, or {"error": ...}."""
    log = os.path.join(tmpdir, "cachegrind.log")
    r, usage = run_program(["valgrind", "--tool=cachegrind", "--cache-sim=yes",
                            "--D1=" + hierarchy["d1"], "--LL=" + hierarchy["ll"],
                            "--cachegrind-out-file=/dev/null", "--log-file=" + log] + cmd)
    if r is None:
        return usage
    with open(log) as f:
        counts = parse_summary(f.read())
    if counts is None:
        return {"error": "no cachegrind summary"}
    return {"pkt_hops": r["pkt_hops"], "counts": counts}


def per_hop(hops, counts, tlb_counts=None):
    """Counts per packet-hop; with the TLB hierarchy's counts, its L1 DTLB misses and page
    walks (its L2 DTLB misses) too."""
    r = {"pkt_hops": hops, "instructions_per_hop": counts["instructions"] / hops,
         "d1_misses_per_hop": counts["d1_misses"] / hops,
         "ll_misses_per_hop": counts["ll_misses"] / hops}
    if tlb_counts is not None:
        r["l1_tlb_misses_per_hop"] = tlb_counts["d1_misses"] / hops
        r["page_walks_per_hop"] = tlb_counts["ll_misses"] / hops
    return r


def model_run(cmd, tmpdir):
    """cmd under both hierarchies: its counts per packet-hop (the runs are deterministic:
    both simulate the same packet-hops)."""
    lines = run_cachegrind(cmd, tmpdir, CACHE)
    if "error" in lines:
        return lines
    pages = run_cachegrind(cmd, tmpdir, TLB)
    if "error" in pages:
        return pages
    return per_hop(lines["pkt_hops"], lines["counts"], pages["counts"])


def attach_growth(cases, base_name=BASE_CASE):
    """Each case's last-level misses and page walks per hop beyond the base case's (the lines
    and pages the larger network adds to a hop), paramsync's and the bare fat-tree's."""
    base = cases.get(base_name, {})
    for case in cases.values():
        for program in ("paramsync", "bare"):
            r, b = case.get(program, {}), base.get(program, {})
            for key in ("ll_misses_per_hop", "page_walks_per_hop"):
                if key in r and key in b:
                    r[key + "_over_base"] = r[key] - b[key]


def cache_model(build, names=None):
    """The section: every case (all by default) under cachegrind, paramsync and the bare
    fat-tree; {"status": "missing"} without valgrind or the programs."""
    programs = [os.path.join(build, p) for p in ("paramsync", "bare-fattree-bench")]
    if shutil.which("valgrind") is None or not all(os.access(p, os.X_OK) for p in programs):
        return {"status": "missing"}
    section = {"status": "ok", "cache": dict(CACHE), "tlb": dict(TLB), "cases": {}}
    with tempfile.TemporaryDirectory(prefix="paramsync-cache-model-") as tmpdir:
        for name in names or list(CASES):
            case = CASES[name]
            flows = write_permutation(os.path.join(tmpdir, name + ".txt"), case["hosts"],
                                      case["bytes"])
            section["cases"][name] = {
                "hosts": case["hosts"], "flow_bytes": case["bytes"],
                "paramsync": model_run(
                    [programs[0], "--topology=fattree:k=%d" % case["k"], "--format=json",
                     "--flows=" + flows] + FLOW_ARGS, tmpdir),
                "bare": model_run([programs[1], str(case["k"]), flows], tmpdir),
            }
    attach_growth(section["cases"])
    return section


def print_cache_model(section):
    """One line per case: misses per packet-hop of both programs."""
    if section.get("status") != "ok":
        print("cache model: %s (needs valgrind)" % section.get("status"))
        return
    print("cache model (cachegrind, L1D %s, last level %s; TLBs %s, %s): per packet-hop"
          % (section["cache"]["d1"], section["cache"]["ll"], section["tlb"]["d1"],
             section["tlb"]["ll"]))
    for name, c in section["cases"].items():
        cells = []
        for program in ("paramsync", "bare"):
            r = c[program]
            if "error" in r:
                cells.append("%s: %s" % (program, r["error"]))
                continue
            cells.append("%s %5.0f instr %5.2f L1D %5.2f last-level (+%.2f over 128 hosts)"
                         " %4.2f page walks (+%.2f)" % (
                             program, r["instructions_per_hop"], r["d1_misses_per_hop"],
                             r["ll_misses_per_hop"], r.get("ll_misses_per_hop_over_base", 0.0),
                             r["page_walks_per_hop"], r.get("page_walks_per_hop_over_base",
                                                            0.0)))
        print("  %-12s %5d hosts  %s" % (name, c["hosts"], "  |  ".join(cells)))
