#!/usr/bin/env python3
"""Differential runs of rebirth against a Popeye binary on Popeye's own example files.

    POPEYE=/path/to/py POPEYE_SRC=/path/to/popeye/sources python3 scripts/popeye_diff.py WORKDIR [FILE.inp ...]

Popeye is not part of this project: build it yourself outside the tree (see the brief's
../shared/tools/build-oracle.sh) and point POPEYE at the binary and POPEYE_SRC at its
sources. Every input file (default: POPEYE_SRC's BEISPIEL, EXAMPLES, REGRESSIONS and TESTS
*.inp) is split into single problems (WORKDIR/single/FOLDER_STEM_NNN.inp, NNN = the problem's
number in its file); each problem rebirth supports is solved by both programs (-regression,
--regression, a time limit each: POPEYE_SECONDS, REBIRTH_SECONDS) and classified:

    exact            byte-identical outputs
    same-solutions   the same multiset of solution lines (lines starting with a move number)
    differ           other solutions: a bug to find (or a Popeye defect to document)
    rebirth-timeout, popeye-timeout, unsupported (rebirth refuses the problem)

It prints the counts, writes WORKDIR/result.json (name -> class) and, per problem,
WORKDIR/out/NAME.{py,rb} and the times. Nothing here runs in the test suite.
"""
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

LANGS = {  # first keyword, next-problem keyword, end keyword, as written in single files
    'b': ('beginproblem', 'nextproblem', 'endproblem', 'BeginProblem', 'EndProblem'),
    'a': ('anfangproblem', 'weiteresproblem', 'endeproblem', 'AnfangProblem', 'EndeProblem'),
    'd': ('debutprobleme', 'problemesuivant', 'finprobleme', 'DebutProbleme', 'FinProbleme'),
}


def is_keyword(word, keyword):
    return len(word) >= 3 and keyword.startswith(word.lower())


# Splits one Popeye input file into its problems; returns [(name, text)].
def split(path):
    folder = os.path.basename(os.path.dirname(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    lang, current, problems = None, None, []
    for line in open(path, encoding='latin-1').read().split('\n'):
        words = line.split()
        first = words[0] if words else ''
        if lang is None:
            lang = next((k for k, v in LANGS.items() if first and is_keyword(first, v[0])), None)
            current = [] if lang else None
            continue
        if len(words) == 1 and (is_keyword(first, LANGS[lang][1]) or is_keyword(first, LANGS[lang][2])):
            if any(l.strip() for l in current):
                problems.append(current)
            current = []
            if is_keyword(first, LANGS[lang][2]):
                current = None
                break
            continue
        if not first.lower().startswith('prot'):  # no protocol files
            current.append(line)
    if current and any(l.strip() for l in current):
        problems.append(current)
    return [(f'{folder}_{stem}_{i + 1:03d}', LANGS[lang][3] + '\n' + '\n'.join(p) + '\n' + LANGS[lang][4] + '\n')
            for i, p in enumerate(problems)]


def run(cmd, cwd, seconds):
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=seconds)
        return p.returncode, p.stdout, time.time() - start
    except subprocess.TimeoutExpired:
        return 124, b'', time.time() - start


def solution_lines(text):
    return collections.Counter(l.strip() for l in text.split('\n') if re.match(r'^\s*\d+\.', l))


def one(args):
    name, work, rebirth, popeye, rb_seconds, py_seconds = args
    single = os.path.join(work, 'single', name + '.inp')
    rc, out, rb_time = run([rebirth, 'solve', '--regression', '--quiet', '--json', '--threads', '1', '--maxtime',
                            str(rb_seconds), single], work, rb_seconds + 30)
    text = out.decode('latin-1')
    summary = [l for l in text.split('\n') if l.startswith('{') and '"id":' in l]
    status = json.loads(summary[-1]).get('status') if summary else 'bad-input'
    if status in ('bad-input', 'unsupported'):
        return name, 'unsupported', rb_time, 0.0
    ours = '\n'.join(l for l in text.split('\n') if not (l.startswith('{') and '"id":' in l))
    with tempfile.TemporaryDirectory() as tmp:  # Popeye may write files beside its input
        with open(os.path.join(tmp, 'p.inp'), 'w', encoding='latin-1') as f:
            f.write(open(single, encoding='latin-1').read())
        prc, pout, py_time = run([popeye, '-regression', 'p.inp'], tmp, py_seconds)
    theirs = pout.decode('latin-1')
    for ext, content in (('rb', ours), ('py', theirs)):
        with open(os.path.join(work, 'out', f'{name}.{ext}'), 'w', encoding='latin-1') as f:
            f.write(content)
    if prc == 124:
        return name, 'popeye-timeout', rb_time, py_time
    if status == 'timeout':
        return name, 'rebirth-timeout', rb_time, py_time
    if ours == theirs:
        return name, 'exact', rb_time, py_time
    same = solution_lines(ours) == solution_lines(theirs)
    return name, 'same-solutions' if same else 'differ', rb_time, py_time


def main():
    if len(sys.argv) < 2 or not os.environ.get('POPEYE'):
        print(__doc__)
        print('popeye_diff: set POPEYE (and POPEYE_SRC) and give a work directory; nothing to do.')
        return 0
    work = os.path.abspath(sys.argv[1])
    popeye = os.path.abspath(os.environ['POPEYE'])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rebirth = os.environ.get('REBIRTH', os.path.join(root, 'build', 'rebirth'))
    files = sys.argv[2:]
    if not files:
        src = os.environ.get('POPEYE_SRC', '')
        files = sorted(f for d in ('BEISPIEL', 'EXAMPLES', 'REGRESSIONS', 'TESTS') for f in glob.glob(f'{src}/{d}/*.inp'))
    for d in ('single', 'out'):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    names = []
    for path in files:
        for name, text in split(path):
            with open(os.path.join(work, 'single', name + '.inp'), 'w', encoding='latin-1') as f:
                f.write(text)
            names.append(name)
    rb_s = float(os.environ.get('REBIRTH_SECONDS', '10'))
    py_s = float(os.environ.get('POPEYE_SECONDS', '60'))
    jobs = [(n, work, rebirth, popeye, rb_s, py_s) for n in names]
    result, times = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get('JOBS', '2'))) as pool:
        for name, cls, rb_time, py_time in pool.map(one, jobs):
            result[name] = cls
            times[name] = {'rebirth': round(rb_time, 3), 'popeye': round(py_time, 3)}
    json.dump({'classes': result, 'seconds': times}, open(os.path.join(work, 'result.json'), 'w'), indent=0)
    for cls, count in sorted(collections.Counter(result.values()).items()):
        print(f'{cls:16} {count}')
    for name in sorted(n for n, c in result.items() if c == 'differ'):
        print('differ:', name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
