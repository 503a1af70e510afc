# Benchmark programs; each becomes build/<name>.
set(PARAMSYNC_BENCHES
    bench/bare-path-bench.cc
)
