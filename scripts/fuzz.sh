#!/usr/bin/env bash
# Runs every native fuzz target of the module for FUZZTIME each (go test runs
# one fuzz target per invocation) and prints one summary line per target:
# whether it left the baseline-coverage phase and fuzzed, with its execs.
#
#   FUZZTIME=6s scripts/fuzz.sh            every target
#   FUZZ_TARGETS='FuzzParse FuzzLocate'     only these targets
#   FUZZ_REQUIRE_FUZZING=1                  fail when a target never fuzzed
#   FUZZ_LOG_DIR=dir                        keep each target's go test output
#
# Fails on the first target that finds a crash (go test exits non-zero and
# writes the input under the package's testdata/fuzz/). A run whose only
# complaint is "context deadline exceeded" at the end of FUZZTIME, with no
# input written, is the race of Go's fuzz coordinator at its deadline
# (go.dev/issue/75804, fixed in Go 1.27; scripts/fuzz-classify.sh tells it
# apart): that target is run once more, and if the second run ends the same
# way it is reported as "deadline race" and does not fail the run. A target that spent
# all its time gathering baseline coverage is reported as "baseline only":
# that run replayed seeds but did not fuzz.
set -euo pipefail
FUZZTIME=${FUZZTIME:-60s}
GO=${GO:-go}
log_dir=${FUZZ_LOG_DIR:-$(mktemp -d)}
[ -n "${FUZZ_LOG_DIR:-}" ] || trap 'rm -rf "$log_dir"' EXIT
mkdir -p "$log_dir"

summary=()
total=0
fuzzed=0
while read -r pkg; do
  for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $target "* ]]; then
      continue
    fi
    total=$((total + 1))
    short=${pkg#github.com/conform-suite/conform/}
    log="$log_dir/${short//\//_}_$target.log"
    echo "fuzz: $short $target ($FUZZTIME)"
    status=0
    $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tee "$log" || status=$?
    if [ "$status" != 0 ] && [ "$(scripts/fuzz-classify.sh "$log")" = deadline-flake ]; then
      echo "fuzz: $short $target: only \"context deadline exceeded\" at the deadline, no input written; running it once more"
      status=0
      $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tee "$log" || status=$?
      if [ "$status" != 0 ] && [ "$(scripts/fuzz-classify.sh "$log")" = deadline-flake ]; then
        status=0
        summary+=("fuzz-target $short $target: deadline race twice (go.dev/issue/75804), no input written")
      fi
    fi
    line=$(scripts/fuzz-summary.sh "$short" "$target" "$log")
    summary+=("$line")
    case $line in *": fuzzed,"*) fuzzed=$((fuzzed + 1)) ;; esac
    if [ "$status" != 0 ]; then
      printf '%s\n' "${summary[@]}"
      echo "fuzz: $short $target failed (exit $status)"
      exit "$status"
    fi
  done
done < <($GO list ./...)
if [ "$total" = 0 ]; then
  echo "fuzz: no fuzz targets found"
  exit 0
fi
echo
printf '%s\n' "${summary[@]}"
echo "fuzz: $fuzzed of $total targets fuzzed within $FUZZTIME"
if [ "$fuzzed" != "$total" ] && [ "${FUZZ_REQUIRE_FUZZING:-0}" = 1 ]; then
  echo "fuzz: FUZZ_REQUIRE_FUZZING=1 and $((total - fuzzed)) target(s) never left the baseline phase"
  exit 1
fi
