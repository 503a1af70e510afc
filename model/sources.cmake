# Files of model/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_MODEL_SOURCES
)
set(PARAMSYNC_MODEL_HEADERS
)
set(PARAMSYNC_MODEL_TESTS
)
