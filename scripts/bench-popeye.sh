#!/usr/bin/env bash
# Side-by-side benchmark against Popeye on a fixed set of Popeye's own example problems
# (bench/popeye_set.txt: direct, self, reflex, help incl. intelligent mode, series, proof
# games, Circe family). Usage:
#   POPEYE=/path/to/py bash scripts/bench-popeye.sh [SET_FILE]
# Without POPEYE it says so and exits 0 (CI has no Popeye). Popeye and rebirth (1 thread) run
# alternately on each problem, each alone, with a wall-clock limit of BENCH_TIMEOUT seconds
# (default 60; a run that hits it counts as that many seconds, a lower bound, marked ">").
# A problem both solve within a second is run REPEAT_SHORT more times (default 4) and each
# side's fastest run counts. Prints per problem both times, Popeye/rebirth, whether rebirth
# printed Popeye's solutions (same multiset of solution lines), then the overall ratio (total
# Popeye time / total rebirth time) and the geometric mean of the per-problem ratios, per group
# and over all. A problem both solve within a tenth of a second is also solved as COPIES copies
# in one file (default 20, NextProblem between them), each side once: its time per copy, and
# the ratio of those ("per copy"), leave out most of the process start-up that such short runs
# are mostly made of (Popeye's is about 15 ms here, rebirth's about 2 ms).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
set_file=${1:-$root/bench/popeye_set.txt}
timeout_s=${BENCH_TIMEOUT:-60}
build_dir=${BUILD_DIR:-$root/build}

if [[ -z "${POPEYE:-}" ]]; then
    echo "bench-popeye: no Popeye given (POPEYE=/path/to/py); nothing measured." >&2
    echo "  Build one outside the project: ../shared/tools/build-oracle.sh popeye GIT_DIR OUT_DIR" >&2
    exit 0
fi
if [[ ! -x "$POPEYE" ]]; then
    echo "bench-popeye: POPEYE=$POPEYE is not an executable file" >&2
    exit 2
fi
if [[ ! -f "$set_file" ]]; then
    echo "bench-popeye: $set_file: no such set file" >&2
    exit 2
fi

if [[ ! -x "$build_dir/rebirth" ]]; then
    bash "$root/scripts/build.sh" rebirth >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_timed OUT_FILE TIME_FILE DIR CMD...: runs CMD in DIR with the limit, writes its output
# and wall time (seconds; the limit when it was hit, with ">" before it).
run_timed() {
    local out=$1 tfile=$2 dir=$3
    shift 3
    local start end rc=0
    start=$(date +%s.%N)
    (cd "$dir" && timeout "$timeout_s" "$@" >"$out" 2>/dev/null) || rc=$?
    end=$(date +%s.%N)
    if [[ $rc -eq 124 ]]; then
        echo ">$timeout_s" >"$tfile"
    else
        python3 -c "print(f'{$end - $start:.3f}')" >"$tfile"
    fi
}

