# `cmake --install` of the out-of-tree build (included by CMakeLists.txt): headers under
# include/ns3/ (as ns-3 installs its own), libparamsync, the driver, the model profiles, a CMake
# package config (find_package(paramsync) -> paramsync::paramsync, which brings ns-3 along)
# and paramsync.pc for pkg-config. Everything is relative to the install prefix, so
# `cmake --install build --prefix ANY` gives a working tree.
include(CMakePackageConfigHelpers)

set(PARAMSYNC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/paramsync)

install(TARGETS paramsync-module EXPORT paramsyncTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PARAMSYNC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
install(FILES ${PARAMSYNC_MODEL_PROFILES} DESTINATION ${PARAMSYNC_MODELS_INSTALL_DIR})

# The driver: finds libparamsync beside it at ../lib (whatever the prefix).
file(RELATIVE_PATH PARAMSYNC_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(paramsync PROPERTIES INSTALL_RPATH "$ORIGIN/${PARAMSYNC_BIN_TO_LIB}")
install(TARGETS paramsync RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT paramsyncTargets NAMESPACE paramsync:: DESTINATION ${PARAMSYNC_CMAKE_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/paramsyncConfig.cmake.in
  ${CMAKE_BINARY_DIR}/paramsyncConfig.cmake
  INSTALL_DESTINATION ${PARAMSYNC_CMAKE_DIR}
  PATH_VARS PARAMSYNC_MODELS_INSTALL_DIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/paramsyncConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/paramsyncConfig.cmake
              ${CMAKE_BINARY_DIR}/paramsyncConfigVersion.cmake
        DESTINATION ${PARAMSYNC_CMAKE_DIR})

# pkg-config: prefix found from the .pc file's own place (${pcfiledir}), so it relocates.
file(RELATIVE_PATH PARAMSYNC_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PARAMSYNC_PC_TO_PREFIX "${PARAMSYNC_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/paramsync.pc.in ${CMAKE_BINARY_DIR}/paramsync.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/paramsync.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
