#!/usr/bin/env bash
# The README's picture of the cook-check report: three claimed proof games of data/proofgames
# (De Heer's as published: sound; Donati's with one of its two games: cooked; De Heer's with
# a wrong last move: missing) checked by `rebirth cookcheck --report`, the page drawn by
# headless Chromium into data/collections/report.png.
# Usage: bash scripts/report-screenshot.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
[[ -x "$build_dir/rebirth" ]] || bash "$root/scripts/build.sh" rebirth >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
games="$root/data/proofgames"
mkdir -p "$work/claims"
{ cat "$games/deheer_rml_1996.inp"; echo "  1.e2-e4 e7-e5   2.Qd1-h5 Ke8-e7   3.Qh5*e5 dia"; } >"$work/claims/deheer.inp"
{ cat "$games/donati_probleemblad_1999.inp"
  echo "  1.e2-e3 b7-b6   2.Qd1-f3 Bc8-a6   3.Qf3*a8 Ba6-b7   4.e3-e4 Bb7-c8   5.Qa8-b7 dia"; } >"$work/claims/donati.inp"
{ cat "$games/deheer_rml_1996.inp"; echo "  1.e2-e4 e7-e5   2.Qd1-h5 Ke8-e7   3.Qh5*e6 dia"; } >"$work/claims/deheer_wrong.inp"
(cd "$work" && "$build_dir/rebirth" cookcheck --threads 1 claims --report report.html >/dev/null 2>&1) || true
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1280 \
  --screenshot="$root/data/collections/report.png" "file://$work/report.html" >/dev/null 2>&1
echo "report-screenshot: data/collections/report.png"
