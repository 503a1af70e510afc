# Files of topologies/ (and its tests), listed explicitly. Paths are relative to the repository root.
set(PARAMSYNC_TOPOLOGIES_SOURCES
    topologies/spec-string.cc
)
set(PARAMSYNC_TOPOLOGIES_HEADERS
    topologies/spec-string.h
    topologies/topology-graph.h
    topologies/topology.h
)
set(PARAMSYNC_TOPOLOGIES_TESTS
    test/spec-string-test.cc
)
