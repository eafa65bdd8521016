#!/usr/bin/env bash
# kill_resume.sh REBIRTH REBIRTH_MPIRUN WORKDIR SRCDIR: SIGKILL the master in the middle
# of a run, continue with --resume, and check the outputs match one process's.
set -euo pipefail
rebirth="$1"; launcher="$2"; work="$3"; src="$4"
. "$(dirname "$0")/common.sh"
rm -rf "$work"; mkdir -p "$work"
write_job "$work/job.json" "$work" "$src" 0.05 1
expect "$rebirth" "$src" "$work/expected"
journal="$work/out/journal.jsonl"

"$launcher" -n 2 "$work/job.json" > "$work/summary1.jsonl" 2> "$work/stderr1.txt" &
launcher_pid=$!
# Wait for some finished items, then kill the master (rank 0; its pid is in the journal).
for _ in $(seq 1 400); do
  if [[ -f "$journal" ]] && [[ $(grep -c '"t":"done"\|"t":"split"' "$journal" || true) -ge 8 ]]; then break; fi
  sleep 0.025
done
master_pid=$(head -n 1 "$journal" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
if grep -q '"problem":"initial_circe","t":"finished"\|"t":"finished".*initial_circe' "$journal"; then
  echo "the run ended before it could be killed" >&2; exit 1
fi
kill -KILL "$master_pid"
wait "$launcher_pid" && { echo "mpirun exited 0 after the master was killed" >&2; exit 1; }
echo "killed master $master_pid after $(grep -c '"t":"done"\|"t":"split"' "$journal") journal entries"

"$launcher" -n 2 "$work/job.json" --resume > "$work/summary2.jsonl" 2> "$work/stderr2.txt"
same "$work/expected" "$work/out"
test "$(grep -c '"t":"start"' "$journal")" -eq 2
grep -q 'resuming' "$work/stderr2.txt"
test "$(wc -l < "$work/summary2.jsonl")" -eq 4
echo "resumed run: outputs identical"
