#!/bin/sh
# `make test-mpi`: the same flows simulated in one process and partitioned over 2 MPI ranks
# (ns-3's DistributedSimulatorImpl, ParamsyncHelper::SetRanks) must give the same flow
# completion times, PFC pause frames, drops and ECN marks, and a sync plan's GST of each
# iteration, routed bound and fair figure (compare-runs.py says how close):
# first with paramsync-mpi-check, then with the driver (`paramsync ... --mpi=1`: its JSON
# row and --out files, gathered on rank 0), and the driver's refusals under --mpi=1.
#
# usage: run-mpi-tests.sh [JOBS]
# Builds (or reuses) the ns-3 tree of `make test-ns3-trees` (build-ns3-tree.sh: MPI on);
# PARAMSYNC_MPI_CHECK=PATH runs a paramsync-mpi-check built elsewhere instead.
set -eu
jobs=${1:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/test/mpi
python=${PYTHON:-/usr/bin/python3}

bin=${PARAMSYNC_MPI_CHECK:-}
driver=${PARAMSYNC_MPI_DRIVER:-}
if [ -z "$bin" ] || [ -z "$driver" ]; then
    tree=$("$root/test/ns3-trees/build-ns3-tree.sh" "$jobs")
    examples=$tree/build/contrib/paramsync/examples
    bin=${bin:-$(find "$examples" -type f -name 'ns3.37-paramsync-mpi-check*' | head -n 1)}
    driver=${driver:-$(find "$examples" -type f -name 'ns3.37-paramsync' -o -type f \
        -name 'ns3.37-paramsync-release' | head -n 1)}
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "test-mpi: paramsync-mpi-check was not built" >&2; exit 1; }
[ -n "$driver" ] && [ -x "$driver" ] || { echo "test-mpi: the paramsync driver was not built" >&2; exit 1; }

