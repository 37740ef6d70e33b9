#!/bin/sh
# Checks (or with --fix, applies) .clang-format on the C and C++ sources that
# git tracks: include/, src/, capi/src, capi/include, tests/, benchmarks/.
#
#   cmake/check-format.sh [--fix] [SOURCE_DIR]
#
# Files listed in cmake/format-pending.txt (one path a line, relative to the
# source dir) are not formatted yet and are skipped; the list only shrinks.
# The whole tree is formatted once, after the open branches are merged:
#   cmake/check-format.sh --fix && : > cmake/format-pending.txt
# Uses clang-format-14 (Debian's, cmake/install-deps.sh): another version may
# lay the same code out differently, so no other is accepted.
set -eu

fix=0
if [ "${1:-}" = "--fix" ]; then
  fix=1
  shift
fi
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"

tool=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "check-format: $tool not found (Debian: clang-format-14, see cmake/install-deps.sh)" >&2
  exit 2
fi
case "$("$tool" --version)" in
  *" 14."*) ;;
  *) echo "check-format: $tool is not clang-format 14: $("$tool" --version)" >&2; exit 2 ;;
esac

pending=cmake/format-pending.txt
files=$(git ls-files -- 'include/*.hpp' 'src/*.cpp' 'src/*.hpp' 'capi/src/*.cpp' 'capi/src/*.hpp' \
  'capi/include/*.h' 'tests/*.c' 'tests/*.h' 'tests/*.cpp' 'tests/*.hpp' 'benchmarks/*.cpp' \
  'benchmarks/*.hpp' | grep -v '/corpus/' || true)
if [ -z "$files" ]; then
  echo "check-format: no files (not a git checkout?)" >&2
  exit 2
fi

checked=0
bad=0
for f in $files; do
  if [ -f "$pending" ] && grep -qxF "$f" "$pending"; then
    continue
  fi
  checked=$((checked + 1))
  if [ "$fix" = 1 ]; then
    "$tool" -i --style=file "$f"
  elif ! "$tool" --style=file --dry-run --Werror "$f" 2>/dev/null; then
    echo "check-format: $f is not formatted (cmake/check-format.sh --fix, or clang-format-14 -i $f)"
    bad=$((bad + 1))
  fi
done
if [ "$bad" != 0 ]; then
  echo "check-format: $bad of $checked files not formatted" >&2
  exit 1
fi
echo "check-format: $checked files formatted ($( [ -f "$pending" ] && grep -c . "$pending" || echo 0) pending)"
