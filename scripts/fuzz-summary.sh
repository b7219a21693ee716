#!/usr/bin/env bash
# Reads the output of one `go test -fuzz` run and prints one line about it:
#
#   fuzz-target PKG TARGET: fuzzed, 123456 execs (peak 20577/sec), 12 new interesting (total 40), baseline 28 inputs
#   fuzz-target PKG TARGET: baseline only (130/1272 inputs gathered), never fuzzed
#
# Usage: scripts/fuzz-summary.sh PKG TARGET LOGFILE
# The execs and interesting counts are those of go's last status line, the
# peak rate the highest of its per-interval rates (the last line's rate is
# often 0: the interval in which the run stopped); the baseline
# size is that of its "gathering baseline coverage: N/M completed" lines.
set -euo pipefail
pkg=$1 target=$2 log=$3
awk -v pkg="$pkg" -v target="$target" '
  /gathering baseline coverage:/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) baseline = $i
  }
  /now fuzzing/ { fuzzing = 1 }
  /^fuzz: elapsed: .*, execs: / {
    if (match($0, /execs: [0-9]+ \([0-9]+\/sec\)/)) {
      s = substr($0, RSTART + 7, RLENGTH - 7); split(s, a, " "); execs = a[1]; rate = a[2]
      gsub(/[(]|\/sec[)]/, "", rate)
      if (rate + 0 > peak) peak = rate + 0
    }
    if (match($0, /new interesting: [0-9]+ \(total: [0-9]+\)/)) {
      s = substr($0, RSTART + 17, RLENGTH - 17); split(s, b, " "); newint = b[1]; tot = b[3]; gsub(/\)/, "", tot)
    }
  }
  END {
    split(baseline, c, "/")
    if (fuzzing && execs != "") {
      printf "fuzz-target %s %s: fuzzed, %s execs (peak %d/sec), %s new interesting (total %s), baseline %s inputs\n", pkg, target, execs, peak, newint + 0, tot + 0, c[2]
    } else if (fuzzing) {
      printf "fuzz-target %s %s: fuzzed, no status line after the baseline (baseline %s inputs)\n", pkg, target, c[2]
    } else {
      printf "fuzz-target %s %s: baseline only (%s inputs gathered), never fuzzed\n", pkg, target, baseline == "" ? "0/?" : baseline
    }
  }' "$log"
