#!/usr/bin/env python3
"""Compares a run in one process with the same run over MPI ranks: paramsync-mpi-check's
lines, or the paramsync driver's JSON row (--format=json) with the flows.csv of its --out
directory, which must be ONE.d and TWO.d beside the row files.

usage: compare-runs.py NAME MODE ONE TWO
  MODE: exact           every number equal;
        exact-pauses    the same, and the run must have PFC pause frames (else it tests no
                        PFC);
        reordered       an incast or a sync plan's mesh, where the event order legitimately
                        differs (below);
        late-iterations a sync plan of several iterations whose posts come less than one
                        lookahead after the previous iteration's end (below).
Exits 1 naming the first difference.

Why an incast is "reordered": a frame from another rank is put in the event queue when the
ranks synchronize (ns-3's DistributedSimulatorImpl), after the local events of the same
nanosecond, where one process runs equal-time events in the order they were scheduled. When
frames of both ranks reach one switch in the same nanosecond (the incast's senders start
together and run at the same rate), they enter the egress FIFO in another order, and which
flow's frame goes first at the bottleneck differs; the ECN marks (a random draw per frame, in
frame order) and PFC pauses (which ingress crosses XOFF first) follow. What does not change
is the bottleneck's work: it serves every byte of every flow without idling while frames
wait, so the last completion is the same to the nanosecond and is compared exactly. Per-flow
completions may move by the frames served before them in the other order: at most 1% (of
~1.1 ms, ~130 frame times of the 7 flows), measured 0.5%; pause frames and ECN marks within 5%
(measured 1% and 3.4%: 58 against 56 marks), or by 2 for small counts (COUNT_SLACK).
"""
import csv
import json
import os
import sys

FLOW_TOLERANCE = 0.01
COUNT_TOLERANCE = 0.05
# A sync plan's mesh (every host receives from every peer at once, with PFC pauses): frames
# of both ranks meeting at a port in the same nanosecond are served in another order, and
# each transfer's start and end move by the frames served before it; the next transfers of
# a host wait on those ends, so the shifts add up along the plan's dependencies and the last
# delivery moves too. Transfers within 5% of the GST (measured 0.9% on fattree:k=4 at 2 MB,
# 3.5% on BCube(3,1) at 1 MB), the GST within 1% (measured equal, and 0.34%: 305,633 against
# 304,587 ns).
TRANSFER_TOLERANCE_OF_GST = 0.05
SYNC_GST_TOLERANCE = 0.01
# A sync plan's next iteration begins over ranks when a rank learns every rank's end of the
# current one, at most one lookahead L (the smallest cut-link delay; the driver's --delay)
# after the last end T_end, and as of T_end (helper/rank-iteration-barrier.h): with --compute
# >= L its posts are on time and the run is exact; with less, an iteration's posts are up to L
# late. The two ranks' hosts then begin up to L apart, and the frames of their transfers meet
# in another order, as in "reordered" (its GST tolerance: 1%). So each iteration's GST and
# iteration time are within L + 1% of the GST of one process's (measured: ring on
# fattree:k=4 with L = 1 us, 170 ns later at 4 MB, 1,520 ns earlier at 2 MB: 0.12%), the last
# delivery within iterations x that, a transfer of iteration i within (i + 1) L + 1% of the
# GST (measured up to 3.7 us at 4 MB, 0.18%). Counts as "reordered"; the routed bound exact.
LATE_SHARE_OF_GST = 0.01
# ... or this many, for small counts: one reordered collision moves a mark or a pause by one
# frame either way (a mesh's 13 / 12 marks on fattree:k=4 at 2 MB with a 1 MB buffer).
COUNT_SLACK = 2


# Driver row fields compared besides the flows: (JSON name, name here). Not compared: wall
# times, and "events" (each rank runs its own run guard looks, and a frame from another rank
# is one more event on its rank).
DRIVER_FIELDS = [("pfc_pause_frames", "pause_frames"), ("drops", "drops"),
                 ("ecn_marks", "ecn_marks"), ("pfc_pause_depth", "pause_depth"),
                 ("pkt_hops", "pkt_hops"), ("retransmits", "retransmits"),
                 ("watchdog_drops", "watchdog_drops"), ("link_drops", "link_drops")]


def ns(seconds):
    return -1 if float(seconds) < 0 else round(float(seconds) * 1e9)


def read_driver(path, row):
    """The driver's row, flows.csv and transfers.csv as keys like paramsync-mpi-check's."""
    if row["status"] != "ok" or row["invariant"]:
        raise ValueError(f"{path}: the run failed: {row['status']} {row['invariant']}")
    values = {"last_ns": ns(row["sim_s"]), "gst_ns": ns(row.get("gst_s", -1))}
    for name, key in DRIVER_FIELDS:
        values[key] = int(row[name])
    # A sync plan's figures (rank 0 computes the routed bound and fair figure on every
    # rank's traced queue pairs), and the lookahead late-iterations allows.
    for name, key in (("iter_s", "iter_ns"), ("bound_gst_s", "bound_ns"),
                      ("fair_gst_s", "fair_ns"), ("delay_s", "delay_ns")):
        if name in row:
            values[key] = ns(row[name])
    for i, gst in enumerate(row.get("gst_per_iteration_s", [])):
        values[f"gst iteration {i}"] = ns(gst)
    with open(path + ".d/flows.csv", encoding="utf-8", newline="") as f:
        for cell in csv.DictReader(f):
            values[f"flow {cell['flow']} {cell['src']}->{cell['dst']}"] = ns(cell["end_s"])
    transfers = path + ".d/transfers.csv"
    if os.path.exists(transfers):
        # Rows in posting order over ranks too, but posts of one nanosecond may swap: by key.
        with open(transfers, encoding="utf-8", newline="") as f:
            for cell in csv.DictReader(f):
                key = f"transfer {cell['iteration']} {cell['id']}"
                values[key + " start"] = ns(cell["start_s"])
                values[key + " end"] = ns(cell["end_s"])
    return values


