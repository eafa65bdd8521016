#!/usr/bin/env bash
# claims_kill_resume.sh EXPECTED REBIRTH_MPIRUN CLUSTER JOB WORK: SIGKILL the master of a
# cook-check run after a few problems, continue with --resume, and check every verdict (against
# EXPECTED, the report claims_expect.sh wrote) and that each problem was journaled exactly once.
set -euo pipefail
expected="$1"; launcher="$2"; cluster="$3"; job="$4"; work="$5"
. "$(dirname "$0")/claims_common.sh"
. "$(dirname "$0")/kill_common.sh"
rm -rf "$work"; mkdir -p "$work"
journal="$work/out/journal.jsonl"
total=$("$cluster" --list "$job" | wc -l)
run=("$launcher" -n 2 "$job" --output-dir "$work/out" --journal "$journal")

"${run[@]}" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
solved() { grep -c '"t":"solved"' "$journal" || true; }
ended() { [[ $(solved) -ge $total ]]; }
kill_master_when "$launcher_pid" "$journal" solved 5 800 0.01 ended
before=$(solved)
echo "killed master $killed_master after $before of $total problems"

# Exit 2: the job holds a document that is bad input (as `rebirth cookcheck` exits).
rc=0
"${run[@]}" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt" || rc=$?
if [[ $rc -ne 2 ]]; then echo "the resumed run failed ($rc):" >&2; cat "$work/stderr2.txt" >&2; exit 1; fi
same_claims "$cluster" "$job" "$expected" "$work/out"
check_claims_summary "$cluster" "$job" "$work/summary2.jsonl"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
# Problems journaled before the kill are not checked again.
test "$(solved)" -eq "$total"
echo "resumed run: $((total - before)) problem(s) checked after the kill, verdicts identical"
