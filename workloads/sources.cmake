# Files of workloads/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_WORKLOADS_SOURCES
    workloads/sync-job.cc
    workloads/sync-application.cc
)
set(PARAMSYNC_WORKLOADS_HEADERS
    workloads/sync-job.h
    workloads/sync-application.h
)
set(PARAMSYNC_WORKLOADS_TESTS
)
