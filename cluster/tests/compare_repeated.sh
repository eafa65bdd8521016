#!/usr/bin/env bash
# compare_repeated.sh REBIRTH REBIRTH_MPIRUN NP WORKDIR SRCDIR: Kiwipete under MarsCirce,
# whose move lists hold each castling twice, on NP ranks gives the same bytes as
# `rebirth perft --divide` in one process (both copies, each with its own count).
set -euo pipefail
rebirth="$1"; launcher="$2"; np="$3"; work="$4"; src="$5"
inp="$src/cluster/tests/data/kiwipete_marscirce.inp"
rm -rf "$work"; mkdir -p "$work"
cat > "$work/job.json" <<JOB
{
  "kind": "perft",
  "depth": 3,
  "limits": { "item_seconds": 0.05, "items_per_rank": 8, "threads": 1 },
  "problems": [ { "files": "$inp", "problem": 1 } ],
  "output_dir": "$work/out",
  "journal": "$work/out/journal.jsonl"
}
JOB
"$rebirth" perft "$inp" --problem 1 --depth 3 --divide > "$work/expected.perft"
test "$(grep -c '^0-0: ' "$work/expected.perft")" -eq 2
test "$(grep -c '^0-0-0: ' "$work/expected.perft")" -eq 2
"$launcher" -n "$np" "$work/job.json" > "$work/summary.jsonl"
cmp "$work/expected.perft" "$work/out/kiwipete_marscirce.perft"
grep -q '"status":"ok"' "$work/summary.jsonl"
grep -q ':o1"' "$work/out/journal.jsonl"
echo "np=$np: Kiwipete under MarsCirce, repeated castlings as distinct items, output identical"
