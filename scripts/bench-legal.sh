#!/usr/bin/env bash
# Legality benchmark (issue 13): `rebirth legal` on the 40 `legal` labels of Retractor's
# legality tests (../shared/reference/retro/legality.jsonl, read in place) on 1 and 2 threads,
# within SECONDS a diagram (default 10, the command's default), each with the marks of its
# `constraints` (--frozen, --promoted: the game keeps them). Prints per label its wall time
# and the game's half-moves on each thread count, then how many got a game (replayed by
# rebirth before it is printed) and the total times and their ratio. A label that gets no game
# costs the whole SECONDS; one called illegal is a defect and makes the script exit 1. With
# `--all`, also the 76 `legal` labels of Retractor's other tests (data/retro/retractor_legality.jsonl).
# Usage: bash scripts/bench-legal.sh [SECONDS] [--all]   (BUILD_DIR selects the build directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
shared=${REBIRTH_SHARED_DIR:-$root/../shared}
seconds=${1:-10}
labels="$shared/reference/retro/legality.jsonl"
more=""
if [[ "${2:-}" == "--all" ]]; then more="$root/data/retro/retractor_legality.jsonl"; fi
if [[ ! -f "$labels" ]]; then
    echo "bench-legal: $labels: no such file (../shared must be beside the project)" >&2
    exit 2
fi
if [[ ! -x "$build_dir/rebirth" ]]; then
    bash "$root/scripts/build.sh" rebirth >&2
fi
exec python3 - "$build_dir/rebirth" "$seconds" "$labels" $more <<'PY'
import json, subprocess, sys, time
rebirth, seconds = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for f in sys.argv[3:] for l in open(f)]
rows = [r for r in rows if r['expected'] == 'legal']
totals, found, wrong = {1: 0.0, 2: 0.0}, {1: 0, 2: 0}, 0
print(f"{'label':8} {'1 thread':>10} {'plies':>6} {'2 threads':>10} {'plies':>6}")
for r in rows:
    cells = []
    for threads in (1, 2):
        t0 = time.time()
        marks = []
        for key in ('frozen', 'promoted'):
            if r['constraints'][key]:
                marks += ['--' + key, ','.join(r['constraints'][key])]
        p = subprocess.run([rebirth, 'legal', '--fen', r['fen'], '--seconds', seconds, '--threads', str(threads),
                            '--json'] + marks, capture_output=True, text=True)
        secs = time.time() - t0
        j = json.loads([l for l in p.stdout.splitlines() if l.startswith('{')][-1])
        totals[threads] += secs
        if j['verdict'] == 'legal':
            found[threads] += 1
        elif j['verdict'] == 'illegal':
            wrong += 1
        cells.append(f"{secs:10.2f} {j.get('plies', '-') if j['verdict'] != 'illegal' else 'ILLEGAL':>6}")
    print(f"{r['id']:8} {' '.join(cells)}", flush=True)
print(f"games: {found[1]} of {len(rows)} on 1 thread, {found[2]} on 2 threads")
print(f"total: {totals[1]:.1f} s on 1 thread, {totals[2]:.1f} s on 2 threads, speed-up {totals[1] / totals[2]:.2f}")
sys.exit(1 if wrong else 0)
PY
