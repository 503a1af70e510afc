#!/usr/bin/env python3
"""compare-runs.py (make test-mpi's judge) passes equal runs and fails each difference its
mode does not allow: exact modes any difference, "reordered" a last completion off by 1 ns,
a flow off by more than 1% or a count off by more than 5%, "late-iterations" an iteration's
GST off by more than one lookahead + 1% or the routed bound off at all. Runs in ctest (no MPI
needed)."""
import os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def output(last=1000000, flow0=990000, pauses=100, ecn=40, drops=0):
    return ("flow 0 1->0 end_ns %d\nflow 1 2->0 end_ns %d\nlast_ns %d\npause_frames %d\n"
            "drops %d\necn_marks %d\n" % (flow0, last, last, pauses, drops, ecn))


def sync_output(gst1=700000, last=2100000, bound=600000):
    """paramsync-mpi-check --sync's lines: 3 iterations, lookahead 1 us."""
    return ("gst_iteration_0 700000\ngst_iteration_1 %d\ngst_iteration_2 700000\n"
            "gst_ns 700000\nbound_ns %d\nfair_ns 650000\nlast_ns %d\ndelay_ns 1000\n"
            "pause_frames 0\ndrops 0\necn_marks 0\ncompleted 1\n" % (gst1, bound, last))


def driver_row(sim_s="0.0011", pauses=100, status="ok"):
    return ('{"sim_s":%s,"pfc_pause_frames":%d,"drops":0,"ecn_marks":40,"pfc_pause_depth":1,'
            '"pkt_hops":500,"retransmits":0,"watchdog_drops":0,"link_drops":0,"status":"%s",'
            '"invariant":"","events":123}\n' % (sim_s, pauses, status))


def driver_flows(end0="0.00099"):
    return ("algorithm,flow,src,dst,bytes,start_s,end_s,fct_s\n"
            "none,0,1,0,1000,0,%s,%s\nnone,1,2,0,1000,0,0.0011,0.0011\n" % (end0, end0))


def driver_verdict(mode, two_row, two_flows):
    """The driver's form: a JSON row file and ROW.d/flows.csv beside it."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, row, flows in (("one", driver_row(), driver_flows()),
                                 ("two", two_row, two_flows)):
            paths.append(os.path.join(d, name))
            os.mkdir(paths[-1] + ".d")
            with open(paths[-1], "w") as f:
                f.write(row)
            with open(paths[-1] + ".d/flows.csv", "w") as f:
                f.write(flows)
        return subprocess.run([sys.executable, os.path.join(HERE, "compare-runs.py"), "case",
                               mode] + paths, capture_output=True).returncode


def verdict(mode, one, two):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in (("one", one), ("two", two)):
            paths.append(os.path.join(d, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        return subprocess.run([sys.executable, os.path.join(HERE, "compare-runs.py"), "case",
                               mode] + paths, capture_output=True).returncode


def unexpected(what, mode, got, want, shown):
    """1 (and a line saying so) when compare-runs.py's exit `got` is not the wanted verdict."""
    if (got == 0) == (want == 0):
        return 0
    print("compare-runs.py %s%s: exit %d, wanted %s for:\n%s" % (
        mode, what, got, "pass" if want == 0 else "fail", shown))
    return 1


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
        ("reordered", output(ecn=43), 1),            # 3 of 43 = 7%, over 2: refused
        ("reordered", output(ecn=42), 0),            # 2 of 42 = 4.8%: allowed
        ("reordered", output(flow0=-1), 1),          # never completed
    ]
    sync = sync_output()
    sync_checks = [
        ("exact", sync_output(), 0),
        ("exact", sync_output(gst1=700001), 1),              # an iteration 1 ns off
        ("exact", sync_output(bound=600001), 1),             # the bound 1 ns off
        # One lookahead (1 us) + 1% of the GST (7 us) either way: allowed; more: refused.
        ("late-iterations", sync_output(gst1=708000), 0),
        ("late-iterations", sync_output(gst1=692000), 0),
        ("late-iterations", sync_output(gst1=708001), 1),
        ("late-iterations", sync_output(last=2124000), 0),   # 3 iterations x 8 us: allowed
        ("late-iterations", sync_output(last=2124001), 1),
        ("late-iterations", sync_output(bound=600001), 1),   # the bound stays exact
        ("reordered", sync_output(gst1=707000), 0),          # 1% of the GST
        ("reordered", sync_output(gst1=707001), 1),
    ]
    failed = 0
    for mode, two, want in sync_checks:
        failed += unexpected(" (sync)", mode, verdict(mode, sync, two), want, two)
    # No bound in either run (-1 both) compares equal but tests nothing: refused.
    if verdict("exact", sync_output(bound=-1), sync_output(bound=-1)) == 0:
        print("compare-runs.py: a sync run without a routed bound passed")
        failed += 1
    counted = sync_checks + [("exact", "no bound", 1)]
    for mode, two, want in checks:
        failed += unexpected("", mode, verdict(mode, base, two), want, two)
    driver_checks = [
        ("exact", driver_row(), driver_flows(), 0),
        ("exact", driver_row(), driver_flows("0.000990001"), 1),  # a flow 1 ns later
        ("exact", driver_row(pauses=101), driver_flows(), 1),     # one pause frame more
        ("exact", driver_row(status="stalled"), driver_flows(), 1),  # a failed run
        ("reordered", driver_row(sim_s="0.001100001"), driver_flows(), 1),  # last, exact
        ("reordered", driver_row(pauses=104), driver_flows("0.000995"), 0),  # 4%, 0.5%
    ]
    for mode, row, flows, want in driver_checks:
        failed += unexpected(" (driver row)", mode, driver_verdict(mode, row, flows), want,
                             row + flows)
    checks += driver_checks + counted
    print("%d of %d checks as expected" % (len(checks) - failed, len(checks)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
