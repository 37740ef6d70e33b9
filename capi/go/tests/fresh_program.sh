#!/bin/sh
# A fresh Go program outside the binding's module, built with the steps of
# capi/go/README.md ("Use it from your module"): the program is the README's
# code block between the fresh-program markers, the module points at the
# binding with a replace directive, pkg-config (PKG_CONFIG_PATH from the test)
# finds cbor_fast-static.pc. The binary must run with no LD_LIBRARY_PATH and
# must not need libcbor_fast.so.
# Usage: fresh_program.sh GO BINDING_DIR WORK_DIR
set -eu
go=$1 binding=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
sed -n '/<!-- fresh-program:start -->/,/<!-- fresh-program:end -->/p' "$binding/README.md" |
  sed '1,/^```go$/d; /^```$/,$d' > main.go
test -s main.go || { echo "fresh_program: no program in README.md" >&2; exit 1; }
"$go" mod init example.com/fresh >/dev/null 2>&1
"$go" mod edit -require=libcbor_fast/cborfast@v0.0.0 -replace=libcbor_fast/cborfast="$binding"
GOFLAGS=-modcacherw "$go" mod tidy
GOFLAGS=-modcacherw "$go" build -o fresh .
if ldd ./fresh 2>/dev/null | grep -q libcbor_fast; then
  echo "fresh_program: the binary needs libcbor_fast.so:" >&2
  ldd ./fresh >&2
  exit 1
fi
out=$(env -u LD_LIBRARY_PATH ./fresh)
want="a20166636972636c6502820121
{Kind:circle Center:{_:{} X:1 Y:-2} Tags:[]}"
if [ "$out" != "$want" ]; then
  echo "fresh_program: output" >&2
  echo "$out" >&2
  echo "want" >&2
  echo "$want" >&2
  exit 1
fi
echo "fresh_program: ok (static, no LD_LIBRARY_PATH)"
