#!/usr/bin/env python3
"""expected_status.py SUMMARY INDEX...: every problem of a cluster solve summary (one JSON
line per problem, "id" = the file's stem) has the status its known answer gives. The answers come
from index files (data/problems/index.jsonl: the published solutions, one line per solution
prefixed "a) ", "b) " per twin; data/examples/index.jsonl: "status" as Popeye 4.104 gives
it): one solution per twin is "solved", more in some twin "cooked", none "no-solution".
Exits 1 naming each problem whose status differs or has no known answer."""
import json
import os
import sys


# The known status of every problem of the index files, by problem id (the file's stem).
def expected_statuses(index_path):
    out = {}
    for line in open(index_path, encoding='utf-8'):
        if not line.strip():
            continue
        entry = json.loads(line)
        key = os.path.splitext(os.path.basename(entry['file']))[0]
        if 'status' in entry:
            out[key] = entry['status']
            continue
        per_twin = {}
        for solution in entry['solution']:
            twin = solution[:3] if len(solution) > 3 and solution[1] == ')' and solution[2] == ' ' else ''
            per_twin[twin] = per_twin.get(twin, 0) + 1
        twins = max(1, len(entry.get('twins', [])) + (1 if entry.get('twins') else 0))
        counts = list(per_twin.values()) + [0] * max(0, twins - len(per_twin))
        out[key] = 'no-solution' if 0 in counts else 'cooked' if max(counts) > 1 else 'solved'
    return out


def main():
    summary, indexes = sys.argv[1], sys.argv[2:]
    known = {}
    for index in indexes:
        known.update(expected_statuses(index))
    bad = 0
    checked = 0
    for line in open(summary, encoding='utf-8'):
        if not line.strip():
            continue
        result = json.loads(line)
        want = known.get(result['id'])
        if want is None:
            print(f"{result['id']}: no known answer in {', '.join(indexes)}", file=sys.stderr)
            bad += 1
        elif result.get('status') != want:
            print(f"{result['id']}: status {result.get('status')}, known answer {want}", file=sys.stderr)
            bad += 1
        checked += 1
    print(f"{checked} problem status(es) checked against known answers")
    return 1 if bad or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
