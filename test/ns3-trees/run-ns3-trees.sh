#!/bin/sh
# `make test-ns3-trees`: builds paramsync inside a real ns-3 source tree and runs it there, as
# an ns-3 user does — contrib/paramsync, `./ns3 configure --enable-modules='paramsync;mpi'
# --enable-mpi` (build-ns3-tree.sh), the driver and the tutorial as ns-3 programs,
# `./test.py` for the paramsync TestSuites.
#
# usage: run-ns3-trees.sh [JOBS]
# The tree is Debian's ns-3.37 source package, built by build-ns3-tree.sh (cached; with MPI,
# which `make test-mpi` runs in the same build). ns-3.31 (waf) is not supported:
# README.md, "Supported ns-3 versions". Prints each phase's wall time.
set -eu
jobs=${1:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/test/ns3-trees
suites="paramsync-shared-buffer-mmu paramsync-roce-header"

phase_start=$(date +%s)
phase() {
    now=$(date +%s)
    echo "test-ns3-trees: $1 ($((now - phase_start)) s)"
    phase_start=$now
}

tree=$("$here/build-ns3-tree.sh" "$jobs")
phase "ns-3.37 tree built with paramsync and MPI at $tree (build-ns3-tree.sh)"
cd "$tree"

# The driver as an ns-3 program: a built-in model (found beside the library, no source path)
# on a packet-level ring; and the tutorial.
./ns3 run --no-build "paramsync --topology=star:n=4 --algorithm=ring --model=mnist-mlp --format=json" \
    >driver.json 2>driver.err || { cat driver.err >&2; exit 1; }
grep -q "\"model\":\"mnist-mlp\".*\"status\":\"ok\"" driver.json || { echo "test-ns3-trees: driver output:" >&2; cat driver.json >&2; exit 1; }
./ns3 run --no-build "first-experiment --topology=star:n=4 --model=bytes:1MB"
phase "driver and first-experiment ran"

for suite in $suites; do
    ./test.py --no-build -s "$suite" || { echo "test-ns3-trees: test.py -s $suite failed" >&2; exit 1; }
done
phase "test.py passed: $suites"
echo "test-ns3-trees: ok"
