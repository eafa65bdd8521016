#!/usr/bin/env bash
# Builds the `bench` target in Release (Ninja) and runs it: perft speed against Stockfish,
# the deep perft checks and the parallel_perft speed-up. Extra arguments go to the benchmark
# (Google Benchmark flags such as --benchmark_filter=perft_check). Exits non-zero when a
# perft count is wrong. BUILD_DIR (default: build) selects the build directory.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREBIRTH_BUILD_BENCH=ON
cmake --build "$build_dir" --parallel "$(nproc)" --target bench
"$build_dir/bench" "$@"
