#!/bin/sh
# Builds libcbor_fast from this checkout (Release, no tests) and installs it
# into PREFIX (default /usr/local, where pkg-config looks without
# PKG_CONFIG_PATH). The Go binding then links its static archive through
# PREFIX/lib/pkgconfig/cbor_fast-static.pc.
# Usage: capi/go/build-core.sh [PREFIX]
# Parallel jobs: CMAKE_BUILD_PARALLEL_LEVEL if set, else one per core.
set -eu
prefix=${1:-/usr/local}
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build/go-core"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCBOR_FAST_BUILD_TESTS=OFF \
  -DCBOR_FAST_BUILD_BENCHMARKS=OFF -DCBOR_FAST_BUILD_FUZZERS=OFF -DCMAKE_INSTALL_LIBDIR=lib
cmake --build "$build" -j "${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
cmake --install "$build" --prefix "$prefix"
echo "installed into $prefix; pkg-config finds it when $prefix/lib/pkgconfig is on its path:"
echo "  PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --static --libs cbor_fast-static"
