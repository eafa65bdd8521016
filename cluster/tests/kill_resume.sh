#!/usr/bin/env bash
# kill_resume.sh REBIRTH REBIRTH_MPIRUN WORKDIR SRCDIR: SIGKILL the master in the middle
# of a run, continue with --resume, and check the outputs match one process's.
set -euo pipefail
rebirth="$1"; launcher="$2"; work="$3"; src="$4"
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/kill_common.sh"
rm -rf "$work"; mkdir -p "$work"
write_job "$work/job.json" "$work" "$src" 0.05 1
expect "$rebirth" "$src" "$work/expected"
journal="$work/out/journal.jsonl"

"$launcher" -n 2 "$work/job.json" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
# Kill the master once some items are finished.
entries() { grep -c '"t":"done"\|"t":"split"' "$journal" || true; }
ended() { grep -q '"problem":"initial_circe","t":"finished"\|"t":"finished".*initial_circe' "$journal"; }
kill_master_when "$launcher_pid" "$journal" entries 8 400 0.025 ended
echo "killed master $killed_master after $(entries) journal entries"

"$launcher" -n 2 "$work/job.json" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt"
same "$work/expected" "$work/out"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
test "$(wc -l < "$work/summary2.jsonl")" -eq 4
echo "resumed run: outputs identical"
