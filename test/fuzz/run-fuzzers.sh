#!/bin/sh
# Builds the libFuzzer targets with clang (test/fuzz/CMakeLists.txt) and runs each for a
# bounded time on a copy of its seed corpus (new inputs never land in the repository).
# The seed is fixed, so a run explores a prefix of one input sequence: a slower machine
# sees fewer inputs of the same sequence, never different ones (make fuzz with a larger
# FUZZ_SECONDS looks further).
# A crash, a leak, an ASan/UBSan report or a trap in a target's own check fails the run and
# leaves the reproducer in BUILD/artifacts/; add it to test/fuzz/corpus/ as a regression.
#
#   test/fuzz/run-fuzzers.sh [BUILD_DIR] [SECONDS_PER_TARGET]   (build-fuzz, 20)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build-fuzz}
SECONDS_EACH=${2:-20}
if ! command -v clang++ >/dev/null 2>&1; then
    echo "run-fuzzers: clang++ not found (make deps installs clang); fuzzing skipped" >&2
    exit 1
fi
cmake -S "$ROOT/test/fuzz" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >/dev/null
mkdir -p "$BUILD/artifacts"
status=0
for pair in spec-string:spec topology-file:topology model-profile:model flow-list:flows; do
    target=${pair%%:*}
    seeds=${pair#*:}
    work="$BUILD/corpus-$target"
    rm -rf "$work" && mkdir -p "$work"
    if "$BUILD/$target-fuzz" "$work" "$ROOT/test/fuzz/corpus/$seeds" \
        -seed=1 -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 \
        -artifact_prefix="$BUILD/artifacts/$target-" >"$BUILD/$target.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$BUILD/$target.log" | tail -1)
        echo "fuzz $target: ok (${runs#*: } executions in ${SECONDS_EACH} s)"
    else
        echo "fuzz $target: FAILED, see $BUILD/$target.log and $BUILD/artifacts/" >&2
        tail -20 "$BUILD/$target.log" >&2
        status=1
    fi
done
exit $status
