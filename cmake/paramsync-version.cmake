# Writes OUT (a C header defining PARAMSYNC_VERSION) from `git describe` of SRC, at every
# build (the paramsync-version target), rewriting the file only when the version changed so
# that nothing recompiles otherwise. Usage: cmake -DSRC=<repo> -DOUT=<header> -P this-file
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --tags
                OUTPUT_VARIABLE version ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR version STREQUAL "")
  set(version "unknown (not built from a git checkout)")
endif()
set(content "#define PARAMSYNC_VERSION \"${version}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
