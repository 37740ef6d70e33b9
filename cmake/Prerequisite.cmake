# cbor_fast_missing_prerequisite(<what>): a tool, package or file a test suite
# needs is missing. Under CI=true (the environment of .ci/run on CI machines)
# that is a configuration error, never a silent skip: CI must not go green
# with a suite untested. Elsewhere the suite is not registered, with a warning.
# (The bindings do the same for their toolchains in capi/<lang>/CMakeLists.txt.)
function(cbor_fast_missing_prerequisite what)
  if("$ENV{CI}" STREQUAL "true" OR "$ENV{CI}" STREQUAL "1")
    message(FATAL_ERROR "CI=true and ${what}: install it (sh cmake/install-deps.sh)")
  endif()
  message(WARNING "${what}: those tests are not registered")
endfunction()
