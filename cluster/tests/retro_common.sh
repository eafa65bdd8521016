# Shared by the retro cluster tests (with solve_common.sh).

# check_retro_summary CLUSTER JOB EXPECTED SUMMARY: one JSON line per problem in job order,
# each with the solve fields and status solved, and for every file its problems' solutions
# add up to the sequences its single-process output counts ("... moved last: N possible") and
# the keys of its retractors ("-1.Rb4-b1 !").
check_retro_summary() {
  diff <("$1" --list "$2" | cut -f1) <(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$4")
  if grep -v '"status":"solved","solutions":[0-9]*,"nodes":[0-9]*,"seconds":[0-9.e-]*,"ranks":[0-9]*,"threads":[0-9]*}$' "$4"; then
    echo "summary lines without the solve fields or not solved: $4" >&2
    return 1
  fi
  local f id sum want status=0
  while IFS= read -r f; do
    sum=0
    while IFS= read -r id; do
      sum=$((sum + $(sed -n "s/^{\"id\":\"$id\",.*\"solutions\":\([0-9]*\),.*/\1/p" "$4")))
    done < <(ids_of "$1" "$2" "$f")
    want=$(sed -n 's/^\(White\|Black\) moved last: \([0-9]*\) possible.*/\2/p' "$3/$(basename "${f%.inp}").expected" |
      awk '{ s += $1 } END { print s + 0 }')
    # A defensive retractor's solutions are its keys, one line "-1.<retraction> !" each.
    want=$((want + $(grep -c '^-1\.[^ ]* !$' "$3/$(basename "${f%.inp}").expected" || true)))
    if [[ $sum -ne $want ]]; then echo "$f: $sum solution(s) in the summary, $want in the output" >&2; status=1; fi
  done < <(files_of "$1" "$2")
  return $status
}

# check_retro_items JOURNAL: the retro problems were split (at least 50 retro items journaled)
# and every item was journaled once.
check_retro_items() {
  local items
  items=$(grep '"t":"fragment"' "$1" | grep -c '/r[0-9]*x' || true)
  if [[ $items -lt 50 ]]; then echo "only $items retro items in $1" >&2; return 1; fi
  if grep '"t":"fragment"' "$1" | sed -n 's/.*"path":"\([^"]*\)".*"problem":"\([^"]*\)".*/\2 \1/p' | sort | uniq -d | grep .; then
    echo "retro items journaled twice in $1" >&2
    return 1
  fi
  echo "$items retro items, each journaled once"
}
