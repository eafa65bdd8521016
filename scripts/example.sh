#!/usr/bin/env bash
# Installs missing dependencies, builds rebirth (Release, Ninja) and runs it on shipped examples:
# perft of the orthodox initial position to depth 5, `rebirth solve` on data/examples/*.inp,
# and the example cluster job (jobs/perft-example.json) on two MPI ranks.
# BUILD_DIR (default: build, relative to the repository root) selects the build directory.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}

bash scripts/build.sh rebirth rebirth-cluster

start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
expected=4865609  # perft(5) of the initial position (Chess Programming Wiki, "Perft Results")

echo "== rebirth perft --fen \"$start_fen\" --depth 5"
output=$("$build_dir/rebirth" perft --fen "$start_fen" --depth 5)
echo "$output"
leaves=$(tail -n 1 <<<"$output")
if [[ "$leaves" != "$expected" ]]; then
  echo "example: perft 5 gave '$leaves', expected $expected" >&2
  exit 1
fi

# Solve each shipped example (Popeye's output, without timing lines).
for problem in data/examples/*.inp; do
  echo
  echo "== rebirth solve --regression $problem"
  "$build_dir/rebirth" solve --regression --quiet "$problem"
done

# The cluster job: rank 0 partitions the perft trees of the example job across a worker rank
# (Open MPI, oneTBB threads in each rank) and merges them; the result equals perft --divide.
echo
echo "== cluster/rebirth-mpirun -n 2 jobs/perft-example.json"
rm -rf "$build_dir/cluster-out/perft-example"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 REBIRTH_CLUSTER="$build_dir/cluster/rebirth-cluster" \
  bash cluster/rebirth-mpirun -n 2 jobs/perft-example.json --output-dir "$build_dir/cluster-out/perft-example"
tail -n 1 "$build_dir"/cluster-out/perft-example/*.perft
