#!/usr/bin/env bash
# A long libFuzzer run of one target, with a corpus kept between runs.
#
#   tests/fuzz/run_long.sh TARGET [SECONDS]      (default 3600)
#
# TARGET is reader, diag, document, sequence, differential, writer or
# capi_limits. Builds TARGET_fuzz with the `fuzz` preset (clang-14 +
# libfuzzer-14-dev, see cmake/install-deps.sh), then fuzzes with FUZZ_WORKERS
# parallel jobs (default 2, one per core of a 2-core machine; use 1 on a
# shared machine, with FUZZ_NICE=10 to yield to builds).
#   build directory:                     $CBOR_FAST_FUZZ_BUILD (build/fuzz)
#   corpus, kept and grown across runs:  $CBOR_FAST_FUZZ_OUT/corpus/TARGET/
#   findings and logs:                   $CBOR_FAST_FUZZ_OUT/artifacts/TARGET/
#   seeds, read but never written:       tests/fuzz/corpus/TARGET/
# (CBOR_FAST_FUZZ_OUT unset: build/fuzz-corpus/ and build/fuzz-artifacts/.)
# Each finding (crash, leak, timeout, out-of-memory) is copied into
# tests/fuzz/corpus/TARGET/crash-<kind>-<hash> as a regression seed that
# ctest replays from then on (fuzz.replay.TARGET): fix the bug, commit the
# file. The script exits 1 when there was a finding. At the end it prints one
# summary line: seconds, executions, cov, ft, corpus files, findings.
#
# Extra libFuzzer flags may follow in FUZZ_FLAGS, e.g. FUZZ_FLAGS="-max_len=16384".
set -euo pipefail
# As OSS-Fuzz runs ASan: a read through a pointer into a frame that has
# returned is an error (clang 14 leaves this check off by default).
export ASAN_OPTIONS="detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,26p' "$0" >&2
  exit 2
fi
target=$1
seconds=${2:-3600}
workers=${FUZZ_WORKERS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${CBOR_FAST_FUZZ_BUILD:-$root/build/fuzz}
seeds=$root/tests/fuzz/corpus/$target
if [ -n "${CBOR_FAST_FUZZ_OUT:-}" ]; then
  corpus=$CBOR_FAST_FUZZ_OUT/corpus/$target
  artifacts=$CBOR_FAST_FUZZ_OUT/artifacts/$target
else
  corpus=$root/build/fuzz-corpus/$target
  artifacts=$root/build/fuzz-artifacts/$target
fi
nice_level=${FUZZ_NICE:-0}

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
log=$artifacts/run-$(date +%Y%m%d-%H%M%S).log
started=$(date +%s)
# shellcheck disable=SC2086
(cd "$artifacts" && nice -n "$nice_level" "$bin" "${flags[@]}" ${FUZZ_FLAGS:-} "$corpus" "$seeds") \
  > "$log" 2>&1 || true
elapsed=$(( $(date +%s) - started ))
# With jobs the statistics are in the workers' logs (fuzz-N.log).
logs=("$log")
if [ "$workers" -gt 1 ]; then
  for i in $(seq 0 $((workers - 1))); do logs+=("$artifacts/fuzz-$i.log"); done
fi
execs=0
cov=?
ft=?
for l in "${logs[@]}"; do
  [ -f "$l" ] || continue
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -n 1)
  [ -n "$n" ] || n=$(grep -E '^#[0-9]+' "$l" | tail -n 1 | sed 's/^#\([0-9]*\).*/\1/')
  execs=$((execs + ${n:-0}))
  last=$(grep -E '^#[0-9]+.* cov: ' "$l" | tail -n 1)
  if [ -n "$last" ]; then
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  fi
done
tail -n 15 "$log"

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

files=$(find "$corpus" -type f | wc -l)
echo "run_long: corpus $files files in ${corpus#"$root"/}; log $log"
echo "run_long: summary: target $target seconds $elapsed execs $execs cov $cov ft $ft" \
     "corpus $files findings $found"
if [ $found -ne 0 ]; then
  echo "run_long: findings copied to ${seeds#"$root"/}/ (replayed by ctest: fuzz.replay.$target)."
  echo "run_long: reproduce with: $bin FILE   (or build/dev/tests/fuzz/${target}_replay FILE)"
  exit 1
fi
echo "run_long: no finding in $seconds s"
