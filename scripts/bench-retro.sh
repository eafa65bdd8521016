#!/usr/bin/env bash
# Retro benchmark (issue 13): a fixed set of "last N single moves" problems solved by
# `rebirth solve` on 1 and 2 threads and by the cluster (kind retro) on 2 MPI ranks (master
# and one worker of 2 threads) and 3 ranks (two workers of 1 thread), printing each run's wall
# time and its speed-up over one thread, and checking that every run prints the same bytes.
# The set: the 61 janko.at records of ../shared/reference/retro/lastmoves.jsonl of types A, B,
# C and the full-sequence ones (read in place, written as a Popeye-style file in a temporary
# directory), and bench/retro.inp (four open positions under orthodox chess, Circe, Mars
# Circe and Circe Assassin, whose retraction trees are wide); and bench/retractor.inp (a
# Circe Proca retractor -3 & #1, an orthodox -2 & #1 and Thoma's published Anti-Circe Cheylan
# -3 & s#1, Phenix No. 7259), which the cluster solves as a solve job split into items of
# White's first retractions.
# Usage: bash scripts/bench-retro.sh   (BUILD_DIR selects the build directory)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
shared=${REBIRTH_SHARED_DIR:-$root/../shared}
records="$shared/reference/retro/lastmoves.jsonl"
if [[ ! -f "$records" ]]; then
    echo "bench-retro: $records: no such file (../shared must be beside the project)" >&2
    exit 2
fi
if [[ ! -x "$build_dir/rebirth" || ! -x "$build_dir/cluster/rebirth-cluster" ]]; then
    bash "$root/scripts/build.sh" rebirth rebirth-cluster >&2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$records" "$work/janko.inp" <<'PY'
import json, sys
problems = []
for line in open(sys.argv[1], encoding="utf-8"):
    d = json.loads(line)
    if d["record_type"] not in ("A", "B", "C", "other"):
        continue
    board = d["placement"].replace("N", "S").replace("n", "s")
    stip = "lastmove" if d["n"] == 1 else "lastmoves %d" % d["n"]
    option = ""
    if d["side_to_move_given"]:
        option = "Option %s\n" % ("BlackToPlay" if d["retract_first"] == "w" else "WhiteToPlay")
    problems.append("Remark %s\nForsyth %s\nStipulation %s\n%s" % (d["id"], board, stip, option))
open(sys.argv[2], "w").write("BeginProblem\n" + "NextProblem\n".join(problems) + "EndProblem\n")
PY
cp "$root/bench/retro.inp" "$work/open.inp"
cp "$root/bench/retractor.inp" "$work/retractor.inp"
cat > "$work/job.json" <<JSON
{ "kind": "retro", "limits": { "threads": 1, "items_per_rank": 32 },
  "problems": [ "janko.inp", "open.inp" ], "output_dir": "out" }
JSON
cat > "$work/job-retractor.json" <<JSON
{ "kind": "solve", "limits": { "threads": 1 }, "problems": [ "retractor.inp" ], "output_dir": "out" }
JSON

# now: seconds since the epoch with fractions.
now() { date +%s.%N; }
declare -A seconds
run_solve() {  # NAME THREADS
    local t0; t0=$(now)
    for f in janko open; do
        "$build_dir/rebirth" solve --regression --quiet --threads "$2" "$work/$f.inp" > "$work/$1.$f.out"
    done
    seconds[$1]=$(echo "$(now) - $t0" | bc)
    t0=$(now)
    "$build_dir/rebirth" solve --regression --quiet --threads "$2" "$work/retractor.inp" > "$work/$1.retractor.out"
    seconds[$1.retractor]=$(echo "$(now) - $t0" | bc)
}
run_cluster() {  # NAME RANKS THREADS
    rm -rf "$work/out-$1"
    local t0; t0=$(now)
    "$build_dir/cluster/rebirth-mpirun" -n "$2" "$work/job.json" --threads "$3" --output-dir "$work/out-$1" \
        --journal "$work/out-$1/journal.jsonl" > /dev/null 2> "$work/$1.err"
    seconds[$1]=$(echo "$(now) - $t0" | bc)
    for f in janko open; do
        local n; n=$(grep -c '^Stipulation' "$work/$f.inp")
        : > "$work/$1.$f.out"
        for i in $(seq 1 "$n"); do cat "$work/out-$1/$f-$i.out" >> "$work/$1.$f.out"; done
    done
    rm -rf "$work/outr-$1"
    t0=$(now)
    "$build_dir/cluster/rebirth-mpirun" -n "$2" "$work/job-retractor.json" --threads "$3" --output-dir "$work/outr-$1" \
        --journal "$work/outr-$1/journal.jsonl" > /dev/null 2>> "$work/$1.err"
    seconds[$1.retractor]=$(echo "$(now) - $t0" | bc)
    : > "$work/$1.retractor.out"
    local r; r=$(grep -c '^Stipulation' "$work/retractor.inp")
    for i in $(seq 1 "$r"); do cat "$work/outr-$1/retractor-$i.out" >> "$work/$1.retractor.out"; done
}
# label RUN: what a run is, for the table.
label() {
    case $1 in
        threads1) echo "rebirth solve, 1 thread" ;;
        threads2) echo "rebirth solve, 2 threads" ;;
        ranks2) echo "cluster, 2 ranks (1 worker x 2 threads)" ;;
        ranks3) echo "cluster, 3 ranks (2 workers x 1 thread)" ;;
    esac
}
run_solve threads1 1
run_solve threads2 2
run_cluster ranks2 2 2
run_cluster ranks3 3 1
status=0
printf '%-42s %9s %8s\n' run seconds speed-up
for name in threads1 threads2 ranks2 ranks3; do
    for f in janko open retractor; do
        if [[ $f == retractor && $name != threads* ]]; then
            # The cluster's solve output has Popeye's header per problem and no solving times:
            # compare from the first retraction line on.
            if ! diff -q <(grep -E '^(-1\.|  |verdict)' "$work/threads1.$f.out") \
                <(grep -E '^(-1\.|  |verdict)' "$work/$name.$f.out") > /dev/null; then
                echo "bench-retro: $name: $f output differs from one thread's" >&2
                status=1
            fi
            continue
        fi
        if ! cmp -s "$work/threads1.$f.out" "$work/$name.$f.out"; then
            echo "bench-retro: $name: $f output differs from one thread's" >&2
            status=1
        fi
    done
    printf '%-42s %9.2f %8.2f\n' "$(label "$name")" "${seconds[$name]}" "$(echo "${seconds[threads1]} / ${seconds[$name]}" | bc -l)"
done
printf '%-42s %9s %8s\n' "retractors (bench/retractor.inp)" seconds speed-up
for name in threads1 threads2 ranks2 ranks3; do
    printf '%-42s %9.2f %8.2f\n' "$(label "$name")" "${seconds[$name.retractor]}" \
        "$(echo "${seconds[threads1.retractor]} / ${seconds[$name.retractor]}" | bc -l)"
done
echo "problems: $(grep -c '^Stipulation' "$work/janko.inp") janko.at records, $(grep -c '^Stipulation' "$work/open.inp") open positions;" \
    "sequences: $(grep -h 'moved last:' "$work"/threads1.*.out | awk '{ s += $4 } END { print s }'); outputs identical: $([[ $status == 0 ]] && echo yes || echo NO)"
exit $status
