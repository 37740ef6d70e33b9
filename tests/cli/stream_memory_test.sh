#!/usr/bin/env bash
# `cbor-fast diag -` and `to-json -` stream: 160 MB of CBOR from a pipe are
# printed whole with a peak resident size under 64 MiB (GNU time's %M), both
# as a sequence (one line per item, one 8 MiB array among them: a 20 MB line)
# and as one top-level array holding all of it (one 390 MB line). Last,
# from-json with a lifted --max-depth on a tiny text within 256 MiB.
#
#   stream_memory_test.sh TOOL PYTHON
# TOOL is the tool built without sanitizers (ASan's shadow memory and
# quarantine would measure the sanitizer, not the tool).
set -uo pipefail
tool=$1
python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 150 blocks of 8,192 arrays of 64 two-byte integers (130 bytes each), and
# after block 75 one array of 4,194,304 of them: 168 MB in all. With "one",
# a definite array head of 1,228,801 entries comes first.
generator='
import sys
item = bytes([0x98, 0x40]) + bytes([0x18, 0xc8]) * 64
block = item * 8192
big = bytes([0x9a, 0x00, 0x40, 0x00, 0x00]) + bytes([0x18, 0x2a]) * (4 << 20)
w = sys.stdout.buffer
if sys.argv[2] == "one":
    w.write(bytes([0x9a]) + (150 * 8192 + 1).to_bytes(4, "big"))
n = 0
for i in range(150):
    w.write(block)
    n += 8192
    if i == 75:
        w.write(big)
        n += 1
w.flush()
open(sys.argv[1], "w").write(str(n if sys.argv[2] == "sequence" else 1))
'
status=0

# run SHAPE COMMAND LAST: one line of output per item, the last one ending in LAST.
run() {
  local shape=$1 cmd=$2 last=$3
  "$python" -c "$generator" "$work/count" "$shape" |
    /usr/bin/time -f '%M' -o "$work/rss" "$tool" "$cmd" - 2>"$work/err" |
    tee >(tail -c $((${#last} + 1)) >"$work/tail") | wc -l >"$work/lines"
  local rcs=("${PIPESTATUS[@]}")
  sleep 0.2  # the tail's process substitution
  local count lines rss
  count=$(cat "$work/count")
  lines=$(tr -d ' ' <"$work/lines")
  rss=$(tail -n 1 "$work/rss")
  echo "$cmd, $shape: items $count, lines $lines, peak RSS ${rss} KiB"
  [ "${rcs[1]}" = 0 ] || { echo "FAIL: $cmd exit status ${rcs[1]}: $(cat "$work/err")"; status=1; }
  [ "$lines" = "$count" ] || { echo "FAIL: $lines lines for $count items"; status=1; }
  [ "$(cat "$work/tail")" = "$last" ] ||
    { echo "FAIL: the output ends in '$(cat "$work/tail")', not '$last'"; status=1; }
  [ "$rss" -lt 65536 ] || { echo "FAIL: peak RSS ${rss} KiB is not under 64 MiB"; status=1; }
  if [ -s "$work/err" ]; then echo "FAIL: stderr: $(cat "$work/err")"; status=1; fi
}

run sequence diag ", 200, 200]"
run one diag ", 200, 200]]"
run one to-json ",200,200]]"

# A lifted depth limit costs memory only as the text nests: from-json of a
# 5-byte text with --max-depth 4294967295 sized simdjson's buffers from the
# limit (about 2.25 GB of address space, 284 MB resident under ASan), so
# under a 256 MiB address-space ceiling (ulimit -v, as tests/hostile) it
# failed with out_of_memory.
printf '[[1]]' >"$work/small.json"
for depth in 0 4294967295; do
  (ulimit -v 262144 && exec "$tool" from-json --max-depth "$depth" "$work/small.json") \
    >"$work/out" 2>"$work/err"
  rc=$?
  echo "from-json --max-depth $depth of 5 bytes under 256 MiB of address space: exit $rc"
  [ "$rc" = 0 ] || { echo "FAIL: exit status $rc: $(cat "$work/err")"; status=1; }
  [ "$(od -An -tx1 "$work/out" | tr -d ' \n')" = 818101 ] ||
    { echo "FAIL: wrote $(od -An -tx1 "$work/out")"; status=1; }
done
exit $status
