#!/usr/bin/env bash
# retro_compare.sh REBIRTH_MPIRUN CLUSTER NP JOB EXPECTED WORK: a retro job on NP ranks
# writes, for every problem, the bytes `rebirth solve --regression --quiet` prints for it,
# its problems split into retraction-prefix items.
set -euo pipefail
launcher="$1"; cluster="$2"; np="$3"; job="$4"; expected="$5"; work="$6"
. "$(dirname "$0")/solve_common.sh"
. "$(dirname "$0")/retro_common.sh"
rm -rf "$work"; mkdir -p "$work"
"$launcher" -n "$np" "$job" --output-dir "$work/out" --journal "$work/out/journal.jsonl" > "$work/summary.jsonl"
same_solve "$cluster" "$job" "$expected" "$work/out"
check_retro_summary "$cluster" "$job" "$expected" "$work/summary.jsonl"
check_retro_items "$work/out/journal.jsonl"
echo "np=$np: $(wc -l < "$work/summary.jsonl") problems, outputs identical"
