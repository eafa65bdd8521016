# Shared by the proof-game cluster tests (with solve_common.sh).

# check_proof_summary CLUSTER JOB EXPECTED SUMMARY: one JSON line per problem in job order, each
# with the solve fields and a known status, and for every file its problems' solutions add up
# to the solution lines ("  1.") of its single-process output.
check_proof_summary() {
  diff <("$1" --list "$2" | cut -f1) <(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$4")
  if grep -v '"status":"\(solved\|cooked\|no-solution\|partial\)","solutions":[0-9]*,"nodes":[0-9]*,"seconds":[0-9.e-]*,"ranks":[0-9]*,"threads":[0-9]*}$' "$4"; then
    echo "summary lines without the solve fields or with another status: $4" >&2
    return 1
  fi
  local f id sum want status=0
  while IFS= read -r f; do
    sum=0
    while IFS= read -r id; do
      sum=$((sum + $(sed -n "s/^{\"id\":\"$id\",.*\"solutions\":\([0-9]*\),.*/\1/p" "$4")))
    done < <(ids_of "$1" "$2" "$f")
    want=$(grep -c '^  1\.' "$3/$(basename "${f%.inp}").expected" || true)
    if [[ $sum -ne $want ]]; then echo "$f: $sum solution(s) in the summary, $want in the output" >&2; status=1; fi
  done < <(files_of "$1" "$2")
  return $status
}

# check_proof_items JOURNAL: the proof games were split (proof-game items journaled) and
# every item was journaled once.
check_proof_items() {
  local items
  items=$(grep -c '"t":"proof"' "$1" || true)
  if [[ $items -lt 50 ]]; then echo "only $items proof-game items in $1" >&2; return 1; fi
  if sed -n 's/.*"path":"\([^"]*\)","problem":"\([^"]*\)","seconds".*"t":"proof".*/\2 \1/p' "$1" | sort | uniq -d | grep .; then
    echo "proof-game items journaled twice in $1" >&2
    return 1
  fi
  echo "$items proof-game items, each journaled once"
}

# check_split_problems JOURNAL PROBLEM...: each named problem was split, its items journaled
# as proof-game items (more than one), not solved whole.
check_split_problems() {
  local journal=$1 p n status=0
  shift
  for p in "$@"; do
    n=$(grep '"t":"proof"' "$journal" | grep -c "\"problem\":\"$p\"" || true)
    if [[ $n -lt 2 ]]; then echo "$p: $n proof-game items in $journal, not split" >&2; status=1; fi
  done
  return $status
}
