# ABI baseline of the C library, checked with libabigail.
#
#   cmake -DMODE=check  -DABIDIFF=abidiff -DBASELINE=cbor_fast.abi -DLIBRARY=libcbor_fast.so
#         -DHEADERS_DIRS="capi/include;build/include" -DHEADER=cbor_fast.h -P abi_check.cmake
#   cmake -DMODE=update -DABIDW=abidw ... (same)        rewrites BASELINE
#
# The baseline holds the exported functions and the types the public headers
# define (abidw --exported-interfaces-only --headers-dir --drop-private-types):
# the opaque handles are declarations only, so their insides and the C++ core
# may change freely.
#
# Pass/fail: abidiff's exit status is a bit set (1 error, 2 usage error, 4 ABI
# change, 8 incompatible change), but bit 8 is only set for removed functions
# and symbols: a public struct whose fields move gives 4 alone ("might or might
# not be compatible, a human must review"). So the check passes only when
# nothing changed or the changes are additions (new functions); any removed or
# changed function or variable fails, and so does bit 8 or an error.
#
# Growing a public struct (a field appended after struct_size) therefore fails
# too, although the struct_size convention keeps old callers working: review
# the report, then refresh the baseline (see CMakeLists.txt here).
cmake_minimum_required(VERSION 3.25)

foreach(var MODE BASELINE LIBRARY HEADERS_DIRS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "abi_check.cmake: -D${var}=... is required")
  endif()
endforeach()

set(header_args "")
foreach(dir IN LISTS HEADERS_DIRS)
  list(APPEND header_args --headers-dir "${dir}")
endforeach()

if(MODE STREQUAL "update")
  # Location, compilation directory, corpus path and DT_NEEDED are left out:
  # they change with the checkout and the build flavour (ASan adds libasan),
  # not with the ABI.
  execute_process(
    COMMAND "${ABIDW}" ${header_args} --drop-private-types --exported-interfaces-only
            --no-corpus-path
            --no-comp-dir-path --no-show-locs --no-elf-needed
            --out-file "${BASELINE}" "${LIBRARY}"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "abidw failed (${rc}): ${err}")
  endif()
  # Translation units are named by absolute path: keep the checkout's out.
  if(DEFINED SOURCE_DIR)
    file(READ "${BASELINE}" abi)
    string(REPLACE "path='${SOURCE_DIR}/" "path='" abi "${abi}")
    file(WRITE "${BASELINE}" "${abi}")
  endif()
  message(STATUS "wrote ${BASELINE}")
elseif(MODE STREQUAL "check")
  # No --headers-dir2 here: the baseline is already reduced to public types and
  # carries no source locations, which a header filter would need to tell
  # public from private (without them it would filter every change away).
  execute_process(
    COMMAND "${ABIDIFF}" --exported-interfaces-only --fail-no-debug-info --no-show-locs
            "${BASELINE}" "${LIBRARY}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE err)
  if(NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "abidiff did not run: ${rc} ${err}")
  endif()
  math(EXPR error_bits "${rc} & 3")
  math(EXPR change_bit "${rc} & 4")
  math(EXPR incompatible_bit "${rc} & 8")
  if(report)
    message("${report}")
  endif()
  # "Functions changes summary: 0 Removed, 1 Changed (2 filtered out), 1 Added functions"
  set(breaking "")
  string(REGEX MATCHALL "[0-9]+ (Removed|Changed)" counts "${report}")
  foreach(count IN LISTS counts)
    if(NOT count MATCHES "^0 ")
      list(APPEND breaking "${count}")
    endif()
  endforeach()
  if(report MATCHES "SONAME|architecture changed")
    list(APPEND breaking "SONAME or architecture")
  endif()
  if(NOT error_bits EQUAL 0)
    message(FATAL_ERROR "abidiff failed (exit ${rc}): ${err}")
  elseif(NOT incompatible_bit EQUAL 0 OR breaking)
    message(FATAL_ERROR "the C ABI changed beyond additions (abidiff exit ${rc}: ${breaking}). "
      "If intended: for a break bump the major version and SOVERSION; then refresh "
      "${BASELINE} (cmake --build <build> --target cbor_fast_abi_baseline)")
  elseif(NOT change_bit EQUAL 0)
    message(STATUS "only additions since the baseline (abidiff exit ${rc}); "
      "refresh it when releasing")
  else()
    message(STATUS "C ABI identical to ${BASELINE}")
  endif()
else()
  message(FATAL_ERROR "MODE must be check or update")
endif()

# Functions the header declares that the baseline does not know yet (additions
# made since it was recorded): reported, not an error.
if(DEFINED HEADER AND EXISTS "${BASELINE}")
  file(READ "${HEADER}" text)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
  string(REGEX MATCHALL "CBOR_FAST_API[^;(]*\\(" decls "${text}")
  file(READ "${BASELINE}" baseline)
  set(count 0)
  set(missing "")
  foreach(decl IN LISTS decls)
    if(decl MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*\\($")
      math(EXPR count "${count} + 1")
      string(FIND "${baseline}" "<elf-symbol name='${CMAKE_MATCH_1}'" at)
      if(at EQUAL -1)
        list(APPEND missing "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  if(missing)
    message(STATUS "declared in cbor_fast.h, not in the baseline: ${missing}")
  else()
    message(STATUS "all ${count} functions of cbor_fast.h are in the baseline")
  endif()
endif()
