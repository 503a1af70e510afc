#!/bin/sh
# bench/touch-build.sh DIR: a diagnostic build of paramsync in DIR (Release, with line
# numbers) whose prefetches are loads that cachegrind counts. Cachegrind ignores prefetches,
# so on a normal build it cannot tell what the event queue's warming (model/warmable-event.h)
# covers; here a line warming loads is missed in the warm function that loads it and hit
# where the packet path reads it, and a line missed on the packet path is one warming does
# not cover. The loaded byte is XORed into a global: a load whose value nothing reads is
# dropped by valgrind's IR optimizer (bench/README.md, "a diagnostic cachegrind sees").
# Diagnostic only: slower than the product, and not installed.
#   bench/touch-build.sh DIR          configure and build DIR/paramsync
#   bench/touch-build.sh --check DIR  compile one prefetch with the same flags and check that
#                                     it became a kept load (ctest touch-build-flags)
set -e
check=0
if [ "$1" = "--check" ]; then check=1; shift; fi
dir=${1:?usage: bench/touch-build.sh [--check] DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cat > "$dir/touch.h" <<'EOF'
// Force-included by bench/touch-build.sh: where a prefetch's byte goes (see there).
#pragma once
inline volatile char paramsync_touch_sink;
EOF
define='-D__builtin_prefetch(p, ...)=((void)(paramsync_touch_sink ^= *(volatile const char*)(p)))'
if [ $check = 1 ]; then
  printf 'void Warm(const char* p) { __builtin_prefetch(p + 64); }\n' > "$dir/one.cc"
  c++ -std=c++17 -O3 -include "$dir/touch.h" "$define" -c "$dir/one.cc" -o "$dir/one.o"
  objdump -dr "$dir/one.o" > "$dir/one.txt"
  # The byte at p + 64 is read, and the sink is written: no prefetch instruction is left.
  grep -q 'movzbl 0x40(%rdi)' "$dir/one.txt" || { echo "FAIL: no load at p + 64"; exit 1; }
  grep -q 'paramsync_touch_sink' "$dir/one.txt" || { echo "FAIL: the sink is not written"; exit 1; }
  ! grep -q prefetch "$dir/one.txt" || { echo "FAIL: a prefetch instruction is left"; exit 1; }
  echo "touch-build flags: a prefetch is a kept load"
  exit 0
fi
cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS=-g -include $dir/touch.h '$define'"
cmake --build "$dir" --target paramsync
