# Benchmark programs; each becomes build/<name>.
set(PARAMSYNC_BENCHES
    bench/bare-path-bench.cc
    bench/bare-fattree-bench.cc
    bench/stock-ns3-bench.cc
    bench/fluid-bench.cc
    bench/page-walk-bench.cc
)
# Hand-count test of the bench programs (a script; CMakeLists.txt registers it with CTest
# as "bench-programs").
set(PARAMSYNC_BENCH_SCRIPT_TEST ${CMAKE_CURRENT_LIST_DIR}/test-bench-programs.sh)