# Root (CI) needs --allow-run-as-root; 2 ranks on a machine with fewer free slots need
# --oversubscribe.
mpirun_flags="--oversubscribe"
# Open MPI's shared-memory transport copies between ranks with cross-memory attach, which a
# container without ptrace rights refuses ("vader ... errno 1"); plain copies work anywhere.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
[ "$(id -u)" != 0 ] || mpirun_flags="$mpirun_flags --allow-run-as-root"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run_case() {
    name=$1
    mode=$2 # exact, exact-pauses or reordered (compare-runs.py)
    shift 2
    start=$(date +%s)
    "$bin" "$@" >"$out/$name.one" || { echo "test-mpi: $name: one process failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    mpirun $mpirun_flags -np 2 "$bin" "$@" --mpi=1 >"$out/$name.two" ||
        { echo "test-mpi: $name: 2 ranks failed" >&2; exit 1; }
    "$python" "$here/compare-runs.py" "$name" "$mode" "$out/$name.one" "$out/$name.two"
    echo "test-mpi: $name ok ($(($(date +%s) - start)) s)"
}

# A star cut in halves: every flow of the shift permutation crosses the cut (data one way,
# ACKs back).
run_case star-shift exact --topology=star:n=8 --pattern=shift --bytes=1000000
# A fat-tree on pods: the permutation crosses between pods 0-1 and 2-3 through the core.
run_case fattree-shift exact --topology=fattree:k=4 --pattern=shift --bytes=1000000
# The same with a 2 MB switch buffer: PFC pauses, pause frames crossing the cut like data.
run_case fattree-shift-pfc exact-pauses --topology=fattree:k=4 --pattern=shift --bytes=4000000 \
    --ns3::PfcSwitch::BufferSize=2000000
# Incast on the star with a 4 MB buffer: pauses, and frames of both ranks meeting at the
# switch in the same nanosecond (the tolerance of compare-runs.py, "reordered").
run_case star-incast-pfc reordered --topology=star:n=8 --pattern=incast --bytes=2000000 \
    --ns3::PfcSwitch::BufferSize=4000000
# A 128-host fat-tree permutation large enough for ECMP collisions to congest core links:
# frames of both ranks meet at switches in the same nanosecond as in the incast (measured at
# 8 MB: 2,818 / 2,817 pause frames, flow 52 ends 669 ns earlier over 2 ranks, the last
# completion equal).
run_case fattree8-shift-congested reordered --topology=fattree:k=8 --pattern=shift --bytes=8000000
# A sync plan through ParamsyncHelper's API (InstallSyncJob with 3 iterations, no compute
# time: each iteration's posts up to one link delay late, "late-iterations"), gathered by
# ParamsyncHelper::Run: each iteration's GST, the routed bound and fair figure.
run_case helper-ring-iterations late-iterations --topology=fattree:k=4 --sync=ring \
    --bytes=2000000 --iterations=3

# The driver: `paramsync ... --format=json --out=DIR` in one process and with --mpi=1 over 2
# ranks; rank 0's row and flows.csv against the one process's (compare-runs.py), and rank 0
# alone prints (the row file holds one line).
run_driver_case() {
    name=$1
    mode=$2
    shift 2
    start=$(date +%s)
    "$driver" "$@" --format=json --out="$out/$name.one.d" >"$out/$name.one" ||
        { echo "test-mpi: $name: the driver in one process failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    mpirun $mpirun_flags -np 2 "$driver" "$@" --format=json --out="$out/$name.two.d" --mpi=1 \
        >"$out/$name.two" || { echo "test-mpi: $name: the driver over 2 ranks failed" >&2; exit 1; }
    [ "$(wc -l <"$out/$name.two")" = 1 ] ||
        { echo "test-mpi: $name: not one row on stdout over 2 ranks" >&2; exit 1; }
    "$python" "$here/compare-runs.py" "$name" "$mode" "$out/$name.one" "$out/$name.two"
    echo "test-mpi: $name ok ($(($(date +%s) - start)) s)"
}
# HPCC-format flow files (count, then `src dst priority dport bytes start`): the shift
# permutation of 16 hosts and an incast of hosts 1..7 into host 0.
"$python" -c 'print(16); [print(h, (h + 8) % 16, 3, 100, 1000000, 0) for h in range(16)]' \
    >"$out/shift16.txt"
"$python" -c 'print(7); [print(h, 0, 3, 100, 2000000, 0) for h in range(1, 8)]' >"$out/incast8.txt"
# The fat-tree permutation as above, through the driver: exact.
run_driver_case driver-fattree-shift exact --topology=fattree:k=4 --algorithm=none \
    --flows="$out/shift16.txt"
# With a 2 MB buffer: PFC pauses crossing the cut (as fattree-shift-pfc): exact.
run_driver_case driver-fattree-shift-pfc exact-pauses --topology=fattree:k=4 --algorithm=none \
    --flows="$out/shift16.txt" --buffer=2MB
# The incast on the star with a 4 MB buffer: frames of both ranks meet at the switch in the
# same nanosecond (compare-runs.py, "reordered").
run_driver_case driver-star-incast-pfc reordered --topology=star:n=8 --algorithm=none \
    --flows="$out/incast8.txt" --buffer=4MB
# Sync plans (SyncJob over ranks: each rank posts its hosts' transfers and counts those
# delivered to them; a post to another rank's host is announced there, helper/
# rank-post-notices.h): GST, every transfer's start and end, pauses and marks as in one
# process. The ring's and hips' stages are one sender per receiver: exact. A mesh sends to
# every peer at once, an incast at every host; with a 1 MB / 500 KB buffer it pauses, and
# frames of both ranks reach a switch port in the same nanosecond ("reordered": transfers
# within 1%, pauses and marks within 5%; GST, the last delivery, exact).
run_driver_case driver-fattree-ring exact --topology=fattree:k=4 --algorithm=ring \
    --model=bytes:4MB
run_driver_case driver-fattree-mesh reordered --topology=fattree:k=4 --algorithm=mesh \
    --model=bytes:2MB --buffer=1MB
# hips on BCube(3,1), no pause: a frame from the other rank and a local one tie in one
# nanosecond at a relaying host (at 2 MB transfer 30 ends 1 ns earlier over 2 ranks, the GST
# equal; at 4 MB the GST is 18 ns later, 749,915 against 749,897 ns): "reordered".
run_driver_case driver-bcube-hips reordered --topology=bcube:n=3,k=1 --algorithm=hips \
    --model=bytes:4MB
run_driver_case driver-bcube-mesh reordered --topology=bcube:n=3,k=1 --algorithm=mesh \
    --model=bytes:1MB --buffer=500KB
# Several iterations: a rank begins the next one when it learns every rank's end of this one
# (helper/rank-iteration-barrier.h), at most one lookahead (1 us) after the last, as of it.
# With --compute >= the lookahead every post is on time: exact, each iteration's GST, every
# transfer, the routed bound and fair figure (compared in every sync case above too). With
# no compute a rank's posts may be up to the lookahead late ("late-iterations").
run_driver_case driver-fattree-ring-iterations exact --topology=fattree:k=4 --algorithm=ring \
    --model=bytes:2MB --iterations=3 --compute=10us
run_driver_case driver-fattree-ring-iterations-late late-iterations --topology=fattree:k=4 \
    --algorithm=ring --model=bytes:2MB --iterations=3 --compute=0s

# Refusals: exit 2 and one line on stderr (rank 0's), nothing on stdout.
refused() {
    name=$1
    want=$2
    shift 2
    code=0
    # shellcheck disable=SC2086
    mpirun $mpirun_flags -np 2 "$driver" "$@" --mpi=1 >"$out/$name.out" 2>"$out/$name.err" ||
        code=$?
    lines=$(grep -c '^paramsync: ' "$out/$name.err" || true)
    if [ "$code" != 2 ] || [ -s "$out/$name.out" ] || [ "$lines" != 1 ] ||
        ! grep -q "$want" "$out/$name.err"; then
        echo "test-mpi: $name: wanted exit 2 and one line with '$want'; got exit $code:" >&2
        cat "$out/$name.err" >&2
        exit 1
    fi
    echo "test-mpi: $name refused ok"
}
refused refuse-fluid "only packet-level runs" --topology=fattree:k=4 --algorithm=ring \
    --model=bytes:1MB --backend=fluid
refused refuse-deadlock-check "needs every node in one process" --topology=fattree:k=4 \
    --algorithm=none --flows="$out/shift16.txt" --deadlock-check=1ms
# ParamsyncHelper over ranks: a flow beside a sync plan is one line and exit 2 (the API
# throws std::invalid_argument), not an abort.
code=0
# shellcheck disable=SC2086
mpirun $mpirun_flags -np 2 "$bin" --topology=fattree:k=4 --sync=ring --bytes=1000000 --misuse=1 \
    --mpi=1 >"$out/misuse.out" 2>"$out/misuse.err" || code=$?
[ "$code" = 2 ] && [ "$(grep -c 'beside flows' "$out/misuse.err")" = 1 ] ||
    { echo "test-mpi: helper misuse: wanted exit 2 'beside flows', got $code:" >&2;
      cat "$out/misuse.err" >&2; exit 1; }
echo "test-mpi: helper-misuse refused ok"
# One rank under --mpi=1 is refused after MPI_Init (it would be one process's run).
code=0
mpirun $mpirun_flags -np 1 "$driver" --topology=star:n=8 --algorithm=none \
    --flows="$out/incast8.txt" --mpi=1 >/dev/null 2>"$out/one-rank.err" || code=$?
[ "$code" = 2 ] && grep -q 'one MPI rank' "$out/one-rank.err" ||
    { echo "test-mpi: one rank: wanted exit 2 'one MPI rank', got $code" >&2; exit 1; }
echo "test-mpi: one-rank refused ok"
echo "test-mpi: ok"
