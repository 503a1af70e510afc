#!/bin/sh
# Every C++ file of the repository follows .clang-format (ns-3's conventions; CONTRIBUTING.md).
# Usage: check-format.sh REPO_ROOT. Lists the files that differ and exits 1; fix them with
# `clang-format -i FILE`.
set -eu
cd "$1"
bad=0
for f in $(find model topologies workloads helper examples bench test -name '*.cc' -o -name '*.h' | sort); do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f (clang-format -i $f)"
        bad=1
    fi
done
exit $bad
