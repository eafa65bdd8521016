#!/usr/bin/env bash
# Installs missing dependencies, configures a Release build (Ninja) in BUILD_DIR (default:
# build, relative to the repository root) and builds the given targets (default: all).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/deps.sh
# The test suites are always built (an earlier -DREBIRTH_BUILD_TESTS=OFF in the cache does not
# survive this script).
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREBIRTH_BUILD_TESTS=ON
if (($# == 0)); then
  cmake --build "$build_dir" --parallel "$(nproc)"
else
  for target in "$@"; do cmake --build "$build_dir" --parallel "$(nproc)" --target "$target"; done
fi
