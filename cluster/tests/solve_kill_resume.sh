#!/usr/bin/env bash
# solve_kill_resume.sh REBIRTH_MPIRUN CLUSTER JOB EXPECTED WORK: SIGKILL the master of a
# solve run after a few problems, continue with --resume, and check every output and that
# each problem was journaled as solved exactly once.
set -euo pipefail
launcher="$1"; cluster="$2"; job="$3"; expected="$4"; work="$5"
. "$(dirname "$0")/solve_common.sh"
. "$(dirname "$0")/kill_common.sh"
rm -rf "$work"; mkdir -p "$work"
journal="$work/out/journal.jsonl"
total=$("$cluster" --list "$job" | wc -l)
run=("$launcher" -n 2 "$job" --output-dir "$work/out" --journal "$journal")

"${run[@]}" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
solved() { grep -c '"t":"solved"' "$journal" || true; }
ended() { [[ $(solved) -ge $total ]]; }
kill_master_when "$launcher_pid" "$journal" solved 3 800 0.01 ended
before=$(solved)
echo "killed master $killed_master after $before of $total problems"

"${run[@]}" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt" ||
  { echo "the resumed run failed:" >&2; cat "$work/stderr2.txt" >&2; exit 1; }
same_solve "$cluster" "$job" "$expected" "$work/out"
check_summary "$cluster" "$job" "$work/summary2.jsonl"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
# Problems journaled before the kill are not solved again.
test "$(solved)" -eq "$total"
echo "resumed run: $((total - before)) problem(s) solved after the kill, outputs identical"
