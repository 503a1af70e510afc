#!/bin/sh
# `make test-ns3-trees`: builds paramsync inside a real ns-3 source tree and runs it there, as
# an ns-3 user does — contrib/paramsync, `./ns3 configure --enable-modules=paramsync`, the
# driver and the tutorial as ns-3 programs, `./test.py` for the paramsync TestSuites.
#
# usage: run-ns3-trees.sh [JOBS]
# The tree is Debian's ns-3.37 source package (CMake; fetch-ns3-source.sh caches it in
# $PARAMSYNC_NS3SRC_CACHE, default ~/.cache/paramsync-ns3src) with only the ns-3 modules
# paramsync needs (core, network, stats, config-store). ns-3.31 (waf) is not supported:
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

tree=$("$here/fetch-ns3-source.sh" bookworm)
phase "ns-3.37 source tree at $tree"

# The module as committed plus working-tree edits, without build directories. Only files whose
# content differs are copied (with a fresh mtime, so ninja rebuilds exactly what changed);
# files no longer in the module are removed.
dest=$tree/contrib/paramsync
mkdir -p "$dest"
list=$(mktemp)
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" ls-files --cached --others --exclude-standard >"$list"
else
    (cd "$root" && find . -path './build*' -prune -o -type f -print | sed 's|^\./||') >"$list"
fi
while IFS= read -r f; do
    [ -f "$root/$f" ] || continue
    if ! cmp -s "$root/$f" "$dest/$f"; then
        mkdir -p "$(dirname "$dest/$f")"
        cp "$root/$f" "$dest/$f"
    fi
done <"$list"
(cd "$dest" && find . -type f | sed 's|^\./||') | while IFS= read -r f; do
    grep -qxF "$f" "$list" || rm -f "$dest/$f"
done
rm -f "$list"

cd "$tree"
./ns3 configure -d release --enable-modules=paramsync --enable-examples --enable-tests \
    --filter-module-examples-and-tests=paramsync >configure.log 2>&1 ||
    { cat configure.log >&2; exit 1; }
grep -q 'paramsync' configure.log || { echo "test-ns3-trees: paramsync not configured" >&2; exit 1; }
phase "configured (ns-3 modules: $(sed -n '/Modules configured to be built/,/^$/p' configure.log | tail -n +2 | tr -s ' \n' ' '))"

# cmake --build directly: ./ns3 build caps its jobs at (cores - 1), one job on 2 cores.
cmake --build cmake-cache -j "$jobs" >build.log 2>&1 || { tail -n 60 build.log >&2; exit 1; }
phase "built library, driver, examples and tests"

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
