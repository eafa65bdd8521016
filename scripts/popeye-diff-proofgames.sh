#!/usr/bin/env bash
# Differential run of rebirth's proof-game solver against Popeye on random problems (issue 12:
# the solution count equals Popeye's on a sample): seeded random games from the game array
# under every condition with proof-game meaning (SolveProof.DISABLED_WriteRandomProofGames),
# each board's dia solved by both programs and compared by scripts/popeye_diff.py (exact bytes,
# same solutions, differ, timeouts). Usage:
#   POPEYE=/path/to/py bash scripts/popeye-diff-proofgames.sh WORKDIR [GAMES] [MIN] [MAX] [SEED]
# GAMES a condition (default 6), games of MIN to MAX half-moves (default 5 to 8), SEED (1).
# Popeye's limit POPEYE_SECONDS (default 30), rebirth's REBIRTH_SECONDS (default 60). Without
# POPEYE it only writes the problems. A "differ" is a bug to find or a Popeye defect to
# document (README, Known Popeye defects).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
work=${1:?usage: popeye-diff-proofgames.sh WORKDIR [GAMES] [MIN] [MAX] [SEED]}
mkdir -p "$work/inputs"
work=$(cd "$work" && pwd)
if [[ ! -x "$build_dir/tests/test_solve_proof" || ! -x "$build_dir/rebirth" ]]; then
    bash "$root/scripts/build.sh" test_solve_proof rebirth >&2
fi
REBIRTH_RG_DIR="$work/inputs" REBIRTH_RG_GAMES=${2:-6} REBIRTH_RG_MIN=${3:-5} REBIRTH_RG_MAX=${4:-8} \
    REBIRTH_RG_SEED=${5:-1} "$build_dir/tests/test_solve_proof" --gtest_also_run_disabled_tests \
    --gtest_filter='SolveProof.DISABLED_WriteRandomProofGames' | grep 'problems written'
if [[ -z "${POPEYE:-}" ]]; then
    echo "popeye-diff-proofgames: no Popeye given (POPEYE=/path/to/py); problems left in $work/inputs." >&2
    exit 0
fi
POPEYE_SECONDS=${POPEYE_SECONDS:-30} REBIRTH_SECONDS=${REBIRTH_SECONDS:-60} REBIRTH="$build_dir/rebirth" \
    python3 "$root/scripts/popeye_diff.py" "$work/diff" "$work"/inputs/*.inp
