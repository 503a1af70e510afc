# Files of workloads/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_WORKLOADS_SOURCES
)
set(PARAMSYNC_WORKLOADS_HEADERS
)
set(PARAMSYNC_WORKLOADS_TESTS
)
