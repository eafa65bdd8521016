#!/usr/bin/env bash
# retro_kill_resume.sh REBIRTH_MPIRUN CLUSTER JOB EXPECTED WORK: SIGKILL the master of a
# retro run once some retro items are journaled, continue with --resume, and check every
# output, that the run was resumed and that no item was journaled twice.
set -euo pipefail
launcher="$1"; cluster="$2"; job="$3"; expected="$4"; work="$5"
. "$(dirname "$0")/solve_common.sh"
. "$(dirname "$0")/retro_common.sh"
. "$(dirname "$0")/kill_common.sh"
rm -rf "$work"; mkdir -p "$work"
journal="$work/out/journal.jsonl"
total=$("$cluster" --list "$job" | wc -l)
run=("$launcher" -n 2 "$job" --output-dir "$work/out" --journal "$journal")

"${run[@]}" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
items() { grep -c '"t":"fragment"' "$journal" || true; }
ended() { [[ $(grep -c '"t":"finished"' "$journal" || true) -ge $total ]]; }
kill_master_when "$launcher_pid" "$journal" items 30 1000 0.01 ended
before=$(items)
echo "killed master $killed_master after $before retro items"

"${run[@]}" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt" ||
  { echo "the resumed run failed:" >&2; cat "$work/stderr2.txt" >&2; exit 1; }
same_solve "$cluster" "$job" "$expected" "$work/out"
check_retro_summary "$cluster" "$job" "$expected" "$work/summary2.jsonl"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
check_retro_items "$journal"
test "$(sed -n 's/.*"problem":"\([^"]*\)","t":"finished".*/\1/p' "$journal" | sort -u | wc -l)" -eq "$total"
echo "resumed run: $(($(items) - before)) retro item(s) searched after the kill, outputs identical"
