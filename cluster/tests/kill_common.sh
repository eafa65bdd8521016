# Shared by the kill/resume tests (kill_resume.sh, solve_kill_resume.sh, proof_kill_resume.sh).

# kill_master_when LAUNCHER_PID JOURNAL COUNT MIN TRIES PAUSE ENDED: waits (at most TRIES times
# PAUSE seconds) until the command COUNT prints at least MIN, fails when the command ENDED
# succeeds (the run finished before it could be killed), then SIGKILLs the master (rank 0,
# whose pid is on the journal's first line) and fails unless the launcher then exits non-zero.
# Sets killed_master to the master's pid.
kill_master_when() {
  local launcher_pid=$1 journal=$2 count=$3 min=$4 tries=$5 pause=$6 ended=$7
  for _ in $(seq 1 "$tries"); do
    if [[ -f "$journal" ]] && [[ $($count) -ge $min ]]; then break; fi
    sleep "$pause"
  done
  killed_master=$(head -n 1 "$journal" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
  if $ended; then
    echo "the run ended before it could be killed" >&2
    return 1
  fi
  kill -KILL "$killed_master"
  if wait "$launcher_pid"; then
    echo "mpirun exited 0 after the master was killed" >&2
    return 1
  fi
}
