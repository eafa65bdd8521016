#!/usr/bin/env bash
# slurm_templates.sh REBIRTH CLUSTER WORKDIR SRCDIR: runs cluster/slurm/rebirth.sbatch and
# cluster/slurm/rebirth-array.sbatch with bash as Slurm would (Slurm variables set, stub
# scontrol and srun first on PATH, the real mpirun through cluster/rebirth-mpirun) and checks:
#  - a plain run exits 0 and gives the bytes of `rebirth perft --divide`, on nodes + 1 ranks;
#  - SIGUSR1 to the batch shell runs `scontrol requeue JOBID`; the run is then killed (its
#    whole session, as Slurm kills the job) and the template, started again as the
#    requeued job, resumes from the journal and gives the same bytes;
#  - an array task runs exactly the job file on its line of the list, a USR1 requeues
#    ARRAYJOB_TASK, and a task with no line fails naming the list.
# Each template runs in a session of its own (setsid), which is SIGKILLed at the end.
set -euo pipefail
rebirth="$1"; cluster="$2"; work="$3"; src="$4"
. "$(dirname "$0")/common.sh"
sbatch="$src/cluster/slurm/rebirth.sbatch"
array="$src/cluster/slurm/rebirth-array.sbatch"

sessions=()
failed=0
alive() { local st; st=$(ps -o stat= -p "$1") || return 1; [[ $st != Z* ]]; }
session_pids() {  # live processes of session $1
  ps -eo pid=,sid=,stat= | awk -v s="$1" '$2 == s && $3 !~ /^Z/ { print $1 }'
}
kill_session() {  # SIGKILL every process of session $1 until none is left
  local pids
  for _ in $(seq 1 100); do
    pids=$(session_pids "$1")
    [[ -z "$pids" ]] && return 0
    # shellcheck disable=SC2086
    kill -KILL $pids 2> /dev/null || true
    wait "$1" 2> /dev/null || true
    sleep 0.05
  done
  echo "processes of session $1 survive SIGKILL: $(session_pids "$1" | tr '\n' ' ')" >&2
  return 1
}
cleanup() {
  local s
  for s in ${sessions[@]+"${sessions[@]}"}; do kill_session "$s" || true; done
  if [[ $failed -eq 1 ]]; then
    for s in "$work"/*.out "$work"/*.err "$work"/bin/*.log; do
      [[ -s "$s" ]] || continue
      echo "---- ${s#"$work"/} (last 20 lines)" >&2
      tail -n 20 "$s" >&2
    done
  fi
  if [[ -z "${REBIRTH_KEEP_WORK:-}" ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
trap 'failed=1; echo "FAIL: line $LINENO: $BASH_COMMAND" >&2' ERR
fail() { failed=1; echo "FAIL: $*" >&2; exit 1; }

# launch NAME CMD...: CMD in the background in a new session (setsid does not fork: a
# background job of a script is not a process group leader), stdout/stderr to
# WORK/NAME.out/.err; sets pid (= the session id).
launch() {
  local name="$1"; shift
  setsid "$@" > "$work/$name.out" 2> "$work/$name.err" &
  pid=$!
  sessions+=("$pid")
  for _ in $(seq 1 100); do
    [[ "$(ps -o sid= -p "$pid" | tr -d ' ')" == "$pid" ]] && return 0
    alive "$pid" || return 0  # exited already (bash reaped it)
    sleep 0.02
  done
  fail "$name: setsid did not make pid $pid a session leader"
}
# finish NAME SECONDS: wait for the last launch; its exit status in status; its session
# (mpirun and the ranks included) must be empty afterwards.
finish() {
  for _ in $(seq 1 $(( $2 * 20 ))); do
    alive "$pid" || break
    sleep 0.05
  done
  if alive "$pid"; then fail "$1: still running after $2 s"; fi
  status=0; wait "$pid" || status=$?
  [[ -z "$(session_pids "$pid")" ]] || fail "$1: processes left after the template exited: $(session_pids "$pid" | tr '\n' ' ')"
}
# wait_for SECONDS CMD...: poll CMD until it succeeds.
wait_for() {
  local n=$(( $1 * 50 )); shift
  for _ in $(seq 1 "$n"); do
    "$@" && return 0
    sleep 0.02
  done
  return 1
}
ranks_in() { head -n 1 "$1" | sed -n 's/.*"ranks":\([0-9]*\).*/\1/p'; }
journal_entries() { grep -c '"t":"done"\|"t":"split"' "$1" 2> /dev/null || true; }

rm -rf "$work"; mkdir -p "$work/bin"
# Stub Slurm commands: scontrol records its arguments; srun, sbatch and squeue must not be
# used (Open MPI only calls srun when it believes it is inside an allocation).
cat > "$work/bin/scontrol" <<STUB
#!/usr/bin/env bash
echo "\$*" >> "$work/bin/scontrol.log"
STUB
for cmd in srun sbatch squeue; do
  cat > "$work/bin/$cmd" <<STUB
#!/usr/bin/env bash
echo "$cmd \$*" >> "$work/bin/unexpected.log"
exit 1
STUB
done
chmod +x "$work"/bin/*
export PATH="$work/bin:$PATH"
# Only the Slurm variables set below: inherited ones (SLURM_JOBID, SLURM_NODELIST, ...)
# would send Open MPI to srun.
while read -r var; do
  case "$var" in SLURM_*|SRUN_*|SBATCH_*) unset "$var" ;; esac
done < <(compgen -e)
unset JOB REBIRTH_MPIRUN_ARGS
export REBIRTH_DIR="$src" REBIRTH_CLUSTER="$cluster"
cd "$work"

expect "$rebirth" "$src" "$work/expected"

# 1. A plain run: JOB from the environment, SLURM_JOB_NUM_NODES=1 -> 2 ranks (1 worker).
write_job "$work/plain.json" "$work/plain" "$src" 0.05 0
launch plain env SLURM_JOB_ID=4101 SLURM_JOB_NUM_NODES=1 SLURM_NNODES=1 \
  SLURM_JOB_NAME=rebirth SLURM_SUBMIT_DIR="$work" JOB="$work/plain.json" bash "$sbatch"
finish plain 30
[[ $status -eq 0 ]] || fail "rebirth.sbatch exited $status"
same "$work/expected" "$work/plain/out" || fail "rebirth.sbatch: outputs differ from rebirth perft --divide"
[[ "$(wc -l < "$work/plain.out")" -eq 4 ]] || fail "rebirth.sbatch: summary has $(wc -l < "$work/plain.out") lines, not 4"
! grep -v '"status":"ok"' "$work/plain.out" || fail "rebirth.sbatch: a problem is not ok"
[[ "$(ranks_in "$work/plain/out/journal.jsonl")" == 1 ]] || fail "rebirth.sbatch: 1 node should give 1 worker rank"
[[ ! -e "$work/bin/scontrol.log" ]] || fail "scontrol called without a signal: $(cat "$work/bin/scontrol.log")"
echo "rebirth.sbatch: plain run, outputs identical"

# 2. Requeue: the job file as the argument (sbatch rebirth.sbatch JOB.json; $JOB is a
# missing file, so a template ignoring its argument fails), one thread so it runs a while.
write_job "$work/requeue.json" "$work/requeue" "$src" 0.05 1
journal="$work/requeue/out/journal.jsonl"
requeue_env=(env SLURM_JOB_ID=4242 SLURM_JOB_NUM_NODES=1 SLURM_NNODES=1 SLURM_JOB_NAME=rebirth
  SLURM_SUBMIT_DIR="$work" JOB="$work/not-this-job.json")
launch requeue1 "${requeue_env[@]}" bash "$sbatch" "$work/requeue.json"
first=$pid
progressed() { [[ $(journal_entries "$journal") -ge 6 ]]; }
wait_for 20 progressed \
  || fail "requeue: no progress in the journal within 20 s"
kill -USR1 "$first"
wait_for 10 grep -qx 'requeue 4242' "$work/bin/scontrol.log" 2> /dev/null \
  || fail "requeue: scontrol did not record 'requeue 4242' after SIGUSR1 (got: $(cat "$work/bin/scontrol.log" 2> /dev/null))"
# Slurm cancels the requeued job: the batch shell may exit after the trap (with 128 + 10
# from the interrupted wait) while mpirun runs on; kill what is left of the session.
usr1_status=running
gone() { ! alive "$1"; }
if wait_for 2 gone "$first"; then usr1_status=0; wait "$first" || usr1_status=$?; fi
left=$(session_pids "$first" | wc -l)
kill_session "$first" || fail "requeue: could not kill the first run"
grep -q 'requeueing job 4242' "$work/requeue1.err" || fail "requeue: no requeue message on stderr"
[[ $(grep -c . "$work/bin/scontrol.log") -eq 1 ]] || fail "requeue: scontrol called more than once"
[[ $(grep -c '"t":"finished"' "$journal") -lt 4 ]] || fail "requeue: the run ended before it could be killed"
before=$(journal_entries "$journal")
launch requeue2 "${requeue_env[@]}" SLURM_RESTART_COUNT=1 bash "$sbatch" "$work/requeue.json"
finish requeue2 30
[[ $status -eq 0 ]] || fail "requeued rebirth.sbatch exited $status"
same "$work/expected" "$work/requeue/out" || fail "requeue: outputs differ after the resumed run"
[[ "$(grep -c '"t":"start"' "$journal")" -eq 2 ]] || fail "requeue: the journal should hold 2 starts"
grep -q 'resuming' "$work/requeue2.err" || fail "requeue: the second run did not resume"
[[ "$(wc -l < "$work/requeue2.out")" -eq 4 ]] || fail "requeue: the resumed summary should have 4 lines"
echo "rebirth.sbatch: USR1 ran 'scontrol requeue 4242' (batch shell: $usr1_status, $left process(es) left in its session); killed after $before journal entries, the requeued run resumed, outputs identical"

# 3. Job array: the list holds two small jobs and a longer one.
rm -f "$work/bin/scontrol.log"
small_job() {  # small_job N INP: perft depth 4 of INP, output in WORK/arrayN
  cat > "$work/array$1.json" <<JOB
{
  "kind": "perft",
  "depth": 4,
  "limits": { "item_seconds": 0.05, "items_per_rank": 8, "threads": 1 },
  "problems": [ "$2" ],
  "output_dir": "$work/array$1/out",
  "journal": "$work/array$1/out/journal.jsonl"
}
JOB
}
small_job 1 "$src/data/examples/antimars_lindenthal_h2.inp"
small_job 2 "$src/data/examples/circe_linss_mate2.inp"
write_job "$work/array3.json" "$work/array3" "$src" 0.05 1
printf '%s\n' "$work/array1.json" "$work/array2.json" "$work/array3.json" > "$work/joblist.txt"
array_env=(env SLURM_ARRAY_JOB_ID=5000 SLURM_JOB_ID=5002 SLURM_JOB_NUM_NODES=1 SLURM_NNODES=1
  SLURM_JOB_NAME=rebirth-array SLURM_SUBMIT_DIR="$work")

launch array2 "${array_env[@]}" SLURM_ARRAY_TASK_ID=2 bash "$array" "$work/joblist.txt"
finish array2 30
[[ $status -eq 0 ]] || fail "rebirth-array.sbatch (task 2) exited $status"
[[ -e "$work/array2/out/circe_linss_mate2.perft" ]] || fail "array task 2: no output of the second job"
[[ ! -e "$work/array1" && ! -e "$work/array3" ]] || fail "array task 2: another job of the list ran"
cmp "$work/expected/circe_linss_mate2.perft" "$work/array2/out/circe_linss_mate2.perft" \
  || fail "array task 2: output differs from rebirth perft --divide"
[[ "$(ranks_in "$work/array2/out/journal.jsonl")" == 1 ]] || fail "array task 2: should run on 2 ranks"
[[ ! -e "$work/bin/scontrol.log" ]] || fail "array task 2: scontrol called without a signal"
echo "rebirth-array.sbatch: task 2 ran exactly the second job, output identical"

launch array5 "${array_env[@]}" SLURM_ARRAY_TASK_ID=5 bash "$array" "$work/joblist.txt"
finish array5 10
[[ $status -ne 0 ]] || fail "rebirth-array.sbatch with no line 5 exited 0"
grep -q "no line 5 in $work/joblist.txt" "$work/array5.err" \
  || fail "rebirth-array.sbatch with no line 5: message does not name the list: $(cat "$work/array5.err")"
[[ ! -e "$work/array1" && ! -e "$work/array3" ]] || fail "array task 5: a job ran"
echo "rebirth-array.sbatch: task 5 (no such line) failed with: $(cat "$work/array5.err")"

launch array3 "${array_env[@]}" SLURM_ARRAY_TASK_ID=3 SLURM_JOB_ID=5003 bash "$array" "$work/joblist.txt"
wait_for 20 test -s "$work/array3/out/journal.jsonl" || fail "array task 3: no journal within 20 s"
kill -USR1 "$pid"
wait_for 10 grep -qx 'requeue 5000_3' "$work/bin/scontrol.log" 2> /dev/null \
  || fail "array task 3: scontrol did not record 'requeue 5000_3' after SIGUSR1 (got: $(cat "$work/bin/scontrol.log" 2> /dev/null))"
kill_session "$pid" || fail "array task 3: could not kill the run"
[[ ! -e "$work/array1" ]] || fail "array task 3: the first job ran"
echo "rebirth-array.sbatch: USR1 ran 'scontrol requeue 5000_3'"

[[ ! -e "$work/bin/unexpected.log" ]] || fail "unexpected Slurm commands: $(cat "$work/bin/unexpected.log")"
echo "slurm templates: all checks passed"