def read(path):
    values = {}
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.startswith("{"):
        return read_driver(path, json.loads(text.splitlines()[0]))
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words[0] == "flow":  # flow I SRC->DST end_ns T
                values["flow " + words[1] + " " + words[2]] = int(words[4])
            elif words[0].startswith("gst_iteration_"):  # gst_iteration_I NS: as the row's
                values["gst iteration " + words[0].rsplit("_", 1)[1]] = int(words[1])
            else:
                values[words[0]] = int(words[1])
    return values


def tolerance(mode, key):
    """The relative difference allowed for one number in one mode."""
    if mode not in ("reordered", "late-iterations") or key in (
            "last_ns", "gst_ns", "drops", "bound_ns", "fair_ns", "delay_ns"):
        return 0.0
    return FLOW_TOLERANCE if key.startswith(("flow", "transfer")) else COUNT_TOLERANCE


def allowed_difference(mode, key, one, two):
    """The absolute difference allowed for one number."""
    sync = one.get("gst_ns", -1) >= 0
    if mode == "late-iterations":
        lookahead = one["delay_ns"]
        iterations = sum(1 for k in one if k.startswith("gst iteration"))
        reordered = LATE_SHARE_OF_GST * one["gst_ns"]
        if key.startswith("transfer"):
            return (int(key.split()[1]) + 1) * lookahead + reordered
        if key.startswith("gst") or key == "iter_ns":
            return lookahead + reordered
        if key == "last_ns":
            return iterations * (lookahead + reordered)
    if mode == "reordered" and sync and (key.startswith("gst iteration") or key == "iter_ns"):
        return SYNC_GST_TOLERANCE * one["gst_ns"]
    if mode == "reordered" and sync and key.startswith("transfer"):
        return TRANSFER_TOLERANCE_OF_GST * one["gst_ns"]
    if mode == "reordered" and sync and key in ("last_ns", "gst_ns"):
        return SYNC_GST_TOLERANCE * one["gst_ns"]
    allowed = tolerance(mode, key) * max(one[key], two[key])
    if tolerance(mode, key) == COUNT_TOLERANCE:
        allowed = max(allowed, COUNT_SLACK)
    return allowed


def main():
    name, mode, one_path, two_path = sys.argv[1:5]
    try:
        one, two = read(one_path), read(two_path)
    except ValueError as e:
        print(f"test-mpi: {name}: {e}", file=sys.stderr)
        return 1
    if set(one) != set(two):
        print(f"test-mpi: {name}: different rows: {sorted(set(one) ^ set(two))}", file=sys.stderr)
        return 1
    unfinished = [k for k in one if k.startswith(("flow", "transfer")) and
                  (one[k] < 0 or two[k] < 0)]
    if unfinished:
        print(f"test-mpi: {name}: flows never completed: {unfinished}", file=sys.stderr)
        return 1
    for key in sorted(one):
        allowed = allowed_difference(mode, key, one, two)
        if abs(one[key] - two[key]) > allowed:
            print(f"test-mpi: {name}: {key}: {one[key]} in one process, {two[key]} over 2 ranks "
                  f"(allowed difference {allowed:.0f})", file=sys.stderr)
            return 1
    # Over ranks rank 0 computes the routed bound and fair figure on every rank's traced
    # queue pairs: both runs must have them (-1 in both would compare equal and test nothing).
    missing = [k for k in ("bound_ns", "fair_ns") if k in one and min(one[k], two[k]) < 0]
    if one.get("gst_ns", -1) >= 0 and missing:
        print(f"test-mpi: {name}: no {' or '.join(missing)}: {one.get('bound_ns')} / "
              f"{two.get('bound_ns')}", file=sys.stderr)
        return 1
    # A sync plan may reorder without pauses (one-nanosecond ties at a relaying BCube host).
    sync = one.get("gst_ns", -1) >= 0
    if (mode == "exact-pauses" or (mode == "reordered" and not sync)) and one["pause_frames"] == 0:
        print(f"test-mpi: {name}: no PFC pause frames: the case does not test pauses",
              file=sys.stderr)
        return 1
    flows = sum(1 for k in one if k.startswith("flow"))
    transfers = sum(1 for k in one if k.startswith("transfer")) // 2
    gst = f", GST {one['gst_ns']} ns" if one.get("gst_ns", -1) >= 0 else ""
    if one.get("gst_ns", -1) >= 0 and "bound_ns" in one:
        gst += f" (bound {one['bound_ns']} ns, fair {one['fair_ns']} ns)"
    print(f"test-mpi: {name}: {flows} flows, {transfers} transfers{gst}, last {one['last_ns']} ns, "
          f"{one['pause_frames']} / {two['pause_frames']} pause frames, "
          f"{one['ecn_marks']} / {two['ecn_marks']} ECN marks ({mode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
