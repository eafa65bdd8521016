#!/usr/bin/env bash
# Installs the Debian 12 packages rebirth needs to build, test, benchmark and fuzz (clang,
# libclang-rt-14-dev for libFuzzer and the sanitizer runtimes, llvm for llvm-symbolizer,
# chromium for the test that loads cookcheck's HTML report in a real browser).
# Only packages that dpkg-query does not report as installed are fetched; nothing runs when
# everything is present. Works as root (no sudo needed) or as a user with sudo.
set -euo pipefail

packages=(
  cmake ninja-build g++
  libtbb-dev libboost-serialization-dev libopenmpi-dev openmpi-bin
  libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libyaml-cpp-dev
  stockfish python3
  clang libclang-rt-14-dev llvm
  chromium
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != installed ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "deps: missing ${missing[*]}; run this script as root or install sudo" >&2
  exit 1
fi

echo "deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
