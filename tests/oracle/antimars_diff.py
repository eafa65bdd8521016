#!/usr/bin/env python3
"""Differential test: rebirth's Anti-Mars perft against the independent model in antimars.py.

Positions: the 16 Anti-Mars cases of movelists.jsonl at depths 1-3, and positions reached by
seeded random walks from them at depths 1-2. Exits 1 and lists every disagreement.
Usage: antimars_diff.py REBIRTH_BINARY MOVELISTS_JSONL [WALKS_PER_CASE]
"""
import json
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import antimars  # noqa: E402


def rebirth_perft(binary, fen, depth):
    run = subprocess.run([binary, 'perft', '--fen', fen, '--condition', 'AntiMarsCirce', '--depth',
                          str(depth), '--threads', '1'], capture_output=True, text=True)
    if run.returncode != 0:
        return 'exit %d: %s' % (run.returncode, run.stderr.strip())
    return int(run.stdout.split()[-1])


def main():
    binary, movelists = sys.argv[1], sys.argv[2]
    walks = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    rng = random.Random(20261121)
    cases = []
    with open(movelists) as f:
        for line in f:
            case = json.loads(line)
            if case['condition'] == 'AntiMarsCirce' and 'perft' in case:
                cases.append(case['fen'])
    if len(cases) != 16:
        print('expected 16 Anti-Mars cases in %s, found %d' % (movelists, len(cases)))
        return 1
    checks = [(fen, 3) for fen in cases]
    for fen in cases:
        for _ in range(walks):
            checks.append((antimars.random_walk(fen, rng.randint(1, 8), rng), 2))
    failures = 0
    for fen, depth in checks:
        model = antimars.parse_fen(fen)
        for d in range(1, depth + 1):
            expected = antimars.perft(model, d)
            got = rebirth_perft(binary, fen, d)
            if got != expected:
                failures += 1
                print('MISMATCH %s depth %d: rebirth %s, model %d' % (fen, d, got, expected))
    print('%d positions, %d disagreements' % (len(checks), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
