#!/usr/bin/env bash
# The library's layers, lowest first (README, Layout): a file of src/LAYER/ or a public header
# of include/rebirth/ may include headers of its own layer or of a lower one, never of a
# higher one. Prints each include that breaks the order, and each file of src/ outside the
# layer folders or public header without a layer; exits 1 if there is any.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
order=(core rules io solve proofgame retro cli)

# The layer of each public header (its .cpp lives in that layer's folder; rules.h is the rule
# set as a value, vocabulary of the core; rule_hooks.h's functions are the rules layer's).
declare -A public=(
  [types.h]=core [bitboard.h]=core [move.h]=core [setup.h]=core [error.h]=core [text.h]=core
  [walk.h]=core [problem.h]=core [rules.h]=core [position.h]=core [movegen.h]=core
  [notation.h]=core [perft.h]=core [goal.h]=core [legality.h]=core [solution.h]=core
  [popeye_input.h]=io [pgn.h]=io [html_report.h]=io [claims.h]=io [popeye_output.h]=io [popeye_order.h]=io
  [solve.h]=solve [goal_bound.h]=solve [distance.h]=solve [verify.h]=solve [solution_json.h]=solve
  [proof_bound.h]=proofgame [proof_split.h]=proofgame [proof_captures.h]=proofgame [proof_tempo.h]=proofgame [proof_passage.h]=proofgame [proof_rebirth.h]=proofgame [assignment.h]=proofgame [proof_builder.h]=proofgame
  [retro.h]=retro [retro_cage.h]=retro [retro_order.h]=retro [retro_closure.h]=retro [retractor.h]=retro [retro_certificate.h]=retro [retro_problem.h]=retro [unmove.h]=retro [legality_proof.h]=retro
)

# The rank of each layer (its index in `order`); rank_of prints -1 for no layer. A lookup
# table, not a loop in a subshell per include: the check runs as a test.
declare -A ranks=()
for i in "${!order[@]}"; do ranks[${order[$i]}]=$i; done
rank_of() { echo "${ranks[$1]:--1}"; }

failures=0
check_file() {  # FILE LAYER
  local file=$1 layer=$2 rank inc target trank
  rank=${ranks[$layer]}
  while IFS= read -r inc; do
    case $inc in
      rebirth/*)
        target=${public[${inc#rebirth/}]:-}
        if [[ -z $target ]]; then
          echo "${file#$root/}: includes $inc, a public header with no layer in scripts/check-layers.sh"
          failures=$((failures + 1)); continue
        fi ;;
      */*) target=${inc%%/*} ;;
      *) target=$layer ;;  # a header beside the file
    esac
    trank=${ranks[$target]:--1}
    if ((trank < 0)); then
      echo "${file#$root/}: includes $inc, of no layer"; failures=$((failures + 1))
    elif ((trank > rank)); then
      echo "${file#$root/}: includes $inc ($target) from the lower layer $layer"; failures=$((failures + 1))
    fi
  done < <(sed -nE 's/^#include "([^"]+)".*/\1/p' "$file")
}

for file in "$root"/src/*; do
  if [[ -f $file ]]; then echo "${file#$root/}: outside the layer folders"; failures=$((failures + 1)); fi
done
for dir in "$root"/src/*/; do
  layer=$(basename "$dir")
  if [[ $(rank_of "$layer") -lt 0 ]]; then echo "src/$layer/: not a layer"; failures=$((failures + 1)); continue; fi
  for file in "$dir"*; do check_file "$file" "$layer"; done
done
for file in "$root"/include/rebirth/*.h; do
  name=$(basename "$file")
  if [[ -z ${public[$name]:-} ]]; then
    echo "include/rebirth/$name: no layer in scripts/check-layers.sh"; failures=$((failures + 1)); continue
  fi
  check_file "$file" "${public[$name]}"
done
if (( failures > 0 )); then
  echo "check-layers: $failures include(s) out of order" >&2
  exit 1
fi
echo "check-layers: every include follows ${order[*]}"
