# Benchmark programs; each becomes build/<name>.
set(PARAMSYNC_BENCHES
)
