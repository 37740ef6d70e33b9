#!/bin/sh
# Installs the Debian packages the build and the tests need and a fresh machine
# of this project's kind may lack. Run as root (it uses apt-get); as another
# user it only names what is missing. Safe to run again: installed packages
# are skipped without touching the network.
set -eu

# Build and test dependencies (GoogleTest, Google Benchmark, CMake, Ninja and
# pkg-config are on the machine image already; listed so a bare Debian works too).
# abigail-tools: abidw/abidiff for the C ABI baseline test (tests/abi);
# libcbor-dev: the install test that links libcbor and libcbor_fast together.
# clang-14, libfuzzer-14-dev, libclang-rt-14-dev: the fuzz preset and the
# fuzz.bounded test (tests/fuzz; the sanitizer and libFuzzer runtimes are in
# libclang-rt-14-dev on current Debian 12 images).
# python3-cbor2: Debian's cbor2 for /usr/bin/python3, the reference of the CLI's
# JSON and canonical corpus test (tests/cli/json_corpus_test.py).
# valgrind: the memcheck.capi.* tests (tests/capi; memcheck over the C tests).
# clang-format-14, clang-tidy-14: the format.check test (cmake/check-format.sh) and
# .clang-tidy (cmake/run-clang-tidy.sh).
# libsimdjson-dev: the JSON parser of the library's JSON -> CBOR conversion (src/json).
# time: GNU time's peak resident size in the CLI's streaming test (tests/cli).
# python3, python3-venv, python3-dev: the Python binding (capi/python): its tests
# build the extension with pip into a venv (headers from python3-dev); cbor2,
# pytest and scikit-build-core come from PyPI through pip.
# Go: not from Debian (golang-go is 1.19 on Debian 12; the Go binding needs 1.24+): the
# machine image's /usr/local/go, which capi/go/CMakeLists.txt looks for first.
# Rust (capi/rust) is not a Debian package here: it needs cargo 1.85+ from rustup
# (~/.cargo/bin; Debian 12's cargo is 1.63), and its crates come from crates.io
# pinned by capi/rust/Cargo.lock. Under CI=true a missing cargo fails the configure.
packages="cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev libfmt-dev abigail-tools
libcbor-dev clang-14 libfuzzer-14-dev libclang-rt-14-dev python3 python3-cbor2 valgrind
clang-format-14 clang-tidy-14 libsimdjson-dev time python3-venv python3-dev"

# Benchmark peers (libcbor and nlohmann::json, compared against in benchmarks/;
# the Go binding's peer, fxamacker/cbor, comes from the Go module proxy): only with --bench.
bench_packages="libcbor-dev nlohmann-json3-dev"
if [ "${1:-}" = "--bench" ]; then
  packages="$packages $bench_packages"
fi

# rustfmt (ctest rust.fmt) is a rustup component: part of its default profile,
# added here where a minimal profile left it out.
rustup_bin=$(command -v rustup 2>/dev/null || true)
if [ -z "$rustup_bin" ] && [ -x "$HOME/.cargo/bin/rustup" ]; then
  rustup_bin="$HOME/.cargo/bin/rustup"
fi
if [ -n "$rustup_bin" ] && [ ! -x "$(dirname "$rustup_bin")/cargo-fmt" ]; then
  echo "install-deps: adding the rustfmt component"
  "$rustup_bin" component add rustfmt
fi
# clippy (ctest rust.clippy), likewise.
if [ -n "$rustup_bin" ] && [ ! -x "$(dirname "$rustup_bin")/cargo-clippy" ]; then
  echo "install-deps: adding the clippy component"
  "$rustup_bin" component add clippy
fi
# ctest rust.msrv checks the crates with their declared rust-version (1.85).
if [ -n "$rustup_bin" ] && ! "$rustup_bin" run 1.85 cargo --version >/dev/null 2>&1; then
  echo "install-deps: installing the Rust 1.85 toolchain (the crates' rust-version)"
  "$rustup_bin" toolchain install 1.85 --profile minimal
fi

missing=""
for p in $packages; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

if [ "$(id -u)" != "0" ]; then
  echo "install-deps: missing Debian packages:$missing" >&2
  echo "install-deps: run as root, or: sudo apt-get install -y$missing" >&2
  exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
