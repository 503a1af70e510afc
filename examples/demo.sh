#!/bin/sh
# `make demo`: VGG-19 gradient synchronization on BCube(3,1) at 40 Gb/s with every algorithm
# that applies, packet by packet, each beside its ideal (fluid) GST. Prints the table,
# writes OUT_DIR (summary.json, transfers.csv, pfc.csv, flows.csv, attributes.txt,
# trace.json for Perfetto) and renders PLOT.
#
#   examples/demo.sh [BUILD_DIR [OUT_DIR [PLOT]]]
#
# BUILD_DIR defaults to build; OUT_DIR to BUILD_DIR/demo and PLOT to OUT_DIR/demo-gst.png,
# both untracked, so `make demo` modifies no tracked file. `make demo-reference` passes
# results/demo and plots/demo-gst.png: it regenerates the committed reference results.
set -eu
BUILD_DIR=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT_DIR=${2:-$BUILD_DIR/demo}
PLOT=${3:-$OUT_DIR/demo-gst.png}
mkdir -p "$(dirname "$OUT_DIR")"
start=$(date +%s.%N)
status=0
"$BUILD_DIR/paramsync" \
    --topology=bcube:n=3,k=1 --rate=40Gbps --delay=1us --model=vgg19 --algorithm=all \
    --mtu=4096 --cc=none --pfc=1 --backend=packet \
    --out="$OUT_DIR" --trace="$OUT_DIR/trace.json" || status=$?
end=$(date +%s.%N)
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "demo: paramsync failed (exit $status)" >&2
    exit "$status"
fi
/usr/bin/python3 plots/demo-gst.py "$OUT_DIR/summary.json" "$PLOT"
echo "demo wall time: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s ($OUT_DIR/, $PLOT)"
exit "$status"
