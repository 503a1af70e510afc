# Files of helper/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_HELPER_SOURCES
)
set(PARAMSYNC_HELPER_HEADERS
)
set(PARAMSYNC_HELPER_TESTS
)
