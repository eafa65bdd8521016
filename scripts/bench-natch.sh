#!/usr/bin/env bash
# Proof-game benchmark on the 99 Natch 3.3 test positions (../shared/reference/proofgames/
# natch.jsonl) beside Euclide 1.11's times listed there (10.6 s CPU for the whole set).
# Usage: bash scripts/bench-natch.sh [MAX_PLIES]
# Each position is solved as Popeye's `dia n` on 1 thread with a limit of BENCH_TIMEOUT
# seconds (default 30; a cut run counts as that many seconds, marked ">"). Prints per
# position the half-moves, Euclide's and rebirth's times, their ratio, rebirth's search nodes
# and whether rebirth's games are Natch's (ok / WRONG / cut), then the totals over the
# positions rebirth solved and over all, and the number of positions above 3x Euclide's time.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
shared=${REBIRTH_SHARED_DIR:-$root/../shared}
max_plies=${1:-999}
timeout_s=${BENCH_TIMEOUT:-30}
natch="$shared/reference/proofgames/natch.jsonl"
if [[ ! -f "$natch" ]]; then
    echo "bench-natch: $natch: no such file (../shared must be beside the project)" >&2
    exit 2
fi
if [[ ! -x "$build_dir/rebirth" ]]; then
    bash "$root/scripts/build.sh" rebirth >&2
fi
exec python3 - "$build_dir/rebirth" "$natch" "$max_plies" "$timeout_s" <<'PY'
import json, os, re, subprocess, sys, tempfile, time
rebirth, natch, max_plies, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])

# The games of rebirth's output as sequences of from-to squares (promotion letters apart),
# to compare with Natch's UCI games.
def squares(line):
    out = []
    for word in line.split():
        word = re.sub(r'^\d+\.', '', word)
        m = re.findall(r'([a-h][1-8])[-*]([a-h][1-8])', word)
        if m:
            out.append(m[0][0] + m[0][1])
        elif word in ('0-0', '0-0-0'):
            out.append(word)
    return out

def natch_squares(uci, white_first=True):
    out = []
    for i, mv in enumerate(uci.split()):
        frm, to = mv[:2], mv[2:4]
        if frm in ('e1', 'e8') and to[0] in 'gc' and to[1] == frm[1] and abs(ord(to[0]) - ord('e')) == 2:
            # castling (the king's move) only when a king stands there: rebirth writes 0-0
            out.append((frm + to, '0-0' if to[0] == 'g' else '0-0-0'))
        else:
            out.append((frm + to, None))
    return out

def same_game(ours, theirs):
    t = natch_squares(theirs)
    if len(ours) != len(t):
        return False
    return all(o == sq or o == alt for o, (sq, alt) in zip(ours, t))

rows, total_e, total_r, solved_e, solved_r, above3, wrong, cut = [], 0.0, 0.0, 0.0, 0.0, 0, 0, 0
print(f"{'position':48} {'plies':>5} {'Euclide':>8} {'rebirth':>9} {'ratio':>7} {'nodes':>10}  games")
nodes_solved = 0
with tempfile.TemporaryDirectory() as work:
    for line in open(natch):
        r = json.loads(line)
        if r['plies'] > max_plies:
            continue
        name = r['id'].split('/')[-1]
        n = r['plies']
        stip = f"dia{n // 2}" + (".5" if n % 2 else "")
        fen = r['fen'].replace('N', 'S').replace('n', 's')
        path = os.path.join(work, 'p.inp')
        with open(path, 'w') as f:
            f.write(f"BeginProblem\nStipulation {stip}\nForsyth {fen}\nEndProblem\n")
        t0 = time.time()
        p = subprocess.run([rebirth, 'solve', '--quiet', '--threads', '1', '--maxtime', str(limit), '--json', path],
                           capture_output=True, text=True)
        secs = time.time() - t0
        report = json.loads([l for l in p.stdout.splitlines() if l.startswith('{')][-1])
        status, nodes = report['status'], report.get('nodes', 0)
        games = [squares(l) for l in p.stdout.splitlines() if l.rstrip().endswith(' dia')]
        e = r['euclide_1_11_cpu_s']
        if status == 'timeout':
            verdict, shown = 'cut', f">{limit:.0f}"
            secs = max(secs, limit)
            cut += 1
        else:
            listed = r['solutions_uci']
            matched = all(any(same_game(g, u) for g in games) for u in listed)
            exact = not r['solutions_count_exact'] or len(games) == len(listed)
            verdict = 'ok' if matched and exact else 'WRONG'
            wrong += verdict == 'WRONG'
            shown = f"{secs:.2f}"
            solved_e += e
            solved_r += secs
            nodes_solved += nodes
        total_e += e
        total_r += secs
        ratio = secs / max(e, 0.01)  # Euclide lists 0.00 s for two positions
        above3 += ratio > 3
        print(f"{name[:48]:48} {n:5d} {e:8.2f} {shown:>9} {ratio:7.1f} {nodes:10d}  {verdict} ({len(games)})")
print()
print(f"solved by rebirth: rebirth {solved_r:.1f} s, Euclide {solved_e:.1f} s on the same positions "
      f"({nodes_solved} nodes: the measure that does not drift with the machine's load)")
print(f"all positions: rebirth {total_r:.1f} s (cut runs counted as {limit:.0f} s), Euclide {total_e:.1f} s")
print(f"cut: {cut}, wrong: {wrong}, above 3x Euclide: {above3}")
sys.exit(1 if wrong else 0)
PY
