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

case $case_name in
  golden_default)
    # No FILE: the bundled example, whose path is compiled in.
    run /dev/null diag
    expect_rc 0
    expect_file out "$golden"
    expect_text err ""
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
    run /dev/null diag --pretty
    expect_rc 2
    expect_text err "cbor-fast: error: unknown option '--pretty' (see 'cbor-fast --help')\n"
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
    # After --, a name that starts with '-' is a file.
    run /dev/null diag -- --strict
    expect_rc 2
    expect_text err "cbor-fast: error: cannot open --strict: No such file or directory\n"
    ;;

  help)
    run /dev/null --help
    expect_rc 0
    head -n 1 "$work/out" >"$work/first"
    printf 'Usage: cbor-fast diag [--strict] [--max-depth N] [FILE|-]\n' >"$work/want_first"
    expect_file first "$work/want_first"
    grep -qF "$example" "$work/out" || fail "--help does not name the bundled example"
    expect_text err ""
    cp "$work/out" "$work/help1"
    run /dev/null diag --help
    expect_rc 0
    expect_file out "$work/help1"
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
