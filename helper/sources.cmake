# Files of helper/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_HELPER_SOURCES
    helper/driver-options.cc
    helper/flow-list.cc
    helper/results-writer.cc
    helper/trace-event-writer.cc
)
set(PARAMSYNC_HELPER_HEADERS
    helper/driver-options.h
    helper/flow-list.h
    helper/run-result.h
    helper/results-writer.h
    helper/trace-event-writer.h
)
set(PARAMSYNC_HELPER_TESTS
    test/driver-pieces-test.cc
)
