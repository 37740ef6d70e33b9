#!/bin/sh
# Installs the Debian packages the build and the tests need and a fresh machine
# of this project's kind may lack. Run as root (it uses apt-get); as another
# user it only names what is missing. Safe to run again: installed packages
# are skipped without touching the network.
set -eu

# Build and test dependencies (GoogleTest, Google Benchmark, CMake, Ninja and
# pkg-config are on the machine image already; listed so a bare Debian works too).
packages="cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev libfmt-dev"

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
