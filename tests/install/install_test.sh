#!/usr/bin/env bash
# Install tests: the build installed into a scratch prefix, then used the way
# downstream projects use it. One case per ctest test (see CMakeLists.txt):
#
#   install            cmake --install into WORK/prefix; the expected files, nothing more
#   pkgconfig          consumer.c via `pkg-config --cflags --libs cbor_fast`, shared
#   pkgconfig_static   the same with `--static`, linked to libcbor_fast.a, and
#                      through cbor_fast-static.pc
#   cmake              tests/install/cmake_consumer via find_package(cbor_fast CONFIG)
#   libcbor            libcbor_coexist.c: libcbor and libcbor_fast in one program
#
# usage: install_test.sh CASE BUILD_DIR WORK_DIR SOURCE_DIR CC CXX SANITIZE VERSION TOOL CMAKE
#
# Sanitizers: in a CBOR_FAST_SANITIZE build the installed libraries are
# instrumented with ASan+UBSan. The consumers are compiled WITHOUT sanitizer
# flags (as a user would), but linked with -fsanitize=address,undefined so the
# driver puts the sanitizer runtimes into the program: ASan must be the first
# library loaded, and the static archive's instrumented objects need the
# runtimes' symbols at link time. LD_PRELOAD of libasan would cover only the
# shared cases; linking the runtime works for shared, static and CMake alike.
set -euo pipefail

case_name=$1 build_dir=$2 work=$3 source_dir=$4 cc=$5 cxx=$6 sanitize=$7 version=$8 tool=$9
cmake=${10}
prefix="$work/prefix"
here="$source_dir/tests/install"

san_ldflags=()
if [ "$sanitize" = "ON" ] || [ "$sanitize" = "1" ] || [ "$sanitize" = "TRUE" ]; then
  san_ldflags=("-fsanitize=address,undefined")
fi

fail() {
  echo "install_test[$case_name]: $*" >&2
  exit 1
}

# Directories of the installed tree (GNUInstallDirs may pick lib or lib64).
find_one() {
  local found
  found=$(find "$prefix" -path "$1" -print -quit)
  [ -n "$found" ] || fail "not installed: $1"
  printf '%s\n' "$found"
}

pc_env() {
  local pcdir depdir
  pcdir=$(dirname "$(find_one "*/pkgconfig/cbor_fast.pc")")
  # The one dependency's .pc (Requires.private: simdjson) from the system.
  depdir=$(pkg-config --variable=pcfiledir simdjson) || fail "simdjson.pc not found (libsimdjson-dev)"
  export PKG_CONFIG_PATH="$pcdir"
  # This tree first, then only simdjson's directory: never a system cbor_fast.pc.
  export PKG_CONFIG_LIBDIR="$pcdir:$depdir"
}

