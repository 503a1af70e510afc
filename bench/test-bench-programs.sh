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
# Bare timing: 1000 B at 10 Gb/s = 0.8 us a hop; the switch forwards the 10 packets back to
# back from 1.8 us (first arrival), so the last leaves it at 1.0 + 11 x 0.8 = 9.8 us and
# arrives at 10.8 us. The same delays written "0.001ms" must give the same time.
printf '3 1 2\n2\n0 2 10Gbps 0.001ms 0\n1 2 10Gbps 0.001ms 0\n' > "$d/t2.txt"
for topo in t t2; do
  out=$("$b/bare-path-bench" "$d/$topo.txt" "$d/f.txt")
  echo "$out" | grep -q '"sim_s":1.08e-05,' || { echo "FAIL: $topo: expected sim_s 10.8 us: $out"; exit 1; }
done
# PAYLOAD 4000: 4000 + 4000 + 2000 B = 3 packets x 2 hops = 6 packet-hops, 1 + 3 x 2 x 2 = 13
# events; the last arrives at 1.0 + 3.2 + 3.2 + 3.2 + 1.6 + 1.0 = 13.2 us (bare).
out=$("$b/bare-path-bench" "$d/t2.txt" "$d/f.txt" 1 4000)
echo "$out"
echo "$out" | grep -q '"pkt_hops":6,"events":13,"sim_s":1.32e-05,' || { echo "FAIL: bare payload 4000"; exit 1; }
out=$("$b/stock-ns3-bench" "$d/t2.txt" "$d/f.txt" 1 4000)
echo "$out"
echo "$out" | grep -q '"pkt_hops":6,' || { echo "FAIL: stock payload 4000: expected 6 packet-hops"; exit 1; }
# bare-fattree-bench on fattree:k=4 (16 hosts, 4 per pod, 2 per edge switch). Host 0 -> host
# 4 (pod 1) crosses 6 links: 10 packets x 6 = 60 packet-hops, events 1 kick + 60 x 2 = 121.
# A frame is 1000 + 66 B of headers, FCS and ICRC + 20 B of preamble and gap = 1086 B: 217.2 ns
# at 40 Gb/s, 217 ns rounded. The window (68 packets) sends all 10 at once, so the last
# arrives at 6 x (217 + 1000) + 9 x 217 = 9,255 ns.
printf '1\n0 4 3 100 10000 0\n' > "$d/ft.txt"
out=$("$b/bare-fattree-bench" 4 "$d/ft.txt")
echo "$out"
echo "$out" | grep -q '"pkt_hops":60,"events":121,"sim_s":9.255e-06,' || { echo "FAIL: bare-fattree k=4 one flow"; exit 1; }
# Two flows: 0 -> 1 under one edge switch (2 links) and 2 -> 4 across pods (6): 10 x 2 +
# 10 x 6 = 80 packet-hops, 2 kicks + 80 x 2 = 162 events.
printf '2\n0 1 3 100 10000 0\n2 4 3 100 10000 0\n' > "$d/ft2.txt"
out=$("$b/bare-fattree-bench" 4 "$d/ft2.txt")
echo "$out"
echo "$out" | grep -q '"pkt_hops":80,"events":162,' || { echo "FAIL: bare-fattree k=4 two flows"; exit 1; }
# A K that is no fat-tree, and a host past the network: one line, exit 2.
if "$b/bare-fattree-bench" 3 "$d/ft.txt" 2>/dev/null; then echo "FAIL: K=3 accepted"; exit 1; fi
"$b/bare-fattree-bench" 3 "$d/ft.txt" 2>&1 | grep -q "K 3 is not allowed; allowed: an even integer" || { echo "FAIL: K=3 message"; exit 1; }
printf '1\n0 16 3 100 10000 0\n' > "$d/ft3.txt"
set +e; "$b/bare-fattree-bench" 4 "$d/ft3.txt" 2>/dev/null; rc=$?; set -e
[ "$rc" = 2 ] || { echo "FAIL: host 16 on k=4: exit $rc, expected 2"; exit 1; }
# page-walk-bench: four positive latencies (timing: no value is checked), and a zero STEPS is
# refused with exit 2.
out=$("$b/page-walk-bench" 20000)
echo "$out"
for key in lines_2mb_ns lines_256mb_ns line_per_page_16mb_ns line_per_page_128mb_ns; do
  echo "$out" | grep -Eq "\"$key\":[0-9]*[1-9][0-9]*\.[0-9]" || { echo "FAIL: page-walk $key"; exit 1; }
done
set +e; "$b/page-walk-bench" 0 2>/dev/null; rc=$?; set -e
[ "$rc" = 2 ] || { echo "FAIL: page-walk STEPS 0: exit $rc, expected 2"; exit 1; }
rm -rf "$d"
echo PASS
