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
# golang-go: the Go binding's tests (capi/go, cgo; Go 1.19 on Debian 12).
# clang-14, libfuzzer-14-dev: the fuzz preset and the fuzz.bounded test (tests/fuzz).
# python3, python3-cbor2: the Python binding's tests (capi/python; cbor2 is the
# differential test's reference and installs for /usr/bin/python3).
# valgrind: the memcheck.capi.* tests (tests/capi; memcheck over the C tests).
# Rust (capi/rust) is not a Debian package here: it needs cargo 1.85+ from rustup
# (~/.cargo/bin; Debian 12's cargo is 1.63), and its crates come from crates.io
# pinned by capi/rust/Cargo.lock. Under CI=true a missing cargo fails the configure.
packages="cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev libfmt-dev
abigail-tools libcbor-dev golang-go clang-14 libfuzzer-14-dev python3 python3-cbor2 valgrind"

# Benchmark peers (libcbor and nlohmann::json, compared against in benchmarks/;
# fxamacker/cbor, against the Go binding in capi/go/compare): only with --bench.
bench_packages="libcbor-dev nlohmann-json3-dev golang-github-fxamacker-cbor-dev"
if [ "${1:-}" = "--bench" ]; then
  packages="$packages $bench_packages"
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
