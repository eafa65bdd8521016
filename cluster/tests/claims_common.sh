# Shared by the cook-check tests (kind cookcheck): the single-process verdicts and their
# comparison.

# expect_claims REBIRTH CLUSTER JOB OUT: `rebirth cookcheck --report OUT` over the job's files,
# named as the job names them, with the job's one thread.
expect_claims() {
  local files
  mapfile -t files < <("$2" --list "$3" | cut -f3 | awk '!seen[$0]++')
  "$1" cookcheck --threads 1 --report "$4" "${files[@]}" > /dev/null 2>&1 || true
}

# same_claims CLUSTER JOB EXPECTED OUT: every problem of the job has OUT/ID.json, one JSON line
# equal to its entry in the report EXPECTED (in job order) less the entry's seconds.
same_claims() {
  "$1" --list "$2" | cut -f1 > "$4/.ids"
  python3 - "$3" "$4" "$4/.ids" <<'PY'
import json, sys
report, out, ids = sys.argv[1], sys.argv[2], [l.strip() for l in open(sys.argv[3]) if l.strip()]
problems = json.load(open(report))["problems"]
assert len(problems) == len(ids), (len(problems), len(ids))
for want, id in zip(problems, ids):
    want.pop("seconds", None)
    text = open(f"{out}/{id}.json").read()
    assert text.endswith("\n") and text.count("\n") == 1, f"{id}.json is not one JSON line"
    got = json.loads(text)
    assert got == want, f"{id}: {got.get('verdict')} differs from {want.get('verdict')}"
print(f"{len(ids)} verdicts identical")
PY
}

# check_claims_summary CLUSTER JOB SUMMARY: one JSON line per problem in job order, its status
# a verdict.
check_claims_summary() {
  diff <("$1" --list "$2" | cut -f1) <(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$3")
  if grep -v '"status":"\(sound\|cooked\|dual\|missing\|unverified\|bad-input\)","solutions":[0-9]*,' "$3"; then
    echo "summary lines without a verdict: $3" >&2
    return 1
  fi
}
