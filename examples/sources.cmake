# Example programs; each becomes build/<name>.
set(PARAMSYNC_EXAMPLES
  examples/pfc-incast.cc
)
