#!/usr/bin/env bash
# compare.sh REBIRTH REBIRTH_MPIRUN NP WORKDIR SRCDIR: a cluster run on NP ranks gives
# the same bytes as `rebirth perft --divide` in one process, for every problem.
set -euo pipefail
rebirth="$1"; launcher="$2"; np="$3"; work="$4"; src="$5"
. "$(dirname "$0")/common.sh"
rm -rf "$work"; mkdir -p "$work"
write_job "$work/job.json" "$work" "$src" 0.05 0
expect "$rebirth" "$src" "$work/expected"
"$launcher" -n "$np" "$work/job.json" > "$work/summary.jsonl"
same "$work/expected" "$work/out"
test "$(wc -l < "$work/summary.jsonl")" -eq 4
# A bare `! grep` never fails a `set -e` script: test the status lines explicitly.
if grep -v '"status":"ok"' "$work/summary.jsonl"; then echo "np=$np: a problem's status is not ok" >&2; exit 1; fi
echo "np=$np: $(grep -c '"t":"split"' "$work/out/journal.jsonl" || true) split(s), outputs identical"
