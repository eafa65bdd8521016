#!/usr/bin/env bash
# Builds rebirth and a fast subset of the test suites with AddressSanitizer and
# UndefinedBehaviorSanitizer (clang, the fuzz targets' configuration: scripts/asan-build.sh)
# in SANITIZE_BUILD_DIR (default build-asan) and runs them; any sanitizer report fails the
# run. CI runs it after the Release suite (scripts/test.sh), then scripts/fuzz.sh in the same
# build directory.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${SANITIZE_BUILD_DIR:-build-asan}

# Suites that exercise the readers, the rules of every condition (reference move lists to
# depth 3), the solvers and the command line, in a few minutes under the sanitizers.
# (test_data_problems and test_proof_split, which run the same solvers on more problems, are
# left to the Release run: CI's budget.)
suites=(test_cli test_legality test_retractor test_proof_builder test_reference_movelists
        test_popeye_suite test_solve_help test_solve_proof test_verify test_fen test_popeye_input
        test_popeye_output test_rules test_seeds test_solve_direct test_pgn)

bash scripts/asan-build.sh "$build_dir" rebirth "${suites[@]}"

# Popeye's own problems: those of its TESTS and REGRESSIONS files only (small positions aimed
# at the solvers' corners); the whole corpus takes too long under the sanitizers. The random
# comparison of Option Intelligent with the plain search (about 140 s here) is left to the
# Release run; the intelligent-mode problems of REGRESSIONS run its code here. So is the
# round trip of longer orthodox proof games (about 30 s here), the ones under rebirth rules and
# the intelligent series play with pawns, and the verification of the published proof games and
# Circe-family problems; the shorter round trip under every condition runs here. The legality
# analyzer's largest soundness test (12,000 games, 2.7 million positions; the other soundness
# tests run here) is left to the Release run too: under the sanitizers it took 94 s of
# test_legality's 163 s (measured 2026-12-02, the run 474 s in all). So is the command line on
# 600 truncated copies of the reference problems (57 s of test_cli's 155 s under the sanitizers,
# 2026-12-02): the fuzz target popeye_input runs the reader on cut inputs under them. So is
# `retro --certify-long`'s constructive game of 22 captures (44 s under the sanitizers, 2 s in
# Release: beside another suite it reached the command-line tests' 60 s limit, 2026-12-02).
# CI's run of 2026-12-02 took 1640 s, past its 25-minute budget: three more of the legality
# analyzer's random-game soundness tests (the one biased to pawn captures stays here) and
# Retractor.OnitiuKeyIsNotRefuted (5.5 s in Release, about a minute here: a whole retractor
# solved) are left to the Release run too (2026-12-03).
declare -A filters=([test_cli]='-Cli.TruncatedReferenceFilesNeverCrash:Cli.RetroCertifyLongTakesAGameOfAnyLength'
                    [test_legality]='-LegalitySoundness.ManyGamesOfEveryBiasAreNeverProvedIllegal:LegalityMarks.APromotedUnitIsNeverDeniedItsPromotionSquare:LegalitySoundness.RandomGamesAreNeverProvedIllegal:LegalitySoundness.GamesOfPawnStepsAreNeverProvedIllegal:LegalitySoundness.GamesOfPromotionsAreNeverProvedIllegal'
                    [test_proof_builder]='-LegalityReference.*:ProofBuilder.PromotedBishopOnG8GetsAGame'
                    [test_verify]='-Verify.EveryPublishedGameTheCorpusSolves:Verify.PublishedCirceFamilyProblemsAreSound'
                    [test_retractor]='Retractor.EnPassantUncaptureLeavesOnlyTheDoubleStep:Retractor.UncaptureChoiceSeparatesProcaFromHoeg:Retractor.PopeyeFiles'
                    [test_popeye_suite]='PopeyeSuiteCorpus.*:Popeye/PopeyeSuite.MatchesPopeye/TESTS_*:Popeye/PopeyeSuite.MatchesPopeye/REGRESSIONS_*'
                    [test_solve_help]='-SolveHelp.IntelligentModeFindsThePlainSolutions:SolveHelp.IntelligentSeriesWithPawnsFindsThePlainSolutions'
                    [test_solve_proof]='-SolveProof.LongerRandomGamesAreAmongTheSolutions:SolveProof.RandomGamesUnderRebirthRulesAreAmongTheSolutions:SolveProof.TenPlyRandomGamesUnderRebirthRulesAreAmongTheSolutions:SolveProof.EightPlyRandomGamesUnderTheOtherConditionsAreAmongTheSolutions:SolveProof.TenPlyRandomGamesUnderMoreRebirthRulesAreAmongTheSolutions:SolveProof.TenPlyRandomGamesUnderMoveDependentRebirthRulesAreAmongTheSolutions:SolveProof.TwelvePlyRandomGamesUnderRebirthRulesAreAmongTheSolutions')

export ASAN_OPTIONS=abort_on_error=0:halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The suites run side by side, SANITIZE_JOBS at a time (default: the cores), the longest
# first (the run's wall time is CI's budget); each suite's report is printed once all are done,
# in the list's order.
jobs=${SANITIZE_JOBS:-$(nproc)}
run_suite() {
  local suite=$1 start
  start=$(date +%s)
  if "$build_dir/tests/$suite" --gtest_brief=1 --gtest_filter="${filters[$suite]:-*}" > "$build_dir/$suite.log" 2>&1; then
    echo "passed $(($(date +%s) - start))" > "$build_dir/$suite.status"
  else
    echo "FAILED $(($(date +%s) - start))" > "$build_dir/$suite.status"
  fi
}
rm -f "$build_dir"/*.status
for suite in "${suites[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  run_suite "$suite" &
done
wait
status=0
for suite in "${suites[@]}"; do
  read -r verdict seconds < "$build_dir/$suite.status" || { verdict=FAILED; seconds=?; }
  if [[ $verdict == passed ]]; then
    echo "sanitize: $suite passed ($seconds s)"
  else
    echo "sanitize: $suite FAILED ($seconds s); last lines of $build_dir/$suite.log:" >&2
    tail -40 "$build_dir/$suite.log" >&2
    status=1
  fi
done
exit "$status"
