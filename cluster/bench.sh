#!/usr/bin/env bash
# The issue-5 benchmark: the same batch with 1 worker rank x 2 threads and with 2 worker
# ranks x 1 thread (each plus the master rank), the ratio of the wall times, and the rate
# at which the master hands out no-op items.
#
#   cluster/bench.sh [BUILD_DIR] [JOB] [NOOP_ITEMS]
#
# BUILD_DIR defaults to build (it holds rebirth-cluster and rebirth-mpirun), JOB to
# cluster/tests/data/bench-batch.json, NOOP_ITEMS to 2000. Work files go to
# BUILD_DIR/cluster-bench. As root, export OMPI_ALLOW_RUN_AS_ROOT=1 and
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 first.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$src/build}" && pwd)"
job="${2:-$src/cluster/tests/data/bench-batch.json}"
noop_items="${3:-2000}"
launcher="$build/cluster/rebirth-mpirun"
cluster="$build/cluster/rebirth-cluster"
work="$build/cluster-bench"
rm -rf "$work"; mkdir -p "$work"

now() { date +%s.%N; }
# dispatch_rate STDERR_FILE: the master's closing "N items handed out in S s (R items/s)".
dispatch() { sed -n 's/^rebirth-cluster: \([0-9]*\) items handed out in \([0-9.e+-]*\) s (\([0-9.e+-]*\) items\/s)$/\1 \2 \3/p' "$1"; }

# run NAME RANKS THREADS [JOB]: one run of the job; prints its wall seconds.
run() {
  local name="$1" ranks="$2" threads="$3" j="${4:-$job}" t0 t1
  t0=$(now)
  "$launcher" -n "$ranks" "$j" --threads "$threads" --output-dir "$work/$name" \
    --journal "${JOURNAL_DIR:-$work}/$name.journal.jsonl" > "$work/$name.jsonl" 2> "$work/$name.err"
  t1=$(now)
  echo "$t1 - $t0" | bc -l
}

echo "batch: $job ($("$cluster" --list "$job" | wc -l) problems), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
a=$(run ranks1x2 2 2)
b=$(run ranks2x1 3 1)
# Both runs must give the same outputs.
for f in "$work"/ranks1x2/*; do cmp "$f" "$work/ranks2x1/$(basename "$f")"; done
read -r ia sa _ < <(dispatch "$work/ranks1x2.err")
read -r ib sb _ < <(dispatch "$work/ranks2x1.err")
printf '1 rank x 2 threads: %6.2f s wall (%s items, master busy %.2f s)\n' "$a" "$ia" "$sa"
printf '2 ranks x 1 thread: %6.2f s wall (%s items, master busy %.2f s)\n' "$b" "$ib" "$sb"
printf 'ratio (2x1 / 1x2): %.3f\n' "$(echo "$b / $a" | bc -l)"

# No-op items: every item is answered at once, so the rate is the master's (MPI round trip,
# bookkeeping and one journal line per item, flushed to the disk in groups).
first=$("$cluster" --list "$job" | head -n 1 | cut -f3)
cat > "$work/noop.json" <<JOB
{ "kind": "noop", "items": $noop_items, "problems": [ "$first" ], "output_dir": "$work/noop-out" }
JOB
run noop 3 1 "$work/noop.json" > /dev/null
read -r n s r < <(dispatch "$work/noop.err")
printf 'noop, 2 workers, journal on %s: %s items in %.2f s = %.0f items/s\n' "$(df -P "$work" | awk 'NR==2{print $1}')" "$n" "$s" "$r"
if [[ -d /dev/shm && -w /dev/shm ]]; then
  shm=$(mktemp -d /dev/shm/rebirth-bench.XXXXXX)
  JOURNAL_DIR="$shm" run noop-shm 3 1 "$work/noop.json" > /dev/null
  rm -rf "$shm"
  read -r n s r < <(dispatch "$work/noop-shm.err")
  printf 'noop, 2 workers, journal on tmpfs: %s items in %.2f s = %.0f items/s\n' "$n" "$s" "$r"
fi