case "$case_name" in
  install)
    rm -rf "$work"
    mkdir -p "$work"
    "$cmake" --install "$build_dir" --prefix "$prefix" >"$work/install.log"
    for f in include/cbor_fast.h include/cbor_fast_export.h include/cbor_fast_version.h \
             include/cbor_fast/cbor_fast.hpp include/cbor_fast/reader.hpp \
             include/cbor_fast/writer.hpp include/cbor_fast/version.hpp; do
      [ -f "$prefix/$f" ] || fail "not installed: $f"
    done
    so=$(find_one "*/libcbor_fast.so.$version")
    libdir=$(dirname "$so")
    [ -L "$libdir/libcbor_fast.so.${version%%.*}" ] || fail "no SONAME link libcbor_fast.so.${version%%.*}"
    [ -L "$libdir/libcbor_fast.so" ] || fail "no development link libcbor_fast.so"
    [ -f "$libdir/libcbor_fast.a" ] || fail "no libcbor_fast.a"
    for f in cbor_fastConfig.cmake cbor_fastConfigVersion.cmake cbor_fastTargets.cmake; do
      [ -f "$libdir/cmake/cbor_fast/$f" ] || fail "not installed: cmake/cbor_fast/$f"
    done
    [ -f "$libdir/pkgconfig/cbor_fast.pc" ] || fail "not installed: pkgconfig/cbor_fast.pc"
    if [ "$tool" = "ON" ]; then
      [ -x "$prefix/bin/cbor-fast" ] || fail "not installed: bin/cbor-fast"
    fi
    # Never the names other CBOR libraries own, never internals.
    for f in include/cbor.h include/cbor include/internal include/cbor_fast/internal; do
      [ ! -e "$prefix/$f" ] || fail "must not be installed: $f"
    done
    echo "installed $(find "$prefix" -type f | wc -l) files into $prefix"
    ;;

  pkgconfig)
    pc_env
    [ "$(pkg-config --modversion cbor_fast)" = "$version" ] || fail "pkg-config --modversion"
    libdir=$(pkg-config --variable=libdir cbor_fast)
    # shellcheck disable=SC2046  # pkg-config output is a list of words
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$here/consumer.c" -o "$work/consumer_shared" \
      $(pkg-config --cflags --libs cbor_fast) "${san_ldflags[@]}" -Wl,-rpath,"$libdir"
    readelf -d "$work/consumer_shared" | grep -q 'NEEDED.*libcbor_fast\.so\.' ||
      fail "consumer_shared does not load libcbor_fast.so"
    "$work/consumer_shared"
    ;;

  pkgconfig_static)
    pc_env
    libs=$(pkg-config --static --libs cbor_fast)
    case " $libs " in
      *" -lstdc++ "*) ;;
      *) fail "pkg-config --static --libs lacks Libs.private (-lstdc++): $libs" ;;
    esac
    # -lcbor_fast would pick the .so next to the .a: name the archive instead.
    libs=${libs/-lcbor_fast/-l:libcbor_fast.a}
    # shellcheck disable=SC2046,SC2086
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$here/consumer.c" -o "$work/consumer_static" \
      $(pkg-config --cflags cbor_fast) $libs "${san_ldflags[@]}"
    if readelf -d "$work/consumer_static" | grep -q 'NEEDED.*libcbor_fast'; then
      fail "consumer_static still loads libcbor_fast.so"
    fi
    "$work/consumer_static"
    # The archive's own .pc (the Go binding's route): its --static libs name
    # the archive and what it needs (simdjson, the C++ runtime), nothing else.
    # shellcheck disable=SC2046
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$here/consumer.c" \
      -o "$work/consumer_static_pc" \
      $(pkg-config --cflags --static --libs cbor_fast-static) "${san_ldflags[@]}"
    if readelf -d "$work/consumer_static_pc" | grep -q 'NEEDED.*libcbor_fast'; then
      fail "consumer_static_pc loads libcbor_fast.so"
    fi
    "$work/consumer_static_pc"
    ;;

  cmake)
    rm -rf "$work/cmake_consumer"
    ldflags="${san_ldflags[*]:-}"
    "$cmake" -S "$here/cmake_consumer" -B "$work/cmake_consumer" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
      -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
      -DEXPECTED_VERSION="$version" >"$work/cmake_consumer.log" ||
      { cat "$work/cmake_consumer.log" >&2; fail "configuring the consumer failed"; }
    found=$(sed -n 's/^cbor_fast_DIR:PATH=//p' "$work/cmake_consumer/CMakeCache.txt")
    case "$found" in
      "$prefix"/*) ;;
      *) fail "find_package used $found, not the scratch prefix" ;;
    esac
    "$cmake" --build "$work/cmake_consumer" -j2 >>"$work/cmake_consumer.log" ||
      { cat "$work/cmake_consumer.log" >&2; fail "building the consumer failed"; }
    "$work/cmake_consumer/c_consumer"
    "$work/cmake_consumer/cxx_consumer"
    ;;

  libcbor)
    # libcbor from the system (before pc_env narrows the search to the prefix).
    pkg-config --exists libcbor ||
      fail "libcbor not found (Debian: libcbor-dev; cmake/install-deps.sh installs it)"
    cbor_cflags=$(pkg-config --cflags libcbor)
    cbor_libs=$(pkg-config --libs libcbor)
    pc_env
    libdir=$(pkg-config --variable=libdir cbor_fast)
    # Shared libraries do not clash at link time, they silently interpose: the
    # real proof is that the two export no symbol in common.
    libcbor_so=$("$cc" -print-file-name=libcbor.so)
    [ -e "$libcbor_so" ] || libcbor_so=$(find /usr/lib* -name 'libcbor.so' -print -quit)
    common=$(comm -12 \
      <(nm -D --defined-only "$libcbor_so" | awk '{print $3}' | sed 's/@.*//' | sort -u) \
      <(nm -D --defined-only "$libdir/libcbor_fast.so" | awk '{print $3}' | sed 's/@.*//' | sort -u))
    [ -z "$common" ] || fail "symbols exported by both libcbor and libcbor_fast: $common"
    # shellcheck disable=SC2046,SC2086
    "$cc" -std=c99 -Wall -Wextra -Werror "$here/libcbor_coexist.c" -o "$work/libcbor_coexist" \
      $cbor_cflags $(pkg-config --cflags --libs cbor_fast) $cbor_libs "${san_ldflags[@]}" \
      -Wl,-rpath,"$libdir"
    "$work/libcbor_coexist"
    ;;

  *)
    fail "unknown case"
    ;;
esac
