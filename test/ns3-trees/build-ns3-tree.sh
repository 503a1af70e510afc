#!/bin/sh
# Builds paramsync inside Debian's ns-3.37 source tree, once for `make test-ns3-trees` and
# `make test-mpi` (CI builds the tree once): contrib/paramsync, `./ns3 configure` with MPI
# (Debian's OpenMPI) and ns-3's mpi module beside paramsync's, `cmake --build`.
#
# usage: build-ns3-tree.sh [JOBS]
# Prints the path of the built tree on stdout, its phases (with wall times) on stderr.
# The tree is Debian's ns-3.37 source package (CMake; fetch-ns3-source.sh caches it in
# $PARAMSYNC_NS3SRC_CACHE, default ~/.cache/paramsync-ns3src) with only the ns-3 modules
# paramsync needs (core, network, stats, config-store, mpi).
set -eu
jobs=${1:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/test/ns3-trees

phase_start=$(date +%s)
phase() {
    now=$(date +%s)
    echo "build-ns3-tree: $1 ($((now - phase_start)) s)" >&2
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
# MPI on (ENABLE_MPI: paramsync compiles its crossing of cut links and links ns-3's mpi module;
# CMakeLists.txt) for `make test-mpi` (test/mpi/run-mpi-tests.sh).
./ns3 configure -d release --enable-mpi --enable-modules='paramsync;mpi' --enable-examples \
    --enable-tests --filter-module-examples-and-tests=paramsync >configure.log 2>&1 ||
    { cat configure.log >&2; exit 1; }
grep -q 'paramsync' configure.log || { echo "build-ns3-tree: paramsync not configured" >&2; exit 1; }
phase "configured (ns-3 modules: $(sed -n '/Modules configured to be built/,/^$/p' configure.log | tail -n +2 | tr -s ' \n' ' '))"

# cmake --build directly: ./ns3 build caps its jobs at (cores - 1), one job on 2 cores.
cmake --build cmake-cache -j "$jobs" >build.log 2>&1 || { tail -n 60 build.log >&2; exit 1; }
phase "built library, driver, examples and tests"
echo "$tree"
