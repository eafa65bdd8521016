# Shared by the cluster tests: writes a job file and the single-process expected outputs.
# write_job FILE OUTDIR SRCDIR ITEM_SECONDS THREADS
write_job() {
  cat > "$1" <<JOB
{
  "kind": "perft",
  "depth": 4,
  "limits": { "item_seconds": $4, "items_per_rank": 8, "threads": $5 },
  "problems": [
    "$3/data/examples/*.inp",
    { "files": "$3/cluster/tests/data/kiwipete.inp", "depth": 5 },
    { "files": "$3/cluster/tests/data/initial_circe.inp", "depth": 6 }
  ],
  "output_dir": "$2/out",
  "journal": "$2/out/journal.jsonl"
}
JOB
}

# expect REBIRTH SRCDIR DIR: `rebirth perft --divide` of each problem of the job into DIR.
expect() {
  mkdir -p "$3"
  local f
  for f in "$2"/data/examples/*.inp; do
    "$1" perft "$f" --depth 4 --divide > "$3/$(basename "${f%.inp}").perft"
  done
  "$1" perft "$2/cluster/tests/data/kiwipete.inp" --depth 5 --divide > "$3/kiwipete.perft"
  "$1" perft "$2/cluster/tests/data/initial_circe.inp" --depth 6 --divide > "$3/initial_circe.perft"
}

# same DIR_EXPECTED DIR_OUT: every expected file is byte-identical in DIR_OUT.
same() {
  local f status=0
  for f in "$1"/*.perft; do
    if ! cmp "$f" "$2/$(basename "$f")"; then status=1; fi
  done
  return $status
}
