#!/usr/bin/env bash
# Tests of the cbor-fast command-line tool, one case per ctest test:
#
#   cli_test.sh CASE TOOL SOURCE_DIR VERSION
#
# Each case runs the tool and compares exit status, stdout and stderr exactly.
# Inputs are written in hex here and turned into bytes with printf.
set -u

case_name=$1
tool=$2
source_dir=$3
version=$4

example="$source_dir/src/cli/example.cbor"
golden="$source_dir/tests/cli/example.expected"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL [$case_name]: $*" >&2
  failures=$((failures + 1))
}

# hex_to_file HEX FILE: writes the bytes spelled by HEX (pairs, no spaces).
hex_to_file() {
  local hex=$1 esc="" i
  for ((i = 0; i < ${#hex}; i += 2)); do esc+="\\x${hex:i:2}"; done
  printf '%b' "$esc" >"$2"
}

# run STDIN_FILE ARGS...: runs the tool; sets $rc, fills $work/out and $work/err.
run() {
  local in=$1
  shift
  "$tool" "$@" <"$in" >"$work/out" 2>"$work/err"
  rc=$?
}

expect_rc() {
  [[ $rc -eq $1 ]] || fail "exit status $rc, expected $1 (stderr: $(cat "$work/err"))"
}

# expect_file WHICH EXPECTED_FILE: WHICH is out or err.
expect_file() {
  if ! cmp -s "$work/$1" "$2"; then
    fail "std$1 differs from $2:"
    diff "$2" "$work/$1" >&2
  fi
}

# expect_text WHICH TEXT: exact content, TEXT given with printf %b escapes.
expect_text() {
  printf '%b' "$2" >"$work/want"
  if ! cmp -s "$work/$1" "$work/want"; then
    fail "std$1 differs:"
    echo "--- expected" >&2
    od -c "$work/want" >&2
    echo "--- actual" >&2
    od -c "$work/$1" >&2
  fi
}

# Exit 1 on malformed input, one line on stderr with the status and offset.
expect_malformed() {
  local hex=$1 stdout=$2 name=$3 message=$4 offset=$5
  hex_to_file "$hex" "$work/in.cbor"
  run /dev/null diag "$work/in.cbor"
  expect_rc 1
  expect_text out "$stdout"
  expect_text err "cbor-fast: error: $name ($message) at byte offset $offset\n"
}

# run_hex HEX ARGS...: writes HEX to a file and runs the tool with ARGS and that file.
run_hex() {
  hex_to_file "$1" "$work/in.cbor"
  shift
  run /dev/null "$@" "$work/in.cbor"
}

# expect_error NAME MESSAGE OFFSET: exit 1 and exactly one error line.
expect_error() {
  expect_rc 1
  expect_text err "cbor-fast: error: $1 ($2) at byte offset $3\n"
}

# expect_ok_line TEXT: exit 0, TEXT (printf %b) on stdout, nothing on stderr.
expect_ok_line() {
  expect_rc 0
  expect_text out "$1"
  expect_text err ""
}

case $case_name in
  golden_default)
    # No FILE, standard input a terminal: the bundled example, whose path is
    # compiled in (script(1) gives the tool a terminal; its output comes
    # back with CR LF line ends).
    script -qec "'$tool' diag" /dev/null </dev/null >"$work/tty" 2>&1
    rc=$?
    expect_rc 0
    tr -d '\r' <"$work/tty" >"$work/out"
    expect_file out "$golden"
    script -qec "'$tool' check --sequence" /dev/null </dev/null >"$work/tty" 2>&1
    rc=$?
    expect_rc 0
    # No FILE, standard input a file or a pipe: that input, as with '-' (it
    # was the example, whatever came in).
    run "$example" diag
    expect_rc 0
    expect_file out "$golden"
    expect_text err ""
    hex_to_file 8201182a "$work/in.cbor"
    run "$work/in.cbor" diag
    expect_ok_line '[1, 42]\n'
    printf '\x83\x01' | "$tool" check >"$work/out" 2>"$work/err"
    rc=$?
    expect_rc 1
    expect_text err "cbor-fast: error: truncated (unexpected end of input) at byte offset 0\n"
    run /dev/null check
    expect_rc 1
    expect_text err "cbor-fast: error: truncated (unexpected end of input) at byte offset 0\n"
    ;;

  golden_file)
    run /dev/null diag "$example"
    expect_rc 0
    expect_file out "$golden"
    expect_text err ""
    # --strict changes nothing for valid input.
    run /dev/null diag --strict "$example"
    expect_rc 0
    expect_file out "$golden"
    ;;

  golden_stdin)
    run "$example" diag -
    expect_rc 0
    expect_file out "$golden"
    expect_text err ""
    ;;

  stdin_bytes)
    # Three items, one line each: 1, [2, -3], {"k": h'00ff'}.
    hex_to_file 0182022205a1616b4200ff "$work/in.cbor"
    run "$work/in.cbor" diag -
    expect_rc 0
    expect_text out '1\n[2, -3]\n5\n{"k": h'"'"'00ff'"'"'}\n'
    expect_text err ""
    ;;

  empty_input)
    # An empty sequence is valid and prints nothing.
    run /dev/null diag -
    expect_rc 0
    expect_text out ""
    expect_text err ""
    ;;

  truncated_offset)
    # {"a": 1} [1, -1] then an indefinite array the input never closes: the
    # error is at the end of the input, byte 12; the first two lines stay.
    expect_malformed a16161018201209f01020304 '{"a": 1}\n[1, -1]\n' \
      truncated "unexpected end of input" 12
    ;;

  unexpected_break)
    expect_malformed 0102ff '1\n2\n' \
      unexpected_break "break outside an indefinite-length item" 2
    ;;

  truncated_string)
    # [1, "ab..."] declares 5 bytes of text but 2 follow: offset of the string head.
    expect_malformed 8201656162 '' truncated "unexpected end of input" 2
    ;;

  reserved_info)
    expect_malformed 00a1011c '0\n' \
      reserved_additional_info "reserved additional information value (28-30)" 3
    ;;

  strict_utf8)
    # "x", then ["a", "a\xc3("]: 0xc3 0x28 is not UTF-8, at byte 7.
    hex_to_file 61788261616361c328 "$work/in.cbor"
    run /dev/null diag "$work/in.cbor"
    expect_rc 0
    printf '"x"\n["a", "a\xc3("]\n' >"$work/plain"
    expect_file out "$work/plain"
    expect_text err ""
    run /dev/null diag --strict "$work/in.cbor"
    expect_rc 1
    expect_text out '"x"\n'
    expect_text err "cbor-fast: error: invalid_utf8 (invalid UTF-8 in text string) at byte offset 7\n"
    ;;

  max_depth)
    # [[[1]]] needs three levels.
    hex_to_file 81818101 "$work/in.cbor"
    run /dev/null diag --max-depth 3 "$work/in.cbor"
    expect_rc 0
    expect_text out '[[[1]]]\n'
    run /dev/null diag --max-depth=2 "$work/in.cbor"
    expect_rc 1
    expect_text out ''
    expect_text err "cbor-fast: error: depth_exceeded (maximum nesting depth exceeded) at byte offset 2\n"
    # The default (512) allows 512 levels, not 513.
    { printf '\x81%.0s' $(seq 512); printf '\x01'; } >"$work/deep512"
    { printf '\x81%.0s' $(seq 513); printf '\x01'; } >"$work/deep513"
    run /dev/null diag "$work/deep512"
    expect_rc 0
    run /dev/null diag "$work/deep513"
    expect_rc 1
    expect_text err "cbor-fast: error: depth_exceeded (maximum nesting depth exceeded) at byte offset 512\n"
    ;;

  check_summary)
    # [1, {"a": h'00'}]: array, 1, map, "a", h'00' are 5 nodes in 7 bytes.
    run_hex 8201a161614100 check
    expect_ok_line 'ok: 1 item, 5 nodes, 7 bytes\n'
    hex_to_file 8201a161614100 "$work/in.cbor"
    run "$work/in.cbor" check -
    expect_ok_line 'ok: 1 item, 5 nodes, 7 bytes\n'
    # Singular words for one of each.
    run_hex 00 check
    expect_ok_line 'ok: 1 item, 1 node, 1 byte\n'
    # (_ "ab" "cd"): chunks are not nodes of their own; 8 bytes with the break.
    run_hex 7f626162626364ff check
    expect_ok_line 'ok: 1 item, 1 node, 8 bytes\n'
    # 1(0): the tag and its content.
    run_hex c11a00000000 check
    expect_ok_line 'ok: 1 item, 2 nodes, 6 bytes\n'
    ;;

  check_exact)
    # Without --sequence exactly one item: a second one is trailing, at its offset.
    run_hex 0001 check
    expect_error trailing_bytes "unexpected bytes after the data item" 1
    expect_text out ""
    # No item at all: the item is missing at offset 0.
    run /dev/null check -
    expect_error truncated "unexpected end of input" 0
    expect_text out ""
    # Same offsets as diag for malformed input: the string head at 2 ...
    run_hex 8201656162 check
    expect_error truncated "unexpected end of input" 2
    # ... the end of the input for an unclosed indefinite array ...
    run_hex 9f0102 check
    expect_error truncated "unexpected end of input" 3
    # ... and a reserved head inside a map.
    run_hex a1011c check
    expect_error reserved_additional_info "reserved additional information value (28-30)" 2
    ;;

  check_sequence)
    # 1, [2, 3], {}: 1 + 3 + 1 nodes.
    run_hex 01820203a0 check --sequence
    expect_ok_line 'ok: 3 items, 5 nodes, 5 bytes\n'
    # An empty sequence is valid.
    run /dev/null check --sequence -
    expect_ok_line 'ok: 0 items, 0 nodes, 0 bytes\n'
    # 1, then an array of 2 with 1 byte left: truncated at its head at once.
    run_hex 018202 check --sequence
    expect_error truncated "unexpected end of input" 1
    expect_text out ""
    # 1 then a stray break: diag prints the first item, check only the error.
    run_hex 01ff check --sequence
    expect_error unexpected_break "break outside an indefinite-length item" 1
    expect_text out ""
    run_hex 01ff diag
    expect_error unexpected_break "break outside an indefinite-length item" 1
    expect_text out '1\n'
    # --sequence belongs to check.
    run_hex 01 diag --sequence
    expect_rc 2
    expect_text err "cbor-fast: error: --sequence is an option of check and from-json (see 'cbor-fast --help')\n"
    ;;

  check_strict)
    # "x", then ["a", "a\xc3("]: 0xc3 0x28 is not UTF-8, at byte 7.
    run_hex 61788261616361c328 check --sequence
    expect_ok_line 'ok: 2 items, 4 nodes, 9 bytes\n'
    run_hex 61788261616361c328 check --sequence --strict
    expect_error invalid_utf8 "invalid UTF-8 in text string" 7
    # One item only: "x" is fine, the rest is trailing.
    run_hex 61788261616361c328 check --strict
    expect_error trailing_bytes "unexpected bytes after the data item" 2
    ;;

  opt_max_depth)
    # [[[1]]] needs three levels, in check as in diag.
    run_hex 81818101 check --max-depth 3
    expect_ok_line 'ok: 1 item, 4 nodes, 4 bytes\n'
    run_hex 81818101 check --max-depth=2
    expect_error depth_exceeded "maximum nesting depth exceeded" 2
    # Tags and indefinite strings take a level too.
    run_hex c1c101 diag --max-depth 1
    expect_error depth_exceeded "maximum nesting depth exceeded" 1
    run_hex c1c101 check --max-depth 1
    expect_error depth_exceeded "maximum nesting depth exceeded" 1
    run_hex 5f4100ff check --max-depth 1
    expect_ok_line 'ok: 1 item, 1 node, 4 bytes\n'
    # 0 is the default (512) in both commands, as in every option of the library.
    run_hex 818101 diag --max-depth 0
    expect_ok_line '[[1]]\n'
    run_hex 818101 check --max-depth 0
    expect_ok_line 'ok: 1 item, 3 nodes, 3 bytes\n'
    run_hex 01 check --max-depth 4294967296
    expect_rc 2
    expect_text err "cbor-fast: error: invalid --max-depth value '4294967296' (0 to 4294967295) (see 'cbor-fast --help')\n"
    # The default 512 holds for check as well.
    { printf '\x81%.0s' $(seq 513); printf '\x01'; } >"$work/deep513"
    run /dev/null check "$work/deep513"
    expect_error depth_exceeded "maximum nesting depth exceeded" 512
    ;;

  opt_max_string_length)
    # ["abc", h'0102']
    for cmd in diag check; do
      run_hex 8263616263420102 $cmd --max-string-length 2
      expect_error string_too_long "string longer than the limit" 1
      expect_text out ""
    done
    run_hex 8263616263420102 diag --max-string-length 3
    expect_ok_line '["abc", h'"'"'0102'"'"']\n'
    run_hex 8263616263420102 check --max-string-length=3
    expect_ok_line 'ok: 1 item, 3 nodes, 8 bytes\n'
    # 0 is the default, no limit.
    run_hex 8263616263420102 diag --max-string-length 0
    expect_ok_line '["abc", h'"'"'0102'"'"']\n'
    run_hex 8263616263420102 check --max-string-length 0
    expect_ok_line 'ok: 1 item, 3 nodes, 8 bytes\n'
    # A 2^32 length is refused for the limit before the input is found short.
    for cmd in diag check; do
      run_hex 5b000000010000000000 $cmd --max-string-length 10
      expect_error string_too_long "string longer than the limit" 0
      run_hex 5b000000010000000000 $cmd
      expect_error truncated "unexpected end of input" 0
    done
    # (_ "ab" "cd"): the joined length, 4, passes 3 at the second chunk (offset 4).
    for cmd in diag check; do
      run_hex 7f626162626364ff $cmd --max-string-length 3
      expect_error string_too_long "string longer than the limit" 4
    done
    run_hex 7f626162626364ff diag --max-string-length 4
    expect_ok_line '(_ "ab", "cd")\n'
    ;;

  opt_max_container_items)
    # [1, 2, 3]: a definite head declaring too many fails at once, at the head.
    for cmd in diag check; do
      run_hex 83010203 $cmd --max-container-items 2
      expect_error container_too_large "array or map has too many entries" 0
      # [_ 1, 2, 3]: the third item is one too many.
      run_hex 9f010203ff $cmd --max-container-items 2
      expect_error container_too_large "array or map has too many entries" 3
      # {_ 1: 2, 3: 4} with one pair allowed: the second key.
      run_hex bf01020304ff $cmd --max-container-items 1
      expect_error container_too_large "array or map has too many entries" 3
      # An array declaring 2^32 items: the limit first, then the input length.
      run_hex 9b00000001000000000000 $cmd --max-container-items 1000
      expect_error container_too_large "array or map has too many entries" 0
      # Under the default limit (2^24 entries) too; lifted, the input length.
      run_hex 9b00000001000000000000 $cmd
      expect_error container_too_large "array or map has too many entries" 0
    done
    # Lifted, the input is short: check, which holds the whole input, refuses
    # the head; diag reads a stream and finds the input short where it ends.
    run_hex 9b00000001000000000000 check --max-container-items 18446744073709551615
    expect_error truncated "unexpected end of input" 0
    run_hex 9b00000001000000000000 diag --max-container-items 18446744073709551615
    expect_error truncated "unexpected end of input" 11
    expect_text out ""
    # A map of 2^63 + 1 pairs, lifted: its 2 * count items wrapped to 2, and
    # diag printed {1: 2} (and to-json, canonical the same). No input holds
    # 2^63 pairs: too large when streaming, short for check.
    for cmd in diag to-json canonical; do
      run_hex bb80000000000000010102 $cmd --max-container-items 18446744073709551615
      expect_error container_too_large "array or map has too many entries" 0
      expect_text out ""
    done
    run_hex bb80000000000000010102 check --max-container-items 18446744073709551615
    expect_error truncated "unexpected end of input" 0
    run_hex 83010203 diag --max-container-items 3
    expect_ok_line '[1, 2, 3]\n'
    run_hex 83010203 check --max-container-items 3
    expect_ok_line 'ok: 1 item, 4 nodes, 4 bytes\n'
    ;;

  opt_max_items)
    # [1, 2, 3] is four items (the definite end is none): the fourth, 3, at offset 3.
    for cmd in diag check; do
      run_hex 83010203 $cmd --max-items 3
      expect_error too_many_items "too many data items" 3
      # (_ h'00' h'01'): the string and each chunk count; the second chunk is third.
      run_hex 5f41004101ff $cmd --max-items 2
      expect_error too_many_items "too many data items" 3
    done
    run_hex 83010203 check --max-items 4
    expect_ok_line 'ok: 1 item, 4 nodes, 4 bytes\n'
    run_hex 5f41004101ff check --max-items 3
    expect_ok_line 'ok: 1 item, 1 node, 6 bytes\n'
    # diag and check alike count the items of each top-level item (diag
    # counted the whole input before 0.5): 1 | [2, 3] passes with 3 and fails
    # with 2 at the second item's third head (3, offset 3).
    run_hex 010203 diag --max-items 1
    expect_ok_line '1\n2\n3\n'
    run_hex 010203 check --sequence --max-items 1
    expect_ok_line 'ok: 3 items, 3 nodes, 3 bytes\n'
    run_hex 01820203 diag --max-items 3
    expect_ok_line '1\n[2, 3]\n'
    run_hex 01820203 diag --max-items 2
    expect_error too_many_items "too many data items" 3
    expect_text out '1\n'
    run_hex 01820203 check --sequence --max-items 2
    expect_error too_many_items "too many data items" 3
    # 0 is the default (2^28) in both commands.
    run_hex 010203 diag --max-items 0
    expect_ok_line '1\n2\n3\n'
    run_hex 010203 check --sequence --max-items 0
    expect_ok_line 'ok: 3 items, 3 nodes, 3 bytes\n'
    ;;

  opt_no_duplicate_keys)
    # {1: 0, 1: 1} with the second 1 spelled 0x18 0x01: equal by value.
    run_hex a20100180101 diag
    expect_ok_line '{1: 0, 1: 1}\n'
    run_hex a20100180101 check
    expect_ok_line 'ok: 1 item, 5 nodes, 6 bytes\n'
    for cmd in diag check; do
      run_hex a20100180101 $cmd --no-duplicate-keys
      expect_error duplicate_key "duplicate map key" 3
      expect_text out ""
      # {"ab": 0, (_ "a" "b"): 1}: a key of several items, still at its head.
      run_hex a2626162007f61616162ff01 $cmd --no-duplicate-keys
      expect_error duplicate_key "duplicate map key" 5
    done
    # Equal keys in different maps are fine: {"a": {"x": 0}, "b": {"x": 0}}.
    run_hex a26161a16178006162a1617800 check --no-duplicate-keys
    expect_ok_line 'ok: 1 item, 9 nodes, 13 bytes\n'
    ;;

  opt_deterministic)
    for cmd in diag check; do
      # 1 spelled 0x18 0x01.
      run_hex 1801 $cmd --deterministic
      expect_error non_preferred_encoding "head or float not in its shortest form (deterministic encoding)" 0
      # [0, 1.0 as a double]: the float at 2.
      run_hex 8200fb3ff0000000000000 $cmd --deterministic
      expect_error non_preferred_encoding "head or float not in its shortest form (deterministic encoding)" 2
      run_hex 9fff $cmd --deterministic
      expect_error indefinite_length "indefinite-length item (deterministic encoding)" 0
      # {"b": 0, "a": 0}: the second key.
      run_hex a2616200616100 $cmd --deterministic
      expect_error unsorted_map_keys "map keys not in bytewise lexicographic order (deterministic encoding)" 4
      # {"a": 0, "a": 1}: equal is a duplicate even without --no-duplicate-keys.
      run_hex a2616100616101 $cmd --deterministic
      expect_error duplicate_key "duplicate map key" 4
    done
    run_hex a2616100616200 diag --deterministic
    expect_ok_line '{"a": 0, "b": 0}\n'
    run_hex a2616100616200 check --deterministic
    expect_ok_line 'ok: 1 item, 5 nodes, 7 bytes\n'
    # Without the option all of these are fine.
    run_hex 1801 check
    expect_ok_line 'ok: 1 item, 1 node, 2 bytes\n'
    ;;

  opt_max_memory)
    # [1]: one 24-byte node per item. 24 bytes hold the array, not the 1 (offset 1).
    run_hex 8101 check --max-memory 24
    expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 1
    run_hex 8101 check --max-memory=48
    expect_ok_line 'ok: 1 item, 2 nodes, 2 bytes\n'
    # One byte: the first item cannot be stored (0 would be the default budget).
    run_hex 00 check --max-memory 1
    expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 0
    run_hex 00 check --max-memory 0
    expect_ok_line 'ok: 1 item, 1 node, 1 byte\n'
    # The budget is per document of a sequence: 0, 0 are one node each.
    run_hex 0000 check --sequence --max-memory 24
    expect_ok_line 'ok: 2 items, 2 nodes, 2 bytes\n'
    run_hex 0000 check --sequence --max-memory 23
    expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 0
    # An absurd budget does not make a 2^32 length bomb allocate.
    run_hex 5b000000010000000000 check --max-memory 18446744073709551615
    expect_error truncated "unexpected end of input" 0
    # diag, to-json, canonical: the input bytes held at once (the longest
    # string; canonical: the top-level item). 0x58 0xc8: a 200-byte string.
    hex_to_file "58c8$(printf '61%.0s' $(seq 200))" "$work/s200.cbor"
    for cmd in diag to-json canonical; do
      run /dev/null $cmd --max-memory 100 "$work/s200.cbor"
      expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 0
      run /dev/null $cmd --max-memory 300 "$work/s200.cbor"
      expect_rc 0
      expect_text err ""
    done
    # canonical's document: check's budget for the bytes held (32 times and
    # 1 MiB), so 100,000 nested arrays fail where check fails on them (the
    # document had no budget).
    { head -c 100000 /dev/zero | tr '\000' '\201'; printf '\000'; } >"$work/nest.cbor"
    run /dev/null canonical --max-depth 200000 --max-memory 100001 "$work/nest.cbor"
    expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 89644
    expect_text out ""
    run /dev/null check --max-depth 200000 "$work/nest.cbor"
    expect_error memory_budget_exceeded "memory budget of the decoder exceeded" 89644
    run /dev/null canonical --max-depth 200000 --max-memory 200000 "$work/nest.cbor"
    expect_rc 0
    # The streaming commands too: their buffer grows as bytes come, not by
    # the declared length (2^64 - 1 bytes were asked of the allocator).
    for cmd in diag to-json canonical; do
      run_hex 5bffffffffffffffff $cmd --max-memory 18446744073709551615
      expect_error truncated "unexpected end of input" 0
      run_hex 7bffffffffffffffff616263 $cmd --max-memory 18446744073709551615
      expect_error truncated "unexpected end of input" 0
    done
    # from-json and from-diag hold the whole text: no such option.
    run /dev/null from-json --max-memory 100 "$work/s200.cbor"
    expect_rc 2
    expect_text err "cbor-fast: error: --max-memory is not an option of from-json or from-diag (see 'cbor-fast --help')\n"
    ;;

  missing_file)
    run /dev/null diag "$work/no-such-file.cbor"
    expect_rc 2
    expect_text out ""
    expect_text err "cbor-fast: error: cannot open $work/no-such-file.cbor: No such file or directory\n"
    ;;

  unreadable_file)
    # A directory opens but cannot be read.
    mkdir "$work/dir.cbor"
    run /dev/null diag "$work/dir.cbor"
    expect_rc 2
    expect_text out ""
    expect_text err "cbor-fast: error: cannot read $work/dir.cbor: Is a directory\n"
    ;;

  write_error)
    # stdout that cannot take the output: an I/O error, exit 2.
    if [[ ! -w /dev/full ]]; then
      echo "SKIP [$case_name]: no /dev/full"
      exit 0
    fi
    "$tool" diag "$example" >/dev/full 2>"$work/err"
    rc=$?
    expect_rc 2
    expect_text err "cbor-fast: error: cannot write to standard output: No space left on device\n"
    ;;

  usage_errors)
    run /dev/null
    expect_rc 2
    expect_text err "cbor-fast: error: missing command (see 'cbor-fast --help')\n"
    run /dev/null dump x
    expect_rc 2
    expect_text err "cbor-fast: error: unknown command 'dump' (see 'cbor-fast --help')\n"
    run /dev/null diag --prettier
    expect_rc 2
    expect_text err "cbor-fast: error: unknown option '--prettier' (see 'cbor-fast --help')\n"
    run /dev/null check --pretty
    expect_rc 2
    expect_text err "cbor-fast: error: --pretty is an option of diag (see 'cbor-fast --help')\n"
    run /dev/null canonical --ctap2 --length-first
    expect_rc 2
    expect_text err "cbor-fast: error: --length-first and --ctap2 exclude each other (see 'cbor-fast --help')\n"
    run /dev/null to-json --sequence
    expect_rc 2
    expect_text err "cbor-fast: error: --sequence is an option of check and from-json (see 'cbor-fast --help')\n"
    run /dev/null diag a.cbor b.cbor
    expect_rc 2
    expect_text err "cbor-fast: error: unexpected argument 'b.cbor' (see 'cbor-fast --help')\n"
    run /dev/null diag --max-depth
    expect_rc 2
    expect_text err "cbor-fast: error: --max-depth needs a value (see 'cbor-fast --help')\n"
    for bad in abc -1 12x 4294967296 ''; do
      run /dev/null diag --max-depth "$bad"
      expect_rc 2
      expect_text err "cbor-fast: error: invalid --max-depth value '$bad' (0 to 4294967295) (see 'cbor-fast --help')\n"
    done
    expect_text out ""
    run /dev/null check --max-string-length
    expect_rc 2
    expect_text err "cbor-fast: error: --max-string-length needs a value (see 'cbor-fast --help')\n"
    run /dev/null diag --max-container-items x
    expect_rc 2
    expect_text err "cbor-fast: error: invalid --max-container-items value 'x' (0 to 18446744073709551615) (see 'cbor-fast --help')\n"
    run /dev/null check --max-items=18446744073709551616
    expect_rc 2
    expect_text err "cbor-fast: error: invalid --max-items value '18446744073709551616' (0 to 18446744073709551615) (see 'cbor-fast --help')\n"
    run /dev/null check --max-memory -5
    expect_rc 2
    expect_text err "cbor-fast: error: invalid --max-memory value '-5' (0 to 18446744073709551615) (see 'cbor-fast --help')\n"
    run /dev/null check --max-items-x 1
    expect_rc 2
    expect_text err "cbor-fast: error: unknown option '--max-items-x' (see 'cbor-fast --help')\n"
    run /dev/null check a.cbor b.cbor
    expect_rc 2
    expect_text err "cbor-fast: error: unexpected argument 'b.cbor' (see 'cbor-fast --help')\n"
    expect_text out ""
    # After --, a name that starts with '-' is a file.
    run /dev/null diag -- --strict
    expect_rc 2
    expect_text err "cbor-fast: error: cannot open --strict: No such file or directory\n"
    ;;

  help)
    run /dev/null --help
    expect_rc 0
    head -n 2 "$work/out" >"$work/first"
    printf 'Usage: cbor-fast diag [--pretty] [--indicators] [LIMITS] [FILE|-]\n       cbor-fast check [LIMITS] [--max-memory N] [--sequence] [FILE|-]\n' >"$work/want_first"
    expect_file first "$work/want_first"
    # Every option is documented.
    for opt in --strict --no-duplicate-keys --deterministic "--max-depth N" \
        "--max-string-length N" "--max-container-items N" "--max-items N" \
        "--max-memory N" --sequence; do
      grep -qE "^  $opt " "$work/out" || fail "--help does not document $opt"
    done
    grep -qF "$example" "$work/out" || fail "--help does not name the bundled example"
    expect_text err ""
    cp "$work/out" "$work/help1"
    run /dev/null diag --help
    expect_rc 0
    expect_file out "$work/help1"
    run /dev/null check --help
    expect_rc 0
    expect_file out "$work/help1"
    ;;

  to_json)
    # A sequence: one JSON text per line (RFC 8949 6.1 rules; keys that are
    # not text become their diagnostic notation).
    run_hex 8201a16161f94100c249010000000000000000a2014142f6d8174101 to-json
    expect_ok_line '[1,{"a":2.5}]\n18446744073709551616\n{"1":"Qg","null":"01"}\n'
    run_hex c11a514b67b0 to-json --keep-tags
    expect_ok_line '{"tag":1,"value":1363896240}\n'
    # Invalid UTF-8 is refused before anything of the item is printed.
    run_hex 0182616162c328 to-json
    expect_rc 1
    expect_text out '1\n'
    expect_text err "cbor-fast: error: invalid_utf8 (invalid UTF-8 in text string) at byte offset 5\n"
    ;;

  from_json)
    printf '{"a": [24, -1, 1.5, true, null], "b": 18446744073709551616}' >"$work/in.json"
    run "$work/in.json" from-json
    expect_rc 0
    expect_text err ""
    got=$(od -An -tx1 -v "$work/out" | tr -d ' \n')
    [[ "$got" == a2616185181820f93e00f5f66162c249010000000000000000 ]] || fail "from-json bytes: $got"
    # JSON lines with --sequence; a syntax error names its text offset.
    printf '1\n\n[2]\n' >"$work/lines.json"
    run "$work/lines.json" from-json --sequence
    expect_rc 0
    got=$(od -An -tx1 -v "$work/out" | tr -d ' \n')
    [[ "$got" == 018102 ]] || fail "from-json --sequence bytes: $got"
    # A line's number with junk after it (it gave 01 02), at the junk's
    # offset in the whole text.
    printf '1x\n2\n' >"$work/junk.json"
    run "$work/junk.json" from-json --sequence
    expect_error syntax_error "syntax error in JSON or diagnostic notation text" 1
    expect_text out ""
    # --max-depth as for every command: N levels, the next one refused
    # (from-json took one more: [[[[]]]] with --max-depth 3).
    printf '[[[[]]]]' >"$work/deep.json"
    run "$work/deep.json" from-json --max-depth 3
    expect_error depth_exceeded "maximum nesting depth exceeded" 3
    run "$work/deep.json" from-json --max-depth 4
    expect_rc 0
    printf '[1, 2,]' >"$work/bad.json"
    run "$work/bad.json" from-json
    expect_error syntax_error "syntax error in JSON or diagnostic notation text" 6
    printf '{"k": 1, "k": 2}' >"$work/dup.json"
    run "$work/dup.json" from-json
    expect_rc 0
    run "$work/dup.json" from-json --strict
    expect_error duplicate_key "duplicate map key" 9
    ;;

  from_diag)
    printf '[1_0, h%s0102%s, {"a": 1.5}] / comment /\n2(h%s01%s)\n' "'" "'" "'" "'" >"$work/in.diag"
    run "$work/in.diag" from-diag
    expect_rc 0
    expect_text err ""
    got=$(od -An -tx1 -v "$work/out" | tr -d ' \n')
    [[ "$got" == 831801420102a16161f93e00c24101 ]] || fail "from-diag bytes: $got"
    printf '[1, 2,]' >"$work/bad.diag"
    run "$work/bad.diag" from-diag
    expect_error syntax_error "syntax error in JSON or diagnostic notation text" 6
    printf '{1: 2, 1: 3}' >"$work/dup.diag"
    run "$work/dup.diag" from-diag
    expect_rc 0
    # The parser has no key check: the offset is the key's in the CBOR written
    # (a2 01 02 01 03: 3), and the message says so (the help calls from-diag's
    # offsets text offsets; the key is at 7 in the text).
    run "$work/dup.diag" from-diag --strict
    expect_error duplicate_key \
      "duplicate map key; the offset is in the CBOR written, not the text" 3
    run "$work/dup.diag" from-diag --no-duplicate-keys
    expect_error duplicate_key \
      "duplicate map key; the offset is in the CBOR written, not the text" 3
    # Top-level items need a separator: "1-1" is not 1 and -1.
    printf '1-1' >"$work/unsep.diag"
    run "$work/unsep.diag" from-diag
    expect_error syntax_error "syntax error in JSON or diagnostic notation text" 1
    # --max-depth 0 is the default (512), as for every command; limits the
    # text parsers do not take are usage errors, not silently ignored.
    printf '[[1]]' >"$work/nested.diag"
    for cmd in from-diag from-json; do
      run "$work/nested.diag" $cmd --max-depth 0
      expect_rc 0
      run "$work/nested.diag" $cmd --max-depth 1
      expect_error depth_exceeded "maximum nesting depth exceeded" 1
      for opt in --max-string-length --max-container-items --max-items; do
        run "$work/nested.diag" $cmd $opt 1
        expect_rc 2
        expect_text err "cbor-fast: error: $opt is not an option of from-json or from-diag (see 'cbor-fast --help')\n"
      done
      run "$work/nested.diag" $cmd --deterministic
      expect_rc 2
    done
    ;;

  diag_round_trip)
    # diag --indicators | from-diag gives back the bytes, example included.
    hex_to_file 1801fa3fc000009f780161ff5f4101ffb90000d9000102 "$work/in.cbor"
    "$tool" diag --indicators "$work/in.cbor" >"$work/text" 2>"$work/err" || fail "diag --indicators"
    "$tool" from-diag "$work/text" >"$work/back" 2>>"$work/err" || fail "from-diag"
    cmp -s "$work/in.cbor" "$work/back" || fail "bytes differ after the round trip: $(cat "$work/text")"
    printf '1_0\n1.5_2\n[_ "a"_0]\n(_ h%s01%s)\n{_1 }\n1_1(2)\n' "'" "'" >"$work/want_text"
    expect_file text "$work/want_text"
    "$tool" diag --indicators "$example" >"$work/text2" || fail "diag --indicators example"
    "$tool" from-diag "$work/text2" >"$work/back2" || fail "from-diag example"
    cmp -s "$example" "$work/back2" || fail "the example differs after the round trip"
    expect_text err ""
    ;;

  diag_pretty)
    run_hex a2616182019ff4ff616280 diag --pretty
    expect_ok_line '{\n  "a": [\n    1,\n    [_\n      false\n    ]\n  ],\n  "b": []\n}\n'
    ;;

  strict_duplicates)
    # --strict is RFC 8949 validity: UTF-8 and no duplicate keys, in diag,
    # to-json, canonical and check alike.
    for cmd in diag to-json canonical check; do
      run_hex a201010102 "$cmd" --strict
      expect_error duplicate_key "duplicate map key" 3
    done
    ;;

  canonical)
    # {2: 1, 1: 2, "aa": 3, "b": 4, 1000: 5, -1: 0} in the three orders.
    hex_to_file a602010102626161036162041903e8052000 "$work/in.cbor"
    got=$("$tool" canonical "$work/in.cbor" | od -An -tx1 -v | tr -d ' \n')
    [[ "$got" == a6010202011903e805200061620462616103 ]] || fail "canonical (bytewise): $got"
    got=$("$tool" canonical --length-first "$work/in.cbor" | od -An -tx1 -v | tr -d ' \n')
    [[ "$got" == a60102020120006162041903e80562616103 ]] || fail "canonical --length-first: $got"
    got=$("$tool" canonical --ctap2 "$work/in.cbor" | od -An -tx1 -v | tr -d ' \n')
    [[ "$got" == a6010202011903e805200061620462616103 ]] || fail "canonical --ctap2: $got"
    # Shortest forms, definite lengths, a preferred bignum: [1, 1.5, "a", 1].
    run_hex 9f1801fb3ff80000000000007f6161ffc2420001ff canonical
    expect_rc 0
    got=$(od -An -tx1 -v "$work/out" | tr -d ' \n')
    [[ "$got" == 8401f93e00616101 ]] || fail "canonical forms: $got"
    # 1_0 and 1 are one key once encoded: the error is at the later key.
    run_hex a21801010102 canonical
    expect_error duplicate_key "duplicate map key" 4
    # CTAP2 has no tags: [1, 1(1)] is refused at the tag, saying why; a
    # bignum that fits 64 bits is an integer there, so 2(h'01') is 1.
    run_hex 8201c101 canonical --ctap2
    expect_error invalid_argument "CTAP2 canonical CBOR has no tags" 2
    run_hex 8201c24101 canonical --ctap2
    expect_rc 0
    got=$(od -An -tx1 -v "$work/out" | tr -d ' \n')
    [[ "$got" == 820101 ]] || fail "canonical --ctap2 bignum: $got"
    ;;

  version)
    run /dev/null --version
    expect_rc 0
    expect_text out "cbor-fast $version\n"
    expect_text err ""
    ;;

  *)
    fail "unknown case"
    ;;
esac

if [[ $failures -ne 0 ]]; then
  exit 1
fi
echo "PASS [$case_name]"
