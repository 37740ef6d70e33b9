# Install rules and package files (included from the top-level CMakeLists.txt
# when CBOR_FAST_INSTALL is ON).
#
#   lib/libcbor_fast.so.0.1.0 (+ .so.0, .so)    C API only (cbor_fast::cbor_fast)
#   lib/libcbor_fast.a                          C++ core + C API (cbor_fast::cxx)
#   include/cbor_fast.h, cbor_fast_export.h, cbor_fast_version.h
#   include/cbor_fast/*.hpp                     C++ headers (+ generated version.hpp)
#   bin/cbor-fast                               when CBOR_FAST_BUILD_TOOLS
#   lib/pkgconfig/cbor_fast.pc
#   lib/cmake/cbor_fast/cbor_fast{Config,ConfigVersion,Targets*}.cmake
include(CMakePackageConfigHelpers)
include("${CMAKE_CURRENT_LIST_DIR}/JoinPaths.cmake")

set(CBOR_FAST_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/cbor_fast")

# Both libraries are linked from $<TARGET_OBJECTS:cbor_fast_objects>, not from
# the object library target, so it never becomes a link dependency that the
# export set would have to carry.
install(TARGETS cbor_fast_shared cbor_fast_static
  EXPORT cbor_fastTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# (The include directory reaches the exported targets through their
# $<INSTALL_INTERFACE:include>; INCLUDES DESTINATION would list it twice.)

install(FILES
  "${PROJECT_SOURCE_DIR}/capi/include/cbor_fast.h"
  "${PROJECT_BINARY_DIR}/include/cbor_fast_export.h"
  "${PROJECT_BINARY_DIR}/include/cbor_fast_version.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# Never into include/cbor/ and never as cbor.h: libcbor and TinyCBOR own those.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/cbor_fast"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.def")
install(FILES "${PROJECT_BINARY_DIR}/include/cbor_fast/version.hpp"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/cbor_fast")

if(TARGET cbor-fast)
  install(TARGETS cbor-fast RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()

# ---- pkg-config ----------------------------------------------------------------
# With a relative libdir the .pc file finds the prefix from its own place
# (${pcfiledir}), so the tree works wherever it is installed or moved, including
# `cmake --install build --prefix DIR`. An absolute libdir pins everything to
# the configured prefix instead.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(CBOR_FAST_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _cbor_fast_up "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
  string(REGEX REPLACE "/$" "" _cbor_fast_up "${_cbor_fast_up}")
  set(CBOR_FAST_PC_PREFIX "\${pcfiledir}/${_cbor_fast_up}")
  unset(_cbor_fast_up)
endif()
join_paths(CBOR_FAST_PC_LIBDIR "\${prefix}" "${CMAKE_INSTALL_LIBDIR}")
join_paths(CBOR_FAST_PC_INCLUDEDIR "\${prefix}" "${CMAKE_INSTALL_INCLUDEDIR}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/cbor_fast.pc.in"
  "${PROJECT_BINARY_DIR}/cbor_fast.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cbor_fast.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
# The static archive's own .pc (the Go binding links it by default).
configure_file("${PROJECT_SOURCE_DIR}/cmake/cbor_fast-static.pc.in"
  "${PROJECT_BINARY_DIR}/cbor_fast-static.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cbor_fast-static.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# ---- CMake package -------------------------------------------------------------
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/cbor_fastConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cbor_fastConfig.cmake"
  INSTALL_DESTINATION "${CBOR_FAST_CMAKE_DIR}")
# The ABI (SOVERSION) changes only with the major version.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cbor_fastConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cbor_fastConfig.cmake"
  "${PROJECT_BINARY_DIR}/cbor_fastConfigVersion.cmake"
  DESTINATION "${CBOR_FAST_CMAKE_DIR}")
install(EXPORT cbor_fastTargets
  NAMESPACE cbor_fast::
  DESTINATION "${CBOR_FAST_CMAKE_DIR}")

# The build tree as a package too: cbor_fast_DIR=<build dir>. The config file
# above only includes cbor_fastTargets.cmake from its own directory.
export(EXPORT cbor_fastTargets
  NAMESPACE cbor_fast::
  FILE "${PROJECT_BINARY_DIR}/cbor_fastTargets.cmake")
