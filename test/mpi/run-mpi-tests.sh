#!/bin/sh
# `make test-mpi`: the same flows simulated in one process and partitioned over 2 MPI ranks
# (ns-3's DistributedSimulatorImpl, ParamsyncHelper::SetRanks) must give the same flow
# completion times, PFC pause frames, drops and ECN marks (compare-runs.py says how close).
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
if [ -z "$bin" ]; then
    tree=$("$root/test/ns3-trees/build-ns3-tree.sh" "$jobs")
    bin=$(find "$tree/build/contrib/paramsync/examples" -type f -name 'ns3.37-paramsync-mpi-check*' | head -n 1)
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "test-mpi: paramsync-mpi-check was not built" >&2; exit 1; }

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
echo "test-mpi: ok"
