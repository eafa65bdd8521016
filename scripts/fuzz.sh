#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, REBIRTH_FUZZ=ON: ASan + UBSan; scripts/asan-build.sh) and
# runs them (issue 10).
# First every input in each target's regressions/ folder is replayed (all must pass), then
# each target fuzzes for FUZZ_SECONDS seconds (default 30) on a copy of its seeds in the
# build directory (the source tree is never written). A crash, a sanitizer report, a leak,
# an input running longer than 10 s or more than 2048 MB fails the run; the offending
# input is kept in <build>/fuzz-run/<target>/ and its path printed.
# FUZZ_BUILD_DIR (default: build-asan, the sanitizer suites' one, relative to the repository
# root) is the build dir;
# FUZZ_TARGETS (default: all four) narrows the run, e.g. FUZZ_TARGETS="fen frame".
# Exit status: 0 when every replay and every run passed, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${FUZZ_BUILD_DIR:-build-asan}
seconds=${FUZZ_SECONDS:-30}
read -r -a targets <<<"${FUZZ_TARGETS:-popeye_input fen job frame}"

# The build the sanitizer suites use (scripts/asan-build.sh): after scripts/sanitize.sh only
# the fuzz targets' own files and the cluster library are compiled here.
bash scripts/asan-build.sh "$build_dir" "${targets[@]/#/fuzz_}"

# The source folder of a target: seeds/, regressions/ and an optional *.dict.
source_dir() {
  if [[ -d tests/fuzz/$1 ]]; then echo "tests/fuzz/$1"; else echo "cluster/tests/fuzz/$1"; fi
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
run_dir=$build_dir/fuzz-run
failed=()

for t in "${targets[@]}"; do
  src=$(source_dir "$t")
  bin=$build_dir/fuzz/fuzz_$t
  mapfile -t inputs < <(find "$src/regressions" -type f ! -name .gitkeep | sort)
  if ((${#inputs[@]} == 0)); then
    echo "fuzz: $t: no regression inputs"
    continue
  fi
  echo "fuzz: $t: replaying ${#inputs[@]} regression input(s)"
  if ! "$bin" -timeout=10 -rss_limit_mb=2048 "${inputs[@]}" >"$build_dir/fuzz-replay-$t.log" 2>&1; then
    cat "$build_dir/fuzz-replay-$t.log"
    echo "fuzz: $t: a regression input fails again (log: $build_dir/fuzz-replay-$t.log)" >&2
    failed+=("$t (regression)")
  fi
done

for t in "${targets[@]}"; do
  src=$(source_dir "$t")
  bin=$build_dir/fuzz/fuzz_$t
  work=$run_dir/$t
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp "$src"/seeds/* "$work/corpus/"
  dict=()
  for d in "$src"/*.dict; do [[ -e $d ]] && dict=("-dict=$d"); done
  echo "fuzz: $t: fuzzing for $seconds s"
  status=0
  "$bin" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1 || status=$?
  if ((status != 0)); then
    tail -n 60 "$work/log"
    for a in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-* "$work"/slow-unit-*; do
      [[ -e $a ]] && echo "fuzz: $t: failing input written to $a" >&2
    done
    echo "fuzz: $t: failed (exit $status, log: $work/log)" >&2
    failed+=("$t")
  else
    echo "fuzz: $t: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$') runs, no failure"
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  echo "fuzz: keep each failing input in the target's regressions/ folder once fixed" >&2
  exit 1
fi
echo "fuzz: all targets passed"
