#!/usr/bin/env bash
# claims_compare.sh EXPECTED REBIRTH_MPIRUN CLUSTER NP JOB WORK: a cook-check job on NP ranks
# writes, for every claimed problem, the verdict `rebirth cookcheck --report` gives it
# (EXPECTED, the report claims_expect.sh wrote).
set -euo pipefail
expected="$1"; launcher="$2"; cluster="$3"; np="$4"; job="$5"; work="$6"
. "$(dirname "$0")/claims_common.sh"
rm -rf "$work"; mkdir -p "$work"
# Exit 2: the job holds a document that is bad input (as `rebirth cookcheck` exits).
rc=0
"$launcher" -n "$np" "$job" --output-dir "$work/out" --journal "$work/out/journal.jsonl" > "$work/summary.jsonl" || rc=$?
test "$rc" -eq 2
same_claims "$cluster" "$job" "$expected" "$work/out"
check_claims_summary "$cluster" "$job" "$work/summary.jsonl"
grep -q '"status":"cooked"' "$work/summary.jsonl"
grep -q '"status":"bad-input"' "$work/summary.jsonl"
echo "np=$np: $(wc -l < "$work/summary.jsonl") problems, verdicts identical"
