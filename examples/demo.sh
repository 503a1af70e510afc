#!/bin/sh
# `make demo`: VGG-19 gradient synchronization on BCube(3,1) at 40 Gb/s with every algorithm
# that applies, packet by packet, each beside its ideal (fluid) GST. Prints the table,
# writes results/demo/ (summary.json, transfers.csv, pfc.csv, flows.csv, attributes.txt,
# trace.json for Perfetto) and renders plots/demo-gst.png.
#
#   examples/demo.sh [BUILD_DIR]          (BUILD_DIR defaults to build)
set -eu
BUILD_DIR=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p results
start=$(date +%s.%N)
status=0
"$BUILD_DIR/paramsync" \
    --topology=bcube:n=3,k=1 --rate=40Gbps --delay=1us --model=vgg19 --algorithm=all \
    --mtu=4096 --cc=none --pfc=1 --backend=packet \
    --out=results/demo --trace=results/demo/trace.json || status=$?
end=$(date +%s.%N)
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "demo: paramsync failed (exit $status)" >&2
    exit "$status"
fi
/usr/bin/python3 plots/demo-gst.py results/demo/summary.json plots/demo-gst.png
echo "demo wall time: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s (results/demo/, plots/demo-gst.png)"
exit "$status"
