#!/usr/bin/env bash
# proof_compare.sh REBIRTH_MPIRUN CLUSTER NP JOB EXPECTED WORK [PROBLEM...]: a proof-game job on
# NP ranks writes, for every problem, the bytes `rebirth solve --regression --quiet` prints for
# it; each PROBLEM named (a journal id) was split into proof-game items.
set -euo pipefail
launcher="$1"; cluster="$2"; np="$3"; job="$4"; expected="$5"; work="$6"
shift 6
. "$(dirname "$0")/solve_common.sh"
. "$(dirname "$0")/proof_common.sh"
rm -rf "$work"; mkdir -p "$work"
"$launcher" -n "$np" "$job" --output-dir "$work/out" --journal "$work/out/journal.jsonl" > "$work/summary.jsonl"
same_solve "$cluster" "$job" "$expected" "$work/out"
check_proof_summary "$cluster" "$job" "$expected" "$work/summary.jsonl"
check_proof_items "$work/out/journal.jsonl"
check_split_problems "$work/out/journal.jsonl" "$@"
echo "np=$np: $(wc -l < "$work/summary.jsonl") problems, outputs identical"
