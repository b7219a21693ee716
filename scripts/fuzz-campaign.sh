#!/usr/bin/env bash
# Runs every native fuzz target for a set time and writes the results into
# docs/fuzzing.md, between the "fuzz-campaign" markers, as a generated
# table with the commit, the date, the time asked for each target and the
# time it ran (go's elapsed time on its last status line: a finding ends a
# target early).
#
#   CAMPAIGN_TIME=2m          time for each target
#   CAMPAIGN_LONG_TIME=10m    time for each target that reads untrusted text
#   CAMPAIGN_LOG_DIR=dir      keep each target's go test output (default: a temporary directory)
#   CAMPAIGN_DOC=file         the document to write (default docs/fuzzing.md)
#   CAMPAIGN_PARALLEL=n       fuzzing workers per target (go test -parallel; default: one per core)
#   CAMPAIGN_JOBS=n           targets run at the same time (default 1), each with CAMPAIGN_PARALLEL
#                             workers: CAMPAIGN_JOBS=2 CAMPAIGN_PARALLEL=1 on 2 cores halves the
#                             wall time; the table keeps the order of a run of one at a time
#
# A target that fails (a finding) does not stop the campaign: its row says
# so, go keeps the failing input under the package's testdata/fuzz/, and the
# script exits 1 at the end. Run it on a quiet machine: the rates depend on
# what else runs. Interrupted (INT, TERM, HUP), it stops the targets running
# (each job runs in a process group of its own, killed whole), writes no
# table and exits 130.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
CAMPAIGN_TIME=${CAMPAIGN_TIME:-2m}
CAMPAIGN_LONG_TIME=${CAMPAIGN_LONG_TIME:-10m}
doc=${CAMPAIGN_DOC:-docs/fuzzing.md}
jobs=${CAMPAIGN_JOBS:-1}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz-campaign: CAMPAIGN_JOBS=$jobs: want a whole number of targets at a time, 1 or more" >&2
  exit 2
fi
log_dir=${CAMPAIGN_LOG_DIR:-$(mktemp -d)}
parallel=${CAMPAIGN_PARALLEL:-$(nproc)}
mkdir -p "$log_dir"

# The targets that read untrusted text: link parse and collect, nav decode,
# marker strip, stream and locate, selref ingest, the protocol line reader
# and serve line.
long=" FuzzParse FuzzCollect FuzzNavDecode FuzzStrip FuzzStream FuzzLocate FuzzIngest FuzzLineReader FuzzServeLine "

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit+changes"; fi
date=$(date -u +%Y-%m-%d)

# The targets, in the order of go list ./... then go test -list: the order
# of the table's rows whatever the number of jobs.
pkgs=() targets=() times=()
while read -r pkg; do
  for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    [ -z "${FUZZ_TARGETS:-}" ] || [[ " $FUZZ_TARGETS " == *" $target "* ]] || continue
    t=$CAMPAIGN_TIME
    [[ $long != *" $target "* ]] || t=$CAMPAIGN_LONG_TIME
    pkgs+=("$pkg") targets+=("$target") times+=("$t")
  done
done < <($GO list ./...)

# run_target I runs the I-th target and leaves its exit status and its row,
# computed from its own log, in $state/I.status and $state/I.row.
run_target() {
  local i=$1 pkg=${pkgs[$1]} target=${targets[$1]} t=${times[$1]} short log status=0 row
  short=${pkg#github.com/conform-suite/conform/}
  log="$log_dir/${short//\//_}_$target.log"
  $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" -parallel "$parallel" "$pkg" </dev/null >"$log" 2>&1 || status=$?
  echo "$status" >"$state/$i.status"
  row=$(awk -v pkg="$short" -v target="$target" -v t="$t" -v status="$status" '
    /gathering baseline coverage:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, b, "/"); base = b[2] } }
    /now fuzzing/ { fuzzing = 1 }
    /^fuzz: elapsed: .*, execs: / {
      if (match($0, /execs: [0-9]+ \([0-9]+\/sec\)/)) {
        s = substr($0, RSTART + 7, RLENGTH - 7); split(s, a, " "); execs = a[1]; r = a[2]; gsub(/[(]|\/sec[)]/, "", r)
        if (r + 0 > peak) peak = r + 0
      }
      if (match($0, /new interesting: [0-9]+ \(total: [0-9]+\)/)) {
        s = substr($0, RSTART + 17, RLENGTH - 17); split(s, c, " "); ni = c[1]; tot = c[3]; gsub(/\)/, "", tot)
      }
      if (match($0, /elapsed: [0-9hms.]+/)) el = substr($0, RSTART + 9, RLENGTH - 9)
    }
    /Failing input written to/ { failing = $NF }
    END {
      finding = status == 0 ? "none" : (failing != "" ? "crash: " failing : "failed (exit " status ")")
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", target, pkg, t, el != "" ? el : "-", fuzzing ? "yes" : "no", execs + 0, peak + 0, tot + 0, ni + 0, finding
    }' "$log")
  echo "$row" >"$state/$i.row"
  echo "$row"
}

