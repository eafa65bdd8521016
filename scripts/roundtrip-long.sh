#!/usr/bin/env bash
# The long proof-game round trip (issue 12), too long for the test suite: random games of
# PLIES half-moves (default 10; try 12) under every condition with proof-game meaning, each
# game's final position solved as `dia` on one thread within SECONDS; a game missing from the
# solutions fails, a search the limit stops is counted. Usage:
#   bash scripts/roundtrip-long.sh [PLIES] [GAMES_PER_CONDITION] [SECONDS] [CONDITIONS]
# CONDITIONS: comma-separated Popeye words (default: the 22 of the test).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
if [[ ! -x "$build_dir/tests/test_solve_proof" ]]; then
    bash "$root/scripts/build.sh" test_solve_proof >&2
fi
export REBIRTH_RT_PLIES=${1:-10} REBIRTH_RT_GAMES=${2:-2} REBIRTH_RT_SECONDS=${3:-60}
[[ -n ${4:-} ]] && export REBIRTH_RT_CONDITIONS=$4
exec "$build_dir/tests/test_solve_proof" --gtest_also_run_disabled_tests \
    --gtest_filter='SolveProof.DISABLED_LongRandomGamesAreAmongTheSolutions'
