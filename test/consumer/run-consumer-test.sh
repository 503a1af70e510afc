#!/bin/sh
# The consumer-project test (ctest "consumer-project"): installs the build tree BUILD into a
# fresh prefix under WORK, then builds test/consumer/ two ways against that prefix only —
# CMake find_package(paramsync) and a plain compiler line from `pkg-config --cflags --libs
# paramsync` — and runs both programs.
# usage: run-consumer-test.sh BUILD WORK
set -eu
build=${1:?usage: run-consumer-test.sh BUILD WORK}
work=${2:?usage: run-consumer-test.sh BUILD WORK}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$(cd "$work" && pwd)/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/ns3/paramsync-helper.h include/ns3/pfc-switch.h share/paramsync/models/vgg16.csv \
         bin/paramsync; do
    [ -e "$prefix/$f" ] || { echo "consumer test: $prefix/$f not installed" >&2; exit 1; }
done
ls "$prefix"/lib*/libparamsync.so* "$prefix"/lib*/*/libparamsync.so* >/dev/null 2>&1 ||
    ls "$prefix"/lib*/libparamsync.so >/dev/null

# 1. CMake package config.
cmake -S "$here" -B "$work/cmake-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-configure.log"
cmake --build "$work/cmake-build" >"$work/cmake-build.log"
"$work/cmake-build/consumer" --prefix="$prefix"

# 2. pkg-config (the .pc file finds its prefix from its own place).
pcdir=$(dirname "$(find "$prefix" -name paramsync.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs paramsync)
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir paramsync)
# shellcheck disable=SC2086
${CXX:-c++} -O1 "$here/consumer.cc" -o "$work/consumer-pc" $flags -Wl,-rpath,"$libdir"
"$work/consumer-pc" --prefix="$prefix"

# 3. The installed driver finds its library and its model profiles.
"$prefix/bin/paramsync" --backend=fluid --topology=star:n=4 --algorithm=ring --model=vgg16 \
    --format=json >"$work/driver.json"
grep -q '"model":"vgg16".*"status":"ok"' "$work/driver.json"
echo "consumer test: ok (prefix $prefix)"
