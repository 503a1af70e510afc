#!/usr/bin/env python3
"""compare-runs.py (make test-mpi's judge) passes equal runs and fails each difference its
mode does not allow: exact modes any difference, "reordered" a last completion off by 1 ns,
a flow off by more than 1% or a count off by more than 5%. Runs in ctest (no MPI needed)."""
import os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def output(last=1000000, flow0=990000, pauses=100, ecn=40, drops=0):
    return ("flow 0 1->0 end_ns %d\nflow 1 2->0 end_ns %d\nlast_ns %d\npause_frames %d\n"
            "drops %d\necn_marks %d\n" % (flow0, last, last, pauses, drops, ecn))


def verdict(mode, one, two):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in (("one", one), ("two", two)):
            paths.append(os.path.join(d, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        return subprocess.run([sys.executable, os.path.join(HERE, "compare-runs.py"), "case",
                               mode] + paths, capture_output=True).returncode


def main():
    base = output()
    checks = [
        ("exact", base, 0), ("exact-pauses", base, 0), ("reordered", base, 0),
        ("exact", output(flow0=990001), 1),          # one nanosecond off
        ("exact", output(ecn=41), 1),                # one mark off
        ("exact-pauses", output(pauses=0), 1),       # equal, but no pause at all
        ("reordered", output(last=1000001), 1),      # the bottleneck's last byte is exact
        ("reordered", output(drops=1), 1),           # drops are exact
        ("reordered", output(flow0=990000 + 9900), 0),  # 1% of 990,000 ns: allowed
        ("reordered", output(flow0=990000 + 10100), 1),  # ~1.02% of the larger: refused
        ("reordered", output(pauses=105), 0),        # 5 of 105 = 4.8%: allowed
        ("reordered", output(ecn=43), 1),            # 3 of 43 = 7%: refused
        ("reordered", output(flow0=-1), 1),          # never completed
    ]
    failed = 0
    for mode, two, want in checks:
        got = verdict(mode, base, two)
        if (got == 0) != (want == 0):
            print("compare-runs.py %s: exit %d, wanted %s for:\n%s" % (
                mode, got, "pass" if want == 0 else "fail", two))
            failed += 1
    print("%d of %d checks as expected" % (len(checks) - failed, len(checks)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