n=0
while read -r group path; do
    [[ -z "$group" || "$group" == \#* ]] && continue
    inp="$root/$path"
    if [[ ! -f "$inp" ]]; then
        echo "bench-popeye: $set_file: $path: no such problem" >&2
        exit 2
    fi
    n=$((n + 1))
    name=$(basename "$path" .inp)
    d="$work/$n"
    mkdir -p "$d"
    cp "$inp" "$d/$name.inp"
    # Alternately: Popeye first on odd problems, rebirth first on even ones. A problem both
    # solve within a second is timed REPEAT_SHORT more times (default 4), each side keeping
    # its fastest run: single runs of a few milliseconds are mostly scheduling noise.
    runs=1
    for ((k = 0; k < runs; k++)); do
        if (((n + k) % 2)); then
            run_timed "$d/py.out" "$d/py.t$k" "$d" "$POPEYE" -regression "$name.inp"
            run_timed "$d/rb.out" "$d/rb.t$k" "$d" "$build_dir/rebirth" solve --regression --quiet --threads 1 "$name.inp"
        else
            run_timed "$d/rb.out" "$d/rb.t$k" "$d" "$build_dir/rebirth" solve --regression --quiet --threads 1 "$name.inp"
            run_timed "$d/py.out" "$d/py.t$k" "$d" "$POPEYE" -regression "$name.inp"
        fi
        if ((k == 0)) && python3 -c "import sys; sys.exit(0 if max(float(open(f).read().lstrip('>')) for f in sys.argv[1:]) < 1 else 1)" "$d/py.t0" "$d/rb.t0"; then
            runs=$((1 + ${REPEAT_SHORT:-4}))
        fi
    done
    # Short problems: COPIES copies in one file, each side once.
    if python3 -c "import sys; sys.exit(0 if max(float(open(f).read().lstrip('>')) for f in sys.argv[1:]) < 0.1 else 1)" "$d/py.t0" "$d/rb.t0"; then
        copies=${COPIES:-20}
        python3 - "$d/$name.inp" "$d/copies.inp" "$copies" <<'PYEOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
body = re.sub(r"(?is)^.*?\bBeginProblem\b", "", text, count=1)
body = re.sub(r"(?is)\bEndProblem\b.*$", "", body, count=1)
n = int(sys.argv[3])
open(sys.argv[2], "w").write("BeginProblem" + "\nNextProblem".join([body] * n) + "EndProblem\n")
PYEOF
        run_timed "$d/py.copies.out" "$d/py.copies" "$d" "$POPEYE" -regression copies.inp
        run_timed "$d/rb.copies.out" "$d/rb.copies" "$d" "$build_dir/rebirth" solve --regression --quiet --threads 1 copies.inp
        echo "$copies" >"$d/copies"
    fi
    for side in py rb; do
        python3 - "$d" "$side" <<'PYEOF'
import glob, sys
d, side = sys.argv[1], sys.argv[2]
ts = [open(f).read().strip() for f in glob.glob(f"{d}/{side}.t*")]
cut = [t for t in ts if t.startswith(">")]
open(f"{d}/{side}.time", "w").write(cut[0] if cut else f"{min(float(t) for t in ts):.3f}")
PYEOF
    done
    echo "$group $name $d" >>"$work/list"
    echo "  measured $name ($group)" >&2
done <"$set_file"

python3 - "$work/list" <<'EOF'
import math, re, sys
from collections import defaultdict

def solutions(path):
    lines = []
    for line in open(path, errors="replace"):
        s = line.strip()
        if re.match(r"^\d+\.", s):
            lines.append(re.sub(r"\s+", " ", s))
    return sorted(lines)

def seconds(path):
    t = open(path).read().strip()
    return (float(t[1:]), True) if t.startswith(">") else (float(t), False)

rows, dirs = [], []
for line in open(sys.argv[1]):
    group, name, d = line.split()
    dirs.append(d)
    py, py_cut = seconds(f"{d}/py.time")
    rb, rb_cut = seconds(f"{d}/rb.time")
    same = "-" if (py_cut or rb_cut) else ("yes" if solutions(f"{d}/py.out") == solutions(f"{d}/rb.out") else "NO")
    rows.append((group, name, py, py_cut, rb, rb_cut, same))

def per_copy(d):
    # (popeye s, rebirth s) per copy of the COPIES file, or None (not a short problem)
    import os
    if not os.path.exists(f"{d}/copies"):
        return None
    n = int(open(f"{d}/copies").read())
    (py, py_cut), (rb, rb_cut) = seconds(f"{d}/py.copies"), seconds(f"{d}/rb.copies")
    return None if py_cut or rb_cut else (py / n, rb / n)

print(f"{'group':<24} {'problem':<34} {'popeye s':>9} {'rebirth s':>10} {'py/rb':>7}  same solutions"
      f"  {'per copy: popeye ms':>19} {'rebirth ms':>10} {'py/rb':>7}")
for (group, name, py, py_cut, rb, rb_cut, same), d in zip(rows, dirs):
    ratio = py / max(rb, 1e-3)
    pys = (">" if py_cut else "") + f"{py:.3f}"
    rbs = (">" if rb_cut else "") + f"{rb:.3f}"
    rs = ("<" if rb_cut and not py_cut else ">" if py_cut and not rb_cut else "") + f"{ratio:.2f}"
    copy = per_copy(d)
    extra = f"  {copy[0] * 1000:19.2f} {copy[1] * 1000:10.2f} {copy[0] / max(copy[1], 1e-6):7.2f}" if copy else ""
    print(f"{group:<24} {name:<34} {pys:>9} {rbs:>10} {rs:>7}  {same:<14}{extra}")

def summary(label, sel):
    if not sel:
        return
    tp = sum(r[2] for r in sel)
    tr = sum(r[4] for r in sel)
    geo = math.exp(sum(math.log(r[2] / max(r[4], 1e-3)) for r in sel) / len(sel))
    below = sum(1 for r in sel if r[2] < r[4])
    cut = sum(1 for r in sel if r[5])
    bad = sum(1 for r in sel if r[6] == "NO")
    print(f"{label:<24} {len(sel):>3} problems  popeye {tp:9.2f} s  rebirth {tr:9.2f} s  "
          f"overall py/rb {tp / max(tr, 1e-3):6.2f}  geomean {geo:6.2f}  below 1: {below}  "
          f"rebirth cut at limit: {cut}  other solutions: {bad}")

print()
groups = defaultdict(list)
for r in rows:
    groups[r[0]].append(r)
for g in sorted(groups):
    summary(g, groups[g])
summary("all", rows)
EOF
