# Shared by the solve tests: single-process expected outputs and their comparison.

# files_of CLUSTER JOB: the distinct problem files of a job, in job order.
files_of() {
  "$1" --list "$2" | cut -f3 | awk '!seen[$0]++'
}

# ids_of CLUSTER JOB FILE: the problem ids of FILE in a job, in order.
ids_of() {
  "$1" --list "$2" | awk -F '\t' -v f="$3" '$3 == f { print $1 }'
}

# expect_solve REBIRTH CLUSTER JOB DIR: `rebirth solve --regression --quiet` of every file
# of the job into DIR/STEM.expected (kept when already there).
expect_solve() {
  mkdir -p "$4"
  local f out
  while IFS= read -r f; do
    out="$4/$(basename "${f%.inp}").expected"
    [[ -f "$out" ]] || "$1" solve --regression --quiet --maxtime 60 "$f" > "$out"
  done < <(files_of "$2" "$3")
}

# same_solve CLUSTER JOB EXPECTED OUT: for every file of the job, its problems' ID.out
# files in OUT, one after the other, are byte-identical to its single-process output.
same_solve() {
  local f id status=0 n=0
  while IFS= read -r f; do
    : > "$4/.joined"
    while IFS= read -r id; do cat "$4/$id.out" >> "$4/.joined" || status=1; done < <(ids_of "$1" "$2" "$f")
    if ! cmp "$3/$(basename "${f%.inp}").expected" "$4/.joined"; then echo "differs: $f" >&2; status=1; fi
    n=$((n + 1))
  done < <(files_of "$1" "$2")
  rm -f "$4/.joined"
  echo "$n file(s) compared"
  return $status
}

# check_summary CLUSTER JOB SUMMARY: one JSON line per problem, in job order, each with the
# solve fields, and each problem's status the one its known answer gives (the index files of
# data/problems and data/examples, see expected_status.py).
check_summary() {
  diff <("$1" --list "$2" | cut -f1) <(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$3")
  if grep -v '"status":"[a-z-]*","solutions":[0-9]*,"nodes":[0-9]*,"seconds":[0-9.e-]*,"ranks":[0-9]*,"threads":[0-9]*}$' "$3"; then
    echo "summary lines without the solve fields: $3" >&2
    return 1
  fi
  local data
  data="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../data" && pwd)"
  python3 "$(dirname "${BASH_SOURCE[0]}")/expected_status.py" "$3" "$data/problems/index.jsonl" "$data/examples/index.jsonl"
}
