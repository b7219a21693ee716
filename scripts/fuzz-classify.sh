#!/usr/bin/env bash
# Reads the output of one failed `go test -fuzz` run and prints what the
# failure was:
#
#   finding          go wrote a failing input (or the target panicked or
#                    reported an error): a real result, never ignored
#   deadline-flake   the run's only complaint is "context deadline exceeded"
#                    as -fuzztime ran out, with no failing input written: the
#                    race of Go's fuzz coordinator at its deadline
#                    (go.dev/issue/75804, fixed in Go 1.27), not a result
#   other            anything else (a build error, a timeout): a failure
#
# Usage: scripts/fuzz-classify.sh LOGFILE
set -euo pipefail
awk '
  /Failing input written to/ { finding = 1 }
  /^panic: |^[[:space:]]+--- FAIL: |fuzz: minimizing/ { finding = 1 }
  /^--- FAIL: Fuzz/ { failed = 1; inblock = 1; next }
  inblock && /^(FAIL|exit status|ok )/ { inblock = 0 }
  inblock {
    line = $0; sub(/^[[:space:]]+/, "", line)
    if (line == "context deadline exceeded") deadline = 1
    else if (line != "") extra = 1
  }
  END {
    if (finding) print "finding"
    else if (failed && deadline && !extra) print "deadline-flake"
    else print "other"
  }' "$1"
