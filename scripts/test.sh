#!/usr/bin/env bash
# Installs missing dependencies, builds everything in Release with Ninja and runs the tests.
# BUILD_DIR (default: build, relative to the repository root) selects the build directory.
# Exits with ctest's status.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/build.sh
# A fresh build directory has no timings of earlier runs: ctest would start the tests in the
# order they are declared, the longest ones (cluster runs, corpus checks) possibly last, one
# core idle at the end. tests/ctest_costs.txt (seconds measured here, the tests of a second or
# more) lets it start the longest first; ctest keeps the file up to date after each run.
costs=$build_dir/Testing/Temporary/CTestCostData.txt
if [[ ! -f $costs ]]; then
  mkdir -p "$(dirname "$costs")"
  cp tests/ctest_costs.txt "$costs"
fi
status=0
# --no-tests=error: a build that registered no test fails instead of passing silently.
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j2 || status=$?
exit "$status"
