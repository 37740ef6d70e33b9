#!/usr/bin/env bash
# fuzz.bounded (ctest, label "fuzz"): a short libFuzzer run of every target.
#
#   run_ci.sh SOURCE_DIR BUILD_DIR SECONDS_PER_TARGET TARGET...
#
# Configures the `fuzz` preset (clang-14, libFuzzer, ASan+UBSan) into BUILD_DIR
# unless it is configured already, builds only the fuzz targets and the
# library objects (-j2), then runs each target for SECONDS_PER_TARGET seconds
# on a temporary copy of its committed corpus (seeds and crash-* regressions).
# Any crash, leak, timeout or out-of-memory fails the test; the input is kept
# in BUILD_DIR/artifacts/ and printed in hex.
#
# CBOR_FAST_FUZZ_PREBUILT=DIR uses fuzzers already built in DIR (no build).
# Without clang-14 or libFuzzer it prints why and exits 77 (ctest: skipped).
set -uo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR SECONDS TARGET..." >&2
  exit 2
fi
src=$1
build=$2
seconds=$3
shift 3
targets=("$@")

skip() {
  echo "fuzz.bounded: skipped: $*"
  echo "fuzz.bounded: install with: apt-get install clang-14 libfuzzer-14-dev (cmake/install-deps.sh)"
  exit 77
}

work=$(mktemp -d "${TMPDIR:-/tmp}/cbor_fast_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

if [ -n "${CBOR_FAST_FUZZ_PREBUILT:-}" ]; then
  build=$CBOR_FAST_FUZZ_PREBUILT
  echo "fuzz.bounded: using the fuzzers built in $build"
else
  command -v clang-14 >/dev/null 2>&1 || skip "clang-14 not found"
  command -v clang++-14 >/dev/null 2>&1 || skip "clang++-14 not found"
  # libFuzzer's runtime comes with libfuzzer-14-dev: link a trivial target.
  printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }' \
    > "$work/probe.cpp"
  if ! clang++-14 -fsanitize=fuzzer,address,undefined "$work/probe.cpp" -o "$work/probe" \
       > "$work/probe.log" 2>&1; then
    cat "$work/probe.log"
    skip "clang++-14 cannot link -fsanitize=fuzzer (libFuzzer runtime missing)"
  fi

  if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "fuzz.bounded: configuring the fuzz preset in $build"
    (cd "$src" && cmake --preset fuzz -B "$build") > "$work/configure.log" 2>&1 || {
      cat "$work/configure.log"
      echo "fuzz.bounded: FAILED to configure"
      exit 1
    }
  fi
  echo "fuzz.bounded: building the fuzz targets"
  cmake --build "$build" --target fuzzers -j2 > "$work/build.log" 2>&1 || {
    tail -n 60 "$work/build.log"
    echo "fuzz.bounded: FAILED to build"
    exit 1
  }
fi
built=$(date +%s)
echo "fuzz.bounded: build step took $((built - started)) s"

artifacts="$build/artifacts"
mkdir -p "$artifacts"
failed=()
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/${t}_fuzz"
  if [ ! -x "$bin" ]; then
    echo "fuzz.bounded: $bin is missing"
    failed+=("$t")
    continue
  fi
  mkdir -p "$work/corpus/$t"
  cp "$src/tests/fuzz/corpus/$t/"* "$work/corpus/$t/"
  log="$work/$t.log"
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "$work/corpus/$t" > "$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1 ft \2/p' <<< "$last")
  if [ $rc -eq 0 ]; then
    echo "fuzz.bounded: $t: ok, ${runs:-?} runs, ${cov:-no stats}"
  else
    echo "fuzz.bounded: $t: FAILED (exit $rc) after ${runs:-?} runs"
    grep -E 'check failed|ERROR:|SUMMARY|Test unit written|^0x' "$log" | head -n 20
    tail -n 40 "$log"
    for f in $(sed -n "s/.*Test unit written to \(.*\)$/\1/p" "$log"); do
      echo "fuzz.bounded: input $f: $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 512)"
    done
    failed+=("$t")
  fi
done

echo "fuzz.bounded: total $(( $(date +%s) - started )) s"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz.bounded: FAILED: ${failed[*]} (inputs in $artifacts; add each to"
  echo "  tests/fuzz/corpus/<target>/crash-<name> as a regression seed)"
  exit 1
fi
echo "fuzz.bounded: all ${#targets[@]} targets ran ${seconds} s without a finding"
