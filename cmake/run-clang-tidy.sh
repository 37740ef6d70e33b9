#!/bin/sh
# Runs clang-tidy-14 with the project's .clang-tidy over the library sources
# (src/, capi/src) using a build directory's compile_commands.json.
#
#   cmake/run-clang-tidy.sh [BUILD_DIR]     (default: build/dev)
#
# Exits non-zero on any finding (WarningsAsErrors in .clang-tidy).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/dev}
tool=${CLANG_TIDY:-clang-tidy-14}
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "run-clang-tidy: $tool not found (Debian: clang-tidy-14, see cmake/install-deps.sh)" >&2
  exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "run-clang-tidy: no $build/compile_commands.json (configure with a preset first)" >&2
  exit 2
fi
cd "$root"
status=0
for f in $(git ls-files -- 'src/*.cpp' 'capi/src/*.cpp'); do
  # The sanitizer and warning flags are GCC's; clang-tidy only needs to parse.
  "$tool" -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option "$f" 2>/dev/null || {
    echo "run-clang-tidy: findings in $f" >&2
    status=1
  }
done
exit $status
