# Example programs; each becomes build/<name>.
set(PARAMSYNC_EXAMPLES
  examples/paramsync.cc
  examples/pfc-incast.cc
  examples/first-experiment.cc
)
