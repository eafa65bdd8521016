#!/usr/bin/env bash
# Runs rebirth (1 thread, --regression) on every problem of a Popeye corpus folder
# (data/popeye or data/popeye-slow: NAME.inp, Popeye's NAME.out, index.jsonl) with a
# wall-clock limit per problem, and counts the outputs equal to Popeye's byte for byte, with
# the same multiset of solution lines, with other solutions, cut by the limit, or refused.
#   bash scripts/popeye-corpus.sh DIR [SECONDS=10] [NAME...]
# Prints one line per problem that is not byte-exact, then the counts; exits 1 when a problem
# printed other solutions (a wrong answer), 0 otherwise (being slow is not an error here).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:?usage: popeye-corpus.sh DIR [SECONDS] [NAME...]}
limit=${2:-10}
shift $(($# >= 2 ? 2 : 1))
build_dir=${BUILD_DIR:-$root/build}
[[ -x "$build_dir/rebirth" ]] || bash "$root/scripts/build.sh" rebirth >&2
[[ -f "$dir/index.jsonl" ]] || { echo "popeye-corpus: $dir/index.jsonl: no such file" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if (($#)); then printf '%s\n' "$@" >"$work/names"; else
    python3 -c "import json,sys; [print(json.loads(l)['name']) for l in open(sys.argv[1])]" "$dir/index.jsonl" >"$work/names"
fi
while read -r name; do
    [[ -f "$dir/$name.inp" ]] || { echo "popeye-corpus: $dir/$name.inp: no such problem" >&2; exit 2; }
    rc=0
    (cd "$dir" && timeout "$limit" "$build_dir/rebirth" solve --regression --quiet --threads 1 "$name.inp" \
        >"$work/$name.rb" 2>"$work/$name.err") || rc=$?
    echo "$name $rc" >>"$work/runs"
done <"$work/names"

python3 - "$dir" "$work" <<'PY'
import collections, re, sys
d, w = sys.argv[1:]
def sol(t):
    return collections.Counter(re.sub(r"\s+", " ", l.strip()) for l in t.split("\n") if re.match(r"^\s*\d+\.", l))
count = collections.Counter()
for line in open(f"{w}/runs"):
    name, rc = line.split()
    py = open(f"{d}/{name}.out", "rb").read().decode("latin-1")
    rb = open(f"{w}/{name}.rb", "rb").read().decode("latin-1")
    if rc == "124":
        k = "cut by the limit"
    elif rc != "0":
        k = "refused or failed"
    elif rb == py:
        k = "byte for byte"
    elif sol(rb) == sol(py):
        k = "same solutions"
    else:
        k = "OTHER SOLUTIONS"
    count[k] += 1
    if k != "byte for byte":
        print(f"{name}: {k}")
print(", ".join(f"{k}: {v}" for k, v in sorted(count.items())), f"(of {sum(count.values())})")
sys.exit(1 if count["OTHER SOLUTIONS"] else 0)
PY
