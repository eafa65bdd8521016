#!/usr/bin/env bash
# solve_expect.sh REBIRTH CLUSTER EXPECTED JOB...: the single-process outputs of the jobs'
# problem files, computed once for the solve tests (a ctest fixture).
set -euo pipefail
rebirth="$1"; cluster="$2"; expected="$3"; shift 3
. "$(dirname "$0")/solve_common.sh"
rm -rf "$expected"
for job in "$@"; do expect_solve "$rebirth" "$cluster" "$job" "$expected"; done
echo "$(ls "$expected" | wc -l) expected output(s)"
