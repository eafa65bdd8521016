#!/usr/bin/env bash
# asan-build.sh BUILD_DIR TARGET...: configures BUILD_DIR (relative to the repository root)
# for the sanitizer suites (scripts/sanitize.sh) and the fuzz targets (scripts/fuzz.sh) alike,
# and builds the targets: clang, AddressSanitizer + UndefinedBehaviorSanitizer with libFuzzer's
# coverage (REBIRTH_FUZZ=ON, no recovery from UB), -O1 -g1 (line tables for the reports'
# stack traces), assertions on, the test code at -O0 (tests/CMakeLists.txt). One
# configuration for both scripts, so that CI compiles the library once for them: separate
# builds (GCC for the suites, clang for the fuzz targets) took 324 s + 182 s of CI's budget
# here, most of it compiling.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=$1
shift
bash scripts/deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DREBIRTH_FUZZ=ON -DREBIRTH_BUILD_TESTS=ON -DREBIRTH_BUILD_BENCH=OFF
cmake --build "$build_dir" --parallel "$(nproc)" --target "$@"
