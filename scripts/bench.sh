#!/usr/bin/env bash
# Builds the `bench` target in Release (Ninja) and runs it: perft speed against Stockfish,
# the deep perft checks, the parallel_perft speed-up and the legality analysis time per
# position. Extra arguments go to the benchmark
# (Google Benchmark flags such as --benchmark_filter=perft_check). Exits non-zero when a
# perft count is wrong. BUILD_DIR (default: build) selects the build directory.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/build.sh bench
"$build_dir/bench" "$@"