state=$(mktemp -d)
running=()
# stop kills every running job's process group (the job, its go test, the
# test binary and its fuzzing workers) and waits for them.
stop() {
  trap - INT TERM HUP
  echo "fuzz-campaign: interrupted; stopping ${#running[@]} running target(s), no table written" >&2
  for p in ${running[@]+"${running[@]}"}; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true; done
  wait || true
  rm -rf "$state"
  exit 130
}
trap stop INT TERM HUP
# Job control gives each job a process group of its own, for stop.
set -m
for i in "${!targets[@]}"; do
  while :; do
    alive=()
    for p in ${running[@]+"${running[@]}"}; do ! kill -0 "$p" 2>/dev/null || alive+=("$p"); done
    running=(${alive[@]+"${alive[@]}"})
    [ "${#running[@]}" -ge "$jobs" ] || break
    wait -n || true
  done
  echo "fuzz-campaign: ${pkgs[$i]#github.com/conform-suite/conform/} ${targets[$i]} (${times[$i]})"
  run_target "$i" &
  running+=("$!")
done
wait || true
set +m
trap - INT TERM HUP
running=()

rows=()
findings=0
for i in "${!targets[@]}"; do
  status=$(cat "$state/$i.status" 2>/dev/null || echo none)
  if [ -s "$state/$i.row" ]; then
    rows+=("$(cat "$state/$i.row")")
  else
    # The job ended without its row (it should not): say so in its row.
    rows+=("| ${targets[$i]} | ${pkgs[$i]#github.com/conform-suite/conform/} | ${times[$i]} | - | no | 0 | 0 | 0 | 0 | failed (no result, exit $status) |")
    [ "$status" != 0 ] || status="no row"
  fi
  [ "$status" = 0 ] || findings=$((findings + 1))
done
rm -rf "$state"

table=$(mktemp)
{
  echo "<!-- fuzz-campaign: begin. Generated by make fuzz-campaign (scripts/fuzz-campaign.sh); do not edit by hand. -->"
  echo
  echo "Commit $commit, run on $date with \`make fuzz-campaign CAMPAIGN_TIME=$CAMPAIGN_TIME CAMPAIGN_LONG_TIME=$CAMPAIGN_LONG_TIME CAMPAIGN_PARALLEL=$parallel CAMPAIGN_JOBS=$jobs\`:"
  echo "$CAMPAIGN_LONG_TIME for each target that reads untrusted text, $CAMPAIGN_TIME for the others, $parallel fuzzing $( [ "$parallel" = 1 ] && echo worker || echo workers) per target, $jobs $( [ "$jobs" = 1 ] && echo target || echo targets) at a time, on a machine with $(nproc) cores."
  echo "Time is the -fuzztime asked for; elapsed, execs and the corpus are go's last status line (elapsed: from the start of the baseline to the end of fuzzing, \"-\" when go printed none; corpus: seeds, cached inputs and new ones); the rate is the highest of its per-interval rates."
  echo
  echo "| target | package | time | elapsed | fuzzed | execs | peak execs/s | corpus | new interesting | finding |"
  echo "|---|---|---|---|---|---:|---:|---:|---:|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "<!-- fuzz-campaign: end -->"
} >"$table"

if grep -q '<!-- fuzz-campaign: begin' "$doc"; then
  awk -v table="$table" '
    /<!-- fuzz-campaign: begin/ { while ((getline l < table) > 0) print l; skip = 1; next }
    /<!-- fuzz-campaign: end -->/ { skip = 0; next }
    !skip { print }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
else
  { echo; echo "## Campaign"; echo; cat "$table"; } >>"$doc"
fi
rm -f "$table"
echo "fuzz-campaign: table written to $doc; $findings target(s) with a finding"
[ "$findings" = 0 ]
