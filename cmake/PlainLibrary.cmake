# A shared libcbor_fast without sanitizers, for the tests that load the library
# into another runtime (Python ctypes, Rust, Go/cgo): an ASan-instrumented
# library cannot be dlopen()ed by an uninstrumented interpreter.
#
# Provides:
#   target cbor_fast_plain          libcbor_fast.so in ${CBOR_FAST_PLAIN_DIR}
#   target cbor_fast_plain_static   the same objects as a static library, for
#                                   uninstrumented C++ programs (the shared
#                                   library exports the C API only); the
#                                   hostile-input tests run these under ulimit -v,
#                                   which ASan's shadow memory cannot live with
#   CBOR_FAST_PLAIN_DIR             directory of the library
#   CBOR_FAST_PLAIN_PKGCONFIG_DIR   directory holding a cbor_fast.pc for the build tree
#   CBOR_FAST_PLAIN_AS_INSTALLED_PKGCONFIG_DIR
#                                   a cbor_fast.pc for the same library as an
#                                   installed one reads: a libdir variable and
#                                   no -rpath in Libs (programs linked with it
#                                   must find the library themselves)
#   CBOR_FAST_PLAIN_INCLUDE_DIRS    C include directories (source + generated)
set(CBOR_FAST_PLAIN_DIR "${PROJECT_BINARY_DIR}/plain")
set(CBOR_FAST_PLAIN_PKGCONFIG_DIR "${CBOR_FAST_PLAIN_DIR}/pkgconfig")
set(CBOR_FAST_PLAIN_INCLUDE_DIRS
  "${PROJECT_SOURCE_DIR}/capi/include" "${PROJECT_BINARY_DIR}/include")

# Compiled once (position independent, hidden by default), linked twice.
add_library(cbor_fast_plain_objects OBJECT ${CBOR_FAST_SOURCES})
target_include_directories(cbor_fast_plain_objects
  PUBLIC ${CBOR_FAST_PLAIN_INCLUDE_DIRS} "${PROJECT_SOURCE_DIR}/include"
  PRIVATE "${PROJECT_SOURCE_DIR}/src")
target_compile_features(cbor_fast_plain_objects PUBLIC cxx_std_17)
target_compile_definitions(cbor_fast_plain_objects PRIVATE cbor_fast_EXPORTS)
# Optimised whatever the build type: binding tests and their benchmarks use it.
target_compile_options(cbor_fast_plain_objects PRIVATE -O2 -Wall -Wextra)
target_link_libraries(cbor_fast_plain_objects PRIVATE simdjson::simdjson)

add_library(cbor_fast_plain SHARED $<TARGET_OBJECTS:cbor_fast_plain_objects>)
target_include_directories(cbor_fast_plain
  PUBLIC ${CBOR_FAST_PLAIN_INCLUDE_DIRS} "${PROJECT_SOURCE_DIR}/include")
set_target_properties(cbor_fast_plain PROPERTIES
  OUTPUT_NAME cbor_fast
  LIBRARY_OUTPUT_DIRECTORY "${CBOR_FAST_PLAIN_DIR}"
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS "${PROJECT_SOURCE_DIR}/cmake/cbor_fast.map")
target_link_libraries(cbor_fast_plain PRIVATE simdjson::simdjson)
target_link_options(cbor_fast_plain PRIVATE
  "-Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/cbor_fast.map" -Wl,-z,defs)

add_library(cbor_fast_plain_static STATIC $<TARGET_OBJECTS:cbor_fast_plain_objects>)
target_include_directories(cbor_fast_plain_static
  PUBLIC ${CBOR_FAST_PLAIN_INCLUDE_DIRS} "${PROJECT_SOURCE_DIR}/include")
target_compile_features(cbor_fast_plain_static PUBLIC cxx_std_17)
target_link_libraries(cbor_fast_plain_static PRIVATE simdjson::simdjson)
set_target_properties(cbor_fast_plain_static PROPERTIES
  OUTPUT_NAME cbor_fast
  ARCHIVE_OUTPUT_DIRECTORY "${CBOR_FAST_PLAIN_DIR}/static")

file(WRITE "${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast.pc.tmp"
"# pkg-config file for the build tree's plain libcbor_fast (not installed)
Name: cbor_fast
Description: ${PROJECT_DESCRIPTION} (build tree)
Version: ${PROJECT_VERSION}
Cflags: -I${PROJECT_SOURCE_DIR}/capi/include -I${PROJECT_BINARY_DIR}/include
Libs: -L${CBOR_FAST_PLAIN_DIR} -Wl,-rpath,${CBOR_FAST_PLAIN_DIR} -lcbor_fast
")
configure_file("${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast.pc.tmp"
  "${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast.pc" COPYONLY)
set(CBOR_FAST_PLAIN_AS_INSTALLED_PKGCONFIG_DIR "${CBOR_FAST_PLAIN_DIR}/pkgconfig-as-installed")
file(WRITE "${CBOR_FAST_PLAIN_AS_INSTALLED_PKGCONFIG_DIR}/cbor_fast.pc.tmp"
"# the build tree's plain libcbor_fast, as cmake/cbor_fast.pc.in installs it (not installed)
libdir=${CBOR_FAST_PLAIN_DIR}
Name: cbor_fast
Description: ${PROJECT_DESCRIPTION} (build tree, as installed)
Version: ${PROJECT_VERSION}
Cflags: -I${PROJECT_SOURCE_DIR}/capi/include -I${PROJECT_BINARY_DIR}/include
Libs: -L\${libdir} -lcbor_fast
")
configure_file("${CBOR_FAST_PLAIN_AS_INSTALLED_PKGCONFIG_DIR}/cbor_fast.pc.tmp"
  "${CBOR_FAST_PLAIN_AS_INSTALLED_PKGCONFIG_DIR}/cbor_fast.pc" COPYONLY)
# The static archive, as cmake/cbor_fast-static.pc.in installs it (the Go
# binding links it by default).
file(WRITE "${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast-static.pc.tmp"
"# pkg-config file for the build tree's plain static libcbor_fast (not installed)
Name: cbor_fast-static
Description: ${PROJECT_DESCRIPTION} (build tree, static archive)
Version: ${PROJECT_VERSION}
Cflags: -I${PROJECT_SOURCE_DIR}/capi/include -I${PROJECT_BINARY_DIR}/include
Libs: ${CBOR_FAST_PLAIN_DIR}/static/libcbor_fast.a
Requires.private: simdjson
Libs.private: -lstdc++ -lm
")
configure_file("${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast-static.pc.tmp"
  "${CBOR_FAST_PLAIN_PKGCONFIG_DIR}/cbor_fast-static.pc" COPYONLY)
