# Benchmark programs; each becomes build/<name>.
set(PARAMSYNC_BENCHES
    bench/bare-path-bench.cc
    bench/stock-ns3-bench.cc
)
# Hand-count test of the bench programs (script; needs an add_test in CMakeLists.txt:
#   add_test(NAME bench-programs COMMAND ${PARAMSYNC_BENCH_SCRIPT_TEST} ${CMAKE_BINARY_DIR}))
set(PARAMSYNC_BENCH_SCRIPT_TEST ${CMAKE_CURRENT_LIST_DIR}/test-bench-programs.sh)
