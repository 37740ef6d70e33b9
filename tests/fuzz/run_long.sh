#!/usr/bin/env bash
# A long libFuzzer run of one target, with a corpus kept between runs.
#
#   tests/fuzz/run_long.sh TARGET [SECONDS]      (default 3600)
#
# TARGET is reader, diag, document, sequence, differential or writer. Builds
# TARGET_fuzz with the `fuzz` preset (build/fuzz; clang-14 + libfuzzer-14-dev,
# see cmake/install-deps.sh), then fuzzes with FUZZ_WORKERS parallel jobs
# (default 2, one per core of a 2-core machine; use 1 on a shared machine).
#   corpus, kept and grown across runs:  build/fuzz-corpus/TARGET/
#   seeds, read but never written:       tests/fuzz/corpus/TARGET/
#   findings and job logs:               build/fuzz-artifacts/TARGET/
# Each finding (crash, leak, timeout, out-of-memory) is copied into
# tests/fuzz/corpus/TARGET/crash-<kind>-<hash> as a regression seed that
# ctest replays from then on (fuzz.replay.TARGET): fix the bug, commit the
# file. The script exits 1 when there was a finding.
#
# Extra libFuzzer flags may follow in FUZZ_FLAGS, e.g. FUZZ_FLAGS="-max_len=16384".
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
target=$1
seconds=${2:-3600}
workers=${FUZZ_WORKERS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${CBOR_FAST_FUZZ_BUILD:-$root/build/fuzz}
seeds=$root/tests/fuzz/corpus/$target
corpus=$root/build/fuzz-corpus/$target
artifacts=$root/build/fuzz-artifacts/$target

if [ ! -f "$root/tests/fuzz/${target}_fuzz.cpp" ]; then
  echo "run_long: no target '$target' (tests/fuzz/${target}_fuzz.cpp)" >&2
  exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  (cd "$root" && cmake --preset fuzz -B "$build")
fi
cmake --build "$build" --target "${target}_fuzz" -j2
bin=$build/tests/fuzz/${target}_fuzz

mkdir -p "$corpus" "$artifacts"
stamp=$artifacts/.started
touch "$stamp"
flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
       -artifact_prefix="$artifacts/")
if [ "$workers" -gt 1 ]; then
  # Independent jobs sharing the corpus directory; logs go to fuzz-N.log.
  flags+=(-jobs="$workers" -workers="$workers")
fi
# shellcheck disable=SC2086
(cd "$artifacts" && "$bin" "${flags[@]}" ${FUZZ_FLAGS:-} "$corpus" "$seeds") || true

found=0
while IFS= read -r -d '' f; do
  name=$(basename "$f")
  kind=${name%%-*}
  hash=$(sha1sum "$f" | cut -c1-12)
  dest=$seeds/crash-$kind-$hash
  [ "$kind" = crash ] && dest=$seeds/crash-$hash
  found=1
  if [ ! -e "$dest" ]; then
    cp "$f" "$dest"
    echo "run_long: new finding $name -> ${dest#"$root"/}"
  fi
  echo "run_long: input hex: $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 1024)"
done < <(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
           -o -name 'timeout-*' -o -name 'oom-*' \) -newer "$stamp" -print0)

echo "run_long: corpus $(find "$corpus" -type f | wc -l) files in ${corpus#"$root"/}"
if [ $found -ne 0 ]; then
  echo "run_long: findings copied to ${seeds#"$root"/}/ (replayed by ctest: fuzz.replay.$target)."
  echo "run_long: reproduce with: $bin FILE   (or build/dev/tests/fuzz/${target}_replay FILE)"
  exit 1
fi
echo "run_long: no finding in $seconds s"
