# Builds and runs a fresh program from capi/rust/README.md's steps alone
# (ctest rust.consumer): the README's Cargo.toml and src/main.rs blocks,
# marked `<!-- consumer: FILE -->`, with the checkout path the README calls
# /path/to/libcbor_fast put in. The program uses the `bundled` feature, so
# the core is built from this checkout (cmake crate, Release, 2 jobs) and
# linked statically; it must run with no LD_LIBRARY_PATH, have no
# libcbor_fast.so among its NEEDED entries, and print the README's output.
#
#   cmake -DCARGO=... -DSOURCE_DIR=capi/rust -DWORK_DIR=... -P readme_consumer.cmake
foreach(v CARGO SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "readme_consumer.cmake: -D${v}=... is required")
  endif()
endforeach()
get_filename_component(_repo "${SOURCE_DIR}/../.." ABSOLUTE)
file(READ "${SOURCE_DIR}/README.md" _readme)

# The fenced block that follows the marker `<!-- consumer: NAME -->`.
function(readme_block name out)
  string(FIND "${_readme}" "<!-- consumer: ${name} -->" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md has no <!-- consumer: ${name} --> block")
  endif()
  string(SUBSTRING "${_readme}" ${at} -1 rest)
  string(FIND "${rest}" "```" open)
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "\n" eol)
  math(EXPR eol "${eol} + 1")
  string(SUBSTRING "${rest}" ${eol} -1 rest)
  string(FIND "${rest}" "```" close)
  string(SUBSTRING "${rest}" 0 ${close} body)
  string(REPLACE "/path/to/libcbor_fast" "${_repo}" body "${body}")
  set(${out} "${body}" PARENT_SCOPE)
endfunction()

readme_block("Cargo.toml" _toml)
readme_block("src/main.rs" _main)
readme_block("output" _expected)
string(STRIP "${_expected}" _expected)

file(REMOVE_RECURSE "${WORK_DIR}/src")
file(MAKE_DIRECTORY "${WORK_DIR}/src")
file(WRITE "${WORK_DIR}/Cargo.toml" "${_toml}")
file(WRITE "${WORK_DIR}/src/main.rs" "${_main}")
# The binding's lock file pins the same dependency versions CI tested (cargo
# drops the entries this program does not use).
file(COPY_FILE "${SOURCE_DIR}/Cargo.lock" "${WORK_DIR}/Cargo.lock")

# Nothing from the build tree: no library directory, no pkg-config path, no
# loader path. ccache, when present, speeds up the core's C++ build.
set(_env CBOR_FAST_LIB_DIR= PKG_CONFIG_PATH= LD_LIBRARY_PATH=
  "CARGO_TARGET_DIR=${WORK_DIR}/target" CMAKE_BUILD_PARALLEL_LEVEL=2)
find_program(_ccache ccache)
if(_ccache)
  list(APPEND _env "CMAKE_C_COMPILER_LAUNCHER=${_ccache}" "CMAKE_CXX_COMPILER_LAUNCHER=${_ccache}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH ${_env} "${CARGO}" build -j2
  WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cargo build of the README program failed (${rc})")
endif()

set(_exe "${WORK_DIR}/target/debug/hello_cbor")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH "${_exe}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the README program failed (${rc}): ${err}")
endif()
if(NOT out STREQUAL _expected)
  message(FATAL_ERROR "the README program printed\n  ${out}\nnot the README's\n  ${_expected}")
endif()
find_program(_readelf readelf)
if(_readelf)
  execute_process(COMMAND "${_readelf}" -d "${_exe}" OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR dyn MATCHES "libcbor_fast")
    message(FATAL_ERROR "the README program is not linked statically against libcbor_fast:\n${dyn}")
  endif()
endif()
message(STATUS "README program: ${out}")
