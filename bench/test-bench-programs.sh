#!/bin/sh
# Hand-count test of the bench programs: 2 hosts through 1 switch, one 10 000 B flow
# = 10 packets of 1000 B x 2 hops = 20 packet-hops.
# Events = 1 inject + 10 x (tx-complete + arrival) x 2 hops = 41.
# Usage: bench/test-bench-programs.sh BUILD_DIR
set -e
b=${1:-build}; d=$(mktemp -d)
printf '3 1 2\n2\n0 2 10Gbps 1000ns 0\n1 2 10Gbps 1000ns 0\n' > "$d/t.txt"
printf '1\n0 1 3 100 10000 0\n' > "$d/f.txt"
out=$("$b/bare-path-bench" "$d/t.txt" "$d/f.txt")
echo "$out"
echo "$out" | grep -q '"pkt_hops":20,' || { echo "FAIL: expected 20 packet-hops"; exit 1; }
echo "$out" | grep -q '"events":41,' || { echo "FAIL: expected 41 events"; exit 1; }
out=$("$b/stock-ns3-bench" "$d/t.txt" "$d/f.txt")
echo "$out"
echo "$out" | grep -q '"pkt_hops":20,' || { echo "FAIL: stock expected 20 packet-hops"; exit 1; }
echo PASS
