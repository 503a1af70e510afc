#!/bin/sh
# make bench: ./bench/run-bench.sh BUILD_DIR [--quick]
set -e
here=$(dirname "$0")
exec /usr/bin/python3 "$here/run_bench.py" "$@"
