"""MPI part of the scaling section: wall-time speed-up of a run partitioned over 2 ranks.

The same fat-tree permutation (test/mpi/paramsync-mpi-check.cc, pattern shift: host i sends
to host i + H/2, every flow crossing between the two halves the partition places on the
ranks) in one process and over `mpirun -np 2`, in the ns-3 tree `make test-mpi` builds (MPI
is there only; Debian's ns-3 has none). Wall time, not CPU time: the point of ranks is to
spend more CPU to finish sooner; on a shared machine it depends on the neighbours, so the
load average is recorded beside it. Both runs must print the same results.
"""
import glob, os, subprocess, sys, tempfile, time

# 432 hosts, 4 MiB flows: about 10 s in one process, so the ranks' start-up (~0.3 s) and the
# per-window synchronization are small beside the event work (at 128 hosts and 2 MiB the
# whole run is 0.7 s and 2 ranks are slower: 0.68x measured on an idle machine).
CASE = {"topo": "fattree:k=12", "hosts": 432, "bytes": 4 << 20}


def mpi_check_binary():
    """paramsync-mpi-check in the cached ns-3 tree (or $PARAMSYNC_MPI_CHECK), or None."""
    if os.environ.get("PARAMSYNC_MPI_CHECK"):
        return os.environ["PARAMSYNC_MPI_CHECK"]
    cache = os.environ.get("PARAMSYNC_NS3SRC_CACHE",
                           os.path.expanduser("~/.cache/paramsync-ns3src"))
    found = glob.glob(os.path.join(cache, "bookworm", "ns-allinone-3.37", "ns-3.37", "build",
                                   "contrib", "paramsync", "examples",
                                   "ns3.37-paramsync-mpi-check*"))
    return found[0] if found else None


def refresh_tree(run=subprocess.run):
    """Rebuild the cached MPI tree from this working tree (build-ns3-tree.sh copies only the
    files that differ and rebuilds what they touch): the speed-up is then of these sources,
    not of whatever the last `make test-mpi` built. None when it is current, else the failure
    (its last line of output)."""
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "test", "ns3-trees", "build-ns3-tree.sh")
    r = run([script, "2"], capture_output=True, text=True)
    if r.returncode == 0:
        return None
    lines = (r.stderr or r.stdout or "").strip().splitlines()
    return "the MPI tree did not build: " + (lines[-1] if lines else "exit %d" % r.returncode)


def same_results(out1, out2):
    """Whether the two runs agree as test/mpi/compare-runs.py's "reordered" mode allows (the
    permutation congests core links, where frames of both ranks meet in the same nanosecond)."""
    here = os.path.dirname(os.path.abspath(__file__))
    judge = os.path.join(here, "..", "test", "mpi", "compare-runs.py")
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, "one"), os.path.join(d, "two")]
        for path, out in zip(paths, (out1, out2)):
            with open(path, "w", encoding="utf-8") as f:
                f.write(out)
        return subprocess.run([sys.executable, judge, "bench", "reordered"] + paths,
                              capture_output=True).returncode == 0


def timed(cmd):
    """(wall seconds, stdout) of one run; raises on failure."""
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.monotonic() - t0, out


def mpi_speedup(reps=1, refresh=refresh_tree):
    """One process against 2 ranks, `reps` times each (alternating); the best wall time of
    each (the least disturbed by other load). The cached tree is first rebuilt from this
    working tree (refresh); without a cached tree nothing is built here (`make test-mpi`
    builds it, with the MPI packages)."""
    binary = mpi_check_binary()
    if not binary:
        return {"status": "missing: `make test-mpi` builds the MPI ns-3 tree"}
    failure = refresh()
    if failure:
        return {"status": failure}
    args = ["--topology=" + CASE["topo"], "--pattern=shift", "--bytes=%d" % CASE["bytes"]]
    # As test/mpi/run-mpi-tests.sh: no cross-memory attach (refused in containers).
    os.environ.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    mpirun = ["mpirun", "--oversubscribe", "-np", "2"]
    if os.geteuid() == 0:
        mpirun.insert(1, "--allow-run-as-root")
    one, two = [], []
    for _ in range(reps):
        one.append(timed([binary] + args))
        two.append(timed(mpirun + [binary] + args + ["--mpi=1"]))
    (wall1, out1), (wall2, out2) = min(one), min(two)
    return {"status": "ok" if same_results(out1, out2) else "different results", "topology": CASE["topo"],
            "hosts": CASE["hosts"], "flow_bytes": CASE["bytes"], "reps": reps,
            "wall_s_1_process": wall1, "wall_s_2_ranks": wall2, "speedup_2_ranks": wall1 / wall2,
            "loadavg": os.getloadavg()[0], "cpus": os.cpu_count()}
