#!/usr/bin/env bash
# `cbor-fast diag -` streams: a 160 MB CBOR sequence from a pipe, with one
# 8 MiB array inside (a 20 MB line of text), is printed whole with a peak
# resident size under 64 MiB (GNU time's %M), every item on its own line.
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
# after block 75 one array of 4,194,304 of them: 168 MB in all.
generator='
import sys
item = bytes([0x98, 0x40]) + bytes([0x18, 0xc8]) * 64
block = item * 8192
big = bytes([0x9a, 0x00, 0x40, 0x00, 0x00]) + bytes([0x18, 0x2a]) * (4 << 20)
w = sys.stdout.buffer
n = 0
for i in range(150):
    w.write(block)
    n += 8192
    if i == 75:
        w.write(big)
        n += 1
w.flush()
open(sys.argv[1], "w").write(str(n))
'
"$python" -c "$generator" "$work/count" |
  /usr/bin/time -f '%M' -o "$work/rss" "$tool" diag - 2>"$work/err" |
  tee >(tail -c 12 >"$work/tail") | wc -l >"$work/lines"
rcs=("${PIPESTATUS[@]}")
sleep 0.2  # the tail's process substitution
status=0
count=$(cat "$work/count")
lines=$(tr -d ' ' <"$work/lines")
rss=$(tail -n 1 "$work/rss")
echo "items $count, lines $lines, peak RSS ${rss} KiB"
[ "${rcs[1]}" = 0 ] || { echo "FAIL: diag exit status ${rcs[1]}: $(cat "$work/err")"; status=1; }
[ "$lines" = "$count" ] || { echo "FAIL: $lines lines for $count items"; status=1; }
[ "$(cat "$work/tail")" = ", 200, 200]" ] ||
  { echo "FAIL: the last line ends in '$(cat "$work/tail")'"; status=1; }
[ "$rss" -lt 65536 ] || { echo "FAIL: peak RSS ${rss} KiB is not under 64 MiB"; status=1; }
if [ -s "$work/err" ]; then echo "FAIL: stderr: $(cat "$work/err")"; status=1; fi
exit $status
