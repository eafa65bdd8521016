#!/usr/bin/env bash
# Installs missing dependencies, builds everything in Release with Ninja and runs the tests.
# BUILD_DIR (default: build, relative to the repository root) selects the build directory.
# Exits with ctest's status.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/build.sh
status=0
# --no-tests=error: a build that registered no test fails instead of passing silently.
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j2 || status=$?
exit "$status"
