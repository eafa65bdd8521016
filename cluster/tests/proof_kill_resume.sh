#!/usr/bin/env bash
# proof_kill_resume.sh REBIRTH_MPIRUN CLUSTER JOB EXPECTED WORK [KILL_AT]: SIGKILL the master
# of a proof-game run once KILL_AT (default 30) proof-game items are journaled, continue
# with --resume, and check every output, that the run was resumed and that no item was
# journaled twice.
set -euo pipefail
launcher="$1"; cluster="$2"; job="$3"; expected="$4"; work="$5"; kill_at="${6:-30}"
. "$(dirname "$0")/solve_common.sh"
. "$(dirname "$0")/proof_common.sh"
. "$(dirname "$0")/kill_common.sh"
rm -rf "$work"; mkdir -p "$work"
journal="$work/out/journal.jsonl"
total=$("$cluster" --list "$job" | wc -l)
run=("$launcher" -n 2 "$job" --output-dir "$work/out" --journal "$journal")

"${run[@]}" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
proofs() { grep -c '"t":"proof"' "$journal" || true; }
ended() { [[ $(grep -c '"t":"finished"' "$journal" || true) -ge $total ]]; }
kill_master_when "$launcher_pid" "$journal" proofs "$kill_at" 1000 0.01 ended
before=$(proofs)
echo "killed master $killed_master after $before proof-game items"

"${run[@]}" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt" ||
  { echo "the resumed run failed:" >&2; cat "$work/stderr2.txt" >&2; exit 1; }
same_solve "$cluster" "$job" "$expected" "$work/out"
check_proof_summary "$cluster" "$job" "$expected" "$work/summary2.jsonl"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
check_proof_items "$journal"
# Every problem finished (one finished before the kill is written again by the resumed run).
test "$(sed -n 's/.*"problem":"\([^"]*\)","t":"finished".*/\1/p' "$journal" | sort -u | wc -l)" -eq "$total"
echo "resumed run: $(($(proofs) - before)) proof-game item(s) searched after the kill, outputs identical"
