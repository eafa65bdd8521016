#!/usr/bin/env bash
# claims_expect.sh REBIRTH CLUSTER JOB EXPECTED: the single-process verdicts of a cook-check
# job (`rebirth cookcheck --report EXPECTED` over its files), which claims_compare.sh and
# claims_kill_resume.sh compare the cluster's with. Fails when the report has no problem.
set -euo pipefail
rebirth="$1"; cluster="$2"; job="$3"; expected="$4"
. "$(dirname "$0")/claims_common.sh"
rm -f "$expected"
expect_claims "$rebirth" "$cluster" "$job" "$expected"
python3 -c 'import json, sys; n = len(json.load(open(sys.argv[1]))["problems"]); assert n > 0; print(n, "expected verdicts")' "$expected"
